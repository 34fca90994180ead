#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Kill tests: a server and a client gleamd on loopback with the sim (BACKEND=cuda: the GPU)
# backend; over a fixed list of seeds, a program that allocates, copies,
# launches and synchronises in a loop (tests/programs/churn.c) runs through
# them, and at a point the seed picks one of the program, its replay
# worker, the client gleamd or the server gleamd is killed with SIGKILL.
# A killed gleamd is started again, as a person or a supervisor would
# (KILL_RESTART_DELAY seconds after it died, default 0.2).  The daemons
# keep a dropped session for KILL_RESUME seconds (--resume, default 3 here):
# a gleamd killed in the middle of a transfer resets its connections, which
# its peer takes for a dropped link.  Then:
#
#   - the program, unless it was the one killed, ends with a CUDA error
#     (exit status 3): it neither hangs nor crashes;
#   - the daemons come back to where they started: no session in
#     `gleamctl status`, no session or worker and no device memory in use
#     in `gleamctl server-info`, no worker process left, and no more open
#     descriptors in either daemon than after it started (give or take
#     FD_SLACK).
#
# One line per run, then "N passed, N failed"; exits 1 on any failure.
# KILL_SEEDS overrides the list of seeds, KILL_VICTIMS the victims (in turn,
# from "program worker client server"); KILL_VERBOSE=1 shows the daemons'
# logs of failed runs.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + ($$ + 10007) % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/programs
SEEDS=${KILL_SEEDS:-$(seq 1 40)}
VICTIMS=(${KILL_VICTIMS:-program worker client server})
FD_SLACK=2
EXIT_TIMEOUT=20		# s: a program still running this long after the kill hangs
SETTLE_TIMEOUT=15	# s: for the daemons to come back to where they started
RESUME=${KILL_RESUME:-3}
RESTART_US=$(awk -v s="${KILL_RESTART_DELAY:-0.2}" 'BEGIN { printf "%d", s * 1000000 }')

# Each daemon started again after a kill, waited for until it answers.
# Disowned, so that the shell does not report the kills.
start_server() {
	"$BIN/gleamd" server --listen "127.0.0.1:$PORT" --backend "${BACKEND:-sim}" --resume "$RESUME" \
		>>"$TMP/server.log" 2>&1 &
	SPID=$!
	disown $SPID
	poll 200 "$SPID" "$BIN/gleamctl" server-info "127.0.0.1:$PORT"
}

start_client() {
	"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$GLEAM_SOCKET" --state-dir "$(dirname "$GLEAM_SOCKET")" --resume "$RESUME" \
		>>"$TMP/client.log" 2>&1 &
	CPID=$!
	disown $CPID
	poll 200 "$CPID" "$BIN/gleamctl" status
}

# Until pid is gone (the shell reaps it), for at most 5 s.
gone() {
	for _ in $(seq 500); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.01
	done
	return 1
}

now_us() {
	echo "${EPOCHREALTIME/./}"
}

nfds() {
	ls "/proc/$1/fd" 2>/dev/null | wc -l
}

