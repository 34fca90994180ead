#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The scheduler's benchmark (Documentation/scheduler.md).

Two server gleamd, one per GPU (CUDA_VISIBLE_DEVICES), each behind a linkem
link of its own: S1 1 Gbit/s 0.5 ms, S2 300 Mbit/s 3 ms.  One client gleamd
knows both.  Eight programs run at once, each a queue of jobs from a mix of
gleam-bench's workloads (launch-heavy, wait-rtt, htod, a model's weights
loaded, matmul), under --placement auto, round-robin and random in turn.
Each policy gets fresh daemons (empty chunk stores) and the same warm-up:
every workload once, one after another, which is what auto learns from.
Reported per policy: throughput (jobs per second over the run), makespan
(first job started to last ended), where the jobs went; and auto's
throughput over round-robin's.  JSON to $BUILD/bench/sched.json, a table on
stdout.

Without a GPU (or with GLEAM_BACKEND=sim) it runs on the sim backend with
small jobs, which proves the plumbing and nothing about GPUs.

Options: --slots N (programs at once, 8), --jobs N (jobs per program),
--policies a,b,c.  Environment: GLEAM_BENCH_GLEAMD_ARGS, options for every
gleamd it starts (as tools/bench.py takes them); GLEAM_KEEP=1 keeps the logs.
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from benchlib import BIN, BUILD, GLEAMD_ARGS, Procs, wait

LINKS = [("S1", "1gbit", "500us"), ("S2", "300mbit", "3ms")]
STARTED = "the daemons did not start in time"


def have_gpus():
    """The GPUs nvidia-smi lists; 0 under GLEAM_BACKEND=sim or without one."""
    if os.environ.get("GLEAM_BACKEND") == "sim":
        return 0
    try:
        r = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True)
    except OSError:
        return 0
    return len([l for l in r.stdout.splitlines() if l.startswith("GPU ")]) if r.returncode == 0 else 0


def mix(gpu):
    """(name, gleam-bench arguments): each a program of its own name, so that
    the scheduler learns each apart.  The model load uses one seed: the same
    weights each time, as a service that loads one model over and over."""
    if gpu:
        return [
            ("launch-heavy", ["launch-heavy", "20000"]),
            ("wait-rtt", ["wait-rtt", "2000"]),
            ("htod", ["htod", str(256 << 20)]),
            ("load", ["load", "512", "64", "1"]),
            ("matmul", ["matmul", "2048"]),
        ]
    return [
        ("launch-heavy", ["launch-heavy", "2000"]),
        ("wait-rtt", ["wait-rtt", "200"]),
        ("htod", ["htod", str(16 << 20)]),
        ("load", ["load", "16", "8", "1"]),
        ("matmul", ["matmul", "128"]),
    ]


class Rig(Procs):
    """Two servers behind their links and a client gleamd, for one policy."""

    def __init__(self, tmp, backend, policy, base):
        Procs.__init__(self, tmp)
        self.sock = os.path.join(tmp, "client-%s.sock" % policy)
        env = dict(os.environ)
        env.pop("LD_LIBRARY_PATH", None)
        targets = []
        for i, (name, rate, delay) in enumerate(LINKS):
            port, lport = base + 2 * i, base + 2 * i + 1
            senv = dict(env)
            if backend == "cuda":
                senv["CUDA_VISIBLE_DEVICES"] = str(i)
            self.spawn([os.path.join(BIN, "gleamd"), "server", "--listen", "127.0.0.1:%d" % port,
                        "--backend", backend] + GLEAMD_ARGS, "server-%s-%s.log" % (policy, name), senv)
            wait(lambda: subprocess.run([os.path.join(BIN, "gleamctl"), "server-info",
                                         "127.0.0.1:%d" % port],
                                        capture_output=True).returncode == 0, STARTED)
            self.spawn([os.path.join(BIN, "linkem"), "--listen", "127.0.0.1:%d" % lport,
                        "--connect", "127.0.0.1:%d" % port, "--rate", rate, "--delay", delay],
                       "linkem-%s-%s.log" % (policy, name), env)
            targets.append("127.0.0.1:%d" % lport)
        self.names = dict(zip(targets, [n for n, _, _ in LINKS]))
        argv = [os.path.join(BIN, "gleamd"), "client", "--socket", self.sock, "--placement", policy,
                "--state-dir", os.path.join(tmp, "state-%s" % policy)]
        for t in targets:
            argv += ["--server", t]
        argv += GLEAMD_ARGS
        self.spawn(argv, "client-%s.log" % policy, env)
        self.env = dict(env, GLEAM_SOCKET=self.sock)
        wait(lambda: self.stats() is not None and
             all(s["state"] == "up" and s["info_age_s"] >= 0 for s in self.stats()["servers"]),
             STARTED)

    def stats(self):
        r = subprocess.run([os.path.join(BIN, "gleamctl"), "stats", "--json"], env=self.env,
                           capture_output=True, text=True)
        try:
            return json.loads(r.stdout) if r.returncode == 0 else None
        except ValueError:
            return None

    def stop(self):
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)


def job(progdir, env, name, args, timeout):
    """One gleam-bench run as program gb-NAME; (seconds, ok)."""
    t0 = time.time()
    try:
        r = subprocess.run([os.path.join(progdir, "gb-" + name)] + args, env=env,
                           capture_output=True, timeout=timeout)
        ok = r.returncode == 0
    except subprocess.TimeoutExpired:
        ok = False
    return time.time() - t0, ok


