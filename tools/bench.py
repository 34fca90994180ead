#!/usr/bin/env python3
"""make bench: Gleam against running locally and against its own synchronous mode.

For each link profile (loopback, and linkem-emulated 10 Gbit/s 0.1 ms, 1 Gbit/s
0.5 ms, 300 Mbit/s 3 ms, 100 Mbit/s 5 ms) a client gleamd reaches the server gleamd through the
link, and every workload runs in each mode: directly on the GPU (where there is
one), through Gleam with every call waiting (GLEAM_ASYNC=0), and through Gleam.
Each result gets T_floor = G + B/W + S*R (Documentation/benchmarks.md): G the
workload's time run directly on the GPU, B the bytes its calls must carry, W
the link's rate, S the points where the program itself must wait, R the
link's round trip.  S is never what Gleam happened to do: for the C workloads
the program states it; for the others it is what the shim counts from the
program's calls by CUDA's rules (waits_required: synchronisations with work
to wait for, copies to pageable host memory, questions only the GPU
answers), beside the waits Gleam made (waits_made).  Copy rows carry the
rate of one plain TCP stream through the same link, measured in the same
run (link_gbytes_per_s).  load:bf16-weights loads bf16 weights packed
(gleam-cold) and with GLEAM_COMPRESS=0 (gleam-nocompress) at every link.

The PyTorch workloads (tests/gpu/torch/models.py: torch:resnet50-b1,
torch:resnet50, torch:bert, torch:gpt2, torch:gpt2-generate, torch:mlp-train
by default) run as whole processes in the same modes on a GPU machine whose
Python has torch, and are skipped with a note elsewhere.  Their rows are the
steady state, per inference (for gpt2-generate, per generation of 32
tokens): G is the direct run's, B the bytes and S the required waits of the
Gleam run's own session during its steady state, per inference.  Every row
reads the counters of its own session, found by the program's pid.

Environment: GLEAM_BENCH_GLEAMD_ARGS (options for every gleamd it starts,
such as --ring-shift 25), GLEAM_BENCH_PROFILES (link profiles, comma-separated),
GLEAM_BENCH_WORKLOADS (workloads, comma-separated shell patterns such as
"prog:*,torch:*"; torch:gpt2 and torch:mlp-train run only when named),
GLEAM_BENCH_PYTHON (the Python that runs the PyTorch workloads; default this
one), GLEAM_BENCH_TORCH_BUDGET (seconds of steady state per run; default 3),
GLEAM_BENCH_TORCH_TIMEOUT (seconds per PyTorch run; default 120),
GLEAM_BENCH_TORCH_SYNC_LIMIT (seconds: a synchronous PyTorch run whose records
times the link's round trip would exceed this is skipped; default 20),
GLEAM_BENCH_BF16_RUNS (turns each bf16 mode takes per link; default 3, the
median run is the row).

Writes build/bench/results.json and prints a table.  Only the Python standard
library is used.
"""
import fnmatch
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from benchlib import (BIN, BUILD, GLEAMD_ARGS, ROOT, Procs, loopback_server, sink_server,
                      stream_rate, wait)

# name, rate (bits/s, None: loopback), one-way delay (seconds)
PROFILES = [
    ("loopback", None, 0.0),
    ("10gbit-0.1ms", 10e9, 0.00005),
    ("1gbit-0.5ms", 1e9, 0.00025),
    ("300mbit-3ms", 300e6, 0.0015),
    ("100mbit-5ms", 100e6, 0.0025),
]

# Packed uploads (Documentation/design.md, "Compression"): a model's bf16
# weights (gleam-bench load-bf16), new bytes on every run, through a client
# gleamd that names uploads and packs them (gleam-cold) and one started
# with GLEAM_COMPRESS=0 (gleam-nocompress), at every link profile.
BF16 = ("load:bf16-weights", 256)


def have_gpu():
    if os.environ.get("GLEAM_BACKEND") == "sim":
        return False
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except OSError:
        return False


def workloads(gpu):
    big = 256 << 20 if gpu else 64 << 20
    return [
        ("launch-cost", ["launch-cost", "2000"]),
        ("sync-rtt", ["sync-rtt", "500"]),
        ("wait-rtt", ["wait-rtt", "500"]),
        ("htod", ["htod", str(big)]),
        ("dtoh", ["dtoh", str(big)]),
        ("htod-pageable", ["htod", str(big), "pageable"]),
        ("dtoh-pageable", ["dtoh", str(big), "pageable"]),
        ("launch-heavy", ["launch-heavy", "10000"]),
        ("matmul", ["matmul", "2048" if gpu else "256"]),
    ]


PROGRAMS = [("prog:matmul", "matmul"), ("prog:vecadd", "vecadd"), ("prog:streams", "streams")]

