#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Uploads by content, on loopback with the sim backend (BACKEND=cuda: the GPU;
# Documentation/cache.md):
# the upload program's copies of every size around the chunk boundaries
# come back intact through a server with a chunk store, and the store does
# what it must:
#   - a second run of the same uploads sends names, not bytes, also from
#     another client gleamd;
#   - uploads partly held send only what is missing;
#   - the store's disk tier survives a restart of the server;
#   - a chunk damaged on disk is found, dropped and fetched again;
#   - a small memory tier evicts, and what it evicted is sent again;
#   - a peer that sends bytes under a name they do not hash to, or names
#     what it has not pinned, is cut off, and the server lives on.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
STORE=$(mktemp -d /tmp/gleam-store.XXXXXX)
SERVER_ARGS="--cache-dir $STORE --cache-mem 256M --cache-disk 1G"
. "$ROOT/tests/lib/daemons.sh"
UPLOAD=$BUILD/tests/cache/upload
trap 'cleanup; rm -rf "$STORE"' EXIT

# The last ended session's cache counter $1.
last() {
	"$BIN/gleamctl" status --json | python3 -c "
import json, sys
e = json.load(sys.stdin)['client']['ended'][-1]['cache']
print(e['$1'])"
}

run_upload() {
	local name=$1
	shift
	if timeout 120 "$UPLOAD" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err" &&
		grep -q "^upload: PASS" "$TMP/$name.out"; then
		return 0
	fi
	bad "$name: upload $* failed: $(grep -v ': ok$' "$TMP/$name.out" | head -n 3) $(tail -n 2 "$TMP/$name.err")"
	return 1
}

restart_server() {
	kill "$SPID" 2>/dev/null
	for _ in $(seq 200); do
		kill -0 "$SPID" 2>/dev/null || break
		sleep 0.05
	done
	wait "$SPID" 2>/dev/null
	# The old one's port may take a moment to be free: a few tries.
	for _ in 1 2 3 4 5; do
		# shellcheck disable=SC2086
		"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend "${BACKEND:-sim}" $SERVER_ARGS \
			>>"$TMP/server.log" 2>&1 &
		SPID=$!
		poll 200 "$SPID" "$BIN/gleamctl" server-info "127.0.0.1:$PORT" && return 0
		sleep 0.5
	done
	bad "the server did not come back: $(tail -n 2 "$TMP/server.log")"
	return 1
}

export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels
# The server's store threads even where a machine this small would not have them.
export GLEAM_STORE_THREADS=${GLEAM_STORE_THREADS:-2}
# Every upload named, as on a link slower than hashing: loopback is faster.
export GLEAM_CACHE_NAME=always
start_or_end "${BACKEND:-sim} backend, chunk store in $STORE"

# 1. Cold: every byte crosses once; the same bytes twice in one run cross once.
if run_upload cold 1 8; then
	sent=$(last bytes_sent)
	named=$(last bytes)
	if [ "$sent" -gt 0 ] && [ "$sent" -lt "$named" ]; then
		ok "cold run intact: $named bytes named, $sent sent as bytes (the repeat crossed as names)"
	else
		bad "cold run: $named bytes named, $sent sent"
	fi
fi

# 2. Warm, in a new process: names only.
if run_upload warm 1 8; then
	sent=$(last bytes_sent)
	saved=$(last bytes_saved)
	if [ "$sent" -eq 0 ] && [ "$saved" -gt 0 ]; then
		ok "warm run intact: $saved bytes crossed as names, 0 as bytes"
	else
		bad "warm run: $sent bytes sent, $saved saved"
	fi
fi

# 2b. Another client gleamd, which has sent nothing yet, finds them too.
"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$TMP/other.sock" --state-dir "$(dirname "$TMP/other.sock")" \
	>>"$TMP/client2.log" 2>&1 &
C2PID=$!
GLEAM_SOCKET=$TMP/other.sock poll 100 "" "$BIN/gleamctl" status
if GLEAM_SOCKET=$TMP/other.sock run_upload second-client 1 8; then
	sent=$(GLEAM_SOCKET=$TMP/other.sock last bytes_sent)
	saved=$(GLEAM_SOCKET=$TMP/other.sock last bytes_saved)
	if [ "$sent" -eq 0 ] && [ "$saved" -gt 0 ]; then
		ok "another client's run sent names only ($saved bytes)"
	else
		bad "another client: $sent bytes sent, $saved saved"
	fi
fi
kill "$C2PID" 2>/dev/null

# 2c. Naming where it pays (GLEAM_CACHE_NAME=auto, the default, as a
# client without the variable has it): on loopback the link measures faster
# than one thread hashes, so copies cross as they are and arrive intact,
# and module images are still named, so that a second load finds them.
env -u GLEAM_CACHE_NAME "$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$TMP/auto.sock" \
	--state-dir "$(dirname "$TMP/auto.sock")" >>"$TMP/client3.log" 2>&1 &
