#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A session over two servers: two sim servers of one GPU each behind one
# client gleamd.  CUDA_VISIBLE_DEVICES names both GPUs by UUID, in either
# order: the program sees two devices in that order, each with its own
# UUID; peer copies between them both ways (sync and async) go through
# the client, and cuDeviceCanAccessPeer says no; the two-device program
# (twogpus), also through a cut of one server's link; gleamctl assign of
# GPUs of both.  Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + ($$ + 4099) % 12000))
PORT2=$((PORT + 1))
. "$ROOT/tests/lib/daemons.sh"
# Sessions of one server open stripes; a session over several never does
# (its parts share one ring for their replies, and a striped reply would
# be published half written by another part's).
export GLEAM_STRIPES=4
export LD_LIBRARY_PATH=$BUILD/lib

# A program of the test, ended after $1 seconds, its output line by line
# so that one ended shows how far it got.  One that runs out of time first
# has what the client gleamd says of its sessions, and the ends of the
# daemons' logs, written to the test's own output (fd 3), then ends with
# status 124 as under timeout(1).
exec 3>&1
prog() {
	local secs=$1 pid n=0
	shift
	stdbuf -oL "$@" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if [ $n -ge $((secs * 10)) ]; then
			{
				echo "still running after $secs s: $*; the client gleamd's view:"
				"$BIN/gleamctl" status 2>&1 | sed 's/^/    /'
				"$BIN/gleamctl" stats 2>&1 | sed 's/^/    /'
				for log in client server server2 linkem; do
					echo "  the end of $log.log:"
					tail -n 12 "$TMP/$log.log" 2>/dev/null | sed 's/^/    /'
				done
			} >&3
			kill -9 "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			return 124
		fi
		sleep 0.1
		n=$((n + 1))
	done
	wait "$pid"
}

# The UUID a sim server at 127.0.0.1:$1 gives its GPU 0 (Documentation/sim.md).
uuid() {
	python3 -c "
h = 2166136261
for ch in b'127.0.0.1:$1':
    h = ((h ^ ch) * 16777619) & 0xffffffff
h |= 1
print('GPU-51525354-5556-5758-%02x%02x-%02x%02x5d5e5f60' % (h >> 24, (h >> 16) & 255, (h >> 8) & 255, h & 255))"
}

# The second server is reached through tools/linkem (LPORT2), whose link
# is cut in the middle of a program at the end.
LPORT2=$((PORT + 2))
CTL=$TMP/linkem.ctl
start_or_end "sim backend, first of two servers"
"$BIN/gleamd" server --listen "127.0.0.1:$PORT2" --backend sim >>"$TMP/server2.log" 2>&1 &
SPID2=$!
"$BIN/linkem" --listen "127.0.0.1:$LPORT2" --connect "127.0.0.1:$PORT2" --control "$CTL" \
	>>"$TMP/linkem.log" 2>&1 &
LKPID=$!
trap 'kill $SPID2 $LKPID 2>/dev/null; cleanup' EXIT
poll 100 "" "$BIN/gleamctl" server-info "127.0.0.1:$PORT2"
"$BIN/gleamctl" servers add "127.0.0.1:$LPORT2" >/dev/null
poll 100 "" output_has "127.0.0.1:$LPORT2 up" "$BIN/gleamctl" servers
# Its INFO (its GPUs' UUIDs) follows its hello.
sleep 1.5
U1=$(uuid "$PORT")
U2=$(uuid "$PORT2")
if [ "$U1" != "$U2" ]; then
	ok "the two sim servers' GPUs have different UUIDs ($U1, $U2)"
else
	bad "both sim servers gave their GPU the UUID $U1"
fi

uuids() {
	CUDA_VISIBLE_DEVICES=$1 prog 60 "$BUILD/tests/programs/devinfo" 2>&1 |
		grep -E '^(devices|  uuid|FAIL)' | tr '\n' ' '
}
for order in "$U1,$U2|${U1#GPU-} ${U2#GPU-}" "$U2,$U1|${U2#GPU-} ${U1#GPU-}"; do
	IFS='|' read -r v want <<<"$order"
	set -- $want
	got=$(uuids "$v")
	if [ "$got" = "devices: 2   uuid: $1   uuid: $2 " ]; then
		ok "CUDA_VISIBLE_DEVICES=$v: two devices of two servers, in that order"
	else
		bad "CUDA_VISIBLE_DEVICES=$v: $got"
	fi
done

