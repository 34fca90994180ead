#!/bin/sh
# SPDX-License-Identifier: MIT
#
# gleam-run CMD [ARGS...]: run an unmodified CUDA program through Gleam.
#
# Starts a server gleamd and a client gleamd on this machine if no client
# gleamd answers on the local socket, points the program at Gleam's
# libcuda.so.1 (and libnvidia-ml.so.1), runs it and exits with its status.
# The daemons stay up for the next program; `gleam-run --stop` ends the
# ones it started.  A port it cannot take for its server is an error, not
# a server to use.  The two speak TLS with credentials made here, in the
# socket's directory (0700, this user's; tls/), so that no other user
# opens a session.  `gleam-run --version` says its version.  man gleam-run.
#
# Environment:
#   GLEAM_BACKEND   cuda or sim (default: cuda when an NVIDIA GPU is present)
#   GLEAM_SERVER    use this server gleamd (HOST[:PORT]) instead of a local one,
#                   with the credentials in GLEAM_TLS_CERT (and _KEY, _CA)
#   GLEAM_PORT      port of the local server gleamd (default 7381)
#   GLEAM_SOCKET    the client gleamd's local socket
#   GLEAM_ASYNC     0: every call waits for its reply (for comparison)
#   GLEAM_WORKER_USER  the local server's workers' user when run as root
#                   (default: gleam, else nobody; one that may open the GPU)
set -eu

bindir=$(cd "$(dirname "$0")" && pwd)
# Installed (make install): gleamd in sbin, the libraries in lib/gleam; in
# the build tree, all beside each other.
libdir=$(cd "$bindir/../lib" && pwd)
[ -f "$libdir/gleam/libcuda.so.1" ] && libdir=$libdir/gleam
gleamd=$bindir/gleamd
[ -x "$gleamd" ] || gleamd=$bindir/../sbin/gleamd

if [ -n "${GLEAM_SOCKET:-}" ]; then
	sock=$GLEAM_SOCKET
elif [ "$(id -u)" = 0 ]; then
	sock=/run/gleam/gleamd.sock
elif [ -n "${XDG_RUNTIME_DIR:-}" ]; then
	sock=$XDG_RUNTIME_DIR/gleam/gleamd.sock
else
	sock=/tmp/gleam-$(id -u)/gleamd.sock
fi
rundir=$(dirname "$sock")
port=${GLEAM_PORT:-7381}
export GLEAM_SOCKET="$sock"

