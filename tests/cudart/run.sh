#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Unmodified CUDA runtime programs through Gleam: the programs of
# tests/cudart/, built by nvcc with the static cudart and with the shared
# one, and the export tables' driver-API test, each run asynchronously and
# with GLEAM_ASYNC=0, through a server and a client gleamd on loopback with
# the sim backend.  Each must exit 0, print what it printed on NVIDIA's
# driver (tests/cudart/expected/), and meet nothing Gleam does not support.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
CUDA=${CUDA:-/usr/local/cuda}
BIN=$BUILD/bin
PROGS=$BUILD/tests/cudart
EXPECTED=$ROOT/tests/cudart/expected
TMP=$(mktemp -d /tmp/gleam-cudart.XXXXXX)
# Apart from tests/integration/run.sh's ports, should both run at once.
PORT=$((40000 + $$ % 20000))
export GLEAM_SOCKET=$TMP/gleamd.sock
passed=0
failed=0

ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

cleanup() {
	[ -n "${CPID:-}" ] && kill "$CPID" 2>/dev/null
	[ -n "${SPID:-}" ] && kill "$SPID" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT

start() {
	"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend sim >>"$TMP/server.log" 2>&1 &
	SPID=$!
	for _ in $(seq 100); do
		"$BIN/gleamctl" server-info "127.0.0.1:$PORT" >/dev/null 2>&1 && break
		sleep 0.05
	done
	"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$GLEAM_SOCKET" \
		>>"$TMP/client.log" 2>&1 &
	CPID=$!
	for _ in $(seq 100); do
		"$BIN/gleamctl" status >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

# Gleam's libcuda.so.1 first; the shared cudart from the toolkit.
gleam() {
	LD_LIBRARY_PATH=$BUILD/lib:$CUDA/lib64 timeout 300 "$@"
}

start || { bad "daemons start"; echo "$passed passed, $failed failed"; exit 1; }
ok "daemons start (server $PORT, sim backend)"

for exp in "$EXPECTED"/*.out; do
	name=$(basename "$exp" .out)
	for prog in "$name" "$name-shared"; do
		[ -x "$PROGS/$prog" ] || continue
		for mode in async sync; do
			out=$TMP/$prog.$mode.out
			err=$TMP/$prog.$mode.err
			GLEAM_ASYNC=$([ $mode = sync ] && echo 0 || echo 1) \
				gleam "$PROGS/$prog" >"$out" 2>"$err"
			rc=$?
			if [ $rc -ne 0 ]; then
				bad "$prog ($mode) exited $rc: $(tail -n 1 "$err")"
			elif ! cmp -s "$out" "$exp"; then
				bad "$prog ($mode) printed other than on NVIDIA's driver"
				diff "$exp" "$out" | head -5
			elif grep -q "not supported" "$err"; then
				bad "$prog ($mode) met what Gleam does not support: $(grep -m1 "not supported" "$err")"
			else
				ok "$prog ($mode) prints what it prints on NVIDIA's driver"
			fi
		done
	done
done

# Both daemons are still alive after everything above.
if kill -0 "$SPID" 2>/dev/null && kill -0 "$CPID" 2>/dev/null; then
	ok "both daemons survived"
else
	bad "a daemon died"
	tail -n 20 "$TMP/server.log" "$TMP/client.log"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
