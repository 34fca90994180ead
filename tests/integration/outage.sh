#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Links that die for real (Documentation/reliability.md).  tools/linkem
# takes the link between the two gleamd down each way a link dies: close
# (FIN on both sides, new connections closed at once), reset (reset on both
# sides and at once), refuse (reset, new connections refused) and blackhole
# (nothing passes, nothing is reset), for 1 s and for 10 s, in the middle of
# a stream of copies and of a stream of launches (tests/programs/steady.c).
# Then:
#
#   - each program finishes, its own checks passing;
#   - the server took exactly the records the client sent (the client
#     gleamd's "ended: N records", the server's "ended: N records taken"):
#     none lost, none replayed twice;
#   - each session taken up again came back from a new address (linkem's
#     source changes before every outage, as a laptop that changed
#     networks), which the server's log names;
#   - an outage longer than the grace period ends the program with
#     CUDA_ERROR_DEVICE_UNAVAILABLE within the grace period plus 2 s, and
#     not before it, and the server lets the session go.
#
# The four ways run side by side, each with daemons and a linkem of its own
# (OUTAGE_WAYS chooses among them).  Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/programs
WAYS=${OUTAGE_WAYS:-close reset refuse blackhole}
KEEP=2		# s: keepalive, both daemons
GRACE=15	# s: longer than a 10 s outage, its detection and the pauses between attempts
export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels

now() {
	echo "${EPOCHREALTIME/./}"
}

# Microseconds as seconds with one decimal.
secs() {
	awk -v us="$1" 'BEGIN { printf "%.1f", us / 1e6 }'
}

# Stops what a way started; the EXIT trap calls it for every way.
stop_pids() {
	local f
	for f in "$TMP"/*/pids; do
		[ -f "$f" ] && kill $(cat "$f") 2>/dev/null
	done
	wait 2>/dev/null
}
trap 'stop_pids; cleanup' EXIT

# way_start DIR BASE: a server, a linkem in front of it and a client gleamd
# going through it, each waited for; 1 when one does not answer.
way_start() {
	local dir=$1 base=$2
	"$BIN/gleamd" server --listen "127.0.0.1:$base" --backend "${BACKEND:-sim}" \
		--keepalive $KEEP --resume $GRACE >>"$dir/server.log" 2>&1 &
	echo $! >>"$dir/pids"
	"$BIN/linkem" --listen "127.0.0.1:$((base + 1))" --connect "127.0.0.1:$base" \
		--rate 1gbit --delay 250us --control "$dir/linkem.ctl" >>"$dir/linkem.log" 2>&1 &
	echo $! >>"$dir/pids"
	"$BIN/gleamd" client --server "127.0.0.1:$((base + 1))" --socket "$dir/gleamd.sock" --state-dir "$(dirname "$dir/gleamd.sock")" \
		--keepalive $KEEP --resume $GRACE >>"$dir/client.log" 2>&1 &
	echo $! >>"$dir/pids"
	for _ in $(seq 200); do
		GLEAM_SOCKET=$dir/gleamd.sock "$BIN/gleamctl" status >/dev/null 2>&1 &&
			[ -S "$dir/linkem.ctl" ] &&
			"$BIN/gleamctl" server-info "127.0.0.1:$base" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

# The records the client sent in its n-th session, and those the server
# took in its n-th; waits for the server's.
records() {
	local dir=$1 n=$2 sent= took=
	for _ in $(seq 50); do
		sent=$(sed -n 's/.*(steady, pid [0-9]*) ended: \([0-9]*\) records.*/\1/p' \
			"$dir/client.log" | sed -n "${n}p")
		took=$(sed -n 's/.* ended: \([0-9]*\) records taken$/\1/p' "$dir/server.log" |
			sed -n "${n}p")
		[ -n "$sent" ] && [ -n "$took" ] && break
		sleep 0.1
	done
	echo "${sent:-?} ${took:-?}"
}

# one_case WAY DIR WHAT LEN N: steady WHAT with the link down WAY for LEN,
# 1 s into the run, after linkem's source became 127.0.0.(N+1).
one_case() {
	local way=$1 dir=$2 what=$3 len=$4 n=$5 ctl=$2/linkem.ctl
	local out=$dir/$what-$len pid rc sent took back from what_
	what_="$way: $len in the middle of a stream of $([ "$what" = copy ] && echo copies || echo launches)"
	"$BIN/linkem" --ctl "$ctl" source "127.0.0.$((n + 1)):0" >/dev/null
	GLEAM_SOCKET=$dir/gleamd.sock timeout 120 "$PROGS/steady" "$what" 4 \
		>"$out.out" 2>"$out.err" &
	pid=$!
	sleep 1
	"$BIN/linkem" --ctl "$ctl" "$way" "$len" >/dev/null
	wait $pid
	rc=$?
	read -r sent took <<<"$(records "$dir" "$n")"
	back=$(sed -n "s/.*session [0-9]* (steady) taken up again after \([0-9.]*\) s.*/\1/p" \
		"$dir/client.log" | sed -n '$p')
	from=$(grep -c "(steady) taken up again from 127\.0\.0\.$((n + 1)):" "$dir/server.log")
	if [ $rc -ne 0 ] || ! grep -q "^steady: PASS$" "$out.out"; then
		echo "FAIL: $what_: exited $rc: $(tail -n 1 "$out.err")"
	elif [ "$sent" != "$took" ]; then
		echo "FAIL: $what_: the client sent $sent records, the server took $took"
	elif [ "$len" != 1s ] || [ "$way" != blackhole ]; then
		# Every way but a black hole shorter than the keepalive drops the connection.
		if [ "$from" -lt 1 ] || [ -z "$back" ]; then
			echo "FAIL: $what_: no take-up from 127.0.0.$((n + 1)) in the server's log"
		else
			echo "ok: $what_: checks pass, $sent records sent and taken; taken up again from 127.0.0.$((n + 1)) after $back s"
		fi
	else
		echo "ok: $what_: checks pass, $sent records sent and taken; no take-up needed"
	fi
	# The link is back for the next case (a black hole held bytes until now).
	"$BIN/linkem" --ctl "$ctl" restore >/dev/null
}

