# SPDX-License-Identifier: MIT
#
# Sourced by the test scripts that run programs through Gleam: a server and a
# client gleamd on loopback with the sim backend, a temporary directory, and
# the ok/bad counters that end in "N passed, N failed".
#
# The caller sets ROOT and PORT first (and SERVER_ARGS, options for the
# server gleamd, if it needs any); this sets BUILD, BIN, TMP, GLEAM_SOCKET,
# passed, failed, SPID and CPID, and removes everything on exit.

BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/bin
TMP=$(mktemp -d /tmp/gleam-test.XXXXXX)
export GLEAM_SOCKET=$TMP/gleamd.sock
passed=0
failed=0

ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

cleanup() {
	[ -n "${CPID:-}" ] && kill "$CPID" 2>/dev/null
	[ -n "${SPID:-}" ] && kill "$SPID" 2>/dev/null
	wait 2>/dev/null
	# GLEAM_TEST_LOGS: a directory that keeps the daemons' logs and the
	# programs' output (run-all.sh on the GPU machine, where nothing else
	# is left to look at afterwards).
	if [ -n "${GLEAM_TEST_LOGS:-}" ] && mkdir -p "$GLEAM_TEST_LOGS"; then
		cp "$TMP"/*.log "$TMP"/*.out "$TMP"/*.err "$GLEAM_TEST_LOGS"/ 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

# Both daemons, each waited for until it answers; 1 when one does not.
start() {
	# shellcheck disable=SC2086 # SERVER_ARGS: extra options, split on purpose
	"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend sim ${SERVER_ARGS:-} \
		>>"$TMP/server.log" 2>&1 &
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
