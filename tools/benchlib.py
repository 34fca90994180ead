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
