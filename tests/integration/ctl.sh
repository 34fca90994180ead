#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# What a person meets first: gleamctl's arguments (usage errors exit 2,
# --help 0 everywhere, addresses, ports, GPU indexes, names and nodes
# checked before "ok"), programs that fail at once with one line that says
# why (no server reachable, a pin that cannot be honoured), each client
# gleamd's own state file, and boolean GLEAM_ variables where 0 is off.
# A sim server with two GPUs and client gleamds on loopback.  Ends with
# "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + ($$ + 307) % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/programs
CTL=$BIN/gleamctl
DOWN=$((PORT + 1))		# nobody listens there (until a server does, below)
AUTO=$((PORT + 3))		# the --backend auto servers

# expect RC WHAT ARGS...: gleamctl exits RC.
expect() {
	local want=$1 what=$2 rc
	shift 2
	"$CTL" "$@" >"$TMP/ctl.out" 2>"$TMP/ctl.err"
	rc=$?
	if [ $rc = "$want" ]; then
		ok "gleamctl $*: exit $rc ($what)${3:+}"
	else
		bad "gleamctl $*: exit $rc, not $want: $(head -c 200 "$TMP/ctl.err")"
	fi
}
# A program's cuInit, timed: its exit status, seconds, and its stderr in $TMP/prog.err.
prog() {
	local t0 t1
	t0=$(date +%s.%N)
	LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$PROGS/devinfo" >"$TMP/prog.out" 2>"$TMP/prog.err"
	prc=$?
	t1=$(date +%s.%N)
	secs=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
}
fast_fail() {
	local what=$1 pattern=$2 lines
	prog
	lines=$(grep -c '^libcuda(gleam):' "$TMP/prog.err")
	if [ $prc != 0 ] && grep -q 'CUDA_ERROR_NO_DEVICE' "$TMP/prog.err" && [ "$lines" = 1 ] &&
		grep '^libcuda(gleam):' "$TMP/prog.err" | grep -q "$pattern" &&
		awk "BEGIN { exit !($secs < 3) }"; then
		ok "$what: CUDA_ERROR_NO_DEVICE in $secs s: $(grep '^libcuda(gleam):' "$TMP/prog.err")"
	else
		bad "$what: exit $prc in $secs s: $(tr '\n' ' ' <"$TMP/prog.err")"
	fi
}

# ---- arguments, before any gleamd ----
for c in "" status server-info cache servers assign stats; do
	expect 0 "--help" $c --help
done
expect 0 "--version" --version
expect 2 "no command"
expect 2 "unknown command" stauts
expect 2 "unknown option" status --jsn
expect 2 "an operand too many" status extra
expect 2 "port out of range" servers add 127.0.0.1:99999
expect 2 "port 0" servers add 127.0.0.1:0
expect 2 "not an address" servers add 'a b'
expect 2 "servers: unknown verb" servers rename x
expect 2 "server-info without a server" server-info
expect 2 "assign: not vgpuN or socket" assign vgpux 127.0.0.1
expect 2 "assign: no server" assign socket
expect 2 "assign --clear with a server" assign --clear socket 127.0.0.1
expect 2 "stats: --clear is assign's" stats --clear
expect 1 "no gleamd" status
"$CTL" server-info nosuch.invalid >"$TMP/ctl.out" 2>&1
if grep -q 'name lookup failed' "$TMP/ctl.out" && ! grep -q 'route' "$TMP/ctl.out"; then
	ok "server-info of a name that does not resolve says so: $(cat "$TMP/ctl.out")"
else
	bad "failed lookup: $(cat "$TMP/ctl.out")"
fi

# ---- --backend auto: the sim only where there is no NVIDIA GPU ----
# A machine with an NVIDIA 3D controller whose driver does not start: a
# PCI tree of one such device mounted over sysfs's, in a mount namespace
# of the test's own, and a libcuda.so.1 that is not there.
mkdir -p "$TMP/pci/0000:18:00.0"
echo 0x10de >"$TMP/pci/0000:18:00.0/vendor"
echo 0x030200 >"$TMP/pci/0000:18:00.0/class"
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	unshare -m sh -c "mount --bind '$TMP/pci' /sys/bus/pci/devices && timeout 20 '$BIN/gleamd' server \
		--listen 127.0.0.1:$AUTO --backend auto --cuda-lib /nonexistent/libcuda.so.1" \
		>"$TMP/auto.log" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q 'an NVIDIA GPU is present (PCI 0000:18:00.0) but NVIDIA.s driver did not start' "$TMP/auto.log"; then
		ok "--backend auto with an NVIDIA GPU whose driver fails: refuses to start, and says why"
	else
		bad "--backend auto with a failing driver: exit $rc: $(tr '\n' ' ' <"$TMP/auto.log")"
	fi
