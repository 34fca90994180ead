#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# torch-check.sh [NAME...]: on a machine with an NVIDIA GPU, the libraries
# that real programs use, unmodified, directly and through Gleam
# ($BUILD/bin/gleam-run, both gleamd roles on this machine):
#
#   * the cuBLAS programs of tests/gpu/cublas/ (sgemm, bf16gemm, fft,
#     which calls cuFFT, and mathlibs, which calls cuRAND, cuSPARSE and
#     cuSOLVER): directly,
#     through Gleam, and through Gleam with GLEAM_ASYNC=0.  Each run must
#     exit 0; the Gleam runs must print what the direct run printed and
#     their results must have the same bits (the hash each prints on
#     stderr): cuBLAS gives bitwise reproducible results on the same GPU.
#   * the PyTorch workloads of tests/gpu/torch/models.py (resnet50,
#     resnet50-b1, bert, gpt2, gpt2-generate, mlp-train, cuda-graph,
#     mallocasync): directly and
#     through Gleam (also with GLEAM_ASYNC=0 when TORCH_CHECK_SYNC=1).  Each
#     run must exit 0 and the outputs must be bitwise identical
#     (tests/gpu/torch/compare.py).
#
# NAME picks programs and workloads (all when none).  PyTorch workloads are
# skipped, not failed, when $PYTHON cannot import torch (or a workload's
# module, e.g. transformers); the cuBLAS programs when the toolkit has no
# cuBLAS.  Ends with a table: workload, exit status of each run, whether the
# results are identical, wall-clock seconds of the direct and the Gleam run
# and, for PyTorch, the steady-state time per inference of each.
#
# Environment: BUILD (default build/ in the repository), OUT (logs and
# outputs; default $BUILD/torch-check), TORCH_CHECK_TIMEOUT (seconds per
# run; default 300), PYTHON (default python3), CUDA (default
# /usr/local/cuda), TORCH_CHECK_SYNC (1: PyTorch with GLEAM_ASYNC=0 too).
# Exit status: 0 all passed, 1 a failure, 77 skipped (no GPU, no build, or
# nothing that could run).
set -u

WANT=("$@")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/torch-check}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
TIMEOUT=${TORCH_CHECK_TIMEOUT:-300}
PYTHON=${PYTHON:-python3}
CUDA=${CUDA:-/usr/local/cuda}
GLEAM_RUN=$BUILD/bin/gleam-run
CUBLAS_DIR=$BUILD/tests/cublas
TORCH_DIR=$ROOT/tests/gpu/torch

CUBLAS_PROGS=(sgemm bf16gemm fft mathlibs)
TORCH_WORKLOADS=(resnet50 resnet50-b1 bert gpt2 gpt2-generate mlp-train cuda-graph mallocasync)

# shellcheck source=tests/lib/gpu.sh
. "$ROOT/tests/lib/gpu.sh"

mkdir -p "$OUT/direct" "$OUT/gleam" "$OUT/gleam-sync" || exit 1

# run_one MODE NAME ENV... -- ARGV...: writes $OUT/MODE/NAME.{out,err,rc,secs}.
run_one() {
	local mode=$1 name=$2 rc t0 t1
	local log=$OUT/$mode/$name
	local -a envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	t0=$(date +%s.%N)
	case $mode in
	direct) env ${envs[@]+"${envs[@]}"} timeout "$TIMEOUT" "$@" ;;
	gleam) env ${envs[@]+"${envs[@]}"} timeout "$TIMEOUT" "$GLEAM_RUN" "$@" ;;
	gleam-sync) env ${envs[@]+"${envs[@]}"} GLEAM_ASYNC=0 timeout "$TIMEOUT" "$GLEAM_RUN" "$@" ;;
	esac >"$log.out" 2>"$log.err"
	rc=$?
	t1=$(date +%s.%N)
	echo "$rc" >"$log.rc"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$log.secs"
	[ $rc -eq 124 ] && echo "(killed after ${TIMEOUT}s)" >>"$log.err"
	return 0
}

