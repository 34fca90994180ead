#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Stripes (Documentation/protocol.md, "Stripes"): a session's large
# messages on further connections.  With GLEAM_STRIPES=4 on the client
# gleamd: 256 MiB each way come back word for word and the session says it
# used 4 stripes both ways and an 8 MiB reply ring (4 MiB without
# stripes); the test programs print what they print without
# stripes; a link cut in the middle of a striped copy is taken up again
# (stripes and all) and the copy still comes back whole; GLEAM_STRIPES=0
# opens none; a stripe hello no session is waiting for is refused.
# BACKEND=cuda runs the copies on the GPU.  GLEAM_TEST_TLS=1 runs it all
# over mutual TLS: each stripe is a TLS connection with its own handshake
# (GLEAM_WIRE_F_STRIPE_TLS), and a stripe that does not complete one is
# refused.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
LPORT=$((PORT + 1))
CTL=$TMP/linkem.ctl
EXPECTED=$ROOT/tests/programs/expected
PROGS=$BUILD/tests/programs
export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels

# gleamctl status asks the servers too: over TLS with credentials, not in plain.
[ "${GLEAM_TEST_TLS:-0}" = 1 ] && export GLEAM_TLS_CERT=$TMP/ca/client.pem

# A client gleamd of its own: name, server address, stripes, more options.
client() {
	local name=$1 server=$2 stripes=$3
	shift 3
	GLEAM_STRIPES=$stripes "$BIN/gleamd" client --server "$server" \
		--socket "$TMP/$name.sock" --state-dir "$TMP" --cache off "${SEC_CLIENT[@]}" "$@" \
		>>"$TMP/$name.log" 2>&1 &
	echo $!
}

# The ended session of pid on the client at socket $1, as JSON.
ended() {
	local sock=$1 pid=$2
	for _ in $(seq 50); do
		GLEAM_SOCKET=$sock "$BIN/gleamctl" status --json | python3 -c '
import json, sys
pid = int(sys.argv[1])
for e in json.load(sys.stdin)["client"]["ended"]:
    if e["pid"] == pid:
        print(e["stripes"], e["striped_out"], e["striped_in"], e["ring_replies"])
        sys.exit(0)
sys.exit(1)' "$pid" && return 0
		sleep 0.1
	done
	return 1
}

# name sock: bigcopy of 256 MiB each way through the client at sock, in
# the background (its pid in pid: the session's), 120 s at most.
bigcopy() {
	local name=$1 sock=$2
	GLEAM_SOCKET=$sock "$PROGS/bigcopy" $((256 << 20)) >"$TMP/$name.out" 2>"$TMP/$name.err" &
	pid=$!
	(sleep 120; kill "$pid" 2>/dev/null) >/dev/null 2>&1 &
	watchdog=$!
}

# Wait for the bigcopy begun last: its exit status in rc.
finish() {
	wait "$pid"
	rc=$?
	kill "$watchdog" 2>/dev/null
}

"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend "${BACKEND:-sim}" --keepalive 2 \
	--resume 8 --log-level 2 "${SEC_SERVER[@]}" >>"$TMP/server.log" 2>&1 &
SPID=$!
poll 100 "" "$BIN/gleamctl" "${SEC_CLIENT[@]}" server-info "127.0.0.1:$PORT"
CPID=$(client striped "127.0.0.1:$PORT" 4)
"$BIN/linkem" --listen "127.0.0.1:$LPORT" --connect "127.0.0.1:$PORT" --rate 1gbit \
	--control "$CTL" >>"$TMP/linkem.log" 2>&1 &
LKPID=$!
C2PID=$(client cut "127.0.0.1:$LPORT" 4 --keepalive 2 --resume 8)
C3PID=$(client none "127.0.0.1:$PORT" 0)
trap 'kill $LKPID $C2PID $C3PID 2>/dev/null; cleanup' EXIT
for s in striped cut none; do
	poll 100 "" env GLEAM_SOCKET="$TMP/$s.sock" "$BIN/gleamctl" status ||
		{ bad "client $s starts"; summary; exit 1; }
