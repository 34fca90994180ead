#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Sessions that survive a dropped connection (Documentation/reliability.md):
# tools/linkem resets the link between the two gleamd and refuses new
# connections for a while, in the middle of a program's copies, of a burst
# of launches and of its synchronisations; the program must print what it
# prints on an uncut run and exit 0.  A cut longer than the grace period
# must end with a CUDA error, not a hang.  BACKEND=cuda runs it on the GPU
# (tests/gpu/run-all.sh), with PyTorch inference through a cut link and
# through a closed one too where python3 has torch.  Ends with "N passed,
# N failed".  (tests/integration/outage.sh goes through every way a link
# dies.)  GLEAM_TEST_TLS=1 runs it all over mutual TLS (make check-security
# does): a session taken up again is a new TLS connection of the same
# identity.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
LPORT=$((PORT + 1))
CTL=$TMP/linkem.ctl
EXPECTED=$ROOT/tests/programs/expected
PROGS=$BUILD/tests/programs

"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend "${BACKEND:-sim}" --keepalive 2 \
	--resume 8 "${SEC_SERVER[@]}" \
	>>"$TMP/server.log" 2>&1 &
SPID=$!
"$BIN/linkem" --listen "127.0.0.1:$LPORT" --connect "127.0.0.1:$PORT" --rate 1gbit \
	--delay 250us --control "$CTL" >>"$TMP/linkem.log" 2>&1 &
LKPID=$!
"$BIN/gleamd" client --server "127.0.0.1:$LPORT" --socket "$GLEAM_SOCKET" --state-dir "$(dirname "$GLEAM_SOCKET")" --keepalive 2 \
	--resume 8 "${SEC_CLIENT[@]}" >>"$TMP/client.log" 2>&1 &
CPID=$!
trap 'kill $LKPID 2>/dev/null; cleanup' EXIT
# Up once before the first cut: a server never reached is counted out at
# once (a program then fails fast), one that was up keeps its sessions.
for _ in $(seq 200); do
	"$BIN/gleamctl" servers 2>/dev/null | grep -q "127.0.0.1:$LPORT.* up" && [ -S "$CTL" ] && break
	sleep 0.05
done
export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels

# name cut-after cut-for command...: run, cut the link, compare with an uncut run.
cut_run() {
	local name=$1 after=$2 for=$3
	shift 3
	timeout 120 "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &
	local pid=$!
	sleep "$after"
	"$BIN/linkem" --ctl "$CTL" cut "$for" >/dev/null
	wait "$pid"
	echo $?
	# The next run starts on a link that speaks.
	"$BIN/linkem" --ctl "$CTL" restore >/dev/null
}

# file what rc expected: the run's verdict.
check() {
	local file=$1 what=$2 rc=$3 want=$4
	if [ "$rc" -ne 0 ]; then
		bad "$what: exited $rc: $(tail -n 2 "$TMP/$file.err")"
	elif ! cmp -s "$TMP/$file.out" "$want"; then
		bad "$what: printed something else than an uncut run"
		diff "$want" "$TMP/$file.out" | head -n 5
	else
		ok "$what: the same output as an uncut run"
	fi
}

# A program that starts while the link refuses connections: it waits, as a
# dropped session does, and runs once the link is back.
"$BIN/linkem" --ctl "$CTL" cut 2s >/dev/null
timeout 120 "$PROGS/memops" >"$TMP/start.out" 2>"$TMP/start.err"
rc=$?
"$BIN/linkem" --ctl "$CTL" restore >/dev/null
check start "a program started while the link was cut for 2 s" "$rc" "$EXPECTED/memops.out"

rc=$(cut_run copies-1s 1 1s "$PROGS/memops")
check copies-1s "a 1 s cut in the middle of copies" "$rc" "$EXPECTED/memops.out"
rc=$(cut_run copies-5s 1 5s "$PROGS/memops")
check copies-5s "a 5 s cut in the middle of copies" "$rc" "$EXPECTED/memops.out"
rc=$(cut_run streams-1s 0.3 1s "$PROGS/streams")
check streams-1s "a 1 s cut in the middle of synchronisations" "$rc" "$EXPECTED/streams.out"

# A link gone silent for 4 s (keepalive 2 s): taken for dropped, taken up again.
timeout 120 "$PROGS/memops" >"$TMP/stall.out" 2>"$TMP/stall.err" &
pid=$!
sleep 1
"$BIN/linkem" --ctl "$CTL" stall 4s >/dev/null
wait "$pid"
rc=$?
check stall "a link silent for 4 s in the middle of copies" "$rc" "$EXPECTED/memops.out"

# Large copies not named by content, whose pieces go from the ring itself
# and are read into the ring on the other side (plain TCP), through a
# client gleamd of their own: a cut in the middle of the upload, and one
# later (in the download, or the upload's end); every word must come back.
"$BIN/gleamd" client --server "127.0.0.1:$LPORT" --socket "$TMP/plain.sock" --cache off \
	--keepalive 2 --resume 8 "${SEC_CLIENT[@]}" >>"$TMP/plain.log" 2>&1 &
