#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# jax-check.sh: on a machine with an NVIDIA GPU, a JAX program
# (tests/gpu/jax/jaxprog.py: jit-compiled matrix products and reductions)
# directly and through Gleam ($BUILD/bin/gleam-run, both gleamd roles on
# this machine), also with GLEAM_ASYNC=0 when JAX_CHECK_SYNC=1.  Each run
# must exit 0 and print the same, and the results must be the same bits;
# results within a relative 1e-5 of each other pass as "tolerance" (XLA may
# reduce with atomics, whose order differs from run to run), and say so.
# JAX finds its GPU through the granularity question and the virtual
# memory functions: a run that sees no GPU through Gleam fails.
#
# Environment: BUILD (default build/ in the repository), OUT (logs and
# outputs; default $BUILD/jax-check), JAX_CHECK_TIMEOUT (seconds per run;
# default 600), PYTHON (default python3), JAX_CHECK_SYNC (1: also
# GLEAM_ASYNC=0).  XLA_PYTHON_CLIENT_PREALLOCATE=false, so that JAX takes
# memory as it needs it, --xla_gpu_autotune_level=0, so that the kernels
# chosen do not depend on how fast they ran, and no command buffers (CUDA
# graphs built node by node, which Gleam does not build yet), in both runs.
# Exit status: 0 passed, 1 a failure, 77 skipped (no GPU, no build, no jax).
set -u

WANT=()
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/jax-check}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
TIMEOUT=${JAX_CHECK_TIMEOUT:-600}
PYTHON=${PYTHON:-python3}
GLEAM_RUN=$BUILD/bin/gleam-run
PROG=$ROOT/tests/gpu/jax/jaxprog.py

if ! jax_ver=$("$PYTHON" -c 'import jax, numpy; print(jax.__version__)' 2>/dev/null); then
	echo "SKIP: $PYTHON cannot import jax and numpy"
	exit 77
fi
# shellcheck source=tests/lib/gpu.sh
. "$ROOT/tests/lib/gpu.sh"
echo "JAX $jax_ver ($PYTHON)"

mkdir -p "$OUT" || exit 1
export XLA_PYTHON_CLIENT_PREALLOCATE=false
export XLA_FLAGS="${XLA_FLAGS:+$XLA_FLAGS }--xla_gpu_autotune_level=0 --xla_gpu_enable_command_buffer="

MODES=(direct gleam)
[ "${JAX_CHECK_SYNC:-0}" = 1 ] && MODES+=(gleam-sync)

# run MODE: $OUT/MODE.{out,err,npz,rc}
run() {
	local mode=$1 rc
	rm -f "$OUT/$mode".*
	case $mode in
	direct) timeout "$TIMEOUT" "$PYTHON" "$PROG" "$OUT/$mode.npz" ;;
	gleam) timeout "$TIMEOUT" "$GLEAM_RUN" "$PYTHON" "$PROG" "$OUT/$mode.npz" ;;
	gleam-sync) GLEAM_ASYNC=0 timeout "$TIMEOUT" "$GLEAM_RUN" "$PYTHON" "$PROG" "$OUT/$mode.npz" ;;
	esac >"$OUT/$mode.out" 2>"$OUT/$mode.err"
	rc=$?
	echo $rc >"$OUT/$mode.rc"
}

for mode in "${MODES[@]}"; do
	run "$mode"
done
rc=$(cat "$OUT/direct.rc")
if [ "$rc" = 77 ]; then
	echo "SKIP: $(tail -n 1 "$OUT/direct.err")"
	exit 77
fi
failed=0
for mode in "${MODES[@]}"; do
	[ "$mode" = direct ] && continue
	why=""
	grc=$(cat "$OUT/$mode.rc")
	if [ "$rc" != 0 ]; then
		why="the direct run exited $rc (see $OUT/direct.err)"
	elif [ "$grc" != 0 ]; then
		why="$mode exited $grc: $(tail -n 1 "$OUT/$mode.err") (see $OUT/$mode.err)"
	elif ! cmp -s "$OUT/direct.out" "$OUT/$mode.out"; then
		why="$mode printed other than the direct run: diff $OUT/direct.out $OUT/$mode.out"
	fi
	same=-
	if [ -z "$why" ]; then
		same=$("$PYTHON" - "$OUT/direct.npz" "$OUT/$mode.npz" <<'PY'
import sys
import numpy as np
a, b = np.load(sys.argv[1]), np.load(sys.argv[2])
if sorted(a.files) != sorted(b.files):
    print("different: not the same results"); sys.exit()
worst = "identical"
for k in a.files:
    x, y = a[k], b[k]
    if x.dtype != y.dtype or x.shape != y.shape:
        print("different: %s" % k); sys.exit()
    if x.tobytes() == y.tobytes():
        continue
    if np.allclose(x.astype(np.float64), y.astype(np.float64), rtol=1e-5, atol=1e-6):
        worst = "tolerance"
    else:
        print("different: %s, largest difference %g" %
              (k, np.max(np.abs(x.astype(np.float64) - y.astype(np.float64)))))
        sys.exit()
print(worst)
PY
)
		case $same in
		identical | tolerance) ;;
		*) why="$mode results: $same" ;;
		esac
	fi
	if [ -z "$why" ]; then
		echo "PASS: jax ($mode, results $same)"
	else
		echo "FAIL: jax ($mode): $why"
		failed=$((failed + 1))
	fi
done
echo "logs: $OUT"
[ $failed -eq 0 ]