done
for _ in $(seq 200); do
	GLEAM_SOCKET=$TMP/cut.sock "$BIN/gleamctl" servers 2>/dev/null |
		grep -q "127.0.0.1:$LPORT.* up" && [ -S "$CTL" ] && break
	sleep 0.05
done
ok "daemons start (server $PORT, clients with 4, 4 through a link emulator, and 0 stripes)"

bigcopy striped "$TMP/striped.sock"
finish
if [ "$rc" -eq 0 ] && grep -q "bytes: ok" "$TMP/striped.out"; then
	ok "256 MiB each way over 4 stripes: every word back"
else
	bad "256 MiB each way over 4 stripes: exited $rc: $(tail -n 2 "$TMP/striped.err")"
fi
read -r n out in replies < <(ended "$TMP/striped.sock" "$pid")
if [ "${n:-0}" -eq 4 ] && [ "${out:-0}" -ge 200 ] && [ "${in:-0}" -ge 200 ]; then
	ok "the session had 4 stripes; $out messages went out on them, $in came in"
else
	bad "stripes of the session: ${n:-none} stripes, ${out:-0} out, ${in:-0} in"
fi
# Striped replies keep their room until the program copies them out: an 8 MiB reply ring.
if [ "${replies:-0}" -eq $((8 << 20)) ]; then
	ok "a striped session's reply ring is 8 MiB"
else
	bad "a striped session's reply ring is ${replies:-?} bytes, not 8 MiB"
fi

# Every test program prints over stripes what it prints without them.
fails=""
for p in vecadd memops streams uploads hostfn devprintf graphs allocs; do
	[ -x "$PROGS/$p" ] || continue
	GLEAM_SOCKET=$TMP/striped.sock timeout 60 "$PROGS/$p" >"$TMP/p-$p.out" 2>"$TMP/p-$p.err" ||
		fails="$fails $p(exit)"
	cmp -s "$TMP/p-$p.out" "$EXPECTED/$p.out" || fails="$fails $p"
done
if [ -z "$fails" ]; then
	ok "test programs over stripes print what they print without them"
else
	bad "test programs over stripes differ:$fails"
fi

