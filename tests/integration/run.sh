#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Integration tests: a server and a client gleamd on loopback with the sim
# backend, the driver-API test programs through the whole path (shim, ring,
# client gleamd, TCP, server gleamd, replay worker) in both modes, hostile
# input against both daemons, and a program killed in the middle of a call.
# Outputs are compared with what the programs printed on NVIDIA's driver
# (tests/programs/expected/).  Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/programs
EXPECTED=$ROOT/tests/programs/expected

gleam() {
	LD_LIBRARY_PATH=$BUILD/lib timeout 300 "$@"
}

start_or_end "sim backend"

for mode in async sync; do
	for exp in "$EXPECTED"/*.out; do
		name=$(basename "$exp" .out)
		out=$TMP/$name.$mode.out
		GLEAM_ASYNC=$([ $mode = sync ] && echo 0 || echo 1) \
			gleam "$PROGS/$name" >"$out" 2>"$TMP/$name.$mode.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			bad "$name ($mode) exited $rc: $(tail -n 1 "$TMP/$name.$mode.err")"
		elif head -n 1 "$out" | grep -q '^SKIP: '; then
			# A program that needs more than this server has (twogpus: two devices).
			echo "$(head -n 1 "$out") ($mode)"
		elif ! cmp -s "$out" "$exp"; then
			bad "$name ($mode) printed other than on NVIDIA's driver"
			diff "$exp" "$out" | head -5
		else
			ok "$name ($mode) prints what it prints on NVIDIA's driver"
		fi
	done
	if GLEAM_ASYNC=$([ $mode = sync ] && echo 0 || echo 1) gleam "$PROGS/devinfo" \
		>"$TMP/devinfo.out" 2>&1 && grep -q '^device 0: Gleam sim device$' "$TMP/devinfo.out" &&
		grep -q '^devinfo: PASS$' "$TMP/devinfo.out"; then
		ok "devinfo ($mode) sees the server's device"
	else
		bad "devinfo ($mode)"
	fi
	# The sim's GPU reads its own host's pageable memory; through Gleam it
	# cannot read this one's, and the program is told so.  Managed and
	# mapped memory are offered, kept in step at synchronisations: not
	# concurrently, nor directly from the host.
	gleam "$PROGS/devinfo" --host-reach >"$TMP/reach.out" 2>&1
	if [ "$(tr '\n' ' ' <"$TMP/reach.out")" = "PAGEABLE_MEMORY_ACCESS: 0 \
PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES: 0 HOST_NATIVE_ATOMIC_SUPPORTED: 0 \
CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM: 0 MANAGED_MEMORY: 1 CONCURRENT_MANAGED_ACCESS: 0 \
DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: 0 CAN_MAP_HOST_MEMORY: 1 \
VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED: 1 HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED: 0 " ]; then
		ok "devinfo ($mode): no pageable or host-coherent memory through the network; managed and mapped memory, not concurrently"
	else
		bad "devinfo ($mode) --host-reach: $(tr '\n' ' ' <"$TMP/reach.out")"
	fi
done

# Copies timed as CUDA programs commonly time them (cudart, events around
# cudaMemcpyAsync from cudaHostAlloc memory, the host's clock around
# cudaMemcpy from malloc): the bytes arrive right each way.
if gleam "$BIN/gleam-bwtest" 4 3 >"$TMP/bwtest.out" 2>&1 && grep -q '"ok":true}$' "$TMP/bwtest.out"; then
	ok "gleam-bwtest: pinned and pageable copies each way, the bytes right ($(grep -c 'GB/s' "$TMP/bwtest.out") kinds timed)"
else
	bad "gleam-bwtest: $(tail -n 2 "$TMP/bwtest.out" | tr '\n' ' ')"
fi

# Uploads each followed by a synchronisation, as PyTorch loads a model: the
# synchronisations with nothing to wait for cost no round trip (asynchronous
# mode), every one does in the synchronous mode, and the data is right.
waits_of() {
	"$BIN/gleamctl" status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["client"]["ended"][-1]["waits"])'
}
if GLEAM_ASYNC=1 gleam "$PROGS/uploads" >/dev/null 2>&1 && aw=$(waits_of) &&
	GLEAM_ASYNC=0 gleam "$PROGS/uploads" >/dev/null 2>&1 && sw=$(waits_of) &&
	[ "$aw" -lt 20 ] && [ "$sw" -gt 64 ]; then
	ok "64 uploads, each synchronised: $aw round trips (synchronous mode: $sw)"
else
	bad "uploads: round trips ${aw:-?} asynchronously, ${sw:-?} synchronously"
fi

# waits_check PROGRAM MADE REQUIRED WHAT: PROGRAM, run through Gleam, made
# MADE waits, of which CUDA's rules required REQUIRED (its session's counts
# on the client gleamd); WHAT says so when it did.
waits_check() {
	local w
	if gleam "$PROGS/$1" >/dev/null 2>&1 &&
		w=$("$BIN/gleamctl" status --json | python3 -c '
import json, sys
e = json.load(sys.stdin)["client"]["ended"][-1]
print(e["program"], e["waits_made"], e["waits_required"])') && [ "$w" = "$1 $2 $3" ]; then
		ok "$4"
	else
		bad "$1: program, waits made and required: ${w:-?} (want $1 $2 $3)"
	fi
}

# The occupancy family and lookups by name, thousands of questions over the
# kernels of a cubin, answered by the shim: the program waits for its
# cuInit and for the addresses of the two variables it asks for, no more;
# and what it required by CUDA's rules is counted (none of it is).
waits_check occupancy 3 0 \
	"occupancy: every question answered without the server (3 waits: cuInit, 2 variables)"

# Device questions whose answer depends only on their arguments (the
# table's once): 1206 of them, from one thread and from four, cost one wait
# per distinct arguments, and every error its own, since none is kept
# (cuInit, 3 widths, 3 failing widths, 1 affinity, 2 failing affinities).
waits_check once 10 0 \
	"once: 1206 device questions, 10 waits (cuInit, one per distinct arguments, each failure)"

# Managed memory used by kernels and the host in turn: the GPU's writes come
# back behind each synchronisation's own answer, not in round trips of their
# own (Documentation/design.md, "Mapped and managed memory": 19 waits where
# the program's calls require 9).
waits_check managed 19 9 \
	"managed: 6 rounds of kernels and host reads, no round trip beyond their synchronisations"

# A copy larger than 4 GiB through a 4 MiB ring.
if [ "${GLEAM_SKIP_BIG:-0}" = 1 ]; then
	echo "SKIP: bigcopy (GLEAM_SKIP_BIG=1)"
elif gleam "$PROGS/bigcopy" >"$TMP/big.out" 2>&1; then
	ok "$(cat "$TMP/big.out") through a 4 MiB ring"
else
	bad "bigcopy: $(tail -n 1 "$TMP/big.out")"
fi

# gleamctl
if "$BIN/gleamctl" status --json | grep -q '"sessions_total":[1-9]'; then
	ok "gleamctl status --json counts the sessions"
else
	bad "gleamctl status --json"
fi
if "$BIN/gleamctl" status | grep -q 'GPU 0: Gleam sim device'; then
	ok "gleamctl status shows the server's GPUs"
else
	bad "gleamctl status shows GPUs"
fi

# Hostile input against both daemons.
if "$BUILD/tests/hostile" "$GLEAM_SOCKET" "127.0.0.1:$PORT" >"$TMP/hostile.out" 2>&1; then
	ok "hostile input: $(tail -n 1 "$TMP/hostile.out")"
else
	bad "hostile input"
	grep -v '^ok' "$TMP/hostile.out"
fi

# A program killed in the middle of its copies: its session ends, the
# daemons serve the next program, and no worker is left behind.
LD_LIBRARY_PATH=$BUILD/lib "$PROGS/memops" 268435456 >/dev/null 2>&1 &
victim=$!
sleep 1
kill -9 $victim 2>/dev/null
wait $victim 2>/dev/null
# Within about a second.  The client gleamd's goodbye goes out before its
# end of the connection closes, and it reads until the server closes, so no
# reset overtakes the goodbye (the server would keep the session for its
# grace period, 30 s).  10 s at most, and how long it took.
t0=$(date +%s)
for _ in $(seq 100); do
	workers=$(pgrep -P "$SPID" | wc -l)
	[ "$workers" -eq 0 ] && break
	sleep 0.1
done
took=$(($(date +%s) - t0))
if [ "$workers" -eq 0 ] && gleam "$PROGS/matmul" >/dev/null 2>&1 &&
	! "$BIN/gleamctl" status | grep -q memops; then
	ok "a program killed mid-copy leaves no session or worker behind (gone within $took s)"
else
	bad "kill -9 mid-copy: $workers worker(s) left after $took s"
fi

# Both daemons are still alive after everything above.
survived
summary