# A process that has not exited (a child that has is a zombie until reaped: kill -0 passes).
alive() {
	[ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

# Ends both daemons and waits (up to 10 s) until they are gone: the next
# gleam-run may start its own on the same port and socket at once.
stop() {
	pids=
	for f in "$rundir/client.pid" "$rundir/server.pid"; do
		if [ -f "$f" ]; then
			pid=$(cat "$f")
			kill "$pid" 2>/dev/null && pids="$pids $pid"
		fi
		rm -f "$f"
	done
	for pid in $pids; do
		for _ in $(seq 100); do
			alive "$pid" || break
			sleep 0.1
		done
		alive "$pid" && echo "gleam-run: gleamd (pid $pid) has not exited 10 s after SIGTERM" >&2
	done
	return 0
}

if [ "${1:-}" = "--version" ]; then
	"$bindir/gleamctl" --version | sed 's/^gleamctl/gleam-run/'
	exit 0
fi
if [ "${1:-}" = "--stop" ]; then
	stop
	exit 0
fi
if [ $# -eq 0 ] || [ "$1" = "--help" ]; then
	sed -n '4,/^set /p' "$0" | sed -n 's/^# \{0,1\}//p'
	[ $# -eq 0 ] && exit 2 || exit 0
fi
case $1 in
--*) echo "gleam-run: unknown option '$1' (gleam-run --help)" >&2; exit 2 ;;
esac

running() {
	"$bindir/gleamctl" status >/dev/null 2>&1
}

# The socket's directory is this user's (or root's) alone: one another user
# made, or may write, could hold a socket of theirs that the program would
# talk to.
private_dir() {
	mkdir -p "$1" 2>/dev/null || true
	[ "$(stat -c %u "$1" 2>/dev/null)" = "$(id -u)" ] && [ ! -L "$1" ] && chmod 700 "$1"
	owner=$(stat -c %u "$1" 2>/dev/null || echo none)
	if [ -L "$1" ] || [ ! -d "$1" ] || { [ "$owner" != "$(id -u)" ] && [ "$owner" != 0 ]; } ||
		[ $((0$(stat -c %a "$1") & 022)) -ne 0 ]; then
		echo "gleam-run: refusing $1: it must be a directory of this user's" \
			"(uid $(id -u)) or root's that nobody else may write" >&2
		exit 126
	fi
}

# A CA and two identities of this run directory's own: the server's (named
# by the address the client dials) and the client's, its administrator.
credentials() {
	tls=$rundir/tls
	[ -f "$tls/client.pem" ] && [ -f "$tls/127.0.0.1.pem" ] && return 0
	rm -rf "$tls"
	"$bindir/gleamctl" tls init "$tls" >/dev/null &&
		"$bindir/gleamctl" tls issue "$tls" 127.0.0.1 client >/dev/null
}

private_dir "$rundir"
if ! running; then
	server=${GLEAM_SERVER:-}
	if [ -z "$server" ]; then
		backend=${GLEAM_BACKEND:-}
		if [ -z "$backend" ]; then
			if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
				backend=cuda
			else
				backend=sim
			fi
		fi
		server=127.0.0.1:$port
		# A port someone else holds is theirs: never carry on with what answers
		# there.  A server gleamd on loopback answers at once; a program that
		# takes the connection and says nothing is given 2 s, not 5.
		info=$(timeout 2 "$bindir/gleamctl" server-info "$server" 2>&1) && rc=0 || rc=$?
		case $rc in
		0)
			echo "gleam-run: port $port already has a server gleamd that is not ours;" \
				"set GLEAM_PORT to a free port (or GLEAM_SERVER=$server to use it)" >&2
			exit 127
			;;
		*)
			case $info in
			*"Connection refused"*) ;;
			*)
				echo "gleam-run: port $port is taken by another program; set GLEAM_PORT" \
					"to a free port" >&2
				exit 127
				;;
			esac
			;;
		esac
		if ! credentials; then
			echo "gleam-run: cannot make credentials in $rundir/tls" >&2
			exit 127
		fi
		logged=0
		[ -f "$rundir/server.log" ] && logged=$(wc -c <"$rundir/server.log")
		# The daemons must never load Gleam's own libcuda.so.1.
		env -u LD_LIBRARY_PATH -u LD_PRELOAD setsid "$gleamd" server \
			--listen "$server" --backend "$backend" \
			--tls-cert "$rundir/tls/127.0.0.1.pem" --admin client \
			${GLEAM_WORKER_USER:+--worker-user "$GLEAM_WORKER_USER"} \
			</dev/null >>"$rundir/server.log" 2>&1 &
		echo $! >"$rundir/server.pid"
		# The server probes its GPUs, then listens: it says so in its own log.
		i=0
		until tail -c +$((logged + 1)) "$rundir/server.log" 2>/dev/null | grep -q 'server role: listening'; do
			i=$((i + 1))
			if [ $i -gt 300 ] || ! alive "$(cat "$rundir/server.pid")"; then
				if tail -c +$((logged + 1)) "$rundir/server.log" | grep -q 'Address already in use'; then
					echo "gleam-run: port $port is taken by another program; set GLEAM_PORT" \
						"to a free port" >&2
				else
					echo "gleam-run: the server gleamd did not start; see $rundir/server.log" >&2
					tail -n 5 "$rundir/server.log" >&2 || true
				fi
				rm -f "$rundir/server.pid"
				exit 127
			fi
			sleep 0.1
		done
	fi
	# The credentials asked for, else this directory's own.
	if [ -n "${GLEAM_TLS_CERT:-}" ]; then
		env -u LD_LIBRARY_PATH -u LD_PRELOAD setsid "$gleamd" client \
			--server "$server" --socket "$sock" --state-dir "$rundir" \
			--tls-cert "$GLEAM_TLS_CERT" \
			${GLEAM_TLS_KEY:+--tls-key "$GLEAM_TLS_KEY"} \
			${GLEAM_TLS_CA:+--tls-ca "$GLEAM_TLS_CA"} \
			</dev/null >>"$rundir/client.log" 2>&1 &
	elif [ -z "${GLEAM_SERVER:-}" ]; then
		env -u LD_LIBRARY_PATH -u LD_PRELOAD setsid "$gleamd" client \
			--server "$server" --socket "$sock" --state-dir "$rundir" \
			--tls-cert "$rundir/tls/client.pem" \
			</dev/null >>"$rundir/client.log" 2>&1 &
	else
		env -u LD_LIBRARY_PATH -u LD_PRELOAD setsid "$gleamd" client \
			--server "$server" --socket "$sock" --state-dir "$rundir" \
			</dev/null >>"$rundir/client.log" 2>&1 &
	fi
	echo $! >"$rundir/client.pid"
	i=0
	while ! running; do
		i=$((i + 1))
		if [ $i -gt 100 ]; then
			echo "gleam-run: the client gleamd did not start; see $rundir/client.log" >&2
			exit 127
		fi
		sleep 0.05
	done
fi

LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
exec "$@"
