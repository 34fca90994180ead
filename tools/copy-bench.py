#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Copy throughput against the link, side by side in one run.

For each size (GLEAM_COPY_SIZES, MiB, default 16,64,256) and kind (pinned,
pageable) and direction (htod, dtoh), gleam-bench's copy through a server
and a client gleamd on loopback (sim backend unless GLEAM_BACKEND says
otherwise), and, just before it, one plain TCP stream of the same bytes
through loopback: the link's rate in the same run.  Runs each measurement
GLEAM_COPY_RUNS times (default 3) and keeps the best.  Prints a table and
writes build/bench/copy.json.

Environment: GLEAM_BENCH_GLEAMD_ARGS (options for both gleamd),
GLEAM_COPY_CLIENT_ARGS (options for the client gleamd only, such as
"--cache off"), GLEAM_COPY_SERVER_ARGS (for the server only),
GLEAM_COPY_ENV (VAR=VALUE pairs for the program), GLEAM_COPY_KINDS and
GLEAM_COPY_WAYS (default "pinned,pageable" and "htod,dtoh"),
GLEAM_BENCH_COPIES (copies timed back to back in each measurement, default
1: a first copy's rate; the stream then moves as many bytes), GLEAM_COPY_TLS=1
(the two gleamd speak mutual TLS, with credentials made for the run, as
gleam-run's do; the stream beside stays plain TCP: the link).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from benchlib import BIN, BUILD, GLEAMD_ARGS, Procs, sink_server, stream_rate, wait


def tcp_stream(nbytes):
    """Seconds one TCP connection on loopback takes to move nbytes (4 MiB sends)."""
    return nbytes / stream_rate(sink_server(), nbytes)


def main():
    sizes = [int(x) for x in os.environ.get("GLEAM_COPY_SIZES", "16,64,256").split(",")]
    for kind in os.environ.get("GLEAM_COPY_KINDS", "pinned,pageable").split(","):
        if kind not in ("pinned", "pageable"):
            sys.exit("copy-bench: GLEAM_COPY_KINDS: %r is neither pinned nor pageable" % kind)
    for way in os.environ.get("GLEAM_COPY_WAYS", "htod,dtoh").split(","):
        if way not in ("htod", "dtoh"):
            sys.exit("copy-bench: GLEAM_COPY_WAYS: %r is neither htod nor dtoh" % way)
    runs = int(os.environ.get("GLEAM_COPY_RUNS", "3"))
    copies = max(1, int(os.environ.get("GLEAM_BENCH_COPIES", "1")))
    backend = os.environ.get("GLEAM_BACKEND", "sim")
    tmp = tempfile.mkdtemp(prefix="gleam-copy.")
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    procs = Procs(tmp)
    port = 23000 + os.getpid() % 20000
    sock = os.path.join(tmp, "gleamd.sock")
    rows = []
    tls = os.environ.get("GLEAM_COPY_TLS") == "1"
    server_tls = client_tls = []
    if tls:
        ca = os.path.join(tmp, "ca")
        subprocess.run([os.path.join(BIN, "gleamctl"), "tls", "init", ca, "127.0.0.1",
                        "client"], check=True, capture_output=True)
        server_tls = ["--tls-cert", os.path.join(ca, "127.0.0.1.pem")]
        client_tls = ["--tls-cert", os.path.join(ca, "client.pem")]
    try:
        procs.spawn([os.path.join(BIN, "gleamd"), "server", "--listen", "127.0.0.1:%d" % port,
                     "--backend", backend] + GLEAMD_ARGS +
                    server_tls + os.environ.get("GLEAM_COPY_SERVER_ARGS", "").split(),
                    "server.log", env)
        wait(lambda: b"unreachable" not in subprocess.run(
            [os.path.join(BIN, "gleamctl")] + client_tls +
            ["server-info", "127.0.0.1:%d" % port], capture_output=True).stdout,
             "server did not start")
        procs.spawn([os.path.join(BIN, "gleamd"), "client", "--server", "127.0.0.1:%d" % port,
                     "--socket", sock] + GLEAMD_ARGS + client_tls +
                    os.environ.get("GLEAM_COPY_CLIENT_ARGS", "").split(), "client.log", env)
        cenv = dict(env, GLEAM_SOCKET=sock)
        wait(lambda: subprocess.run([os.path.join(BIN, "gleamctl"), "status"], env=cenv,
                                    capture_output=True).returncode == 0, "client did not start")
        penv = dict(cenv, LD_LIBRARY_PATH=os.path.join(BUILD, "lib"),
                    GLEAM_TEST_KERNELS=os.path.join(BUILD, "tests", "kernels"))
        for kv in os.environ.get("GLEAM_COPY_ENV", "").split():
            k, _, v = kv.partition("=")
            penv[k] = v
        for mib in sizes:
            for kind in os.environ.get("GLEAM_COPY_KINDS", "pinned,pageable").split(","):
                for way in os.environ.get("GLEAM_COPY_WAYS", "htod,dtoh").split(","):
                    best_tcp = best_gleam = 0.0
                    for _ in range(runs):
                        nbytes = mib << 20
                        tcp = nbytes * copies / tcp_stream(nbytes * copies) / 1e9
                        argv = [os.path.join(BIN, "gleam-bench"), way, str(nbytes)]
                        if kind == "pageable":
                            argv.append("pageable")
                        r = subprocess.run(argv, env=penv, capture_output=True, timeout=600)
                        if r.returncode:
                            raise RuntimeError(r.stderr.decode()[-300:])
                        rep = json.loads(r.stdout.decode().strip().splitlines()[-1])
                        best_tcp = max(best_tcp, tcp)
                        best_gleam = max(best_gleam, rep["gbytes_per_s"])
                    rows.append(dict(mib=mib, kind=kind, way=way, tcp_gbps=best_tcp,
                                     gleam_gbps=best_gleam, share=best_gleam / best_tcp))
                    print("%4d MiB %-8s %-4s  tcp %6.3f GB/s  gleam %6.3f GB/s  share %4.2f" %
                          (mib, kind, way, best_tcp, best_gleam, best_gleam / best_tcp),
                          flush=True)
    finally:
        for p in procs.procs:
            p.terminate()
            p.wait()
        if os.environ.get("GLEAM_COPY_KEEP"):
            print("logs in", tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(BUILD, "bench"), exist_ok=True)
    with open(os.path.join(BUILD, "bench", "copy.json"), "w") as f:
        json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
