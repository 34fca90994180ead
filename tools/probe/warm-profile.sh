#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# warm-profile.sh [MIB [COPIES [each]]]: where a warm model load spends its
# time.  Starts a server and a client gleamd on loopback (no link
# emulation), loads MIB MiB of weights in COPIES copies (gleam-bench load;
# with `each`, an allocation per copy) directly when NVIDIA's driver is
# there, then through Gleam cold and warm, and prints the
# wall time of each with the CPU seconds every thread of both daemons spent
# in the warm load, and what the worker says of its replay.  With perf on
# the machine, the warm load is also recorded system-wide and summarised by
# thread and library.
#
# warm-profile.sh torch:MODEL does the same with PyTorch's model.to("cuda")
# (tests/gpu/torch/models.py MODEL --load-only).
#
# Environment: BUILD (default build), GLEAM_BACKEND (cuda when a GPU is
# there, else sim), OUT (default $BUILD/warm-profile).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
OUT=${OUT:-$BUILD/warm-profile}
MIB=${1:-512}
COPIES=${2:-64}
EACH=${3:-}
B=$BUILD/bin
mkdir -p "$OUT"
backend=${GLEAM_BACKEND:-}
[ -z "$backend" ] && { nvidia-smi -L >/dev/null 2>&1 && backend=cuda || backend=sim; }
tmp=$(mktemp -d /tmp/gleam-warm.XXXXXX)
sock=$tmp/client.sock
port=$((23000 + $$ % 20000))
export GLEAM_TEST_KERNELS=$BUILD/tests/kernels
env -u LD_LIBRARY_PATH "$B/gleamd" server --listen 127.0.0.1:$port --backend $backend \
	>"$OUT/server.log" 2>&1 &
spid=$!
sleep 1
env -u LD_LIBRARY_PATH "$B/gleamd" client --server 127.0.0.1:$port --socket "$sock" \
	>"$OUT/client.log" 2>&1 &
cpid=$!
for _ in $(seq 50); do GLEAM_SOCKET=$sock "$B/gleamctl" status >/dev/null 2>&1 && break; sleep 0.1; done

# CPU seconds (user+system) of each thread of a process: "tid comm seconds".
threads() {
	local tck
	tck=$(getconf CLK_TCK)
	for t in /proc/$1/task/*; do
		awk -v t="${t##*/}" -v k="$tck" '{ sub(/^[^)]*\) /, ""); print t, ($12 + $13) / k }' \
			"$t/stat" 2>/dev/null
	done
}
load() {
	/usr/bin/time -f "%e" -o "$tmp/wall" "$@" >"$tmp/json" 2>"$tmp/err"
	echo "$(cat "$tmp/wall") s wall; $(grep '^{' "$tmp/json" | tail -n 1)"
}
seed=$((RANDOM + 7))
case $MIB in
torch:*) cmd=(python3 "$ROOT/tests/gpu/torch/models.py" "${MIB#torch:}" "$tmp/out.npz" --load-only
	--weights-seed $seed) ;;
*) cmd=("$B/gleam-bench" load "$MIB" "$COPIES" $seed $EACH) ;;
esac
if [ $backend = cuda ]; then
	echo "direct: $(load "${cmd[@]}")"
	echo "direct: $(load "${cmd[@]}")"
fi
export GLEAM_SOCKET=$sock LD_LIBRARY_PATH=$BUILD/lib
echo "cold:   $(load "${cmd[@]}")"
threads $cpid >"$tmp/c0"; threads $spid >"$tmp/s0"
if command -v perf >/dev/null 2>&1; then
	perf record -q -a -g -o "$tmp/perf.data" -- \
		"${cmd[@]}" >"$tmp/json" 2>/dev/null
	echo "warm (perf): $(cat "$tmp/json")"
fi
echo "warm:   $(load "${cmd[@]}")"
threads $cpid >"$tmp/c1"; threads $spid >"$tmp/s1"
echo "warm:   $(load "${cmd[@]}")"
echo "CPU seconds per daemon thread over the warm load(s):"
join "$tmp/c0" "$tmp/c1" | awk '{ if ($3 - $2 > 0.005) printf "  client %-7s %.3f\n", $1, $3 - $2 }'
join "$tmp/s0" "$tmp/s1" | awk '{ if ($3 - $2 > 0.005) printf "  server %-7s %.3f\n", $1, $3 - $2 }'
sleep 0.5
echo "worker replay (server log):"
grep -E "replayed" "$OUT/server.log" | tail -n 4 | sed 's/^/  /'
unset LD_LIBRARY_PATH
if [ -f "$tmp/perf.data" ]; then
	perf report -i "$tmp/perf.data" --no-children --sort pid,dso -g none 2>/dev/null |
		grep '%' | grep -v '^#' | head -n 25 >"$OUT/perf-by-thread.txt"
	perf report -i "$tmp/perf.data" --no-children --sort pid,sym -g none 2>/dev/null |
		grep '%' | grep -v '^#' | head -n 60 >"$OUT/perf-by-symbol.txt"
	echo "perf, by thread and library:"
	head -n 25 "$OUT/perf-by-thread.txt"
fi
kill $cpid $spid 2>/dev/null
wait 2>/dev/null
rm -rf "$tmp"