get() {
	cat "$OUT/$1/$2.$3" 2>/dev/null || echo -
}

# The steady-state time per inference from models.py's JSON line, in ms.
steady_ms() {
	local f=$OUT/$1/$2.out
	[ -s "$f" ] || { echo -; return; }
	tail -n 1 "$f" | "$PYTHON" -c '
import json, sys
try:
    print("%.2f" % (json.loads(sys.stdin.read())["steady_mean_s"] * 1e3))
except Exception:
    print("-")' 2>/dev/null || echo -
}

# Waits per inference in the steady state of a Gleam run: made/required
# (models.py's phase_gleam, what the shim counted for its session).
waits_per() {
	local f=$OUT/$1/$2.out
	[ -s "$f" ] || { echo -; return; }
	tail -n 1 "$f" | "$PYTHON" -c '
import json, sys
try:
    p = json.loads(sys.stdin.read())["phase_gleam"]
    n = max(p["iters"], 1)
    print("%.1f/%.1f" % (p["waits_made"] / n, p["waits_required"] / n))
except Exception:
    print("-")' 2>/dev/null || echo -
}

# The lines of a cuBLAS program's stderr that hash its results.
bits() {
	grep 'result bits' "$OUT/$1/$2.err" 2>/dev/null | sed 's/; max error.*//'
}

declare -A RESULT SAME
NAMES=()
failed=0
passed=0
skipped=0

verdict() {	# NAME RESULT WHY
	RESULT[$1]=$2
	case $2 in
	PASS) passed=$((passed + 1)); echo "PASS: $1" ;;
	SKIP) skipped=$((skipped + 1)); echo "SKIP: $1: $3" ;;
	*) failed=$((failed + 1)); echo "FAIL: $1: $3" ;;
	esac
}

# begin NAME: false when NAME is not to run; otherwise it is listed, with
# nothing left in the logs of an earlier run of it.
begin() {
	selected "$1" || return 1
	NAMES+=("$1")
	SAME[$1]=-
	rm -f "$OUT"/direct/"$1".* "$OUT"/gleam/"$1".* "$OUT"/gleam-sync/"$1".*
}

# judge NAME SAME WHY: whether the results were the same, and the verdict:
# PASS unless WHY says what failed.
judge() {
	SAME[$1]=$2
	if [ -z "$3" ]; then
		verdict "$1" PASS
	else
		verdict "$1" FAIL "$3"
	fi
}

# ---- cuBLAS programs
for name in "${CUBLAS_PROGS[@]}"; do
	begin "$name" || continue
	bin=$CUBLAS_DIR/$name
	if [ ! -x "$bin" ]; then
		if [ -e "$CUDA/lib64/libcublas.so" ]; then
			verdict "$name" FAIL "$bin not built (make)"
		else
			verdict "$name" SKIP "no cuBLAS in $CUDA/lib64, so not built"
		fi
		continue
	fi
	# The toolkit's libraries in case the program was built against
	# another path; Gleam's libcuda.so.1 still comes first (gleam-run).
	lib="LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$CUDA/lib64"
	for mode in direct gleam gleam-sync; do
		run_one "$mode" "$name" "$lib" -- "$bin"
	done
	why=""
	for mode in direct gleam gleam-sync; do
		[ -n "$why" ] && break
		[ "$(get "$mode" "$name" rc)" = 0 ] ||
			why="$mode exited $(get "$mode" "$name" rc) (see $OUT/$mode/$name.err)"
	done
	same=yes
	for mode in gleam gleam-sync; do
		if ! cmp -s "$OUT/direct/$name.out" "$OUT/$mode/$name.out"; then
			same=no
			[ -n "$why" ] || why="$mode stdout differs: diff $OUT/direct/$name.out $OUT/$mode/$name.out"
		elif [ "$(bits direct "$name")" != "$(bits "$mode" "$name")" ] || [ -z "$(bits direct "$name")" ]; then
			same=no
			[ -n "$why" ] || why="$mode results differ in their bits: diff <(grep 'result bits' $OUT/direct/$name.err) <(grep 'result bits' $OUT/$mode/$name.err)"
		fi
	done
	judge "$name" "$same" "$why"