# past_grace WAY DIR BASE: the link down for good under a stream of copies.
past_grace() {
	local way=$1 dir=$2 base=$3 ctl=$2/linkem.ctl pid rc t0 t1 el left=
	local what_="$way: an outage longer than the grace period ($GRACE s)"
	GLEAM_SOCKET=$dir/gleamd.sock timeout 120 "$PROGS/steady" copy 100 \
		>"$dir/long.out" 2>"$dir/long.err" &
	pid=$!
	sleep 1
	t0=$(now)
	"$BIN/linkem" --ctl "$ctl" "$way" >/dev/null
	wait $pid
	rc=$?
	t1=$(now)
	"$BIN/linkem" --ctl "$ctl" restore >/dev/null
	el=$((t1 - t0))
	# The server lets the session go once its own grace period is over.
	for _ in $(seq 60); do
		left=$("$BIN/gleamctl" server-info "127.0.0.1:$base" --json 2>/dev/null |
			sed -n 's/^{[^[]*"sessions":\([0-9]*\),.*/\1/p')
		[ "$left" = 0 ] && break
		sleep 0.1
	done
	if [ $rc -eq 0 ] || [ $rc -eq 124 ] ||
		! grep -q CUDA_ERROR_DEVICE_UNAVAILABLE "$dir/long.err"; then
		echo "FAIL: $what_: exited $rc after $(secs $el) s: $(tail -n 1 "$dir/long.err")"
	elif [ $el -lt $(((GRACE - 1) * 1000000)) ] || [ $el -gt $(((GRACE + 2) * 1000000)) ]; then
		echo "FAIL: $what_: CUDA_ERROR_DEVICE_UNAVAILABLE after $(secs $el) s, not within $GRACE to $((GRACE + 2)) s"
	elif [ "$left" != 0 ]; then
		echo "FAIL: $what_: the server still holds ${left:-?} session(s)"
	else
		echo "ok: $what_: CUDA_ERROR_DEVICE_UNAVAILABLE after $(secs $el) s; the server let it go"
	fi
}

# One way of dying, start to end, its verdicts in DIR/verdicts.
run_way() {
	local way=$1 base=$2 dir=$TMP/$1 n=0 what len
	mkdir -p "$dir"
	if ! way_start "$dir" "$base"; then
		echo "FAIL: $way: the daemons did not start" >"$dir/verdicts"
		return
	fi
	for len in 1s 10s; do
		for what in copy launch; do
			n=$((n + 1))
			one_case "$way" "$dir" $what $len $n
		done
	done >"$dir/verdicts"
	past_grace "$way" "$dir" "$base" >>"$dir/verdicts"
	for p in $(cat "$dir/pids"); do
		kill -0 "$p" 2>/dev/null || echo "FAIL: $way: a daemon or linkem died" >>"$dir/verdicts"
	done
}

t_start=$SECONDS
i=0
for way in $WAYS; do
	run_way "$way" $((PORT + 10 * i)) &
	i=$((i + 1))
done
wait
for way in $WAYS; do
	while read -r line; do
		case $line in
		ok:*) ok "${line#ok: }" ;;
		*) bad "${line#FAIL: }" ;;
		esac
	done <"$TMP/$way/verdicts"
	# What the program and the daemons said, where something failed.
	if grep -q FAIL "$TMP/$way/verdicts" && [ "${OUTAGE_VERBOSE:-0}" = 1 ]; then
		tail -n 20 "$TMP/$way/client.log" "$TMP/$way/server.log" "$TMP/$way/linkem.log"
	fi
	[ -n "${GLEAM_TEST_LOGS:-}" ] && mkdir -p "$GLEAM_TEST_LOGS/$way" &&
		cp "$TMP/$way"/*.log "$TMP/$way"/*.out "$TMP/$way"/*.err "$GLEAM_TEST_LOGS/$way/" 2>/dev/null
done
echo "outage tests: $((SECONDS - t_start)) s"
summary
