#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A link that goes silent (tools/linkem's stall: no reset, no byte delivered)
# while a program waits on the GPU: both gleamd notice within their
# keepalive time, the program's waiting call returns a CUDA error instead
# of hanging, the server's session and worker go, and once the link speaks
# again a new program runs.  Ends with "N passed, N failed".
# BACKEND=cuda runs the programs on a GPU (sim by default).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
LPORT=$((PORT + 1))
CTL=$TMP/linkem.ctl
KEEP=2

# The server, and a linkem in front of it; the client gleamd goes through it.
SERVER_ARGS="--keepalive $KEEP --resume 0"
"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend "${BACKEND:-sim}" $SERVER_ARGS \
	>>"$TMP/server.log" 2>&1 &
SPID=$!
"$BIN/linkem" --listen "127.0.0.1:$LPORT" --connect "127.0.0.1:$PORT" --rate 1gbit \
	--delay 250us --control "$CTL" >>"$TMP/linkem.log" 2>&1 &
LKPID=$!
"$BIN/gleamd" client --server "127.0.0.1:$LPORT" --socket "$GLEAM_SOCKET" --state-dir "$(dirname "$GLEAM_SOCKET")" --keepalive $KEEP --resume 0 \
	>>"$TMP/client.log" 2>&1 &
CPID=$!
trap 'kill $LKPID 2>/dev/null; cleanup' EXIT
for _ in $(seq 200); do
	"$BIN/gleamctl" status >/dev/null 2>&1 && [ -S "$CTL" ] &&
		"$BIN/gleamctl" server-info "127.0.0.1:$PORT" >/dev/null 2>&1 && break
	sleep 0.05
done
export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels

sessions() {
	"$BIN/gleamctl" server-info "127.0.0.1:$PORT" --json |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["sessions"])'
}

# A program that waits on the GPU again and again (about a minute).
"$BIN/gleam-bench" wait-rtt 100000 >"$TMP/prog.out" 2>"$TMP/prog.err" &
PROG=$!
sleep 1.5
if ! kill -0 "$PROG" 2>/dev/null; then
	bad "the program ended before the link went silent: $(tail -n 2 "$TMP/prog.err")"
fi
"$BIN/linkem" --ctl "$CTL" stall >/dev/null
t0=$(date +%s.%N)
rc=
for _ in $(seq 200); do
	if ! kill -0 "$PROG" 2>/dev/null; then
		wait "$PROG"
		rc=$?
		break
	fi
	sleep 0.05
done
t1=$(date +%s.%N)
took=$(python3 -c "print('%.1f' % ($t1 - $t0))")
if [ -z "$rc" ]; then
	kill -9 "$PROG" 2>/dev/null
	bad "the program still waited $took s after the link went silent"
elif [ "$rc" -ne 0 ] && grep -q "CUDA_ERROR" "$TMP/prog.err"; then
	ok "the program's wait failed after $took s of silence (keepalive ${KEEP} s): $(grep -o 'CUDA_ERROR[A-Z_]*' "$TMP/prog.err" | head -n 1)"
else
	bad "the program exited $rc after $took s: $(tail -n 2 "$TMP/prog.err")"
fi

# The server gave the session up on its own, with its worker.
n=
for _ in $(seq 100); do
	n=$(sessions)
	[ "$n" = 0 ] && break
	sleep 0.05
done
if [ "$n" = 0 ]; then
	ok "the server ended the silent session"
else
	bad "the server still holds $n session(s)"
fi
if grep -q "went silent\|sent nothing" "$TMP/server.log"; then
	ok "the server said why: $(grep -o 'sent nothing for [0-9]* s' "$TMP/server.log" | head -n 1)"
else
	bad "the server did not say it gave the client up"
fi

# The link speaks again: a new program runs.
"$BIN/linkem" --ctl "$CTL" restore >/dev/null
if timeout 60 "$BIN/gleam-bench" wait-rtt 200 >"$TMP/after.out" 2>"$TMP/after.err"; then
	ok "after the silence a new program runs: $(head -c 80 "$TMP/after.out")"
else
	bad "after the silence: $(tail -n 2 "$TMP/after.err")"
fi
for p in "$SPID" "$CPID"; do
	kill -0 "$p" 2>/dev/null || bad "a gleamd died"
done

summary
