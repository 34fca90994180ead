# SPDX-License-Identifier: MIT
#
# Sourced by the test scripts that run programs through Gleam: a server and a
# client gleamd on loopback with the sim backend, a temporary directory, and
# the ok/bad counters that end in "N passed, N failed" (summary), with the
# checks most scripts begin and end with (start_or_end, survived).
#
# The caller sets ROOT and PORT first (and SERVER_ARGS, options for the
# server gleamd, if it needs any); this sets BUILD, BIN, TMP, GLEAM_SOCKET,
# passed, failed, SPID and CPID, and removes everything on exit.

# shellcheck source=tests/lib/poll.sh
. "$ROOT/tests/lib/poll.sh"

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

# GLEAM_TEST_TLS=1: credentials for a server at 127.0.0.1 and a client,
# as options in SEC_SERVER and SEC_CLIENT (empty otherwise).
SEC_SERVER=()
SEC_CLIENT=()
if [ "${GLEAM_TEST_TLS:-0}" = 1 ]; then
	"$BIN/gleamctl" tls init "$TMP/ca" 127.0.0.1 client >/dev/null || bad "credentials"
	SEC_SERVER=(--tls-cert "$TMP/ca/127.0.0.1.pem")
	SEC_CLIENT=(--tls-cert "$TMP/ca/client.pem")
fi

# Both daemons, each waited for until it answers; 1 when one does not.
start() {
	# shellcheck disable=SC2086 # SERVER_ARGS: extra options, split on purpose
	"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend sim ${SERVER_ARGS:-} \
		>>"$TMP/server.log" 2>&1 &
	SPID=$!
	poll 100 "" "$BIN/gleamctl" server-info "127.0.0.1:$PORT"
	"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$GLEAM_SOCKET" --state-dir "$(dirname "$GLEAM_SOCKET")" \
		>>"$TMP/client.log" 2>&1 &
	CPID=$!
	poll 100 "" "$BIN/gleamctl" status
}

# The first check of a script: both daemons up, or the script ends there.
# $1 says how the server runs, for the line that says they started.
start_or_end() {
	start || { bad "daemons start"; summary; exit 1; }
	ok "daemons start (server $PORT, $1)"
}

# The last but one check of a script: both daemons still alive; when one
# died, the end of the logs named (default: both).
# shellcheck disable=SC2120 # the logs are optional
survived() {
	local logs=("$@")

	[ $# -gt 0 ] || logs=("$TMP/server.log" "$TMP/client.log")
	if kill -0 "$SPID" 2>/dev/null && kill -0 "$CPID" 2>/dev/null; then
		ok "both daemons survived"
	else
		bad "a daemon died"
		tail -n 20 "${logs[@]}"
	fi
}

# The last line of a script, "N passed, N failed"; false when any failed.
summary() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
