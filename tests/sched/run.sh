#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The scheduler (Documentation/scheduler.md), on loopback with the sim
# backend: three server gleamd, each behind a linkem link of its own
#   A 1 Gbit/s 0.5 ms, B 100 Mbit/s 5 ms, C 300 Mbit/s 2 ms,
# and one client gleamd that knows all three.  Checked:
#   0. the model alone (tests/sched/test_sched.c), without daemons;
#   1. the links are told apart (ping RTT A < C < B) and new sessions go
#      to the best one;
#   2. a server loaded by another client's busy sessions loses a new
#      session whose time is mostly replay to an idle one;
#   3. a pin (gleamctl assign socket) is honoured, and survives a restart
#      of the client gleamd; cleared, placement is back;
#   4. a link slowed mid-run (linkem: delay) loses new sessions; a link
#      cut (linkem: cut) is dropped from placement;
#   5. a server gleamd that goes away is dropped, and its return (and the
#      cut link's) is noticed and used again;
#   6. (root, with veth) a server added at run time (gleamctl servers add)
#      on an address of a veth pair is used; the pair's carrier lost is
#      seen through rtnetlink and the server left out although its TCP
#      connection (local) still works, and used again when the carrier is
#      back; removed (gleamctl servers remove), it gets no session.
# Every wait polls a condition; the times it took are printed.  Ends with
# "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tests/lib/poll.sh
. "$ROOT/tests/lib/poll.sh"
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
BIN=$BUILD/bin
PROGS=$BUILD/tests/programs
TMP=$(mktemp -d /tmp/gleam-sched.XXXXXX)
# Below the ephemeral ports (32768 up), which any connection may take.
BASE=$((20000 + $$ % 600 * 20))
export GLEAM_SOCKET=$TMP/client.sock
export LD_LIBRARY_PATH=$BUILD/lib
export GLEAM_TEST_KERNELS=$BUILD/tests/kernels
passed=0
failed=0
PIDS=()

ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }

