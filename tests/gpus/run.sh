#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A server's GPUs on the wire: a sim server with two GPUs of different
# memory (GLEAM_SIM_GPUS, GLEAM_SIM_MEM); a session that names GPU 1 sees
# that GPU alone and is counted there; a GPU the server lacks, or one named
# on a control hello, is refused and the server serves on; utilisation rises
# while a program keeps a GPU busy and falls after; the time records wait
# rises when several sessions share one GPU.  Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + ($$ + 7919) % 12000))
export GLEAM_SIM_GPUS=2
export GLEAM_SIM_MEM=17179869184,8589934592
# The sim's GPUs keep the UUIDs below (a server otherwise seeds them from
# its listen address: Documentation/sim.md).
export GLEAM_SIM_SEED=0
. "$ROOT/tests/lib/daemons.sh"
T=$BUILD/tests/gpus
PTX=$BUILD/tests/kernels/misc.ptx
S=127.0.0.1:$PORT

start_or_end "sim backend, 2 GPUs"
# The test program links Gleam's libcuda.so.1 (for its load), the daemons do not.
export LD_LIBRARY_PATH=$BUILD/lib

# A field of GPU $2's line in INFO output $1.
field() { sed -n "s/^gpu $2 .*[ ]$3=\\([0-9]*\\).*/\\1/p" <<<"$1"; }

info=$("$T" "$S" info)
if grep -q '^gpu 0 name="Gleam sim device" sessions=0 .*mem_total=17179869184 ' <<<"$info" &&
	grep -q '^gpu 1 name="Gleam sim device 1" sessions=0 .*mem_total=8589934592 ' <<<"$info"; then
	ok "INFO lists two sim GPUs, each with its own name and memory"
else
	bad "INFO of a two-GPU sim server"; echo "$info"
fi

out=$("$T" "$S" session 1 2>&1)
if grep -q '^status 0 gpu_echoed=1$' <<<"$out" && grep -q '^devices 1$' <<<"$out" &&
	grep -q '^device 0 name="Gleam sim device 1" uuid=5152535455565758595a5b5c5d5e5f61 mem=8589934592$' <<<"$out"; then
	ok "a session that names GPU 1 sees one device, GPU 1, and the ack says so"
else
	bad "session on GPU 1"; echo "$out"
fi
if [ "$(field "$out" 1 sessions)" = 1 ] && [ "$(field "$out" 0 sessions)" = 0 ] &&
	[ "$(field "$out" 1 workers)" = 1 ] && [ "$(field "$out" 0 workers)" = 0 ]; then
	ok "INFO counts the session and its worker on GPU 1 alone"
else
	bad "per-GPU sessions"; echo "$out"
fi

out=$("$T" "$S" session 2 2>&1)
if grep -q '^status 22 gpu_echoed=0$' <<<"$out" && grep -q 'asked for GPU 2 of a server with 2' "$TMP/server.log"; then
	ok "a GPU the server lacks is refused (EINVAL), and the log says why"
else
	bad "GPU 2 of 2"; echo "$out"
fi
out=$("$T" "$S" control-gpu 2>&1)
if grep -q '^status 22 gpu_echoed=0$' <<<"$out"; then
	ok "a control hello that names a GPU is refused (EINVAL)"
else
	bad "control hello with a GPU"; echo "$out"
fi
out=$("$T" "$S" session 0 2>&1)
if grep -q '^device 0 name="Gleam sim device" uuid=5152535455565758595a5b5c5d5e5f60 ' <<<"$out" &&
	grep -q '^devices 1$' <<<"$out"; then
	ok "the server serves on: a session on GPU 0 sees GPU 0 alone"
else
	bad "session on GPU 0 after the refusals"; echo "$out"
fi

# A program through the client gleamd names no GPU: it sees both, and runs on GPU 0.
gleam() { timeout 120 "$@"; }

# A session that names no GPU sees both: copies between them both ways,
# and peer access, enabled once and refused the second time.
out=$("$T" "$S" peers 2>&1)
if [ "$(tr '\n' ' ' <<<"$out")" = "peers: devices 2 peers: device 0 reaches device 1: yes \
peers: access enabled yes peers: enabled again: error 704 \
peers: cuMemcpyPeer from GPU 0 to GPU 1 ok peers: cuMemcpyPeerAsync from GPU 1 to GPU 0 ok " ]; then
	ok "peer copies between two GPUs of a session that sees both, peer access enabled once"
