# SPDX-License-Identifier: MIT
"""What tools/bench.py and tools/sched-bench.py share: where the build is,
the options for every gleamd they start (GLEAM_BENCH_GLEAMD_ARGS), and the
daemons and links of a run, each a process in a session of its own whose
output is appended to a log of its own."""
import os
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(os.environ.get("BUILD", os.path.join(ROOT, "build")))
BIN = os.path.join(BUILD, "bin")
GLEAMD_ARGS = os.environ.get("GLEAM_BENCH_GLEAMD_ARGS", "").split()


class Procs:
    """The processes a run started, and the directory of their logs."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = []

    def spawn(self, argv, log, env):
        p = subprocess.Popen(argv, stdout=open(os.path.join(self.tmp, log), "ab"),
                             stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.procs.append(p)
        return p


def wait(cond, failure, limit=60.0):
    """Until cond() holds, polled every 0.1 s; RuntimeError(failure) after
    limit seconds."""
    end = time.time() + limit
    while time.time() < end:
        if cond():
            return
        time.sleep(0.1)
    raise RuntimeError(failure)


def loopback_server(serve):
    """A TCP server on loopback, in a thread, that hands each connection
    to serve in a thread of its own; returns its port."""
    import socket
    import threading
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)

    def accept():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return srv.getsockname()[1]


def sink_server():
    """A TCP server on loopback that reads and drops everything, in a thread; its port."""
    def serve(c):
        buf = bytearray(4 << 20)
        while c.recv_into(buf):
            pass
        c.sendall(b"k")
        c.close()

    return loopback_server(serve)


def stream_rate(port, nbytes):
    """Bytes a second one plain TCP stream moves to what listens on port
    (the sink, directly or through linkem): the link's rate, measured."""
    import socket
    c = socket.create_connection(("127.0.0.1", port))
    data = memoryview(bytes(4 << 20))
    t0 = time.perf_counter()
    left = nbytes
    while left > 0:
        n = min(left, len(data))
        c.sendall(data[:n])
        left -= n
    c.shutdown(socket.SHUT_WR)
    c.recv(1)
    secs = time.perf_counter() - t0
    c.close()
    return nbytes / secs