cleanup() {
	for p in "${PIDS[@]}" ${CPID:-} ${LPID:-}; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	[ -n "${VETH:-}" ] && ip link del "$VETH" 2>/dev/null
	# GLEAM_KEEP=1: the logs stay, for a failure to be looked at.
	[ -n "${GLEAM_KEEP:-}" ] && echo "logs in $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT

# Server i (1..3) listens on BASE+i; its link on BASE+10+i.
NAMES=(x A B C)
RATES=(x 1gbit 100mbit 300mbit)
DELAYS=(x 0.5ms 5ms 2ms)
declare -A SPID LINK

start_server() {
	local i=$1
	"$BIN/gleamd" server --listen "127.0.0.1:$((BASE + i))" --backend sim \
		>>"$TMP/server$i.log" 2>&1 &
	SPID[$i]=$!
	PIDS+=("$!")
	poll 200 "" "$BIN/gleamctl" server-info "127.0.0.1:$((BASE + i))"
}

start_link() {
	local i=$1
	"$BIN/linkem" --listen "127.0.0.1:$((BASE + 10 + i))" --connect "127.0.0.1:$((BASE + i))" \
		--rate "${RATES[$i]}" --delay "${DELAYS[$i]}" --control "$TMP/link$i.ctl" \
		>"$TMP/linkem$i.log" 2>&1 &
	PIDS+=("$!")
	LINK[$i]=127.0.0.1:$((BASE + 10 + i))
	poll 200 "" grep -q "listening on" "$TMP/linkem$i.log"
}

# The client gleamd; a few tries, as the socket of one just ended may
# still be held a moment by its io_uring's requests being cancelled.
start_client() {
	for _ in 1 2 3 4 5; do
		# --insecure: server D of case 6 is on a veth pair, not loopback, and plain.
		"$BIN/gleamd" client --socket "$GLEAM_SOCKET" --state-dir "$TMP/state" \
			--server "${LINK[1]}" --server "${LINK[2]}" --server "${LINK[3]}" --insecure \
			>>"$TMP/client.log" 2>&1 &
		CPID=$!
		poll 100 "$CPID" "$BIN/gleamctl" status && return 0
		sleep 0.2
	done
	return 1
}

ctl() { "$BIN/linkem" --ctl "$TMP/link$1.ctl" "${@:2}" >/dev/null; }

# A Python expression over the client's stats: d (all of it), S (servers by
# name A, B, C) and last (the latest session placed).
q() {
	"$BIN/gleamctl" stats --json 2>/dev/null | python3 -c "
import json, sys
d = json.load(sys.stdin)
by = {s['address']: s for s in d['servers']}
S = {n: by.get(a, {'state': 'gone', 'link': {}}) for n, a in
     (('A', '${LINK[1]}'), ('B', '${LINK[2]}'), ('C', '${LINK[3]}'))}
last = d['sessions'][0] if d['sessions'] else {}
print($1)" 2>/dev/null
}

# Poll until the expression is True, for at most $2 seconds; prints the time taken.
wait_for() {
	local t0 end
	t0=$(date +%s.%N)
	end=$(echo "$t0 + $2" | bc)
	while [ "$(echo "$(date +%s.%N) < $end" | bc)" = 1 ]; do
		if [ "$(q "$1")" = True ]; then
			printf "%.2f" "$(echo "$(date +%s.%N) - $t0" | bc)"
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# The link name (A, B, C) the latest session went to, and why.
where() {
	q "{'${LINK[1]}': 'A', '${LINK[2]}': 'B', '${LINK[3]}': 'C'}.get(last.get('server'), '?')"
}

run() {
	timeout 60 "$PROGS/$1" "${@:2}" >"$TMP/prog.out" 2>&1 ||
		{ bad "$* failed: $(tail -n 2 "$TMP/prog.out")"; return 1; }
}

# Run a program; it must go to $1.
expect() {
	local want=$1 got why
	shift
	run "$@" || return 1
	got=$(where)
	why=$(q "last['why'] + '; ' + ', '.join('%s %.3f s (link %.3f at %.0f Mbit/s, %.2f ms; GPU %.3f, %.1f others)' % (c['server'], c['predicted_s'], c['link_s'], c['rate_mbit'], c['rtt_ms'], c['gpu_s'], c['others']) for c in last['candidates'])")
	if [ "$got" = "$want" ]; then
		ok "$CASE: $1 went to $got ($why)"
	else
		bad "$CASE: $1 went to $got, not $want ($why)"
		# What the model saw: the program as learnt, each server's GPU.
		echo "   model: $(q "'; '.join(['%s: %d runs, up %.0f down %.0f, %.0f waits, gpu %.4f s' % (p['program'], p['runs'], p['up'], p['down'], p['waits'], p['gpu_s']) for p in d['programs'] if p['program'] == '$1'] + ['%s: ' % n + ', '.join('GPU %d sessions %.0f own %d util %d%% wait %d us' % (g['index'], g['sessions'], g['own'], g['util_pct'], g['wait_us']) for g in S[n].get('gpus', [])) for n in 'ABC'])")"
	fi
	echo "   links: $(q "', '.join('%s %.2f ms (least %.2f), %.0f Mbit/s (%s)' % (n, S[n]['link'].get('rtt_ms', 0), S[n]['link'].get('rtt_min_ms', 0), S[n]['link'].get('rate_mbit', 0), S[n]['link'].get('rate_src', '-')) for n in 'ABC')")"
}

# back N SINCE: N (A, B or C) up again within 10 s of SINCE, and a session
# goes to it.
back() {
	local t

	if t=$(wait_for "S['$1']['state'] == 'up'" 10); then
		ok "$CASE: $1 noticed ${t} s after $2"
		expect "$1" vecadd
	else
		bad "$CASE: $1 not noticed: $(q "S['$1']['state'] + ' ' + S['$1']['why']")"
	fi
}

# 0. The model alone: hostile INFO, choices on made-up links and loads, pins, the state file.
if "$BUILD/tests/sched/test-sched" >"$TMP/unit.log" 2>&1; then
	ok "the model alone: $(grep -o 'Checks: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$TMP/unit.log")"
else
	bad "the model alone: $(grep -E ':[EF]:' "$TMP/unit.log" | head -n 3)"
fi

for i in 1 2 3; do
	start_server "$i" || { bad "server ${NAMES[$i]} starts"; exit 1; }
	start_link "$i" || { bad "link ${NAMES[$i]} starts: $(tail -n 2 "$TMP/linkem$i.log")"; exit 1; }
done
start_client || { bad "client gleamd starts: $(tail -n 3 "$TMP/client.log")"; exit 1; }
ALLUP="all(S[n]['state'] == 'up' and S[n]['link'].get('rtt_src') == 'ping' and S[n]['info_age_s'] >= 0 for n in 'ABC')"
if t=$(wait_for "$ALLUP" 10); then
	ok "three servers up with a measured RTT after ${t} s"
else
	bad "servers up: $(q "[(n, S[n]['state']) for n in 'ABC']")"
	echo "$passed passed, $failed failed"
	exit 1
fi

# 1. The links as measured, and sessions to the best.
CASE="best link"
# The least of the last PINGs: the links' delays, whatever this machine's load adds.
ORDER="S['A']['link']['rtt_min_ms'] + 1.5 < S['C']['link']['rtt_min_ms'] and S['C']['link']['rtt_min_ms'] + 3 < S['B']['link']['rtt_min_ms']"
wait_for "$ORDER" 5 >/dev/null
rtts=$(q "' '.join('%s %.2f ms (least %.2f)' % (n, S[n]['link']['rtt_ms'], S[n]['link']['rtt_min_ms']) for n in 'ABC')")
if [ "$(q "$ORDER")" = True ]; then
	ok "ping RTTs tell the links apart: $rtts"
else
	bad "ping RTTs do not follow the links' delays: $rtts"
fi
expect A vecadd
expect A vecadd
# The replay-heavy program the next case uses: learnt here, on an idle system.
expect A matmul 512

# 2. A loaded server: another client's busy sessions on A.
CASE="loaded server"
# Its sessions end with it (--resume 0), not wait on A to be taken up again.
"$BIN/gleamd" client --socket "$TMP/load.sock" --state-dir "" --resume 0 \
	--server "127.0.0.1:$((BASE + 1))" \
	>>"$TMP/load.log" 2>&1 &
LPID=$!
GLEAM_SOCKET=$TMP/load.sock poll 200 "" "$BIN/gleamctl" status
LOAD=()
for _ in 1 2 3; do
	GLEAM_SOCKET=$TMP/load.sock timeout 60 "$PROGS/churn" 30 1 >/dev/null 2>&1 &
	LOAD+=("$!")
done
if t=$(wait_for "S['A']['gpus'][0]['sessions'] >= 3" 10); then
	ok "$CASE: A reports 3 sessions after ${t} s: $(q "'util %d%% (measured: %s), wait %d us' % (S['A']['gpus'][0]['util_pct'], S['A']['gpus'][0]['util_measured'], S['A']['gpus'][0]['wait_us'])")"
	expect C matmul 512
else
	bad "$CASE: A never reported its sessions: $(q "S['A'].get('gpus')")"
fi
for p in "${LOAD[@]}"; do
	kill "$p" 2>/dev/null
done
wait "${LOAD[@]}" 2>/dev/null
kill "$LPID" 2>/dev/null
wait "$LPID" 2>/dev/null
LPID=
if ! t=$(wait_for "S['A']['gpus'][0]['sessions'] == 0" 30); then
	bad "$CASE: A's sessions did not end: $(q "S['A']['gpus']"); the server says: $("$BIN/gleamctl" server-info "127.0.0.1:$((BASE + 1))" | head -n 1); $(tail -n 3 "$TMP/server1.log")"
else
	echo "   A back to no session ${t} s after the load ended"
fi

# 3. A pin, across a restart of the client gleamd.
CASE="pin"
if "$BIN/gleamctl" assign socket "${LINK[2]}:0" >/dev/null; then
	expect B vecadd
	kill "$CPID"
	wait "$CPID" 2>/dev/null
	start_client || bad "$CASE: the client gleamd does not start again"
	# One pin of one GPU (a pin of a list says its GPUs in 'gpus').
	if [ "$(q "[(p['what'], p['server'], p['gpu'], p.get('gpus', '')) for p in d['pins']] == [('socket', '${LINK[2]}', 0, '')]")" = True ]; then
		ok "$CASE: the pin is back after a restart"
	else
		bad "$CASE: pins after a restart: $(q "d['pins']")"
	fi
	wait_for "$ALLUP" 10 >/dev/null
	expect B vecadd
	[ "$(q "last['why'].startswith('pinned')")" = True ] || bad "$CASE: not said to be pinned"
	"$BIN/gleamctl" assign --clear socket >/dev/null || bad "$CASE: the pin does not clear"
	CASE="pin cleared"
	expect A vecadd
else
	bad "$CASE: gleamctl assign refused"
fi

# 4. A slowed, then cut.
CASE="link slowed"
ctl 1 delay 30ms
if t=$(wait_for "S['A']['link']['rtt_ms'] > S['C']['link']['rtt_ms'] + 10" 5); then
	ok "$CASE: A's RTT rose to $(q "'%.1f ms' % S['A']['link']['rtt_ms']") within ${t} s of the change"
	expect C vecadd
else
	bad "$CASE: A's RTT stays $(q "S['A']['link']['rtt_ms']") ms"
fi
ctl 1 delay 0.5ms
wait_for "S['A']['link']['rtt_ms'] < S['C']['link']['rtt_ms']" 10 >/dev/null ||
	bad "$CASE: A's RTT does not come back: $(q "S['A']['link']['rtt_ms']")"
CASE="link cut"
ctl 1 cut
if t=$(wait_for "S['A']['state'] != 'up'" 5); then
	ok "$CASE: A dropped ${t} s after the cut ($(q "S['A']['state'] + ': ' + S['A']['why']"))"
	expect C vecadd
else
	bad "$CASE: A still $(q "S['A']['state']") after the cut"
fi

# 5. C's server gleamd goes away and comes back; so does A's link.
CASE="server gone"
kill "${SPID[3]}"
wait "${SPID[3]}" 2>/dev/null
if t=$(wait_for "S['C']['state'] != 'up'" 5); then
	ok "$CASE: C dropped ${t} s after its gleamd ended"
	expect B vecadd
else
	bad "$CASE: C still $(q "S['C']['state']")"
fi
CASE="server back"
start_server 3 || bad "$CASE: server C does not start again"
back C "it came back"
CASE="link restored"
ctl 1 restore
back A "the link came back"

# 6. The interface: a veth pair, the server on the far end's address.
CASE="interface"
VA=gls$$a
VB=gls$$b
NET=10.231.$(($$ % 250))
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null ||
	! ip link add "$VA" type veth peer name "$VB" 2>/dev/null; then
	echo "SKIP: $CASE: needs root and veth"
else
	VETH=$VA
	ip addr add "$NET.1/30" dev "$VA" && ip addr add "$NET.2/30" dev "$VB" &&
		ip link set "$VA" up && ip link set "$VB" up
	D=$NET.2:$((BASE + 4))
	"$BIN/gleamd" server --listen "$D" --backend sim --insecure >>"$TMP/server4.log" 2>&1 &
	PIDS+=("$!")
	DUP="any(s['address'] == '$D' and s['state'] == 'up' and s['link']['iface'] == '$VB' and s['link']['iface_up'] for s in d['servers'])"
	# ... and measured as the least RTT of all (no link is emulated to it).
	DBEST="$DUP and all(s['link']['rtt_ms'] < S['A']['link']['rtt_min_ms'] for s in d['servers'] if s['address'] == '$D')"
	if "$BIN/gleamctl" servers add "$D" >/dev/null && t=$(wait_for "$DBEST" 10); then
		ok "$CASE: server D added at run time, up through $VB with the least RTT after ${t} s"
		# No link emulated: D's RTT is the least; devinfo moves next to nothing.
		run devinfo && [ "$(q "last['server']")" = "$D" ] && ok "$CASE: devinfo went to D" ||
			bad "$CASE: devinfo went to $(q "last['server']"), not D: $(q "last['why'], last['candidates'], [(s['address'], s['state'], s['why']) for s in d['servers']], d['sessions'][:3]")"
		ip link set "$VA" down
		if t=$(wait_for "any(s['address'] == '$D' and s['state'] != 'up' for s in d['servers'])" 2); then
			ok "$CASE: $VB's carrier lost, D left out ${t} s later ($(q "[s['state'] + ': ' + s['why'] for s in d['servers'] if s['address'] == '$D'][0]"))"
			run devinfo && [ "$(q "last['server']")" != "$D" ] && ok "$CASE: devinfo did not go to D" ||
				bad "$CASE: devinfo went to D with its carrier lost"
		else
			bad "$CASE: D still up with $VB's carrier lost"
		fi
		ip link set "$VA" up
		if t=$(wait_for "$DBEST" 10); then
			ok "$CASE: the carrier back, D up again ${t} s later"
			run devinfo && [ "$(q "last['server']")" = "$D" ] && ok "$CASE: devinfo went to D again" ||
				bad "$CASE: devinfo went to $(q "last['server']"), not D"
		else
			bad "$CASE: D not back: $(q "[s for s in d['servers'] if s['address'] == '$D']")"
		fi
		"$BIN/gleamctl" servers remove "$D" >/dev/null || bad "$CASE: D cannot be removed"
		run devinfo && [ "$(q "last['server']")" != "$D" ] && ok "$CASE: D removed, devinfo went elsewhere" ||
			bad "$CASE: devinfo went to D after its removal"
	else
		bad "$CASE: D not up: $(q "[s for s in d['servers'] if s['address'] == '$D']")"
	fi
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