else
	bad "peer copies between two GPUs"; echo "$out"
fi
# A driver-API program of two devices on one server: kernels on each, peer
# and unified copies both ways, an event of one waited for by the other's
# stream, peer access as the devices say; it prints what NVIDIA's driver
# prints on a machine of two GPUs.  In both orders of the server's GPUs;
# without the variable the scheduler gives the program one GPU, and it
# says SKIP.
for v in "0,1" "1,0"; do
	out=$(CUDA_VISIBLE_DEVICES=$v timeout 120 "$BUILD/tests/programs/twogpus" 2>&1)
	if [ "$out" = "$(cat "$ROOT/tests/programs/expected/twogpus.out")" ]; then
		ok "twogpus (CUDA_VISIBLE_DEVICES=$v) prints what it prints on NVIDIA's driver"
	else
		bad "twogpus (CUDA_VISIBLE_DEVICES=$v)"
		diff <(echo "$out") "$ROOT/tests/programs/expected/twogpus.out" | head -8
	fi
done
# Within one server a 2D copy between its two devices goes as on the driver.
out=$(CUDA_VISIBLE_DEVICES=0,1 timeout 60 "$BUILD/tests/programs/twogpus" 2d 2>&1)
if [ "$out" = "cuMemcpy2D from device 0 to device 1: ok" ]; then
	ok "a 2D copy between the two devices of one server, every row checked"
else
	bad "a 2D copy between the two devices of one server: $out"
