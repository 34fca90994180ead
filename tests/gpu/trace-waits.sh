#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# trace-waits.sh [WORKLOAD...]: on a machine with an NVIDIA GPU and
# PyTorch, each workload of tests/gpu/torch/models.py through Gleam
# (gleam-run, both gleamd roles here) with GLEAM_TRACE_WAITS=1, and the
# calls that waited for the server during its steady state, counted per
# function and per iteration.  A wait the program did not ask for shows
# here by name.
#
# Environment: BUILD, OUT (logs; default $BUILD/trace-waits), PYTHON,
# TRACE_ITERS (steady-state iterations; default 10).  Ends with a table.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/trace-waits}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
PYTHON=${PYTHON:-python3}
ITERS=${TRACE_ITERS:-10}
WORKLOADS=("$@")
[ ${#WORKLOADS[@]} -eq 0 ] &&
	WORKLOADS=(resnet50-b1 resnet50 bert gpt2 gpt2-generate mlp-train cuda-graph mallocasync)
mkdir -p "$OUT"

"$PYTHON" -c 'import torch, numpy' 2>/dev/null || { echo "SKIP: $PYTHON cannot import torch"; exit 77; }

rows=""
for w in "${WORKLOADS[@]}"; do
	err=$OUT/$w.err
	iters=$ITERS
	[ "$w" = gpt2-generate ] && iters=2
	GLEAM_TRACE_WAITS=1 timeout 600 "$BUILD/bin/gleam-run" "$PYTHON" \
		"$ROOT/tests/gpu/torch/models.py" "$w" "$OUT/$w.npz" --iters "$iters" \
		>"$OUT/$w.out" 2>"$err"
	rc=$?
	# The waits between the steady state's markers, per function.
	sed -n '/models.py: steady state begins/,/models.py: steady state ends/p' "$err" |
		sed -n 's/.*waits: \([A-Za-z0-9_]*\).*/\1/p' | sort | uniq -c | sort -rn >"$OUT/$w.steady"
	total=$(awk '{s += $1} END {print s + 0}' "$OUT/$w.steady")
	n=$(sed -n 's/.*steady [0-9.]* s mean of \([0-9]*\).*/\1/p' "$OUT/$w.out" | tail -n 1)
	[ -n "$n" ] || n=$iters
	top=$(head -n 4 "$OUT/$w.steady" | awk '{ printf "%s %d; ", $2, $1 }')
	rows="$rows$(printf '%-14s %4s %5s %8s %9s  %s' "$w" "$rc" "$n" "$total" \
		"$(awk -v t="$total" -v n="$n" 'BEGIN {printf "%.1f", t / n}')" "$top")
"
	grep 'waits at exit' "$err" | tail -n 1 >>"$OUT/$w.steady"
done
"$BUILD/bin/gleam-run" --stop
printf '%-14s %4s %5s %8s %9s  %s\n' workload exit iters waits per-iter "most frequent in the steady state"
printf '%s' "$rows"
