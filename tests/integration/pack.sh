#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Packed uploads (GLEAM_WIRE_F_PACK) through tools/linkem at 300 Mbit/s and
# 3 ms: bf16 weights drawn as trained weights are cross in fewer bytes, as
# named chunks (CACHE_DATA) and as plain records (--cache off), and read
# back identical; a client gleamd with GLEAM_COMPRESS=0 sends them raw.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
LPORT=$((PORT + 1))

"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend sim >>"$TMP/server.log" 2>&1 &
SPID=$!
poll 100 "" "$BIN/gleamctl" server-info "127.0.0.1:$PORT"
"$BIN/linkem" --listen "127.0.0.1:$LPORT" --connect "127.0.0.1:$PORT" --rate 300mbit \
	--delay 1500us >>"$TMP/linkem.log" 2>&1 &
LKPID=$!
PIDS=()
trap 'kill $LKPID "${PIDS[@]}" 2>/dev/null; cleanup' EXIT

# A client gleamd through the link: $1 its name, then its options; the
# environment given before the call is its own (GLEAM_COMPRESS).
client() {
	local name=$1
	shift
	"$BIN/gleamd" client --server "127.0.0.1:$LPORT" --socket "$TMP/$name.sock" \
		--state-dir "$TMP/$name.state" "$@" >>"$TMP/client-$name.log" 2>&1 &
	PIDS+=($!)
	GLEAM_SOCKET=$TMP/$name.sock poll 200 "" "$BIN/gleamctl" status
}

# 128 MiB of new bf16 weights through client $1, read back: "verified wire raw"
# (the session's bytes sent, and the bytes its copies carried).  The first
# MiBs go as they are: linkem and the kernel's buffers take them at the
# speed of loopback, and the client reads the link as fast until its last
# samples (PACK_LINK_SAMPLES) all come from after they filled; 64 MiB left
# that start a quarter of the load, and the bound below once missed.
load() {
	local sock=$TMP/$1.sock out
	out=$(GLEAM_SOCKET=$sock GLEAM_TEST_KERNELS=$BUILD/tests/kernels \
		LD_LIBRARY_PATH=$BUILD/lib timeout 120 "$BIN/gleam-bench" load-bf16 128 0 verify) || return 1
	sleep 0.2
	GLEAM_SOCKET=$sock "$BIN/gleamctl" status --json | python3 -c '
import json, sys
rep = json.loads(sys.argv[1])
e = json.load(sys.stdin)["client"]["ended"][-1]
print(int(rep["verified"]), e["bytes_out"], int(rep["bytes"]))' "$out"
}

client named
client plain --cache off
GLEAM_COMPRESS=0 client raw

for c in named plain; do
	if r=$(load $c) && read -r ok wire raw <<<"$r" && [ "$ok" = 1 ] &&
		[ "$wire" -lt $((raw * 85 / 100)) ]; then
		ok "bf16 weights ($c): $wire bytes on the wire for $raw, read back identical"
	else
		bad "bf16 weights ($c): ${r:-the program failed}"
		# What the client knew of the link and its packing, for the record.
		GLEAM_SOCKET=$TMP/$c.sock "$BIN/gleamctl" stats 2>&1 | head -n 20
		tail -n 5 "$TMP/client-$c.log"
	fi
done
# On a link slower than hashing the copies are named (GLEAM_CACHE_NAME=auto,
# the default), but for the first MiBs, which go as they are while the
# client measures the link (the first session after the client starts:
# four samples, which linkem's buffers make last some 20 MiB).
if r=$(GLEAM_SOCKET=$TMP/named.sock "$BIN/gleamctl" status --json | python3 -c '
import json, sys
c = json.load(sys.stdin)["client"]["ended"][-1]["cache"]
print(c["raw"], c["bytes"] >> 20)') && read -r raw named <<<"$r" &&
	[ "$raw" -le 40 ] && [ "$named" -ge 80 ]; then
	ok "at 300 Mbit/s the copies are named ($named MiB) but for the first that measure the link ($raw)"
else
	bad "at 300 Mbit/s: $(GLEAM_SOCKET=$TMP/named.sock "$BIN/gleamctl" status --json | head -c 600)"
fi
if r=$(load raw) && read -r ok wire raw <<<"$r" && [ "$ok" = 1 ] && [ "$wire" -ge "$raw" ]; then
	ok "GLEAM_COMPRESS=0: $wire bytes on the wire for $raw, read back identical"
else
	bad "GLEAM_COMPRESS=0: ${r:-the program failed}"
fi
# gleamctl stats: the uploads' bytes before compression and on the wire, per server.
if GLEAM_SOCKET=$TMP/named.sock "$BIN/gleamctl" stats --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["servers"][0]["link"]
sys.exit(not (s["upload_bytes_raw"] >= 64 << 20 and
              0 < s["upload_bytes_wire"] < s["upload_bytes_raw"] * 0.85))'; then
	ok "gleamctl stats shows the bytes before and after compression"
else
	bad "gleamctl stats: $(GLEAM_SOCKET=$TMP/named.sock "$BIN/gleamctl" stats | grep uploads)"
fi
if GLEAM_SOCKET=$TMP/raw.sock "$BIN/gleamctl" stats --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["servers"][0]["link"]
sys.exit(s["upload_bytes_raw"] != 0)'; then
	ok "GLEAM_COMPRESS=0: nothing packed"
else
	bad "GLEAM_COMPRESS=0: gleamctl stats shows packed bytes"
fi
CPID=${PIDS[0]}
survived
summary