fi
out=$(env -u CUDA_VISIBLE_DEVICES timeout 60 "$BUILD/tests/programs/twogpus" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$out" = "SKIP: twogpus needs two devices, this process sees 1" ]; then
	ok "twogpus with one device says SKIP and exits 0"
else
	bad "twogpus with one device: $out"
fi
# CUDA_VISIBLE_DEVICES through the client gleamd, read against the
# server's GPUs as NVIDIA's driver reads it against its own: indexes or
# UUIDs (whole, or a prefix that names one GPU), in the order given, the
# list ending at the first entry that names none; none at all is
# CUDA_ERROR_NO_DEVICE at cuInit, with one line that says why.
UUID1=GPU-51525354-5556-5758-595a-5b5c5d5e5f61
vis() {
	CUDA_VISIBLE_DEVICES=$1 timeout 60 "$BUILD/tests/programs/devinfo" 2>&1 |
		grep -E '^(devices|device [0-9]|  total memory|libcuda|FAIL)' | tr '\n' ' '
}
want1="devices: 1 device 0: Gleam sim device 1   total memory: 8589934592 "
want10="devices: 2 device 0: Gleam sim device 1   total memory: 8589934592 \
device 1: Gleam sim device   total memory: 17179869184 "
for c in "1|$want1|GPU 1 alone" "1,0|$want10|GPU 1 then GPU 0" \
	"$UUID1|$want1|GPU 1 by its UUID" \
	"0,7,1|devices: 1 device 0: Gleam sim device   total memory: 17179869184 |GPU 0, the list ending at 7"; do
	IFS='|' read -r v want what <<<"$c"
	got=$(vis "$v")
	if [ "$got" = "$want" ]; then
		ok "CUDA_VISIBLE_DEVICES=$v: $what"
	else
		bad "CUDA_VISIBLE_DEVICES=$v ($what): $got"
	fi
done
# GPU-5152... begins both sim GPUs' UUIDs: it names neither.
for v in "" 7 GPU-5152 GPU-51525354-5556-5758-595a-5b5c5d5e5f6 "x,0"; do
	got=$(vis "$v")
	if grep -q 'CUDA_ERROR_NO_DEVICE' <<<"$got" && grep -q 'names none of the 2 GPU' <<<"$got"; then
		ok "CUDA_VISIBLE_DEVICES=\"$v\": no device, and the reason: $(grep -o 'libcuda(gleam): [^ ]* [^ ]*' <<<"$got" | head -n 1) ..."
	else
		bad "CUDA_VISIBLE_DEVICES=\"$v\": $got"
	fi
done
# A program started with a client gleamd that has only just reached its
# server: its hello waits for the server's GPUs rather than failing.
"$BIN/gleamd" client --server "$S" --socket "$TMP/fresh.sock" --state-dir "$TMP" \
	>>"$TMP/fresh.log" 2>&1 &
FRESH=$!
poll 100 "" env GLEAM_SOCKET="$TMP/fresh.sock" "$BIN/gleamctl" status
got=$(GLEAM_SOCKET=$TMP/fresh.sock vis 1)
kill $FRESH
wait $FRESH 2>/dev/null
if [ "$got" = "$want1" ]; then
	ok "CUDA_VISIBLE_DEVICES=1 through a client gleamd started a moment before: GPU 1"
else
	bad "CUDA_VISIBLE_DEVICES=1 through a fresh client gleamd: $got"
fi
# A GPU named twice: cuInit fails with CUDA_ERROR_INVALID_DEVICE, as on the H200.
got=$(vis "1,1")
if grep -q 'CUDA_ERROR_INVALID_DEVICE' <<<"$got" && grep -q 'names a GPU twice' <<<"$got"; then
	ok "CUDA_VISIBLE_DEVICES=1,1: CUDA_ERROR_INVALID_DEVICE at cuInit, as the driver answers"
else
	bad "CUDA_VISIBLE_DEVICES=1,1: $got"
fi

sleep 2.2
info=$("$T" "$S" info)
if [ "$(field "$info" 0 util)" = 0 ] && [ "$(field "$info" 0 util_ok)" = 1 ]; then
	ok "an idle sim GPU: utilisation 0, measured"
else
	bad "idle utilisation"; echo "$info"
fi
gleam "$T" load "$PTX" 4 20000 5 >"$TMP/load.out" 2>&1 &
lp=$!
sleep 2.5
busy=$("$T" "$S" info)
wait $lp; lrc=$?
sleep 2.5
idle=$("$T" "$S" info)
u0=$(field "$busy" 0 util); u1=$(field "$busy" 1 util); u2=$(field "$idle" 0 util)
if [ $lrc -eq 0 ] && [ "${u0:-0}" -ge 60 ] && [ "${u1:-100}" -le 5 ] && [ "${u2:-100}" -le 5 ]; then
	ok "utilisation: GPU 0 ${u0}% while a program keeps it busy, GPU 1 ${u1}%, then ${u2}%"
else
	bad "utilisation: busy ${u0:-?}% (GPU 1 ${u1:-?}%), after ${u2:-?}%, load rc $lrc"
	cat "$TMP/load.out"; echo "$busy"; echo "$idle"
fi

# The mean wait of records over the last second, the most of three seconds.
wait_max() {
	local m=0 w
	for _ in 1 2 3; do
		sleep 1
		w=$(field "$("$T" "$S" info)" 0 wait_us)
		[ "${w:-0}" -gt "$m" ] && m=$w
	done
	echo $m
}
gleam "$T" load "$PTX" 5 5000 8 >/dev/null 2>&1 &
p1=$!
sleep 0.5
w1=$(wait_max)
wait $p1
sleep 1
pids=""
for _ in 1 2 3 4; do
	gleam "$T" load "$PTX" 5 5000 8 >/dev/null 2>&1 &
	pids="$pids $!"
done
sleep 0.5
w4=$(wait_max)
lrc=0
for p in $pids; do wait "$p" || lrc=1; done
# Four sessions queue behind each other (about 4x the wait on an idle
# machine); a busy one (two cores, other jobs) inflates the single
# session's wait too, so more than half again is what is asked.
if [ $lrc -eq 0 ] && [ "$w1" -gt 0 ] && [ "$w4" -gt $((w1 * 3 / 2)) ]; then
	ok "wait: records waited ${w1} us with one session on the GPU, ${w4} us with four"
else
	bad "wait: ${w1} us with one session, ${w4} us with four (load rc $lrc)"
fi

survived "$TMP/server.log"
summary