done

# ---- PyTorch workloads
torch_why=""
if ! torch_ver=$("$PYTHON" -c 'import torch, numpy; print(torch.__version__)' 2>"$OUT/torch-import.err"); then
	torch_why="$PYTHON cannot import torch and numpy: $(tail -n 1 "$OUT/torch-import.err")"
else
	echo "PyTorch $torch_ver ($PYTHON)"
fi
TORCH_MODES=(gleam)
[ "${TORCH_CHECK_SYNC:-0}" = 1 ] && TORCH_MODES+=(gleam-sync)
for name in "${TORCH_WORKLOADS[@]}"; do
	begin "$name" || continue
	if [ -n "$torch_why" ]; then
		verdict "$name" SKIP "$torch_why"
		continue
	fi
	run_one direct "$name" -- "$PYTHON" "$TORCH_DIR/models.py" "$name" "$OUT/direct/$name.npz"
	if [ "$(get direct "$name" rc)" = 77 ]; then
		verdict "$name" SKIP "$(tail -n 1 "$OUT/direct/$name.err")"
		continue
	fi
	for mode in "${TORCH_MODES[@]}"; do
		run_one "$mode" "$name" GLEAM_PHASE_GLEAMCTL="$BUILD/bin/gleamctl" -- \
			"$PYTHON" "$TORCH_DIR/models.py" "$name" "$OUT/$mode/$name.npz"
	done
	why=""
	for mode in direct "${TORCH_MODES[@]}"; do
		[ -n "$why" ] && break
		[ "$(get "$mode" "$name" rc)" = 0 ] ||
			why="$mode exited $(get "$mode" "$name" rc): $(tail -n 1 "$OUT/$mode/$name.err") (see $OUT/$mode/$name.err)"
	done
	same=yes
	for mode in "${TORCH_MODES[@]}"; do
		if [ ! -s "$OUT/direct/$name.npz" ] || [ ! -s "$OUT/$mode/$name.npz" ]; then
			same=-
			continue
		fi
		"$PYTHON" "$TORCH_DIR/compare.py" --workload "$name" "$OUT/direct/$name.npz" \
			"$OUT/$mode/$name.npz" >"$OUT/$mode/$name.compare" 2>&1
		case $? in
		0) grep -q '^IDENTICAL' "$OUT/$mode/$name.compare" || same=tolerance ;;
		*)
			same=no
			[ -n "$why" ] || why="$mode results differ from the direct run's: $OUT/$mode/$name.compare"
			;;
		esac
	done
	judge "$name" "$same" "$why"
done

[ ${#NAMES[@]} -gt 0 ] || { echo "no such program or workload: ${WANT[*]}"; exit 1; }

echo
printf '%-14s %6s %6s %6s %9s %9s %9s %10s %10s %11s  %s\n' workload direct gleam sync \
	identical "direct s" "gleam s" "direct ms" "gleam ms" "waits m/r" result
for name in "${NAMES[@]}"; do
	printf '%-14s %6s %6s %6s %9s %9s %9s %10s %10s %11s  %s\n' "$name" \
		"$(get direct "$name" rc)" "$(get gleam "$name" rc)" "$(get gleam-sync "$name" rc)" \
		"${SAME[$name]}" "$(get direct "$name" secs)" "$(get gleam "$name" secs)" \
		"$(steady_ms direct "$name")" "$(steady_ms gleam "$name")" \
		"$(waits_per gleam "$name")" "${RESULT[$name]}"
done
echo "(rc: exit status, 124 killed after ${TIMEOUT}s; s: wall clock of the whole run;"
echo " ms: PyTorch's steady-state time per inference or training step; waits m/r:"
echo " waits Gleam made / waits the program's calls required, per steady-state inference)"
echo
echo "logs: $OUT"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -gt 0 ] && exit 1
[ $passed -eq 0 ] && exit 77
exit 0
