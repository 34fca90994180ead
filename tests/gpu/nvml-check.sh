#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# nvml-check.sh: on a machine with an NVIDIA GPU, NVIDIA's own nvidia-smi
# through Gleam's libnvidia-ml.so.1.  Both gleamd roles start on this
# machine ($BUILD/bin/gleam-run, cuda backend, a socket and port of their
# own), a program holds 1 GiB of the GPU through Gleam, and nvidia-smi and
# nvidia-smi -q run as a client would run them: with Gleam's library
# directory in LD_LIBRARY_PATH and its libnvidia-ml.so.1 in LD_PRELOAD.
# nvidia-smi finds its library with dlopen; where it opens NVIDIA's by
# absolute path all the same (LD_DEBUG shows which file it mapped), the
# run is repeated as root in a mount namespace of its own, Gleam's library
# bind-mounted over each NVIDIA libnvidia-ml.so.1 it opened: the daemons,
# outside, keep NVIDIA's.  What NVIDIA's library shows directly is printed
# first, for comparison.
#
# Passes when nvidia-smi, through Gleam's library, lists the GPU by name
# with memory in use, and nvidia-smi -q shows its product name and
# memory.  GLEAM_NVML_DEBUG=1 names each call Gleam's library cannot
# answer and each export-table slot nvidia-smi uses.
#
# Environment: BUILD (default: build/ in the repository), OUT (logs;
# default $BUILD/nvml-check).  Exit status: 0 passed, 1 failed, 77 skipped.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
# shellcheck source=tests/lib/poll.sh
. "$ROOT/tests/lib/poll.sh"
OUT=${OUT:-$BUILD/nvml-check}
LIB=$BUILD/lib
SMI=$(command -v nvidia-smi || true)

skip() {
	echo "SKIP: $*"
	exit 77
}
[ -n "$SMI" ] && "$SMI" -L >/dev/null 2>&1 || skip "no NVIDIA GPU, driver or nvidia-smi here"
[ -x "$BUILD/bin/gleam-run" ] && [ -f "$LIB/libnvidia-ml.so.1" ] || skip "not built (make)"
rm -rf "$OUT"
mkdir -p "$OUT"
export GLEAM_SOCKET=$OUT/gleamd.sock
export GLEAM_PORT=$((20000 + $$ % 20000))
export GLEAM_BACKEND=cuda
holder=""

stop() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null
	wait 2>/dev/null
	"$BUILD/bin/gleam-run" --stop
}
trap stop EXIT

section() {
	printf '\n===== %s =====\n' "$*"
}

section "nvidia-smi with NVIDIA's libnvidia-ml.so.1 (directly)"
"$SMI" | tee "$OUT/direct.txt"

"$BUILD/bin/gleam-run" true || { echo "FAIL: the daemons did not start (logs in $OUT)"; exit 1; }
# 1 GiB held on the GPU through Gleam for half a minute, so that there is memory in use.
"$BUILD/bin/gleam-run" "$BUILD/tests/programs/steady" copy 30 1024 >"$OUT/steady.out" 2>&1 &
holder=$!
poll 200 "" output_has ' steady ' "$BUILD/bin/gleamctl" status
sleep 3

# run NAME ARGS...: nvidia-smi through Gleam's library; which libnvidia-ml it mapped in $OUT/NAME.ld.
run() {
	local name=$1
	shift
	LD_LIBRARY_PATH=$LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} LD_PRELOAD=$LIB/libnvidia-ml.so.1 \
		LD_DEBUG=files LD_DEBUG_OUTPUT=$OUT/$name.ld "$SMI" "$@" >"$OUT/$name.txt" 2>"$OUT/$name.err"
	echo $? >"$OUT/$name.rc"
}
# The libnvidia-ml files the run mapped, other than Gleam's.
nvidia_libs() {
	cat "$OUT/$1".ld.* 2>/dev/null | sed -n 's/.*file=\([^ ]*libnvidia-ml[^ ]*\) .*generating link map.*/\1/p' |
		grep -v "^$LIB/" | sort -u
}

how="LD_LIBRARY_PATH=$LIB LD_PRELOAD=$LIB/libnvidia-ml.so.1"
run smi
run smi-q -q
others=$(nvidia_libs smi; nvidia_libs smi-q)
if [ -n "$others" ]; then
	echo "nvidia-smi opened NVIDIA's library by path as well: $(echo $others)"
	[ "$(id -u)" = 0 ] && command -v unshare >/dev/null || {
		echo "FAIL: not root, or no unshare: cannot put Gleam's library in its place"
		exit 1
	}
	# Bind mounts in a namespace of this command's own: NVIDIA's files stay as they are.
	export -f run
	export LIB SMI OUT
	binds=""
	for f in $others; do
		binds="$binds mount --bind '$LIB/libnvidia-ml.so.1' '$(readlink -f "$f")' &&"
	done
	rm -f "$OUT"/smi.ld.* "$OUT"/smi-q.ld.*
	unshare -m bash -c "$binds run smi && run smi-q -q"
	how="$how, and Gleam's library bind-mounted over $(echo $others) in a mount namespace"
	# Those paths now hold Gleam's library: what else it mapped is what counts.
	covered=$others
	others=$( (nvidia_libs smi; nvidia_libs smi-q) | grep -vxF -f <(printf '%s\n' $covered) || true)
fi

section "nvidia-smi through Gleam ($how)"
cat "$OUT/smi.txt"
section "nvidia-smi -q through Gleam"
cat "$OUT/smi-q.txt"
section "what Gleam's library said (stderr)"
cat "$OUT/smi.err" "$OUT/smi-q.err"
section "gleamctl status"
"$BUILD/bin/gleamctl" status | tee "$OUT/status.txt"

name=$(sed -n 's/^ *Product Name *: *//p' "$OUT/smi-q.txt" | head -n 1)
fail=0
# 3: nvidia-smi's "not available on target device", for the fields of its
# view that Gleam cannot answer (ECC, temperature of a sim); the view is there.
case $(cat "$OUT/smi.rc") in
0 | 3) ;;
*) echo "FAIL: nvidia-smi exited $(cat "$OUT/smi.rc")"; fail=1 ;;
esac
[ -z "$others" ] || { echo "FAIL: nvidia-smi still mapped $others"; fail=1; }
grep -q 'H200\|NVIDIA' "$OUT/smi.txt" || { echo "FAIL: nvidia-smi lists no GPU"; fail=1; }
grep -Eq '[1-9][0-9]*MiB */ *[0-9]+MiB' "$OUT/smi.txt" || { echo "FAIL: no memory in use shown"; fail=1; }
[ -n "$name" ] || { echo "FAIL: nvidia-smi -q shows no product name"; fail=1; }
grep -q 'steady' "$OUT/smi.txt" && echo "nvidia-smi lists the program (steady) among its processes"
if [ $fail = 0 ]; then
	echo "PASS: NVIDIA's nvidia-smi, through Gleam's libnvidia-ml.so.1, lists $name with its memory in use"
fi
exit $fail
