#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Processor time per GiB of a copy, per process: the program, the client
gleamd, the server gleamd and the session's worker, from /proc/PID/stat
(utime + stime), and beside them one plain TCP stream's two ends.  Load on
a shared machine moves wall-clock rates; it moves processor time per byte
much less, so this says where a copy's time goes.

    tools/copy-cost.py [htod|dtoh] [MiB] [pinned|pageable] [runs]

GLEAM_COPY_CLIENT_ARGS as for copy-bench.py (say "--cache off"); GLEAM_BACKEND
(default sim) the server's backend.  Each run is one gleam-bench copy, whose
warm-up upload of the same size is counted too: the bytes are twice the size.
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from benchlib import BIN, BUILD, GLEAMD_ARGS, Procs, wait

TICK = os.sysconf("SC_CLK_TCK")


def cpu(pid):
    """Seconds of processor pid has used, or 0 once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def tcp_cost(nbytes):
    """Processor seconds per GiB of one TCP stream on loopback: sender, receiver."""
    import socket
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    got = {}

    def sink():
        c, _ = srv.accept()
        buf = bytearray(4 << 20)
        t = time.thread_time()
        while c.recv_into(buf):
            pass
        got["rx"] = time.thread_time() - t
        c.close()

    th = threading.Thread(target=sink)
    th.start()
    c = socket.create_connection(srv.getsockname())
    data = memoryview(bytes(4 << 20))
    t0 = time.perf_counter()
    t = time.thread_time()
    left = nbytes
    while left > 0:
        n = min(left, len(data))
        c.sendall(data[:n])
        left -= n
    c.close()
    tx = time.thread_time() - t
    th.join()
    secs = time.perf_counter() - t0
    gib = nbytes / (1 << 30)
    return tx / gib, got["rx"] / gib, nbytes / secs / 1e9


def main():
    way = sys.argv[1] if len(sys.argv) > 1 else "htod"
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    kind = sys.argv[3] if len(sys.argv) > 3 else "pinned"
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 4
    tmp = tempfile.mkdtemp(prefix="gleam-cost.")
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    procs = Procs(tmp)
    port = 24000 + os.getpid() % 20000
    sock = os.path.join(tmp, "gleamd.sock")
    try:
        srv = procs.spawn([os.path.join(BIN, "gleamd"), "server", "--listen",
                           "127.0.0.1:%d" % port, "--backend",
                           os.environ.get("GLEAM_BACKEND", "sim")] + GLEAMD_ARGS,
                          "server.log", env)
        wait(lambda: b"unreachable" not in subprocess.run(
            [os.path.join(BIN, "gleamctl"), "server-info", "127.0.0.1:%d" % port],
            capture_output=True).stdout, "server did not start")
        cli = procs.spawn([os.path.join(BIN, "gleamd"), "client", "--server",
                           "127.0.0.1:%d" % port, "--socket", sock] + GLEAMD_ARGS +
                          os.environ.get("GLEAM_COPY_CLIENT_ARGS", "").split(),
                          "client.log", env)
        cenv = dict(env, GLEAM_SOCKET=sock)
        wait(lambda: subprocess.run([os.path.join(BIN, "gleamctl"), "status"], env=cenv,
                                    capture_output=True).returncode == 0,
             "client did not start")
        penv = dict(cenv, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
                    GLEAM_TEST_KERNELS=os.path.join(BUILD, "tests", "kernels"))
        argv = [os.path.join(BIN, "gleam-bench"), way, str(mib << 20)]
        if kind == "pageable":
            argv.append("pageable")
        tot = dict(app=0.0, client=0.0, server=0.0, worker=0.0)
        rates = []
        for _ in range(runs):
            c0, s0 = cpu(cli.pid), cpu(srv.pid)
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.Popen(argv, env=penv, stdout=subprocess.PIPE)
            workers, wcpu = set(), {}
            while p.poll() is None:
                for w in children(srv.pid):
                    workers.add(w)
                    wcpu[w] = max(wcpu.get(w, 0.0), cpu(w))
                time.sleep(0.02)
            out = p.stdout.read().decode()
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            time.sleep(0.3)
            for w in workers:
                wcpu[w] = max(wcpu[w], cpu(w))
            tot["app"] += r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime
            tot["client"] += cpu(cli.pid) - c0
            tot["server"] += cpu(srv.pid) - s0
            tot["worker"] += sum(wcpu.values())
            rates.append(json.loads(out.strip().splitlines()[-1])["gbytes_per_s"])
        gib = 2 * runs * mib / 1024
        tx, rx, rate = tcp_cost(mib << 20)
        row = {k: round(v / gib, 3) for k, v in tot.items()}
        row["total"] = round(sum(tot.values()) / gib, 3)
        print("%s %d MiB %s: s/GiB %s; GB/s %s; tcp s/GiB tx %.3f rx %.3f, %.2f GB/s" %
              (way, mib, kind, json.dumps(row), " ".join("%.3f" % r for r in rates),
               tx, rx, rate))
    finally:
        for p in procs.procs:
            p.terminate()
            p.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
