#!/usr/bin/env python3
"""make bench-tls (and make bench): what TLS costs (Documentation/security.md).

Two server gleamd, one plain and one with credentials (mutual TLS 1.3), and
for each link profile a client gleamd of each kind through its own linkem
(the same rate and delay), so that the rows differ by TLS alone.  Copies
(htod, dtoh) run at 10 Gbit/s and 0.1 ms, launch-heavy at 1 Gbit/s and
0.5 ms, and each at loopback too; plain and TLS take turns, GLEAM_BENCH_TLS_RUNS
times each (default 5), and the median counts.  The targets: a copy keeps at
least 90% of its plain rate, launch-heavy stays within 5% of its plain time.

Clients never name uploads here (--cache off): what is measured is the link.
Environment: GLEAM_BENCH_GLEAMD_ARGS as for bench.py, GLEAM_BENCH_TLS_RUNS,
GLEAM_BENCH_TLS_PROFILES (comma-separated: loopback, 10gbit-0.1ms,
1gbit-0.5ms).  Writes build/bench/tls.json and prints a table.
"""
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402

BIN, BUILD = bench.BIN, bench.BUILD

# profile, rate (bits/s; None: loopback), one-way delay (s), workloads
PLAN = [
    ("10gbit-0.1ms", 10e9, 0.00005, ("htod", "dtoh")),
    ("1gbit-0.5ms", 1e9, 0.00025, ("launch-heavy",)),
    ("loopback", None, 0.0, ("htod", "dtoh", "launch-heavy")),
]


def argv_of(w, gpu):
    big = 256 << 20 if gpu else 64 << 20
    return {"htod": ["htod", str(big)], "dtoh": ["dtoh", str(big)],
            "launch-heavy": ["launch-heavy", "10000"]}[w]


class Servers(bench.Daemons):
    """bench.py's daemons, twice: a plain server and one with credentials."""

    def __init__(self, tmp, backend):
        self.ca = os.path.join(tmp, "ca")
        subprocess.run([os.path.join(BIN, "gleamctl"), "tls", "init", self.ca], check=True,
                       capture_output=True)
        subprocess.run([os.path.join(BIN, "gleamctl"), "tls", "issue", self.ca, "127.0.0.1",
                        "bench"], check=True, capture_output=True)
        super().__init__(tmp, backend)
        self.tls_port = self.port + 50
        self.spawn([os.path.join(BIN, "gleamd"), "server", "--listen",
                    "127.0.0.1:%d" % self.tls_port, "--backend", backend, "--tls-cert",
                    os.path.join(self.ca, "127.0.0.1.pem")] + bench.GLEAMD_ARGS, "server-tls.log")
        ctl = [os.path.join(BIN, "gleamctl"), "--tls-cert", os.path.join(self.ca, "bench.pem"),
               "server-info", "127.0.0.1:%d" % self.tls_port]
        bench.wait(lambda: subprocess.run(ctl, capture_output=True).returncode == 0,
                   bench.STARTED)

    def client(self, name, rate, delay, tls):
        """A client gleamd of this kind through a linkem of its own (unless loopback)."""
        extra = ["--tls-cert", os.path.join(self.ca, "bench.pem")] if tls else []
        return self.client_via(name, "127.0.0.1:%d" % (self.tls_port if tls else self.port),
                               rate, delay, self.port + 100 + len(self.procs),
                               ["--cache", "off", "--state-dir", ""] + extra)


TICK = os.sysconf("SC_CLK_TCK")


def cpu_ticks():
    """Processor ticks (user and system) of every gleamd, worker, linkem and
    gleam-bench on the machine, by pid: (role, ticks)."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            with open("/proc/%s/stat" % pid) as f:
                st = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        prog = os.path.basename(argv[0].decode(errors="replace"))
        if prog not in ("gleamd", "linkem", "gleam-bench"):
            continue
        role = prog
        if prog == "gleamd" and len(argv) > 1:
            role = "gleamd " + argv[1].decode(errors="replace")
        out[pid] = (role, int(st[11]) + int(st[12]))
    return out


def busiest(before, after, seconds):
    """Each role's busiest process over a run: cores it kept busy."""
    roles = {}
    for pid, (role, t) in after.items():
        t0 = before.get(pid, (role, 0))[1]
        roles[role] = max(roles.get(role, 0.0), (t - t0) / TICK / max(seconds, 1e-9))
    return {r: round(c, 2) for r, c in sorted(roles.items()) if c >= 0.01}