# Model loads (uploads by content, Documentation/cache.md): the sizes of
# GPT-2 small's and ResNet-50's weights in as many copies as PyTorch's
# model.to("cuda") makes, each waited for.  Through a client gleamd that
# names uploads: cold (bytes no run sent before), warm (the same bytes again,
# by a new process), and through one that does not (the link alone).
LOAD = [("load:gpt2-size", 498, 148), ("load:resnet50-size", 98, 320)]
LOAD_LINKS = ("loopback", "10gbit-0.1ms", "1gbit-0.5ms")

# PyTorch workloads: row name, models.py workload, steady-state iterations at
# most (GLEAM_BENCH_TORCH_BUDGET seconds stops them sooner).  Those marked
# False run only when GLEAM_BENCH_WORKLOADS names them.
MODELS_PY = os.path.join(ROOT, "tests", "gpu", "torch", "models.py")
TORCH = [("torch:resnet50-b1", "resnet50-b1", 60, True),
         ("torch:resnet50", "resnet50", 30, True),
         ("torch:bert", "bert", 30, True),
         ("torch:gpt2", "gpt2", 30, True),
         ("torch:gpt2-generate", "gpt2-generate", 5, True),
         ("torch:mlp-train", "mlp-train", 30, True),
         ("torch:cuda-graph", "cuda-graph", 30, False)]
# PyTorch's own model.to("cuda") of the real models (random weights, no
# downloads), timed by models.py --load-only: row name, models.py workload.
TORCH_LOAD = [("load:torch-gpt2", "gpt2"), ("load:torch-resnet50", "resnet50")]


def wanted(name, default=True):
    """Whether GLEAM_BENCH_WORKLOADS selects this workload."""
    want = os.environ.get("GLEAM_BENCH_WORKLOADS")
    if not want:
        return default
    return any(fnmatch.fnmatchcase(name, p.strip()) for p in want.split(",") if p.strip())