# Either order: the server whose GPU comes second numbers it 0, as NVIDIA's
# driver shown only that GPU does, and its worker renumbers the program's
# device 1 to its own 0 (both servers renumber in one order or the other).
want_peers="devices: 2
a device is its own peer: no
cuMemcpyPeer from device 0 to device 1 ok
cuMemcpyPeerAsync back from device 0 to device 1 ok
device 0 reaches device 1: no
cuMemcpyPeer from device 1 to device 0 ok
cuMemcpyPeerAsync back from device 1 to device 0 ok
device 1 reaches device 0: no
peers: PASS"
for v in "$U1,$U2" "$U2,$U1"; do
	out=$(CUDA_VISIBLE_DEVICES=$v prog 120 "$BUILD/tests/programs/peers" all 2>&1)
	if [ "$out" = "$want_peers" ]; then
		ok "CUDA_VISIBLE_DEVICES=$v: peer copies across the two servers both ways, sync and async; no direct access"
	else
		bad "peers across two servers, CUDA_VISIBLE_DEVICES=$v"; echo "$out"
	fi
done
# A 2D copy between the two servers' memory is not carried: the driver's
# error for an unsupported feature, said once on stderr, and the session
# goes on.
out=$(CUDA_VISIBLE_DEVICES=$U1,$U2 prog 60 "$BUILD/tests/programs/twogpus" 2d 2>"$TMP/2d.err")
if [ "$out" = "cuMemcpy2D from device 0 to device 1: CUDA_ERROR_NOT_SUPPORTED" ] &&
	grep -q "2D and 3D copies with an end on another server" "$TMP/2d.err"; then
	ok "a 2D copy between two servers' memory: CUDA_ERROR_NOT_SUPPORTED, said on stderr"
else
	bad "a 2D copy between two servers: $out $(tail -n 1 "$TMP/2d.err")"
fi

# The two-device program (tests/programs/twogpus.c) over the two servers,
# in both orders: what NVIDIA's driver prints on a machine of two GPUs.
for v in "$U1,$U2" "$U2,$U1"; do
	out=$(CUDA_VISIBLE_DEVICES=$v prog 120 "$BUILD/tests/programs/twogpus" 2>&1)
	if [ "$out" = "$(cat "$ROOT/tests/programs/expected/twogpus.out")" ]; then
		ok "twogpus over two servers (CUDA_VISIBLE_DEVICES=$v) prints what it prints on NVIDIA's driver"
	else
		bad "twogpus over two servers (CUDA_VISIBLE_DEVICES=$v)"
		diff <(echo "$out") "$ROOT/tests/programs/expected/twogpus.out" | head -8
	fi
done
# gleamctl servers shows each GPU's UUID, which assign takes.
if "$BIN/gleamctl" servers | grep -q "^  GPU 0 $U2 " &&
	"$BIN/gleamctl" servers --json | grep -q "\"uuid\":\"$U1\""; then
	ok "gleamctl servers (text and JSON) shows each GPU's UUID"
else
	bad "gleamctl servers shows no UUIDs"; "$BIN/gleamctl" servers
fi
# gleamctl assign of several GPUs, by UUID and by SERVER:GPU: the program
# gets them as devices 0..N-1 in that order, without CUDA_VISIBLE_DEVICES;
# its CUDA_VISIBLE_DEVICES then picks among them.
assigned() {
	prog 60 "$BUILD/tests/programs/devinfo" 2>&1 | grep -E '^(devices|  uuid|FAIL)' | tr '\n' ' '
}
for pin in "$U2,127.0.0.1:$PORT:0|${U2#GPU-} ${U1#GPU-}|2" \
	"127.0.0.1:$PORT:0,127.0.0.1:$LPORT2:0|${U1#GPU-} ${U2#GPU-}|2" "$U2|${U2#GPU-}|1"; do
	IFS='|' read -r list want n <<<"$pin"
	set -- $want
	if ! "$BIN/gleamctl" assign socket "$list" >/dev/null; then
		bad "gleamctl assign socket $list refused"
		continue
	fi
	got=$(env -u CUDA_VISIBLE_DEVICES "$BUILD/tests/programs/devinfo" 2>&1 |
		grep -E '^(devices|  uuid|FAIL)' | tr '\n' ' ')
	if [ "$n" = 2 ] && [ "$got" = "devices: 2   uuid: $1   uuid: $2 " ]; then
		ok "assign socket $list: two devices in that order"
	elif [ "$n" = 1 ] && [ "$got" = "devices: 1   uuid: $1 " ]; then
		ok "assign socket $list: that one device"
	else
		bad "assign socket $list: $got"
	fi