# A cut in the middle of a striped copy: taken up again, stripes and all.
# The cut comes once the copy is under way on the session's stripes (a
# fixed pause can fall before the program has its session on a slow or
# busy machine, and a new session needs no take-up).
bigcopy cut "$TMP/cut.sock"
moving=""
for _ in $(seq 400); do
	moving=$(GLEAM_SOCKET=$TMP/cut.sock "$BIN/gleamctl" status --json 2>/dev/null | python3 -c '
import json, sys
pid = int(sys.argv[1])
for s in json.load(sys.stdin)["client"]["sessions"]:
    if s["pid"] == pid and s["stripes"] >= 4 and s["striped_out"] >= 8:
        print(s["striped_out"])
' "$pid")
	[ -n "$moving" ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
"$BIN/linkem" --ctl "$CTL" reset 1s >"$TMP/cut-ctl.out" 2>&1
[ -n "$moving" ] || echo "(the cut came before the copy was seen on its stripes)" >>"$TMP/cut-ctl.out"
finish
if [ "$rc" -eq 0 ] && grep -q "bytes: ok" "$TMP/cut.out"; then
	ok "a 1 s cut into a 256 MiB striped copy each way: every word back"
else
	bad "a 1 s cut into a 256 MiB striped copy each way: exited $rc: $(tail -n 2 "$TMP/cut.err")"
fi
# The server's log: the session taken up again, then its 4 stripes again.
again=$(sed -n 's/.*session \([0-9]*\) from .* taken up again.*/\1/p' "$TMP/server.log" | tail -n 1)
restriped=$(sed -n "/session $again from .* taken up again/,\$p" "$TMP/server.log" |
	grep -c "session $again: stripe")
if grep -q "taken up again" "$TMP/cut.log" && [ "$restriped" -eq 4 ]; then
	ok "the cut session was taken up again, its 4 stripes opened again"
else
	bad "the cut session: taken up again ${again:-never}, ${restriped:-0} stripes after: $(cat "$TMP/cut-ctl.out")"
	echo "the client through the link said:"
	tail -n 6 "$TMP/cut.log"
	echo "linkem said:"
	tail -n 4 "$TMP/linkem.log"
fi
# The stripes opened again after the take-up carry the rest.
bigcopy cut2 "$TMP/cut.sock"
finish
read -r n out in replies < <(ended "$TMP/cut.sock" "$pid")
if grep -q "bytes: ok" "$TMP/cut2.out" && [ "${n:-0}" -eq 4 ] && [ "${out:-0}" -gt 0 ]; then
	ok "after the cut, a new session through the link has its 4 stripes"
else
	bad "after the cut: ${n:-none} stripes, ${out:-0} out: $(tail -n 2 "$TMP/cut2.err")"
fi

bigcopy none "$TMP/none.sock"
finish
read -r n out in replies < <(ended "$TMP/none.sock" "$pid")
if grep -q "bytes: ok" "$TMP/none.out" && [ "${n:-1}" -eq 0 ] && [ "${out:-1}" -eq 0 ] &&
	[ "${replies:-0}" -eq $((4 << 20)) ]; then
	ok "GLEAM_STRIPES=0: no stripes, every word back, a 4 MiB reply ring"
else
	bad "GLEAM_STRIPES=0: ${n:-none} stripes, ${out:-?} out, a reply ring of ${replies:-?} bytes"
fi

# A stripe hello with a token no session has: refused, and said in the
# server's log (over TLS, from a peer with the client's credentials).
python3 - "$PORT" "${GLEAM_TEST_TLS:-0}" "$TMP/ca" <<'EOF'
import socket, ssl, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
if sys.argv[2] == "1":
    ctx = ssl.create_default_context(cafile=sys.argv[3] + "/ca.pem")
    ctx.load_cert_chain(sys.argv[3] + "/client.pem", sys.argv[3] + "/client.key")
    s = ctx.wrap_socket(s, server_hostname="127.0.0.1")
hello = struct.pack("<IIQIIII", 1, 1, 1 << 11, 4, 0, 0, 0) + bytes(128) + struct.pack("<QQ", 12345, 2) + bytes(16)
frame = struct.pack("<IHHII", 0x4d41454c, 1, 0, len(hello), 0)
s.sendall(frame + hello)
s.settimeout(3)
try:
    s.recv(4096)
except OSError:
    pass
EOF
if grep -q "offered a stripe of a session that is not here" "$TMP/server.log"; then
	ok "a stripe hello with a token no session has is refused and said"
else
	bad "a stripe hello with a wrong token: nothing in the server's log"
fi

# Over TLS, a stripe hello in plain (no handshake) gets no Gleam frame back.
if [ "${GLEAM_TEST_TLS:-0}" = 1 ]; then
	if python3 - "$PORT" <<'EOF'
import socket, struct, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
hello = struct.pack("<IIQIIII", 1, 1, 1 << 11, 4, 0, 0, 0) + bytes(128) + struct.pack("<QQ", 12345, 2) + bytes(16)
s.sendall(struct.pack("<IHHII", 0x4d41454c, 1, 0, len(hello), 0) + hello)
s.settimeout(3)
got = b""
try:
    while len(got) < 4:
        b = s.recv(4096)
        if not b:
            break
        got += b
except OSError:
    pass
sys.exit(1 if got.startswith(struct.pack("<I", 0x4d41454c)) else 0)
EOF
	then
		ok "over TLS, a stripe hello in plain gets no answer of the protocol"
	else
		bad "over TLS, a stripe hello in plain was answered"
	fi
fi

kill -0 "$C2PID" "$C3PID" 2>/dev/null && survived || bad "a client gleamd died"
summary