def torch_python(gpu, notes):
    """The Python for the PyTorch rows, or None (with a note) where they cannot run."""
    if not any(wanted(w, d) for w, _, _, d in TORCH) and not any(wanted(w) for w, _ in TORCH_LOAD):
        return None
    py = os.environ.get("GLEAM_BENCH_PYTHON") or sys.executable or "python3"
    if not gpu:
        notes.append("PyTorch rows skipped: no GPU (the sim backend cannot run PyTorch's kernels)")
        return None
    try:
        r = subprocess.run([py, "-c", "import torch, numpy; print(torch.__version__)"],
                           capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        notes.append("PyTorch rows skipped: %s did not run: %s" % (py, e))
        return None
    if r.returncode:
        err = r.stderr.decode(errors="replace").strip().splitlines()
        notes.append("PyTorch rows skipped: %s cannot import torch and numpy (%s)" %
                     (py, err[-1] if err else "exit %d" % r.returncode))
        return None
    print("PyTorch %s (%s)" % (r.stdout.decode().strip(), py), flush=True)
    return py


def torch_run(py, workload, iters, tmp, env, extra=()):
    """One whole-process run of models.py: (its JSON report, wall seconds), or
    (None, why) when it failed."""
    budget = os.environ.get("GLEAM_BENCH_TORCH_BUDGET", "3")
    argv = [py, MODELS_PY, workload, os.path.join(tmp, "torch-%s.npz" % workload),
            "--iters", str(iters), "--budget", budget] + list(extra)
    timeout = float(os.environ.get("GLEAM_BENCH_TORCH_TIMEOUT", "120"))
    t0 = time.time()
    try:
        r = subprocess.run(argv, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "killed after %.0f s" % timeout
    wall = time.time() - t0
    err = r.stderr.decode(errors="replace").strip().splitlines()
    if r.returncode:
        return None, "exit %d: %s" % (r.returncode, err[-1] if err else "")
    rep = None
    for line in r.stdout.decode().strip().splitlines():
        if line.startswith("{"):
            rep = json.loads(line)
    if rep is None:
        return None, "no report printed"
    return rep, wall


STARTED = "a daemon did not start in time"


class Daemons(Procs):
    def __init__(self, tmp, backend):
        Procs.__init__(self, tmp)
        self.port = 21000 + os.getpid() % 20000
        env = dict(os.environ)
        env.pop("LD_LIBRARY_PATH", None)
        self.env = env
        self.spawn([os.path.join(BIN, "gleamd"), "server", "--listen",
                    "127.0.0.1:%d" % self.port, "--backend", backend] + GLEAMD_ARGS,
                   "server.log")
        wait(lambda: subprocess.run([os.path.join(BIN, "gleamctl"), "server-info",
                                     "127.0.0.1:%d" % self.port],
                                    capture_output=True).stdout.find(b"unreachable") < 0,
             STARTED)

    def spawn(self, argv, log):
        return Procs.spawn(self, argv, log, self.env)

    def client_via(self, name, target, rate, delay, lport, args, env=None):
        """A client gleamd of target's with these options, through a linkem
        on lport at this rate and delay unless rate is 0 (loopback): its
        socket, and the processes to stop; env: more of its environment."""
        procs = []
        if rate:
            procs.append(self.spawn([os.path.join(BIN, "linkem"), "--listen",
                                     "127.0.0.1:%d" % lport, "--connect", target,
                                     "--rate", "%dbit" % int(rate), "--delay",
                                     "%dus" % int(delay * 1e6)], "linkem-%s.log" % name))
            target = "127.0.0.1:%d" % lport
        sock = os.path.join(self.tmp, "gleamd-%s.sock" % name)
        argv = [os.path.join(BIN, "gleamd"), "client", "--server", target,
                "--socket", sock] + args + GLEAMD_ARGS
        if env:
            procs.append(Procs.spawn(self, argv, "client-%s.log" % name, dict(self.env, **env)))
        else:
            procs.append(self.spawn(argv, "client-%s.log" % name))
        env = dict(os.environ, GLEAM_SOCKET=sock)
        wait(lambda: subprocess.run([os.path.join(BIN, "gleamctl"), "status"],
                                    env=env, capture_output=True).returncode == 0, STARTED)
        return sock, procs

    def link(self, name, rate, delay, cache=False, env=None):
        """A client gleamd for this profile, through linkem unless loopback.
        Without cache it never names uploads: the rows that measure the link
        go through it, so that what they send is what the link carries.
        With it, every upload is named (GLEAM_CACHE_NAME=always unless the
        environment says otherwise): the cold and warm rows measure naming
        at every link, where the default (auto) would send copies on a link
        faster than hashing as they are."""
        if cache and "GLEAM_CACHE_NAME" not in os.environ:
            env = dict(env or {}, GLEAM_CACHE_NAME="always")
        return self.client_via(name, "127.0.0.1:%d" % self.port, rate, delay,
                               self.port + 1 + len(self.procs),
                               ["--cache", "on" if cache else "off"], env)

    def stop(self, procs=None):
        for p in procs if procs is not None else self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except OSError:
                pass
            p.wait()


def echo_server():
    """A TCP echo server on loopback, in a thread; returns its port."""
    import socket

    def serve(c):
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while True:
            b = c.recv(4096)
            if not b:
                return
            c.sendall(b)

    return loopback_server(serve)


def can_connect(port):
    import socket
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def measure_rtt(port, n=300):
    """Median round trip of 64 bytes through what listens on port."""
    import socket
    c = socket.create_connection(("127.0.0.1", port))
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        c.sendall(b"x" * 64)
        got = 0
        while got < 64:
            got += len(c.recv(64 - got))
        times.append(time.perf_counter() - t0)
    c.close()
    times.sort()
    return times[len(times) // 2]


def run(argv, env, timeout=600):
    """A whole run of a program: (its JSON report or None, wall seconds);
    the report gets the program's pid, to find its own session by."""
    t0 = time.time()
    p = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise
    wall = time.time() - t0
    if p.returncode:
        raise RuntimeError("%s failed: %s" % (" ".join(argv), err.decode()[-300:]))
    rep = None
    for line in out.decode().strip().splitlines():
        if line.startswith("{"):
            rep = json.loads(line)
    if rep is not None:
        rep.setdefault("pid", p.pid)
    else:
        rep = None
    return rep, wall


def session_of(sock, pid):
    """The ended session of process pid on this client gleamd (each row reads
    its own counters, never another run's)."""
    env = dict(os.environ, GLEAM_SOCKET=sock)
    # Over a slow link the session ends a moment after its program: its
    # last bytes and its goodbye are still on the way.
    for _ in range(50):
        r = subprocess.run([os.path.join(BIN, "gleamctl"), "status", "--json"], env=env,
                           capture_output=True)
        try:
            ended = json.loads(r.stdout)["client"]["ended"]
        except (ValueError, KeyError):
            return None
        for e in reversed(ended):
            if pid is not None and e.get("pid") == pid:
                return e
        if pid is None:
            return None
        time.sleep(0.1)
    return None


def main():
    gpu = have_gpu()
    backend = "cuda" if gpu else "sim"
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="gleam-bench.")
    kernels = os.path.join(BUILD, "tests", "kernels")
    base_env = dict(os.environ, GLEAM_TEST_KERNELS=kernels)
    base_env.pop("LD_LIBRARY_PATH", None)
    results = []
    failures = []
    notes = []
    rtts = {}
    streams = {}
    py = torch_python(gpu, notes)
    torch_items = [(w, m, n) for w, m, n, dflt in TORCH if py and wanted(w, dflt)]
    torch_loads = [(w, m) for w, m in TORCH_LOAD if py and wanted(w)]
    d = Daemons(tmp, backend)
    try:
        items = [(w, [os.path.join(BIN, "gleam-bench")] + a) for w, a in workloads(gpu)]
        items += [(w, [os.path.join(BUILD, "tests", "programs", p)]) for w, p in PROGRAMS]
        items = [(w, argv) for w, argv in items if wanted(w)]
        loads = [(w, mib, copies) for w, mib, copies in LOAD if wanted(w)]
        direct = {}
        if gpu:
            for w, m, n in torch_items:
                rep, wall = torch_run(py, m, n, tmp, base_env)
                if rep is None:
                    failures.append(dict(workload=w, link="none", mode="direct", error=wall))
                    print("direct %-14s FAILED: %s" % (w, wall), flush=True)
                    continue
                rep["wall_s"] = wall
                direct[w] = rep["seconds"]
                results.append(dict(workload=w, link="none", mode="direct",
                                    seconds=direct[w], floor_seconds=direct[w], wire_bytes=0,
                                    round_trips=0, detail=rep))
                print("direct %-14s %9.4f s per inference (whole run %.1f s)" %
                      (w, direct[w], wall), flush=True)
            hash_bps = hash_rate() if loads or torch_loads else None
            for w, m in torch_loads:
                rep, wall = torch_run(py, m, 1, tmp, base_env, ("--load-only", "--weights-seed", "1"))
                if rep is None:
                    failures.append(dict(workload=w, link="none", mode="direct", error=wall))
                    print("direct %-14s FAILED: %s" % (w, wall), flush=True)
                    continue
                direct[w] = rep["seconds"]
                rep["hash_s"] = rep["bytes"] / hash_bps if hash_bps else None
                results.append(dict(workload=w, link="none", mode="direct",
                                    seconds=direct[w], floor_seconds=direct[w], wire_bytes=0,
                                    round_trips=0, detail=rep))
                print("direct %-14s %9.4f s (%d bytes; hashing them: %s)" %
                      (w, direct[w], rep["bytes"],
                       "%.4f s" % rep["hash_s"] if hash_bps else "not measured"), flush=True)
            for w, mib, copies in loads:
                rep, wall = run(load_argv(mib, copies, 1), base_env)
                direct[w] = rep["seconds"] if rep else wall
                if rep is not None and hash_bps:
                    rep["hash_s"] = (mib << 20) / hash_bps
                results.append(dict(workload=w, link="none", mode="direct",
                                    seconds=direct[w], floor_seconds=direct[w], wire_bytes=0,
                                    round_trips=copies, detail=rep or {}))
                print("direct %-14s %9.4f s" % (w, direct[w]), flush=True)
            for w, argv in items:
                rep, wall = run(argv, base_env)
                direct[w] = rep["seconds"] if rep else wall
                results.append(dict(workload=w, link="none", mode="direct",
                                    seconds=direct[w], floor_seconds=direct[w], wire_bytes=0,
                                    round_trips=rep["waits"] if rep else 0,
                                    detail=rep or {}))
                print("direct %-14s %9.4f s" % (w, direct[w]), flush=True)
        echo = echo_server()
        sink = sink_server()
        want = os.environ.get("GLEAM_BENCH_PROFILES")
        for name, rate, delay in PROFILES:
            if want and name not in want.split(","):
                continue
            sock, procs = d.link(name, rate, delay)
            # R is the round trip this link really has, emulator included.
            if rate:
                eport = d.port + 100 + len(d.procs)
                probe = d.spawn([os.path.join(BIN, "linkem"), "--listen", "127.0.0.1:%d" % eport,
                                 "--connect", "127.0.0.1:%d" % echo, "--rate", "%dbit" % int(rate),
                                 "--delay", "%dus" % int(delay * 1e6)], "linkem-rtt-%s.log" % name)
                wait(lambda: can_connect(eport), STARTED, 10)
                rtt = measure_rtt(eport)
                d.stop([probe])
            else:
                rtt = measure_rtt(echo)
            print("link %-13s measured round trip %.1f us" % (name, rtt * 1e6), flush=True)
            rtts[name] = rtt
            # One plain TCP stream through the same link: what copies are measured against.
            copy_bytes = 64 << 20 if not rate or rate >= 1e9 else int(rate / 8 * 2)
            if rate:
                sport = d.port + 150 + len(d.procs)
                probe = d.spawn([os.path.join(BIN, "linkem"), "--listen", "127.0.0.1:%d" % sport,
                                 "--connect", "127.0.0.1:%d" % sink, "--rate",
                                 "%dbit" % int(rate), "--delay", "%dus" % int(delay * 1e6)],
                                "linkem-stream-%s.log" % name)
                wait(lambda: can_connect(sport), STARTED, 10)
                stream_bps = stream_rate(sport, copy_bytes)
                d.stop([probe])
            else:
                stream_bps = stream_rate(sink, copy_bytes)
            streams[name] = stream_bps
            print("link %-13s one TCP stream %.3f GB/s" % (name, stream_bps / 1e9), flush=True)
            w_rate = (rate / 8.0) if rate else None
            for w, argv in items:
                async_waits = None
                for mode in ("gleam", "gleam-sync"):
                    env = dict(base_env, GLEAM_SOCKET=sock,
                               LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
                               GLEAM_ASYNC="0" if mode == "gleam-sync" else "1")
                    rep, wall = run(argv, env)
                    sess = session_of(sock, rep.get("pid") if rep else None) or {}
                    secs = rep["seconds"] if rep else wall
                    wire = sess.get("bytes_out", 0) + sess.get("bytes_in", 0)
                    if mode == "gleam":
                        async_waits = rep["waits"] if rep else sess.get("waits", 0)
                        payload = rep["bytes"] if rep else sess.get("payload", 0)
                    g = direct.get(w, 0.0)
                    floor = g + (payload / w_rate if w_rate else 0.0) + async_waits * rtt
                    # S is the program's own count (gleam-bench knows what it asks).
                    res = dict(workload=w, link=name, mode=mode, seconds=secs,
                               floor_seconds=floor, wire_bytes=wire,
                               round_trips=sess.get("waits", 0),
                               waits_made=sess.get("waits_made", 0),
                               waits_required=async_waits, detail=rep or {})
                    if rep and "gbytes_per_s" in rep:
                        res["link_gbytes_per_s"] = stream_bps / 1e9
                    results.append(res)
                    print("%-13s %-14s %-10s %9.4f s  floor %9.4f s  wire %11d B  waits %6d" %
                          (name, w, mode, secs, floor, wire, res["round_trips"]), flush=True)
            for w, m, n in torch_items:
                if w not in direct:
                    continue
                bench_torch(py, w, m, n, tmp, base_env, sock, name, w_rate, rtt, direct[w],
                            results, failures, notes)
            if wanted(BF16[0]):
                bench_bf16(d, name, rate, delay, base_env, w_rate, results, failures)
            if (loads or torch_loads) and name in LOAD_LINKS:
                csock, cprocs = d.link(name + "-cache", rate, delay, cache=True)
                for w, mib, copies in loads:
                    bench_load(w, mib, copies, base_env, sock, csock, name, w_rate, rtt,
                               direct.get(w, 0.0), results, failures)
                for w, m in torch_loads:
                    if w in direct:
                        bench_torch_load(py, w, m, tmp, base_env, sock, csock, name, w_rate,
                                         direct[w], results, failures)
                d.stop(cprocs)
            d.stop(procs)
    finally:
        d.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    out = os.path.join(BUILD, "bench", "results.json")
    with open(out, "w") as f:
        json.dump(dict(backend=backend, rtt_seconds=rtts, stream_bytes_per_s=streams,
                       results=results, failures=failures, notes=notes), f, indent=1)
    table(results, gpu)
    copy_table(results)
    bf16_table(results)
    torch_table(results)
    waits_table(results)
    load_table(results, {n: r / 8.0 for n, r, _ in PROFILES if r})
    for f in failures:
        print("FAILED: %s %s %s: %s" % (f["workload"], f["link"], f["mode"], f["error"]))
    for n in notes:
        print("note: %s" % n)
    print("\nresults: %s (backend %s%s)" % (out, backend,
                                           "" if gpu else "; sim numbers say nothing about GPUs"))
    return 1 if failures else 0


def load_argv(mib, copies, seed):
    return [os.path.join(BIN, "gleam-bench"), "load", str(mib), str(copies), str(seed)]


def bench_load(w, mib, copies, base_env, sock, csock, link, w_rate, rtt, g, results, failures):
    """A model load through one link: without naming, cold, and warm.  The
    floor is G + B/W + S*R with B the bytes that must cross: all of them
    cold, the names (40 bytes a chunk) warm."""
    seed = (os.getpid() << 8) + len(results) + 2
    total = mib << 20
    for mode, s_, sd in (("gleam-nocache", sock, seed + 1), ("gleam-cold", csock, seed),
                         ("gleam-warm", csock, seed)):
        env = dict(base_env, GLEAM_SOCKET=s_, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"))
        rep, wall = run(load_argv(mib, copies, sd), env)
        if rep is None:
            failures.append(dict(workload=w, link=link, mode=mode, error="no report"))
            continue
        sess = session_of(s_, rep.get("pid")) or {}
        cache = sess.get("cache", {})
        sent = cache.get("bytes_sent", 0) if mode != "gleam-nocache" else total
        must = sent if mode == "gleam-warm" else total
        if mode == "gleam-warm":
            must += 40 * (total >> 20)
        floor = g + (must / w_rate if w_rate else 0.0) + copies * rtt
        wire = sess.get("bytes_out", 0) + sess.get("bytes_in", 0)
        detail = dict(rep, cache=cache)
        results.append(dict(workload=w, link=link, mode=mode, seconds=rep["seconds"],
                            floor_seconds=floor, wire_bytes=wire,
                            round_trips=sess.get("waits", 0), detail=detail))
        print("%-13s %-18s %-13s %9.4f s  floor %9.4f s  wire %11d B  sent %11d B" %
              (link, w, mode, rep["seconds"], floor, wire, sent), flush=True)


def bench_bf16(d, link, rate, delay, base_env, w_rate, results, failures):
    """bf16 weights through one link, packed (gleam-cold) and not
    (gleam-nocompress): each through a client gleamd of its own that names
    uploads, the bytes new on every run.  The two modes take turns
    GLEAM_BENCH_BF16_RUNS times (default 3) and each row is the run of
    median time, with every run's seconds beside it: one load's time moves
    with the machine's load by more than packing on a fast link costs."""
    w, mib = BF16
    nruns = max(1, int(os.environ.get("GLEAM_BENCH_BF16_RUNS", "3")))
    modes = (("gleam-cold", None), ("gleam-nocompress", {"GLEAM_COMPRESS": "0"}))
    done = {m: [] for m, _ in modes}
    for i in range(nruns):
        for mode, env in modes:
            sock, procs = d.link("%s-%s" % (link, mode), rate, delay, cache=True, env=env)
            try:
                renv = dict(base_env, GLEAM_SOCKET=sock, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"))
                rep, wall = run([os.path.join(BIN, "gleam-bench"), "load-bf16", str(mib)], renv)
            except RuntimeError as e:
                failures.append(dict(workload=w, link=link, mode=mode, error=str(e)))
                d.stop(procs)
                continue
            sess = session_of(sock, rep.get("pid") if rep else None) or {}
            d.stop(procs)
            if rep is None:
                failures.append(dict(workload=w, link=link, mode=mode, error="no report"))
                continue
            wire = sess.get("bytes_out", 0) + sess.get("bytes_in", 0)
            done[mode].append((rep, wire, sess.get("waits", 0)))
            print("%-13s %-18s %-16s %9.4f s  wire %11d B for %11d B (%.1f%%)  run %d of %d" %
                  (link, w, mode, rep["seconds"], wire, rep["bytes"],
                   100.0 * wire / rep["bytes"], i + 1, nruns), flush=True)
    for mode, _ in modes:
        got = sorted(done[mode], key=lambda x: x[0]["seconds"])
        if not got:
            continue
        rep, wire, waits = got[(len(got) - 1) // 2]
        detail = dict(rep, runs_seconds=[x[0]["seconds"] for x in done[mode]])
        results.append(dict(workload=w, link=link, mode=mode, seconds=rep["seconds"],
                            floor_seconds=rep["bytes"] / w_rate if w_rate else 0.0,
                            wire_bytes=wire, round_trips=waits, detail=detail))


def copy_table(results):
    """Copies against one plain TCP stream through the same link, same run."""
    rows = [r for r in results if r.get("link_gbytes_per_s") and r["mode"] == "gleam"]
    if not rows:
        return
    print("\n%-8s %-13s %10s %14s %8s" % ("copy", "link", "GB/s", "TCP stream GB/s", "share"))
    for r in rows:
        g = r["detail"]["gbytes_per_s"]
        print("%-8s %-13s %10.3f %14.3f %7.0f%%" % (r["workload"], r["link"], g,
                                                   r["link_gbytes_per_s"],
                                                   100 * g / r["link_gbytes_per_s"]))


def bf16_table(results):
    """Packed uploads: bf16 weights with and without packing, per link."""
    by = {(r["link"], r["mode"]): r for r in results if r["workload"] == BF16[0]}
    links = [n for n, _, _ in PROFILES if (n, "gleam-cold") in by]
    if not links:
        return
    print("\n%-13s %10s %12s %12s %12s %10s %10s" % (
        "bf16 weights", "packed s", "unpacked s", "packed B", "unpacked B", "time", "bytes"))
    for n in links:
        c, u = by.get((n, "gleam-cold")), by.get((n, "gleam-nocompress"))
        if not c or not u:
            continue
        print("%-13s %10.4f %12.4f %12d %12d %9.0f%% %9.0f%%" % (
            n, c["seconds"], u["seconds"], c["wire_bytes"], u["wire_bytes"],
            100 * c["seconds"] / u["seconds"], 100.0 * c["wire_bytes"] / max(u["wire_bytes"], 1)))


def hash_rate():
    """Bytes a second the client's hashing pool names (gleam-hashbench, with
    as many threads as the pool takes), or None."""
    threads = max(1, min(os.cpu_count() or 1, 8))
    try:
        r = subprocess.run([os.path.join(BIN, "gleam-hashbench"), "--size", "512M",
                            "--threads", str(threads), "--json"], capture_output=True,
                           timeout=300)
        rep = json.loads(r.stdout)
        gbps = max(x["gbps"] for x in rep["results"])
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return None
    print("hashing: %.2f GB/s with %d threads" % (gbps, threads), flush=True)
    return gbps * 1e9


def bench_torch_load(py, w, m, tmp, base_env, sock, csock, link, w_rate, g, results, failures):
    """PyTorch's model.to("cuda") through one link: without naming, cold
    (weights no run uploaded before) and warm (the same weights, by a new
    process)."""
    seed = (os.getpid() << 8) + len(results) + 2
    for mode, s_, sd in (("gleam-nocache", sock, seed + 1), ("gleam-cold", csock, seed),
                         ("gleam-warm", csock, seed)):
        env = dict(base_env, GLEAM_SOCKET=s_, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"))
        rep, wall = torch_run(py, m, 1, tmp, env, ("--load-only", "--weights-seed", str(sd)))
        if rep is None:
            failures.append(dict(workload=w, link=link, mode=mode, error=wall))
            print("%-13s %-18s %-13s FAILED: %s" % (link, w, mode, wall), flush=True)
            continue
        sess = session_of(s_, rep.get("pid")) or {}
        cache = sess.get("cache", {})
        total = rep["bytes"]
        sent = cache.get("bytes_sent", 0) if mode != "gleam-nocache" else total
        must = sent if mode == "gleam-warm" else total
        floor = g + (must / w_rate if w_rate else 0.0)
        wire = sess.get("bytes_out", 0) + sess.get("bytes_in", 0)
        results.append(dict(workload=w, link=link, mode=mode, seconds=rep["seconds"],
                            floor_seconds=floor, wire_bytes=wire,
                            round_trips=sess.get("waits", 0), detail=dict(rep, cache=cache)))
        print("%-13s %-18s %-13s %9.4f s  floor %9.4f s  wire %11d B  sent %11d B" %
              (link, w, mode, rep["seconds"], floor, wire, sent), flush=True)


def load_table(results, rates):
    """Model loads: each mode's time, what crossed, and the shares the targets name."""
    by = {(r["workload"], r["link"], r["mode"]): r for r in results}
    rows = sorted({(r["workload"], r["link"]) for r in results
                   if r["workload"].startswith("load:") and r["link"] != "none"})
    if not rows:
        return
    print("\n%-20s %-13s %9s %9s %9s %9s %10s %10s %9s %13s" % (
        "model load", "link", "direct s", "plain s", "cold s", "warm s", "cold/link",
        "warm sent", "warm/dir", "warm/dir+hash"))
    for w, link in rows:
        dr = by.get((w, "none", "direct"))
        pl = by.get((w, link, "gleam-nocache"))
        co = by.get((w, link, "gleam-cold"))
        wa = by.get((w, link, "gleam-warm"))
        if not co or not wa:
            continue
        total = co["detail"].get("bytes", 0) or 1
        rate = rates.get(link)
        share = (total / co["seconds"]) / rate if rate else float("nan")
        sent = wa["detail"].get("cache", {}).get("bytes_sent", 0)
        hs = dr["detail"].get("hash_s") if dr else None
        print("%-20s %-13s %9s %9s %9.4f %9.4f %9.0f%% %9.2f%% %9s %13s" % (
            w, link, "%.4f" % dr["seconds"] if dr else "-",
            "%.4f" % pl["seconds"] if pl else "-", co["seconds"], wa["seconds"],
            100 * share, 100.0 * sent / total,
            "%.2f" % (wa["seconds"] / dr["seconds"]) if dr else "-",
            "%.2f" % (wa["seconds"] / (dr["seconds"] + hs)) if dr and hs else "-"))


def bench_torch(py, w, m, n, tmp, base_env, sock, link, w_rate, rtt, g, results, failures,
                notes):
    """A PyTorch workload through one link, asynchronously and then with every
    call waiting.  The floor is per inference of the steady state: G the
    direct run's, B the bytes each way and S the waits that Gleam counted in
    the asynchronous run's steady state, divided by its inferences."""
    floor = None
    for mode in ("gleam", "gleam-sync"):
        env = dict(base_env, GLEAM_SOCKET=sock, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
                   GLEAM_ASYNC="0" if mode == "gleam-sync" else "1",
                   GLEAM_PHASE_GLEAMCTL=os.path.join(BIN, "gleamctl"))
        if mode == "gleam-sync":
            # Every record waits for its reply: at least records x R.
            limit = float(os.environ.get("GLEAM_BENCH_TORCH_SYNC_LIMIT", "20"))
            est = records * rtt
            if est > limit:
                notes.append("%s %s gleam-sync not run: %d records x %.0f us round trip = "
                             "%.0f s at least (GLEAM_BENCH_TORCH_SYNC_LIMIT %g s)" %
                             (w, link, records, rtt * 1e6, est, limit))
                print("%-13s %-14s %-10s skipped (at least %.0f s)" % (link, w, mode, est),
                      flush=True)
                continue
        rep, wall = torch_run(py, m, n, tmp, env)
        sess = session_of(sock, rep.get("pid") if rep else None) or {}
        if rep is None:
            failures.append(dict(workload=w, link=link, mode=mode, error=wall))
            print("%-13s %-14s %-10s FAILED: %s" % (link, w, mode, wall), flush=True)
            if mode == "gleam":
                return
            continue
        rep["wall_s"] = wall
        rep["session"] = sess
        ph = rep.get("phase_gleam") or {}
        iters = max(ph.get("iters", 0), 1)
        made = ph.get("waits_made", 0) / float(iters)
        required = ph.get("waits_required", 0) / float(iters)
        if mode == "gleam":
            records = sess.get("records", 0)
            per_b = ph.get("payload", ph.get("bytes_out", 0) + ph.get("bytes_in", 0)) / float(iters)
            # S: what the program's calls require by CUDA's rules, counted by
            # the shim from the calls alone, never the waits Gleam made.
            per_s = required
            floor = g + (per_b / w_rate if w_rate else 0.0) + per_s * rtt
            wait_floor = g + per_s * rtt
        wire = sess.get("bytes_out", 0) + sess.get("bytes_in", 0)
        res = dict(workload=w, link=link, mode=mode, seconds=rep["seconds"],
                   floor_seconds=floor, wire_bytes=wire, round_trips=sess.get("waits", 0),
                   waits_made=made, waits_required=required, rtt_seconds=rtt,
                   wait_floor_seconds=wait_floor, detail=rep)
        results.append(res)
        print("%-13s %-14s %-10s %9.4f s  floor %9.4f s  wire %11d B  "
              "(per inference: %d B, waits %.1f made, %.1f required; whole run %.1f s)" %
              (link, w, mode, rep["seconds"], floor, wire,
               ph.get("payload", ph.get("bytes_out", 0) + ph.get("bytes_in", 0)) / iters,
               made, required, wall), flush=True)


def waits_table(results):
    """Waits made against waits the program required, per steady-state
    inference, and the time against G + S*R (S required, R the link's)."""
    rows = [r for r in results if r["workload"].startswith("torch:") and r["mode"] == "gleam"
            and r.get("wait_floor_seconds")]
    if not rows:
        return
    print("\nWaits per inference (steady state) and time against direct + required waits x R:")
    print("%-20s %-13s %8s %9s %10s %10s %11s %7s" % (
        "workload", "link", "made", "required", "direct s", "gleam s", "G + S*R s", "ratio"))
    direct = {r["workload"]: r["seconds"] for r in results if r["mode"] == "direct"}
    for r in sorted(rows, key=lambda r: (r["workload"], r["link"])):
        print("%-20s %-13s %8.1f %9.1f %10s %10.5f %11.5f %7.2f" % (
            r["workload"], r["link"], r["waits_made"], r["waits_required"],
            "%.5f" % direct[r["workload"]] if r["workload"] in direct else "-", r["seconds"],
            r["wait_floor_seconds"], r["seconds"] / r["wait_floor_seconds"]))


def torch_table(results):
    """The phases of the PyTorch runs: what a whole process spends where."""
    rows = [r for r in results if r["workload"].startswith("torch:")]
    if not rows:
        return
    print("\nPyTorch phases (seconds; steady: per inference, mean of n):")
    print("%-20s %-13s %-10s %7s %7s %7s %8s %9s %4s %8s %13s" % (
        "workload", "link", "mode", "import", "init", "load", "first", "steady", "n", "whole",
        "wire B"))
    for r in sorted(rows, key=lambda r: (r["workload"], r["link"] != "none", r["link"],
                                         r["mode"])):
        x = r["detail"]
        print("%-20s %-13s %-10s %7.2f %7.3f %7.3f %8.4f %9.5f %4d %8.1f %13d" % (
            r["workload"], r["link"], r["mode"], x.get("import_s", 0), x.get("cuda_init_s", 0),
            x.get("load_s", 0), x.get("first_s", 0), x.get("steady_mean_s", 0),
            x.get("steady_n", 0), x.get("wall_s", 0), r["wire_bytes"]))


def table(results, gpu):
    by = {}
    for r in results:
        by[(r["workload"], r["link"], r["mode"])] = r
    print("\n%-20s %-13s %10s %10s %10s %10s %8s %9s" % (
        "workload", "link", "direct s", "sync s", "gleam s", "floor s", "T/floor", "vs sync"))
    for (w, link, mode), r in sorted(by.items()):
        if mode != "gleam":
            continue
        s = by.get((w, link, "gleam-sync"))
        dr = by.get((w, "none", "direct"))
        ratio = r["seconds"] / r["floor_seconds"] if r["floor_seconds"] > 0 else float("nan")
        speed = s["seconds"] / r["seconds"] if s and r["seconds"] > 0 else float("nan")
        print("%-20s %-13s %10s %10.4f %10.4f %10.4f %8.2f %8.1fx" % (
            w, link, "%.4f" % dr["seconds"] if dr else "-", s["seconds"] if s else float("nan"),
            r["seconds"], r["floor_seconds"], ratio, speed))
    lc = [r for r in results if r["workload"] == "launch-cost"]
    for r in lc:
        us = r["detail"].get("us_per_call")
        if us is not None:
            print("launch client cost: %-13s %-10s %8.2f us per cuLaunchKernel" %
                  (r["link"], r["mode"], us))


if __name__ == "__main__":
    sys.exit(main())