done
"$BIN/gleamctl" assign socket "$U1,$U2" >/dev/null
got=$(CUDA_VISIBLE_DEVICES=1 assigned)
if [ "$got" = "devices: 1   uuid: ${U2#GPU-} " ]; then
	ok "CUDA_VISIBLE_DEVICES=1 under a pin of two GPUs: the pin's second"
else
	bad "CUDA_VISIBLE_DEVICES=1 under a pin of two GPUs: $got"
fi
out=$(prog 120 "$BUILD/tests/programs/peers" all 2>&1)
if [ "$out" = "$want_peers" ]; then
	ok "peer copies across the two servers of a pin"
else
	bad "peers across the two servers of a pin"; echo "$out"
fi
if "$BIN/gleamctl" stats | grep -q "socket -> GPUs $U1,$U2"; then
	ok "gleamctl stats shows the pin's GPUs"
else
	bad "gleamctl stats does not show the pin's GPUs"
fi
for wrong in "$U1,$U1" "GPU-zz" "127.0.0.1:$PORT:7,$U2" "127.0.0.1:$PORT,$U2"; do
	if "$BIN/gleamctl" assign socket "$wrong" >/dev/null 2>&1; then
		bad "gleamctl assign socket $wrong accepted"
	else
		ok "gleamctl assign socket $wrong refused"
	fi
done
"$BIN/gleamctl" assign --clear socket >/dev/null

if grep -q "to 2 servers, 2 GPUs" "$TMP/client.log"; then
	ok "the client gleamd gave those sessions one connection per server"
else
	bad "no session over two servers in the client's log"; tail -n 20 "$TMP/client.log"
fi
# Both servers replayed records of the same program.
if grep -q "peers (pid" "$TMP/server.log" && grep -q "peers (pid" "$TMP/server2.log"; then
	ok "each server ran a worker for the program"
else
	bad "a server saw no session of the program"
fi

# The second server's link reset and refused for a second in the middle
# of a program over both servers: its part is taken up again (the first's
# never dropped), and the program prints what an uncut run prints.
# Forty rounds of it take a few seconds on the sim: the cut is at one.
for v in "$U1,$U2" "$U2,$U1"; do
	t0=$(date +%s.%N)
	CUDA_VISIBLE_DEVICES=$v prog 120 "$BUILD/tests/programs/twogpus" 40 \
		>"$TMP/cut.out" 2>"$TMP/cut.err" &
	pid=$!
	sleep 1
	"$BIN/linkem" --ctl "$CTL" cut 1s >/dev/null
	# Meanwhile gleamctl status shows the session split over two parts,
	# the second's link away (its program still running when asked).
	sleep 0.3
	st=$("$BIN/gleamctl" status)
	js=$("$BIN/gleamctl" status --json)
	if kill -0 "$pid" 2>/dev/null; then
		if grep -q "^[0-9].* twogpus .* split$" <<<"$st" &&
			grep -q "^  [0-9].* twogpus .* 127.0.0.1:$LPORT2 *away [0-9.]* s$" <<<"$st" &&
			grep -q '"state":"split".*"parts":\[.*"state":"away"' <<<"$js" &&
			grep -q '"parts":\[.*"state":"up"' <<<"$js"; then
			ok "gleamctl status shows the session split in two parts, the cut one away"
		else
			bad "gleamctl status during the cut:"; echo "$st"
		fi
	fi
	wait "$pid"
	rc=$?
	"$BIN/linkem" --ctl "$CTL" restore >/dev/null
	took=$(awk "BEGIN { printf \"%.1f\", $(date +%s.%N) - $t0 }")
	if [ $rc -eq 0 ] && cmp -s "$TMP/cut.out" "$ROOT/tests/programs/expected/twogpus.out"; then
		ok "twogpus (CUDA_VISIBLE_DEVICES=$v) through a 1 s cut of the second server's link: the same output as an uncut run ($took s)"
	else
		bad "twogpus (CUDA_VISIBLE_DEVICES=$v) through a cut: exited $rc: $(tail -n 2 "$TMP/cut.err")"
		diff "$TMP/cut.out" "$ROOT/tests/programs/expected/twogpus.out" | head -5
	fi
done
if grep -q "resum\|taken up" "$TMP/client.log"; then
	ok "the client took the cut part up again"
else
	bad "no part taken up again in the client's log"; tail -n 20 "$TMP/client.log"
fi

if kill -0 "$SPID2" 2>/dev/null; then
	ok "the second server survived"
else
	bad "the second server died"; tail -n 20 "$TMP/server2.log"
fi
survived
summary
