#!/bin/sh
# SPDX-License-Identifier: MIT
# The main job: an unmodified CUDA driver-API program (a tiled matrix
# multiply) through the whole path: Gleam's libcuda.so.1, the session ring,
# a client gleamd, TCP, a server gleamd and its replay worker, on the GPU
# when this machine has one, on the sim backend when it has not.
set -eu
BUILD=${BUILD:-build}
export GLEAM_SOCKET=${GLEAM_SOCKET:-$(mktemp -d /tmp/gleam-demo.XXXXXX)/gleamd.sock}
export GLEAM_PORT=${GLEAM_PORT:-$((20000 + $$ % 20000))}
trap '"$BUILD/bin/gleam-run" --stop' EXIT
echo "== matmul, run through Gleam"
"$BUILD/bin/gleam-run" "$BUILD/tests/programs/matmul"
echo "== vecadd, run through Gleam"
"$BUILD/bin/gleam-run" "$BUILD/tests/programs/vecadd"
echo "== gleamctl status"
"$BUILD/bin/gleamctl" status