PLPID=$!
trap 'kill $LKPID $PLPID 2>/dev/null; cleanup' EXIT
for _ in $(seq 200); do
	GLEAM_SOCKET=$TMP/plain.sock "$BIN/gleamctl" servers 2>/dev/null | grep -q " up" && break
	sleep 0.05
done
for at in 1 3.5; do
	rc=$(GLEAM_SOCKET=$TMP/plain.sock cut_run "bigcopy-$at" "$at" 1s "$PROGS/bigcopy" $((256 << 20)))
	if [ "$rc" -eq 0 ] && grep -q "bytes: ok" "$TMP/bigcopy-$at.out"; then
		ok "a 1 s cut $at s into a 256 MiB copy each way, not named: every word back"
	else
		bad "a 1 s cut $at s into a 256 MiB copy each way, not named: exited $rc: $(tail -n 2 "$TMP/bigcopy-$at.err")"
	fi
done
n=$(grep -c "taken up again" "$TMP/plain.log")
if [ "$n" -ge 1 ]; then
	ok "the client gleamd without naming took the copies' sessions up again ($n times)"
else
	bad "the client gleamd without naming says it took sessions up $n times"
fi
kill "$PLPID"

# A burst of launches: the run completes, and says it made them all.
rc=$(cut_run launches 0.5 2s "$BIN/gleam-bench" launch-heavy 20000)
if [ "$rc" -eq 0 ] && grep -q '"waits":200' "$TMP/launches.out"; then
	ok "a 2 s cut in the middle of a burst of launches: all 20000 made, 200 waits"
else
	bad "launch burst: exited $rc: $(tail -c 200 "$TMP/launches.out") $(tail -n 2 "$TMP/launches.err")"
fi

# torch_run NAME WHAT: PyTorch's ResNet-50 inference through Gleam with the
# link down (linkem command WHAT) once the session is there and the weights
# have had time to land; its outputs must be bit for bit those of the
# direct run (tests/gpu/torch/compare.py).
torch_run() {
	local name=$1 what=$2 desc=$3 pid rc
	timeout 300 python3 "$models" resnet50 "$TMP/torch-$name.npz" --iters 20 \
		>"$TMP/torch-$name.out" 2>"$TMP/torch-$name.err" &
	pid=$!
	for _ in $(seq 600); do
		"$BIN/gleamctl" status 2>/dev/null | grep -q python3 && break
		sleep 0.05
	done
	sleep 3
	# shellcheck disable=SC2086 # WHAT: a command and its arguments
	"$BIN/linkem" --ctl "$CTL" $what >/dev/null
	wait "$pid"
	rc=$?
	"$BIN/linkem" --ctl "$CTL" restore >/dev/null
	if [ "$rc" -eq 0 ] && python3 "$ROOT/tests/gpu/torch/compare.py" --workload resnet50 \
		"$TMP/torch-direct.npz" "$TMP/torch-$name.npz" >"$TMP/torch-$name-compare.out" 2>&1; then
		ok "PyTorch ResNet-50 with $desc: outputs bit for bit those of a direct run"
	else
		bad "PyTorch ResNet-50 with $desc: exit $rc: $(tail -n 2 "$TMP/torch-$name.err") $(tail -n 1 "$TMP/torch-$name-compare.out" 2>/dev/null)"
	fi
}

# On the GPU, with PyTorch: ResNet-50 inference with the link cut for 2 s
# (reset, new connections refused), then closed for 3 s (both connections
# closed with a FIN, new ones refused: a relay, NAT or firewall between the
# machines that restarts).  Skipped where there is no GPU or python3
# cannot import torch.
if [ "${BACKEND:-sim}" = cuda ] && python3 -c 'import torch, torchvision' 2>/dev/null; then
	models=$ROOT/tests/gpu/torch/models.py
	env -u LD_LIBRARY_PATH timeout 300 python3 "$models" resnet50 "$TMP/torch-direct.npz" \
		--iters 20 >"$TMP/torch-direct.out" 2>"$TMP/torch-direct.err"
	torch_run cut "cut 2s" "a 2 s cut"
	torch_run closed "close 3s new=refuse" "the link closed for 3 s (FIN both ways, new connections refused)"
fi

n=$(grep -c "taken up again" "$TMP/client.log")
if [ "$n" -ge 4 ]; then
	ok "the client gleamd took the sessions up again ($n times)"
else
	bad "the client gleamd says it took sessions up $n times"
fi

# Longer than the grace period (8 s): an error, not a hang.
t0=$(date +%s)
rc=$(cut_run too-long 1 20s "$PROGS/memops")
t1=$(date +%s)
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "CUDA_ERROR\|unavailable\|UNAVAILABLE" "$TMP/too-long.out" "$TMP/too-long.err"; then
	ok "a cut longer than the grace period ended with an error after $((t1 - t0)) s"
else
	bad "a cut longer than the grace period: exit $rc after $((t1 - t0)) s"
fi
"$BIN/linkem" --ctl "$CTL" restore >/dev/null

for p in "$SPID" "$CPID"; do
	kill -0 "$p" 2>/dev/null || bad "a gleamd died"
done
summary