else
	echo "SKIP: --backend auto with a failing driver: needs root and unshare -m"
fi
if ! grep -qs 0x10de /sys/bus/pci/devices/*/vendor; then
	timeout 2 "$BIN/gleamd" server --listen "127.0.0.1:$AUTO" --backend auto --cuda-lib /nonexistent/libcuda.so.1 \
		>"$TMP/auto-sim.log" 2>&1
	grep -q 'no NVIDIA GPU on this machine: serving the sim backend' "$TMP/auto-sim.log" &&
		grep -q 'backend sim' "$TMP/auto-sim.log" &&
		ok "--backend auto without an NVIDIA GPU: the sim, and the log says so" ||
		bad "--backend auto without a GPU: $(tr '\n' ' ' <"$TMP/auto-sim.log")"
fi

# ---- a client gleamd with no server it can reach ----
"$BIN/gleamd" client --server "127.0.0.1:$DOWN" --socket "$GLEAM_SOCKET" --state-dir "$TMP/state" \
	>>"$TMP/client0.log" 2>&1 &
C0=$!
poll 100 "" "$CTL" status
fast_fail "no reachable server" "127.0.0.1:$DOWN (Connection refused)"
# The server comes up: the next program is served at once, not after the
# client gleamd's next attempt (up to 4 s away).
"$BIN/gleamd" server --listen "127.0.0.1:$DOWN" --backend sim >>"$TMP/server0.log" 2>&1 &
S0=$!
poll 100 "" "$BIN/gleamctl" server-info "127.0.0.1:$DOWN"
prog
[ $prc = 0 ] && grep -q '^device 0:' "$TMP/prog.out" && awk "BEGIN { exit !($secs < 3) }" &&
	ok "a server that came up serves the next program at once ($secs s)" ||
	bad "a server that came up: exit $prc in $secs s: $(tr '\n' ' ' <"$TMP/prog.err")"
kill $S0
wait $S0 2>/dev/null
kill $C0
wait $C0 2>/dev/null
[ -e "$GLEAM_SOCKET" ] && bad "SIGTERM left the socket behind" || ok "SIGTERM: the client gleamd removed its socket"

# ---- a sim server with two GPUs, and a second server that is down ----
export GLEAM_SIM_GPUS=2
start || { bad "daemons start"; echo "$passed passed, $failed failed"; exit 1; }
unset GLEAM_SIM_GPUS
ok "daemons start (server $PORT, two sim GPUs)"
# Until the server has said what GPUs it has, an index cannot be checked.
poll 100 "" output_has '"index":1' "$CTL" stats --json
expect 1 "GPU 5 of a server with 2" assign socket "127.0.0.1:$PORT:5"
grep -q "has 2 GPU(s)" "$TMP/ctl.err" || bad "the refusal does not say how many GPUs: $(cat "$TMP/ctl.err")"
expect 0 "a name that resolves to a known server" assign socket "localhost:$PORT:1"
"$CTL" stats >"$TMP/servers.out"
grep -q "socket -> 127.0.0.1:$PORT GPU 1" "$TMP/servers.out" && ok "the pin names the server as the client knows it" ||
	bad "pin: $(tr '\n' ' ' <"$TMP/servers.out")"
expect 0 "pin cleared" assign --clear socket
expect 1 "a server the client does not know" assign socket "127.0.0.1:$((PORT + 2))"
expect 1 "a name that does not resolve" servers add nosuch.invalid
grep -q "name lookup failed" "$TMP/ctl.err" || bad "servers add: $(cat "$TMP/ctl.err")"
expect 1 "a node this gleamd does not serve" assign vgpu3 "127.0.0.1:$PORT"
grep -q "no /dev/vgpu3" "$TMP/ctl.err" || bad "vgpu: $(cat "$TMP/ctl.err")"
expect 0 "a second server, down" servers add "127.0.0.1:$DOWN"
sleep 0.5
expect 0 "a pin to a server that is down: accepted" assign socket "127.0.0.1:$DOWN:1"
grep -q "warning: server 127.0.0.1:$DOWN is down" "$TMP/ctl.err" && ok "... with a warning: $(cat "$TMP/ctl.err")" ||
	bad "no warning: $(cat "$TMP/ctl.err")"
fast_fail "pinned to a server that is down" "pinned (socket) to a server that does not answer: 127.0.0.1:$DOWN"
# The pinned server comes up with one GPU: the pin to its GPU 1 cannot be honoured.
GLEAM_SIM_GPUS=1 "$BIN/gleamd" server --listen "127.0.0.1:$DOWN" --backend sim >>"$TMP/server1.log" 2>&1 &
S1=$!
poll 200 "" output_has "127.0.0.1:$DOWN.* up" "$CTL" servers
sleep 0.7
fast_fail "pinned to GPU 1 of a server with one" "pinned (socket) to GPU 1 of server 127.0.0.1:$DOWN, which has 1"
"$CTL" assign socket "127.0.0.1:$DOWN:0" >/dev/null 2>&1
prog
[ $prc = 0 ] && grep -q '^device 0:' "$TMP/prog.out" && ok "pinned to GPU 0 of it: the program runs" ||
	bad "pinned to GPU 0: exit $prc: $(tr '\n' ' ' <"$TMP/prog.err")"
kill $S1
wait $S1 2>/dev/null

# ---- each client gleamd keeps its own state file ----
ls "$TMP/state" >/dev/null 2>&1
state_dir=$TMP/state2
"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$TMP/a.sock" --state-dir "$state_dir" \
	>>"$TMP/a.log" 2>&1 &
CA=$!
"$BIN/gleamd" client --server "127.0.0.1:$PORT" --socket "$TMP/b.sock" --state-dir "$state_dir" \
	>>"$TMP/b.log" 2>&1 &
CB=$!
for s in a b; do
	GLEAM_SOCKET=$TMP/$s.sock poll 100 "" "$CTL" status
done
GLEAM_SOCKET=$TMP/a.sock "$CTL" assign socket "127.0.0.1:$PORT:1" >/dev/null 2>&1
nfiles=$(ls "$state_dir" | wc -l)
if [ "$nfiles" = 1 ] && GLEAM_SOCKET=$TMP/a.sock "$CTL" stats | grep -q 'socket ->' &&
	! GLEAM_SOCKET=$TMP/b.sock "$CTL" stats | grep -q 'socket ->'; then
	ok "two client gleamds, one state directory: the pin is one's own ($(ls "$state_dir"))"
else
	bad "state files: $(ls "$state_dir" | tr '\n' ' ')"
fi
kill $CA $CB
wait $CA $CB 2>/dev/null

# ---- boolean variables: 0 is off ----
"$CTL" assign --clear socket >/dev/null 2>&1
run_env() {
	env "$@" LD_LIBRARY_PATH="$BUILD/lib" timeout 60 "$PROGS/vecadd" >/dev/null 2>"$TMP/env.err"
}
run_env GLEAM_DEBUG=0 GLEAM_TRACE_WAITS=0 GLEAM_ALLOC_SLABS=1
quiet=$(wc -c <"$TMP/env.err")
run_env GLEAM_TRACE_WAITS=1
traced=$(grep -c 'waits at exit' "$TMP/env.err")
run_env GLEAM_ASYNC=off
sw=$("$CTL" status --json | python3 -c 'import json,sys; e=json.load(sys.stdin)["client"]["ended"][-1]; print(e["records"] == e["waits"])')
if [ "$quiet" = 0 ] && [ "$traced" = 1 ] && [ "$sw" = True ]; then
	ok "GLEAM_DEBUG=0 and GLEAM_TRACE_WAITS=0 are off, =1 on; GLEAM_ASYNC=off makes every call wait"
else
	bad "booleans: quiet $quiet bytes, traced $traced, async off: $sw"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