def one(argv, sock, base_env):
    env = dict(base_env, GLEAM_SOCKET=sock, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
               GLEAM_ASYNC="1")
    # Processes that end with the run (the program, its worker) are seen
    # last by a sampler every 50 ms.
    before, seen, done = cpu_ticks(), {}, threading.Event()

    def sample():
        while not done.wait(0.05):
            seen.update(cpu_ticks())
    th = threading.Thread(target=sample)
    th.start()
    try:
        rep, wall = bench.run(argv, env)
    finally:
        done.set()
        th.join()
    seen.update(cpu_ticks())
    cores = busiest(before, seen, wall)
    return rep["seconds"] if rep else wall, (rep or {}).get("bytes", 0), cores


def main():
    gpu = bench.have_gpu()
    backend = "cuda" if gpu else "sim"
    runs = int(os.environ.get("GLEAM_BENCH_TLS_RUNS", "5"))
    want = os.environ.get("GLEAM_BENCH_TLS_PROFILES")
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="gleam-tls-bench.")
    os.chmod(tmp, 0o700)
    base_env = dict(os.environ, GLEAM_TEST_KERNELS=os.path.join(BUILD, "tests", "kernels"))
    base_env.pop("LD_LIBRARY_PATH", None)
    rows = []
    d = Servers(tmp, backend)
    try:
        for name, rate, delay, works in PLAN:
            if want and name not in want.split(","):
                continue
            plain, pprocs = d.client(name + "-plain", rate, delay, False)
            tls, tprocs = d.client(name + "-tls", rate, delay, True)
            for w in works:
                argv = [os.path.join(BIN, "gleam-bench")] + argv_of(w, gpu)
                times = {False: [], True: []}
                cores = {False: {}, True: {}}
                nbytes = 0
                # A warm-up each, then turns, so that drift hits both alike.
                one(argv, plain, base_env)
                one(argv, tls, base_env)
                for _ in range(runs):
                    for t in (False, True):
                        s, nbytes, c = one(argv, tls if t else plain, base_env)
                        times[t].append(s)
                        for role, v in c.items():
                            cores[t][role] = max(cores[t].get(role, 0.0), v)
                p, q = statistics.median(times[False]), statistics.median(times[True])
                copy = w in ("htod", "dtoh")
                ratio = p / q if copy else q / p
                target = ratio >= 0.90 if copy else ratio <= 1.05
                rows.append(dict(workload=w, link=name, plain_s=p, tls_s=q, runs=runs,
                                 bytes=nbytes, plain_all=times[False], tls_all=times[True],
                                 rate_plain=nbytes / p if copy and p else None,
                                 rate_tls=nbytes / q if copy and q else None,
                                 ratio=ratio, target=("rate >= 90%" if copy else "time <= 105%"),
                                 met=target, cores_plain=cores[False], cores_tls=cores[True]))
                print("%-13s %-13s plain %9.4f s  TLS %9.4f s  %s %5.1f%%  %s" %
                      (name, w, p, q, "rate kept" if copy else "time", 100 * ratio,
                       "ok" if target else "MISSED"), flush=True)
                for t in (False, True):
                    print("    busiest process of each kind, cores (%s): %s" %
                          ("TLS" if t else "plain",
                           ", ".join("%s %.2f" % kv for kv in cores[t].items())), flush=True)
            d.stop(pprocs + tprocs)
    finally:
        d.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    out = os.path.join(BUILD, "bench", "tls.json")
    with open(out, "w") as f:
        json.dump(dict(backend=backend, runs=runs, rows=rows), f, indent=1)
    print("\nTLS against plain TCP (median of %d runs each; backend %s%s)" %
          (runs, backend, "" if gpu else ": sim numbers say nothing about GPUs"))
    print("| link | workload | plain | TLS | | target |")
    print("| --- | --- | --- | --- | --- | --- |")
    for r in rows:
        if r["rate_plain"]:
            print("| %s | %s | %.0f MB/s | %.0f MB/s | %.1f%% of the rate | >= 90%%: %s |" %
                  (r["link"], r["workload"], r["rate_plain"] / 1e6, r["rate_tls"] / 1e6,
                   100 * r["ratio"], "met" if r["met"] else "MISSED"))
        else:
            print("| %s | %s | %.4f s | %.4f s | %.1f%% of the time | <= 105%%: %s |" %
                  (r["link"], r["workload"], r["plain_s"], r["tls_s"], 100 * r["ratio"],
                   "met" if r["met"] else "MISSED"))
    print("\nresults: %s" % out)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(1))
    sys.exit(main())