# Whether pid runs (a zombie holds nothing: it does not).
runs() {
	[ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# How many of the pids given run.
alive() {
	local p n=0
	for p in "$@"; do
		runs "$p" && n=$((n + 1))
	done
	echo $n
}

# The server's children but its NVML sampler (on cuda), which lives as long
# as the server: its replay workers.
workers_of() {
	for p in $(pgrep -P "$1" 2>/dev/null); do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = gleamd-nvml ] || echo "$p"
	done | tr '\n' ' '
}

# What the daemons say now, as "key=value ..." (STATE), and whether it is
# where they started.
observe() {
	local info st
	info=$("$BIN/gleamctl" server-info "127.0.0.1:$PORT" --json 2>/dev/null)
	st=$("$BIN/gleamctl" status --json 2>/dev/null)
	S_SESSIONS=$(sed -n 's/^{[^[]*"sessions":\([0-9]*\),.*/\1/p' <<<"$info")
	S_WORKERS=$(sed -n 's/^{[^[]*"workers":\([0-9]*\),.*/\1/p' <<<"$info")
	S_MEM=$(grep -o '"mem_used":[0-9]*' <<<"$info" | awk -F: '{ s += $2 } END { if (NR) print s }')
	C_SESSIONS=$(sed -n 's/.*"sessions":\[\([^]]*\)\],"ended".*/\1/p' <<<"$st" |
		grep -o '"id":' | wc -l)
	[ -n "$st" ] || C_SESSIONS=unreachable
	CHILDREN=$(workers_of "$SPID")
	ORPHANS=$(alive $WORKERS_SEEN)
	S_FDS=$(nfds "$SPID")
	C_FDS=$(nfds "$CPID")
	STATE="client sessions ${C_SESSIONS:-?}; server sessions ${S_SESSIONS:-?}, workers ${S_WORKERS:-?}, memory ${S_MEM:-?}; worker processes ${ORPHANS} (children: ${CHILDREN:-none}); fds server $S_FDS, client $C_FDS"
	[ "$C_SESSIONS" = 0 ] && [ "${S_SESSIONS:-x}" = 0 ] && [ "${S_WORKERS:-x}" = 0 ] &&
		[ "${S_MEM:-x}" = "$BASE_MEM" ] && [ -z "$CHILDREN" ] && [ "$ORPHANS" = 0 ] &&
		[ "$S_FDS" -le $((BASE_SFDS + FD_SLACK)) ] && [ "$C_FDS" -le $((BASE_CFDS + FD_SLACK)) ]
}

if ! start_server || ! start_client; then
	bad "daemons start"
	tail -n 5 "$TMP/server.log" "$TMP/client.log"
	summary
	exit 1
fi
WORKERS_SEEN=
BASE_MEM=0 BASE_SFDS=1000000 BASE_CFDS=1000000
observe
if [ -z "$S_WORKERS" ] || [ -z "$S_MEM" ]; then
	bad "the server reports no usage (GLEAM_WIRE_F_USAGE): $STATE"
	summary
	exit 1
fi
BASE_MEM=$S_MEM
BASE_SFDS=$S_FDS
BASE_CFDS=$C_FDS
echo "start: $STATE"
t_start=$SECONDS

run=0
for seed in $SEEDS; do
	RANDOM=$seed
	victim=${VICTIMS[$((run % ${#VICTIMS[@]}))]}
	run=$((run + 1))
	delay_ms=$((RANDOM % 1500))
	threads=$((1 + RANDOM % 3))
	big=$((1 + RANDOM % 8))
	mode=async
	[ $((RANDOM % 4)) -eq 0 ] && mode=sync
	what="run $run (seed $seed): kill $victim at $delay_ms ms ($mode, $threads thread(s), big copies every $big rounds)"
	slog=$(wc -c <"$TMP/server.log")
	clog=$(wc -c <"$TMP/client.log")

	# The program runs under a subshell that keeps its exit status.
	rm -f "$TMP/churn.pid" "$TMP/churn.rc"
	{
		GLEAM_ASYNC=$([ $mode = sync ] && echo 0 || echo 1) LD_LIBRARY_PATH=$BUILD/lib \
			"$PROGS/churn" 60 $threads $big >"$TMP/churn.out" 2>"$TMP/churn.err" &
		echo $! >"$TMP/churn.pid"
		wait $!
		echo $? >"$TMP/churn.rc"
	} 2>/dev/null &
	runner=$!
	until [ -s "$TMP/churn.pid" ]; do sleep 0.01; done
	prog=$(cat "$TMP/churn.pid")
	sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"

	WORKERS_SEEN=
	problem=
	case $victim in
	program)
		pid=$prog
		;;
	worker)
		# The session's worker: the server's running child, once it has one.
		pid=
		for _ in $(seq 100); do
			for c in $(workers_of "$SPID"); do
				runs "$c" && pid=$c
			done
			[ -n "$pid" ] && break
			kill -0 $prog 2>/dev/null || break
			sleep 0.05
		done
		[ -n "$pid" ] || problem="no worker to kill"
		;;
	client)
		pid=$CPID
		;;
	server)
		pid=$SPID
		;;
	esac
	WORKERS_SEEN=$(workers_of "$SPID")
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	t_kill=$(now_us)

	# The program ends, killed or with a CUDA error, never hanging; a
	# killed gleamd starts again RESTART_DELAY after it died.
	rc=
	restarted=$([ $victim = client ] || [ $victim = server ] || echo none)
	while :; do
		t=$(now_us)
		if [ -z "$rc" ] && ! kill -0 $runner 2>/dev/null; then
			wait $runner
			rc=$(cat "$TMP/churn.rc" 2>/dev/null || echo "?")
			t_exit=$t
		fi
		if [ -z "$restarted" ] && [ $((t - t_kill)) -ge "$RESTART_US" ]; then
			if [ $victim = client ]; then
				gone "$CPID"
				start_client || problem=${problem:-"the client gleamd did not start again"}
			else
				gone "$SPID"
				start_server || problem=${problem:-"the server gleamd did not start again"}
			fi
			restarted=yes
		fi
		[ -n "$rc" ] && [ -n "$restarted" ] && break
		[ $((t - t_kill)) -ge $((EXIT_TIMEOUT * 1000000)) ] && break
		sleep 0.01
	done
	if [ -z "$rc" ]; then
		if command -v gdb >/dev/null; then
			echo "--- the program's threads:"
			gdb -p "$prog" -batch -ex "thread apply all bt" 2>/dev/null | grep '^#\|^Thread'
		fi
		kill -9 $prog 2>/dev/null
		wait $runner
		t_exit=$(now_us)
		problem=${problem:-"the program still ran ${EXIT_TIMEOUT} s after the kill"}
	elif [ $victim = program ]; then
		[ "$rc" = 137 ] || problem=${problem:-"the program exited $rc before it was killed"}
	elif [ "$rc" != 3 ]; then
		problem=${problem:-"the program exited $rc, not with a CUDA error: $(tail -n 1 "$TMP/churn.err")"}
	fi
	outcome=$([ $victim = program ] && echo "killed" || tail -n 1 "$TMP/churn.err" | sed 's/.*: //')

	# The daemons that were not killed are alive.
	kill -0 "$SPID" 2>/dev/null || problem=${problem:-"the server gleamd died"}
	kill -0 "$CPID" 2>/dev/null || problem=${problem:-"the client gleamd died"}

	# And come back to where they started.
	settled=
	for _ in $(seq $((SETTLE_TIMEOUT * 10))); do
		if observe; then
			settled=1
			break
		fi
		sleep 0.1
	done
	[ -n "$settled" ] || problem=${problem:-"not back to the start after ${SETTLE_TIMEOUT} s: $STATE"}
	t_end=$(now_us)

	timing="exit $(((t_exit - t_kill) / 1000)) ms after the kill, daemons back $(((t_end - t_exit) / 1000)) ms later"
	if [ -z "$problem" ]; then
		ok "$what: $outcome; $timing"
	else
		bad "$what: $problem"
		if [ "${KILL_VERBOSE:-0}" = 1 ]; then
			echo "--- program:"; tail -n 3 "$TMP/churn.err"
			echo "--- server:"; tail -c +$((slog + 1)) "$TMP/server.log" | tail -n 20
			echo "--- client:"; tail -c +$((clog + 1)) "$TMP/client.log" | tail -n 20
		fi
		# The next run starts from a clean slate: new daemons.
		kill -9 "$SPID" "$CPID" $(pgrep -P "$SPID") $WORKERS_SEEN 2>/dev/null
		gone "$SPID"
		gone "$CPID"
		sleep 0.2
		start_server && start_client || { bad "daemons start again"; break; }
	fi
done

# The daemons still serve a program to the end.
if LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$PROGS/vecadd" >"$TMP/vecadd.out" 2>&1 &&
	cmp -s "$TMP/vecadd.out" "$ROOT/tests/programs/expected/vecadd.out"; then
	ok "the daemons still serve vecadd after $run kills"
else
	bad "vecadd after the kills: $(tail -n 1 "$TMP/vecadd.out")"
fi
echo "kill tests: $run runs in $((SECONDS - t_start)) s"

# A gleamd started while a killed predecessor's socket is still held (the
# kernel closes a dead gleamd's io_uring sockets after the process): here
# another process holds it.  held_case WHAT HOLDER_PY ADDR ANSWERS GLEAMD...:
# the holder takes ADDR, gleamd starts, and the ANSWERS command must succeed
# within 6 s.
held_case() {
	local what=$1 holder=$2 addr=$3 answers=$4 holder_pid gleamd_pid up=0
	shift 4
	python3 -c "import socket, sys, time
$holder" "$addr" &
	holder_pid=$!
	sleep 0.3
	"$@" >>"$TMP/held.log" 2>&1 &
	gleamd_pid=$!
	for _ in $(seq 60); do
		eval "$answers" >/dev/null 2>&1 && kill -0 "$gleamd_pid" 2>/dev/null && { up=1; break; }
		sleep 0.1
	done
	if [ $up = 1 ]; then
		ok "$what"
	else
		bad "$what: $(tail -n 1 "$TMP/held.log")"
	fi
	kill "$gleamd_pid" "$holder_pid" 2>/dev/null
	wait "$holder_pid" 2>/dev/null
}

# The server's port, held for 1 s: the server waits for it.
HPORT=$((PORT + 7))
held_case "a server started while its port is still held serves once it is free" \
	's = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(1)' "$HPORT" \
	'"$BIN/gleamctl" server-info "127.0.0.1:$HPORT"' \
	"$BIN/gleamd" server --listen "127.0.0.1:$HPORT" --backend sim

# The client's local socket, taken by a process that never answers: the
# client takes it over.
HSOCK=$TMP/held.sock
held_case "a client started on a local socket nobody answers takes it over" \
	's = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(sys.argv[1]); s.listen(8); time.sleep(8)' "$HSOCK" \
	'GLEAM_SOCKET=$HSOCK "$BIN/gleamctl" status' \
	"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$HSOCK" --state-dir "$(dirname "$HSOCK")"
summary
