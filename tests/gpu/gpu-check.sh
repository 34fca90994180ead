#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# gpu-check.sh [PROGRAM...]: on a machine with an NVIDIA GPU and driver, runs
# each test program directly (NVIDIA's libcuda.so.1) and through Gleam
# ($BUILD/bin/gleam-run, both gleamd roles on this machine, real backend),
# once with the default asynchronous mode and once with GLEAM_ASYNC=0.  A
# program passes when every run exits 0 and the Gleam runs' stdout equals
# the direct run's byte for byte.  With no PROGRAM named, then runs
# tests/gpu/torch-check.sh (cuBLAS programs and PyTorch workloads, directly
# and through Gleam; logs in $OUT/torch-check), whose failure fails this.
#
# Environment: BUILD (default: build/ in the repository), OUT (logs; default
# $BUILD/gpu-check), GPU_CHECK_TIMEOUT (seconds per run; default 900),
# GLEAM_SKIP_TORCH (1: not torch-check.sh).
# Exit status: 0 all passed, 1 a failure, 77 skipped (no GPU or no build).
set -u

WANT=("$@")	# programs to run; all when empty
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/gpu-check}
TIMEOUT=${GPU_CHECK_TIMEOUT:-900}
PROGDIR=$BUILD/tests/programs
GLEAM_RUN=$BUILD/bin/gleam-run

# Program and its arguments, in the order they run.
PROGRAMS=(
	"devinfo"
	"vecadd"
	"matmul"
	"memops 1073741824"
	"streams"
	"contexts"
	"threads"
	"errors"
	"asyncerr"
	"graphs"
	"allocs"
	"bigcopy"
	"occupancy --device"
	"steady launch 2"
	"rowfills"
	"arrays"
	"hostfn"
	"devprintf"
	"gnodes"
	"jitlink"
	"vmm"
	"peers"
	"mapped"
	"managed"
	"twogpus"
	"once"
)

# The environment a program's runs get, all of them.  twogpus: both GPUs
# where there are two (the scheduler otherwise gives a session one), one
# where there is one (then it says SKIP both ways).
declare -A PROG_ENV=([twogpus]="CUDA_VISIBLE_DEVICES=0,1")

# Run modes: name and the environment the Gleam runs get.
MODES=(gleam gleam-sync)
declare -A MODE_ENV=([gleam]="" [gleam-sync]="GLEAM_ASYNC=0")

# shellcheck source=tests/lib/gpu.sh
. "$ROOT/tests/lib/gpu.sh"
for p in "${PROGRAMS[@]}"; do
	set -- $p
	[ -x "$PROGDIR/$1" ] || skip "$PROGDIR/$1 not built (make)"
done

mkdir -p "$OUT/direct" "$OUT/gleam" "$OUT/gleam-sync" || exit 1

# run_one MODE NAME ARGS...: writes $OUT/MODE/NAME.{out,err,rc}.
run_one() {
	local mode=$1 name=$2 rc
	shift 2
	local log=$OUT/$mode/$name
	if [ "$mode" = direct ]; then
		env ${PROG_ENV[$name]:-} timeout "$TIMEOUT" "$PROGDIR/$name" "$@" \
			>"$log.out" 2>"$log.err"
	else
		env ${MODE_ENV[$mode]} ${PROG_ENV[$name]:-} timeout "$TIMEOUT" "$GLEAM_RUN" \
			"$PROGDIR/$name" "$@" >"$log.out" 2>"$log.err"
	fi
	rc=$?
	echo "$rc" >"$log.rc"
	return 0
}

declare -A RESULT RC
failed=0
ran=0
for p in "${PROGRAMS[@]}"; do
	set -- $p
	name=$1
	shift
	selected "$name" || continue
	ran=$((ran + 1))

	run_one direct "$name" "$@"
	RC[$name,direct]=$(cat "$OUT/direct/$name.rc")
	for mode in "${MODES[@]}"; do
		run_one "$mode" "$name" "$@"
		RC[$name,$mode]=$(cat "$OUT/$mode/$name.rc")
	done

	why=""
	[ "${RC[$name,direct]}" = 0 ] ||
		why="direct run exited ${RC[$name,direct]} (see $OUT/direct/$name.err)"
	for mode in "${MODES[@]}"; do
		[ -n "$why" ] && break
		if [ "${RC[$name,$mode]}" != "${RC[$name,direct]}" ]; then
			why="$mode exited ${RC[$name,$mode]} (see $OUT/$mode/$name.err)"
		elif ! cmp -s "$OUT/direct/$name.out" "$OUT/$mode/$name.out"; then
			why="$mode stdout differs: diff $OUT/direct/$name.out $OUT/$mode/$name.out"
		fi
	done
	if [ -z "$why" ] && head -n 1 "$OUT/direct/$name.out" | grep -q '^SKIP: '; then
		# Needs more than this machine has (twogpus: two GPUs), and says so both ways.
		RESULT[$name]=SKIP
		echo "$(head -n 1 "$OUT/direct/$name.out")"
	elif [ -z "$why" ]; then
		RESULT[$name]=PASS
		echo "PASS: $name${*:+ $*}"
	else
		RESULT[$name]=FAIL
		failed=$((failed + 1))
		echo "FAIL: $name${*:+ $*}: $why"
	fi
done

[ $ran -gt 0 ] || { echo "no such program: ${WANT[*]}"; exit 1; }

echo
printf '%-10s %6s %6s %10s  %s\n' program direct gleam gleam-sync result
for p in "${PROGRAMS[@]}"; do
	set -- $p
	[ -n "${RESULT[$1]:-}" ] || continue
	printf '%-10s %6s %6s %10s  %s\n' "$1" "${RC[$1,direct]}" \
		"${RC[$1,gleam]}" "${RC[$1,gleam-sync]}" "${RESULT[$1]}"
done
echo
echo "logs: $OUT"
if [ $failed -gt 0 ]; then
	echo "gpu-check: $failed of $ran programs FAILED"
else
	echo "gpu-check: all $ran programs passed"
fi

# The libraries that real programs use, cuBLAS and PyTorch, the same way
# (tests/gpu/torch-check.sh), with the whole suite: when no program is
# named and GLEAM_SKIP_TORCH is not 1.  Skipped there (no cuBLAS, no
# torch) is no failure here.
torch_rc=0
if [ ${#WANT[@]} -eq 0 ] && [ "${GLEAM_SKIP_TORCH:-0}" != 1 ]; then
	echo
	echo "== cuBLAS and PyTorch (tests/gpu/torch-check.sh)"
	BUILD=$BUILD OUT=$OUT/torch-check "$ROOT/tests/gpu/torch-check.sh"
	torch_rc=$?
	[ $torch_rc -eq 77 ] && torch_rc=0
	[ $torch_rc -ne 0 ] && echo "gpu-check: cuBLAS and PyTorch checks FAILED"
fi
[ $failed -eq 0 ] && [ $torch_rc -eq 0 ]