def run_policy(policy, backend, tmp, progdir, work, slots, jobs, base, timeout):
    rig = Rig(tmp, backend, policy, base)
    env = dict(rig.env, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
               GLEAM_TEST_KERNELS=os.path.join(BUILD, "tests", "kernels"))
    failures = []
    try:
        # The warm-up: what auto learns from; the same for every policy.
        for name, args in work:
            _, ok = job(progdir, env, name, args, timeout)
            if not ok:
                failures.append("warm-up " + name)
        done = []
        lock = threading.Lock()

        def slot(k):
            for j in range(jobs):
                name, args = work[(k + j) % len(work)]
                t0 = time.time()
                secs, ok = job(progdir, env, name, args, timeout)
                with lock:
                    done.append({"slot": k, "workload": name, "start": t0, "seconds": secs,
                                 "ok": ok})
        start = time.time()
        threads = [threading.Thread(target=slot, args=(k,)) for k in range(slots)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        makespan = time.time() - start
        st = rig.stats() or {"sessions": [], "servers": []}
    finally:
        rig.stop()
    # Where each job went: the sessions the client placed, newest first.
    placed = [s for s in st["sessions"] if s["program"].startswith("gb-")]
    where = {}
    for s in placed[:slots * jobs]:
        key = "%s:%s" % (rig.names.get(s["server"], "?"), s["gpu"])
        where.setdefault(key, {})
        w = s["program"][3:]
        where[key][w] = where[key].get(w, 0) + 1
    ok = [d for d in done if d["ok"]]
    failures += ["%s (slot %d)" % (d["workload"], d["slot"]) for d in done if not d["ok"]]
    per = {}
    for d in ok:
        per.setdefault(d["workload"], []).append(d["seconds"])
    return {
        "policy": policy,
        "jobs": len(done),
        "jobs_ok": len(ok),
        "makespan_s": makespan,
        "throughput_jobs_per_s": len(ok) / makespan if makespan > 0 else 0.0,
        "mean_job_s": {w: sum(v) / len(v) for w, v in per.items()},
        "placement": where,
        "links": [{"server": rig.names.get(s["address"], "?"), "rtt_ms": s["link"]["rtt_ms"],
                   "rate_mbit": s["link"]["rate_mbit"], "rate_src": s["link"]["rate_src"]}
                  for s in st["servers"]],
        "failures": failures,
    }


def write(path, backend, ngpus, a, jobs, work, results):
    by = {r["policy"]: r for r in results}
    ratio = None
    if "auto" in by and "round-robin" in by and by["round-robin"]["throughput_jobs_per_s"]:
        ratio = by["auto"]["throughput_jobs_per_s"] / by["round-robin"]["throughput_jobs_per_s"]
    out = {
        "backend": backend,
        "gpus": ngpus,
        "links": [{"server": n, "rate": r, "delay": d} for n, r, d in LINKS],
        "slots": a.slots,
        "jobs_per_slot": jobs,
        "mix": [{"workload": n, "args": args} for n, args in work],
        "results": results,
        "auto_over_round_robin": ratio,
    }
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--slots", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=0, help="jobs per program (default: 5 on GPUs, 2 on the sim)")
    ap.add_argument("--policies", default="auto,round-robin,random")
    a = ap.parse_args()
    ngpus = have_gpus()
    gpu = ngpus >= 2
    backend = "cuda" if gpu else "sim"
    if ngpus == 1:
        print("sched-bench: one GPU only: running on the sim", file=sys.stderr)
    jobs = a.jobs or (5 if gpu else 2)
    work = mix(gpu)
    tmp = tempfile.mkdtemp(prefix="gleam-sched-bench.")
    progdir = os.path.join(tmp, "bin")
    os.makedirs(progdir)
    # One program name per workload: what the scheduler learns is per name.
    for name, _ in work:
        os.symlink(os.path.join(BIN, "gleam-bench"), os.path.join(progdir, "gb-" + name))
    base = 22000 + os.getpid() % 20000
    results = []
    path = os.path.join(BUILD, "bench", "sched.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        for i, policy in enumerate(a.policies.split(",")):
            results.append(run_policy(policy, backend, tmp, progdir, work, a.slots, jobs,
                                      base + 10 * i, 600 if gpu else 120))
            r = results[-1]
            print("sched-bench: %s: %d/%d jobs in %.1f s" %
                  (policy, r["jobs_ok"], r["jobs"], r["makespan_s"]), file=sys.stderr, flush=True)
            # Written after each policy, so that a run cut short keeps what it measured.
            write(path, backend, ngpus, a, jobs, work, results)
    finally:
        if not os.environ.get("GLEAM_KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print("logs in %s" % tmp, file=sys.stderr)
    out = write(path, backend, ngpus, a, jobs, work, results)
    ratio = out["auto_over_round_robin"]
    print("scheduler benchmark (%s%s): %d programs at once, %d jobs each; S1 %s %s, S2 %s %s" %
          (backend, "" if gpu else "; sim numbers say nothing about GPUs", a.slots, jobs,
           LINKS[0][1], LINKS[0][2], LINKS[1][1], LINKS[1][2]))
    print("%-12s %6s %11s %12s  %s" % ("placement", "jobs", "makespan s", "jobs/s", "where"))
    for r in results:
        where = "; ".join("%s %d" % (k, sum(v.values())) for k, v in sorted(r["placement"].items()))
        print("%-12s %3d/%-3d %10.2f %12.3f  %s" % (r["policy"], r["jobs_ok"], r["jobs"],
                                                  r["makespan_s"], r["throughput_jobs_per_s"], where))
    if ratio is not None:
        print("auto / round-robin throughput: %.2fx" % ratio)
    print("JSON: %s" % path)
    failures = [f for r in results for f in r["failures"]]
    if failures:
        print("failed jobs: %s" % ", ".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