C3PID=$!
GLEAM_SOCKET=$TMP/auto.sock poll 100 "" "$BIN/gleamctl" status
why="no run"
for try in 1 2 3; do
	GLEAM_SOCKET=$TMP/auto.sock run_upload "auto-$try" 3 64 || { why="upload failed"; break; }
	raw=$(GLEAM_SOCKET=$TMP/auto.sock last raw)
	saved=$(GLEAM_SOCKET=$TMP/auto.sock last bytes_saved)
	why="$raw copies raw, $saved bytes as names"
	if [ "$try" -gt 1 ] && [ "$saved" -gt 0 ] && [ "$raw" -gt 0 ]; then
		ok "naming where it pays: intact, images found again ($why)"
		why=
		break
	fi
done
[ -n "$why" ] && bad "naming where it pays: $why"
kill "$C3PID" 2>/dev/null

# 3. Partly held: the small copies are new (another seed), the big one not.
if run_upload other 2 8 1; then
	sent=$(last bytes_sent)
	saved=$(last bytes_saved)
	named=$(last bytes)
	if [ "$sent" -gt 0 ] && [ "$saved" -ge $((15 << 20)) ] && [ "$sent" -lt "$named" ]; then
		ok "partly held: $sent of $named bytes sent, $saved crossed as names"
	else
		bad "partly held: $sent of $named sent, $saved saved"
	fi
fi

# 3b. Copies far beyond a session's pins (64 MiB): 512 MiB each way, three
# times, the later runs warm, so that questions (whose answers the server
# pins) and bytes to send share the session's room; each word comes back,
# and no session is ended for pinning beyond its share.
why=""
for i in 1 2 3; do
	if ! timeout 120 "$BUILD/tests/programs/bigcopy" $((512 << 20)) >"$TMP/big$i.out" \
		2>"$TMP/big$i.err" || ! grep -q "bytes: ok" "$TMP/big$i.out"; then
		why="run $i: $(tail -n 2 "$TMP/big$i.err")"
		break
	fi
done
if [ -z "$why" ] && ! grep -q "beyond the session's limit" "$TMP/server.log"; then
	ok "512 MiB each way three times through 64 MiB of pins: every word back"
else
	bad "512 MiB through 64 MiB of pins: ${why:-a session was ended for its pins}"
fi

# 4. The disk tier survives a restart of the server.
if restart_server && run_upload restart 1 8; then
	sent=$(last bytes_sent)
	if [ "$sent" -eq 0 ]; then
		ok "after a server restart the store still holds the chunks (0 bytes sent)"
	else
		bad "after a server restart $sent bytes were sent again"
	fi
fi

# 5. Damaged chunk files are found, dropped, and fetched again.
nfiles=$(find "$STORE/objects" -type f | wc -l)
find "$STORE/objects" -type f -size +60k -exec \
	sh -c 'printf XXXX | dd of="$1" bs=1 seek=100 conv=notrunc 2>/dev/null' _ {} \;
if [ "$nfiles" -gt 0 ] && restart_server && run_upload damaged 1 8; then
	sent=$(last bytes_sent)
	left=$(grep -l XXXX -r "$STORE/objects" 2>/dev/null | wc -l)
	if [ "$sent" -gt 0 ]; then
		ok "damaged chunks on disk were dropped and sent again ($sent bytes; $left of $nfiles files still damaged, none of them read)"
	else
		bad "damaged chunks: nothing was sent again"
	fi
fi

# 6. A memory tier of 4 MiB with no disk evicts: what went is sent again.
SERVER_ARGS="--cache-mem 4M"
if restart_server && run_upload evict1 3 16 && run_upload evict2 3 16; then
	sent=$(last bytes_sent)
	named=$(last bytes)
	if [ "$sent" -gt 0 ]; then
		ok "a 4 MiB store evicted and the second run sent $sent of $named bytes again"
	else
		bad "a 4 MiB store kept everything of $named bytes"
	fi
fi

# 6b. gleamctl shows the store, and clears it: then the bytes cross again.
entries=$("$BIN/gleamctl" cache --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["entries"])')
listed=$("$BIN/gleamctl" cache list | grep -c '^  [0-9a-f]\{64\} ')
if [ "$entries" -gt 0 ] && [ "$listed" -eq "$entries" ] &&
	"$BIN/gleamctl" cache clear >/dev/null &&
	[ "$("$BIN/gleamctl" cache --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"]["entries"])')" = 0 ] &&
	run_upload cleared 3 16 && [ "$(last bytes_sent)" -gt 0 ]; then
	ok "gleamctl cache showed $entries chunks, listed them, cleared them, and they crossed again"
else
	bad "gleamctl cache: $entries chunks, $listed listed"
fi

# 7. Hostile peers.
if python3 "$ROOT/tests/cache/liar.py" 127.0.0.1 "$PORT" >"$TMP/liar.out" 2>&1; then
	ok "liars cut off: $(tr '\n' ' ' <"$TMP/liar.out")"
else
	bad "liar: $(tail -n 3 "$TMP/liar.out")"
fi
if kill -0 "$SPID" 2>/dev/null && run_upload after-liar 1 1; then
	ok "the server lives on and serves"
else
	bad "the server did not survive the liars"
fi

summary
