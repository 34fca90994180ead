#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Hostile tests of who gets in and what they may do (Documentation/security.md):
# each attack the review of 794e9d7 reproduced, tried against servers and
# clients on loopback with the sim backend, and refused.  Identities come
# from a CA of the test's own (gleamctl tls): alice and mallory are tenants,
# ops the servers' administrator, 127.0.0.1 the servers.  The cases that
# need another user (root makes one up with setpriv) say SKIP without root.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
# Every upload named, as on a link slower than hashing: loopback is faster.
export GLEAM_CACHE_NAME=always
PEER="python3 $ROOT/tests/security/peer.py"
TENANT=$BUILD/tests/security/tenant
CA=$TMP/ca
PIDS=()
unset GLEAM_TLS_CERT GLEAM_TLS_KEY GLEAM_TLS_CA

# The ports of this run, P[0] to P[9]: each free when it starts, since other
# suites run beside this one.
P=()
cand=$PORT
for i in $(seq 0 9); do
	while [ -n "$(ss -Htan "sport = :$cand" 2>/dev/null)" ]; do
		cand=$((cand + 1))
	done
	P[$i]=$cand
	cand=$((cand + 1))
done

more_cleanup() {
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	[ -n "${SHARED:-}" ] && rm -rf "$SHARED"
	cleanup
}
trap more_cleanup EXIT

ctl() {
	"$BIN/gleamctl" --tls-cert "$CA/ops.pem" "$@"
}

# A server gleamd on port P[$1] with the given options; its pid in SRV.
server() {
	local n=$1 p=${P[$1]}
	shift
	"$BIN/gleamd" server --listen "127.0.0.1:$p" --backend sim "$@" >>"$TMP/server$n.log" 2>&1 &
	SRV=$!
	PIDS+=("$SRV")
	for _ in $(seq 100); do
		if ctl server-info "127.0.0.1:$p" >/dev/null 2>&1 ||
			"$BIN/gleamctl" server-info "127.0.0.1:$p" >/dev/null 2>&1; then
			return 0
		fi
		kill -0 "$SRV" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# A client gleamd on socket $1 to server $2 as identity $3 ("-": none); its pid in CLI.
client() {
	local sock=$1 to=$2 who=$3
	shift 3
	# --state-dir "": what the tests add and assign is saved nowhere.
	if [ "$who" = - ]; then
		"$BIN/gleamd" client --server "$to" --socket "$sock" --state-dir "" "$@" \
			>>"$sock.log" 2>&1 &
	else
		"$BIN/gleamd" client --server "$to" --socket "$sock" --state-dir "" \
			--tls-cert "$CA/$who.pem" "$@" >>"$sock.log" 2>&1 &
	fi
	CLI=$!
	PIDS+=("$CLI")
	for _ in $(seq 100); do
		GLEAM_SOCKET=$sock "$BIN/gleamctl" status >/dev/null 2>&1 && return 0
		kill -0 "$CLI" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# Run a program through the client gleamd on socket $1.
# One attack by peer.py (its arguments after the two lines): the first
# line with what it says when it fails as it should, else the second.
peer_check() {
	local good=$1 poor=$2 out
	shift 2
	if out=$($PEER "$@"); then
		ok "$good: $out"
	else
		bad "$poor: $out"
	fi
}

through() {
	local sock=$1
	shift
	GLEAM_SOCKET=$sock LD_LIBRARY_PATH=$BUILD/lib timeout 60 "$@"
}

workers_of() {
	pgrep -P "$1" | wc -l
}

"$BIN/gleamctl" tls init "$CA" >/dev/null &&
	"$BIN/gleamctl" tls issue "$CA" 127.0.0.1 alice mallory ops >/dev/null &&
	"$BIN/gleamctl" tls init "$TMP/foreign" >/dev/null &&
	"$BIN/gleamctl" tls issue "$TMP/foreign" intruder >/dev/null ||
	{ bad "credentials: gleamctl tls init and issue"; echo "$passed passed, $failed failed"; exit 1; }
head -c 4194304 /dev/urandom >"$TMP/weights"
head -c 8388608 /dev/urandom >"$TMP/upload"

# ---- 1. Only identities of the deployment's CA get in ----
S1=127.0.0.1:${P[0]}
if server 0 --tls-cert "$CA/127.0.0.1.pem" --admin ops; then
	ok "a server with credentials starts (TLS 1.3, mutual)"
else
	bad "a server with credentials starts: $(tail -n 2 "$TMP/server0.log")"
fi
SPID1=$SRV
out=$($PEER unauth "$S1" "$CA/ca.pem" "$TMP/foreign/intruder.pem")
sessions=$(ctl server-info "$S1" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["sessions"], d.get("workers"))')
if [ $? -eq 0 ] && [ "$sessions" = "0 0" ] && [ "$(workers_of "$SPID1")" = 0 ] &&
	! grep -q "GOT A SESSION" <<<"$out"; then
	ok "an unauthenticated peer gets no session and no worker: $out"
else
	bad "unauthenticated peers: $out; sessions and workers: $sessions"
fi

# Without credentials a server serves loopback only, whatever it is told.
lan=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9.]+$' | grep -v '^127\.' | head -n 1)
if server 3 --listen "0.0.0.0:${P[3]}" && grep -q "serving loopback only" "$TMP/server3.log"; then
	if [ -z "$lan" ]; then
		echo "SKIP: a server without credentials refuses the LAN (no address but loopback)"
		ok "a server without credentials says it serves loopback only"
	elif timeout 3 bash -c "exec 9<>/dev/tcp/$lan/${P[3]}" 2>/dev/null; then
		bad "a server without credentials answered on $lan"
	else
		ok "a server without credentials serves loopback only ($lan:${P[3]} refused)"
	fi
else
	bad "a server without credentials: $(tail -n 2 "$TMP/server3.log")"
fi
S0=127.0.0.1:${P[3]}
SPID0=$SRV

# ---- 2. Chunks: usable by a tenant only once it has shown it holds the bytes ----
client "$TMP/alice.sock" "$S1" alice || bad "alice's client gleamd starts"
if through "$TMP/alice.sock" "$TENANT" upload "$TMP/weights" >"$TMP/alice.out" 2>&1; then
	ok "alice uploads 4 MiB through TLS ($(tail -n 1 "$TMP/alice.out"))"
else
	bad "alice's upload: $(tail -n 1 "$TMP/alice.out")"
fi
peer_check "mallory cannot read alice's chunk by its name" "mallory and alice's chunk" \
	steal-chunk "$S1" "$CA/mallory.pem" "$TMP/weights"
# The same attempt, holding the bytes: the way in is the proof, not luck.
peer_check "a tenant that holds the bytes proves it and names the chunk" \
	"a tenant that holds the bytes" prove-chunk "$S1" "$CA/ops.pem" "$TMP/weights"
client "$TMP/mallory.sock" "$S1" mallory || bad "mallory's client gleamd starts"
# The cache counters of the last session that ended on the client gleamd at $1.
last_cache() {
	for _ in $(seq 50); do
		GLEAM_SOCKET=$1 "$BIN/gleamctl" status --json | python3 -c '
import json, sys
e = json.load(sys.stdin)["client"]["ended"]
print(e[-1]["cache"]["hits"], e[-1]["cache"]["bytes_sent"]) if e else sys.exit(1)' && return 0
		sleep 0.1
	done
	return 1
}
if through "$TMP/mallory.sock" "$TENANT" upload "$TMP/weights" >"$TMP/mallory.out" 2>&1 &&
	cache=$(last_cache "$TMP/mallory.sock") && [ "${cache%% *}" -ge 3 ] &&
	[ "${cache##* }" -lt 1048576 ]; then
	ok "a tenant that holds the same bytes proves it: its warm load crosses as names (hits, bytes sent: $cache)"
else
	bad "a second tenant's warm load: ${cache:-?} ($(tail -n 1 "$TMP/mallory.out"))"
fi

# ---- 3. A stolen token adopts nothing ----
peer_check "a stolen token adopts nothing" "a stolen token" \
	steal-token "$S1" "$CA/alice.pem" "$CA/mallory.pem"

# ---- 4. Limits: pins, sessions, device memory, the log ----
S2=127.0.0.1:${P[1]}
if server 1 --tls-cert "$CA/127.0.0.1.pem" --admin ops --cache-mem 64M --pin-max 16M \
	--pin-mem 64M --max-sessions 6 --max-sessions-tenant 4; then
	SPID2=$SRV
	out=$($PEER pin-flood "$S2" "$CA/mallory.pem" 256)
	rss=$(awk '/VmRSS/ { print $2 }' "/proc/$SPID2/status")
	mib=$(grep -o 'after [0-9]*' <<<"$out" | grep -o '[0-9]*')
	if [ -n "$mib" ] && [ "$mib" -le 18 ] && [ "$rss" -lt 307200 ] &&
		ctl server-info "$S2" >/dev/null; then
		ok "a pin flood is cut at the session's limit: $out; the server lives, $((rss / 1024)) MiB resident"
	else
		bad "pin flood: $out; server resident ${rss:-?} KiB"
	fi
	# The pin flood's worker goes first: the count below is the flood's alone.
	for _ in $(seq 50); do
		[ "$(workers_of "$SPID2")" = 0 ] && break
		sleep 0.1
	done
	$PEER sessions "$S2" "$CA/mallory.pem" 8 6 >"$TMP/flood1.out" &
	f1pid=$!
	poll 200 "" test -s "$TMP/flood1.out"
	$PEER sessions "$S2" "$CA/alice.pem" 4 4 >"$TMP/flood2.out" &
	f2pid=$!
	poll 200 "" test -s "$TMP/flood2.out"
	w=$(workers_of "$SPID2")
	f1=$(cat "$TMP/flood1.out")
	f2=$(cat "$TMP/flood2.out")
	if grep -q "^sessions: 4 of 8; refused: 4 EUSERS" <<<"$f1" &&
		grep -q "^sessions: 2 of 4; refused: 2 EUSERS" <<<"$f2" && [ "$w" -le 6 ] &&
		ctl server-info "$S2" >/dev/null; then
		ok "a session flood meets the limits (4 per tenant, 6 in all): mallory $f1; alice $f2; $w workers"
	else
		bad "session flood: mallory: $f1; alice: $f2; $w workers"
	fi
	wait "$f1pid" "$f2pid"
else
	bad "a server with limits starts: $(tail -n 2 "$TMP/server1.log")"
fi

S3=127.0.0.1:${P[2]}
if server 2 --tls-cert "$CA/127.0.0.1.pem" --gpu-mem-session 64M --gpu-mem-tenant 96M \
	--cache-scope tenant && client "$TMP/quota.sock" "$S3" alice; then
	# A store seen per tenant tells mallory nothing of alice's chunks.
	through "$TMP/quota.sock" "$TENANT" upload "$TMP/weights" >/dev/null 2>&1
	out=$($PEER steal-chunk "$S3" "$CA/mallory.pem" "$TMP/weights")
	if [ $? -eq 0 ] && grep -q "^with proofs: held 0, prove 0" <<<"$out"; then
		ok "cache-scope tenant: another tenant's chunk is not even said to exist ($out)"
	else
		bad "cache-scope tenant: $out"
	fi
	a=$(through "$TMP/quota.sock" "$TENANT" alloc 100 2>&1)
	through "$TMP/quota.sock" "$TENANT" alloc 48 4 >"$TMP/hold.out" 2>&1 &
	hpid=$!
	poll 100 "" test -s "$TMP/hold.out"
	b=$(through "$TMP/quota.sock" "$TENANT" alloc 64 2>&1)
	c=$(through "$TMP/quota.sock" "$TENANT" alloc 32 2>&1)
	wait "$hpid"
	if [ "$a" = "alloc: CUDA_ERROR_OUT_OF_MEMORY" ] && [ "$b" = "alloc: CUDA_ERROR_OUT_OF_MEMORY" ] &&
		[ "$c" = "alloc: CUDA_SUCCESS" ] && [ "$(cat "$TMP/hold.out")" = "alloc: CUDA_SUCCESS" ]; then
		ok "device memory quotas: 100 MiB past a session's 64 MiB, 48 + 64 MiB past a tenant's 96 MiB fail with CUDA_ERROR_OUT_OF_MEMORY; 48 + 32 MiB fit"
	else
		bad "quotas: 100 MiB: $a; 48 MiB held: $(cat "$TMP/hold.out"); 64 MiB more: $b; 32 MiB more: $c"
	fi
else
	bad "a server with device memory quotas and its client start"
fi

before=$(wc -l <"$TMP/server3.log")
$PEER garbage "$S0" 2000 >/dev/null
sleep 1
after=$(wc -l <"$TMP/server3.log")
if [ $((after - before)) -le 5 ] && "$BIN/gleamctl" server-info "$S0" >/dev/null; then
	ok "2000 connections of nonsense cost the log $((after - before)) line(s)"
else
	bad "2000 connections of nonsense wrote $((after - before)) lines"
fi

# ---- 5. Control is for administrators ----
if "$BIN/gleamctl" --tls-cert "$CA/alice.pem" cache list "$S1" >"$TMP/list.out" 2>&1; then
	bad "alice, no administrator, listed the chunk store"
elif grep -q administrator "$TMP/list.out" && ctl cache list "$S1" >/dev/null &&
	"$BIN/gleamctl" --tls-cert "$CA/mallory.pem" cache clear "$S1" >/dev/null 2>&1; [ $? -ne 0 ]; then
	ok "a non-administrator cannot list or clear the chunk store ($(head -n 1 "$TMP/list.out")); ops can"
else
	bad "chunk store control: $(head -n 1 "$TMP/list.out")"
fi

# ---- 6. The local side: socket directories and who answers on them ----
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	SHARED=$(mktemp -d /tmp/gleam-sec.XXXXXX)
	chmod 755 "$SHARED"
	as_nobody() {
		setpriv --reuid 65534 --regid 65534 --clear-groups "$@"
	}
	mkdir "$SHARED/squat" && chown 65534:65534 "$SHARED/squat"
	if ! timeout 10 "$BIN/gleamd" client --server "$S0" --socket "$SHARED/squat/gleamd.sock" \
		--state-dir "" >"$TMP/squat.out" 2>&1 && grep -q "belongs to uid 65534" "$TMP/squat.out" &&
		GLEAM_SOCKET=$SHARED/squat/gleamd.sock timeout 10 "$BIN/gleam-run" true 2>"$TMP/squat2.out";
		[ $? = 126 ]; then
		ok "gleamd and gleam-run refuse a socket directory another user made ($(head -n 1 "$TMP/squat.out" | cut -c1-90))"
	else
		bad "a squatted socket directory: $(cat "$TMP/squat.out" "$TMP/squat2.out" 2>/dev/null | head -n 2)"
	fi
	mkdir -m 777 "$SHARED/open"
	chmod 777 "$SHARED/open"
	if ! timeout 10 "$BIN/gleamd" client --server "$S0" --socket "$SHARED/open/gleamd.sock" \
		--state-dir "" >"$TMP/open.out" 2>&1 && grep -q "others may write" "$TMP/open.out"; then
		ok "gleamd refuses a socket directory others may write"
	else
		bad "a world-writable socket directory: $(head -n 1 "$TMP/open.out")"
	fi
	# A gleamd of user nobody, whose socket uid 1001's program reaches: not spoken to.
	mkdir "$SHARED/nobody" && chown 65534:65534 "$SHARED/nobody"
	# setpriv itself in the background, not as_nobody: $! would be the
	# subshell that runs the function, and gleamd would outlive the test.
	setpriv --reuid 65534 --regid 65534 --clear-groups "$BIN/gleamd" client --server "$S0" \
		--socket "$SHARED/nobody/gleamd.sock" --state-dir "" >"$TMP/nobody.log" 2>&1 &
	PIDS+=($!)
	poll 100 "" test -S "$SHARED/nobody/gleamd.sock"
	chmod 666 "$SHARED/nobody/gleamd.sock"
	if ! setpriv --reuid 1001 --regid 1001 --clear-groups env GLEAM_SOCKET="$SHARED/nobody/gleamd.sock" \
		LD_LIBRARY_PATH="$BUILD/lib" timeout 20 "$TENANT" alloc 1 >"$TMP/uid.out" 2>&1 &&
		grep -q "neither root nor this program's user" "$TMP/uid.out"; then
		ok "a program of uid 1001 does not talk to a gleamd of user nobody"
	else
		bad "a program of uid 1001 and a gleamd of nobody: $(tail -n 2 "$TMP/uid.out")"
	fi
	# Placement is for root, gleamd's own user and its admin-group.
	chmod 711 "$TMP"
	chmod 666 "$TMP/alice.sock"
	if GLEAM_SOCKET=$TMP/alice.sock as_nobody "$BIN/gleamctl" servers add 127.0.0.1:9 \
		>"$TMP/add.out" 2>&1; [ $? -ne 0 ] && grep -q "not allowed" "$TMP/add.out" &&
		GLEAM_SOCKET=$TMP/alice.sock as_nobody "$BIN/gleamctl" assign socket "$S1" \
		>>"$TMP/add.out" 2>&1; [ $? -ne 0 ] &&
		GLEAM_SOCKET=$TMP/alice.sock "$BIN/gleamctl" servers add "127.0.0.1:${P[9]}" >/dev/null &&
		GLEAM_SOCKET=$TMP/alice.sock "$BIN/gleamctl" servers remove "127.0.0.1:${P[9]}" >/dev/null; then
		ok "another user cannot add servers or reassign sessions on a client gleamd; root can"
	else
		bad "placement by another user: $(head -n 2 "$TMP/add.out")"
	fi
	chmod 700 "$TMP"
else
	echo "SKIP: socket directories of other users, a gleamd of another user, placement by another user (not root, or no setpriv)"
fi

# ---- 7. What crosses the link: a capture holds none of an upload's bytes ----
"$BIN/linkem" --listen "127.0.0.1:${P[4]}" --connect "$S1" --capture "$TMP/tls.cap" \
	>/dev/null 2>"$TMP/linkem1.log" &
PIDS+=($!)
"$BIN/linkem" --listen "127.0.0.1:${P[5]}" --connect "$S0" --capture "$TMP/plain.cap" \
	>/dev/null 2>"$TMP/linkem2.log" &
PIDS+=($!)
sleep 0.3
why=""
client "$TMP/cap.sock" "127.0.0.1:${P[4]}" alice --cache off || why="a client through the link"
[ -z "$why" ] && ! through "$TMP/cap.sock" "$TENANT" upload "$TMP/upload" >"$TMP/cap.out" 2>&1 &&
	why="the upload over TLS: $(tail -n 1 "$TMP/cap.out")"
[ -z "$why" ] && ! out=$($PEER capture-has "$TMP/upload" "$TMP/tls.cap") && why="over TLS: $out"
[ -z "$why" ] && ! client "$TMP/plain.sock" "127.0.0.1:${P[5]}" - --cache off &&
	why="a plain client through the link"
[ -z "$why" ] && ! through "$TMP/plain.sock" "$TENANT" upload "$TMP/upload" >"$TMP/plain.out" 2>&1 &&
	why="the upload over plain TCP: $(tail -n 1 "$TMP/plain.out")"
[ -z "$why" ] && plain=$($PEER capture-has "$TMP/upload" "$TMP/plain.cap") &&
	why="over plain TCP the method saw nothing either: $plain"
if [ -z "$why" ]; then
	ok "the link emulator's capture of an 8 MiB upload over TLS holds none of its bytes ($out; over plain TCP: $plain)"
else
	bad "capture of an upload: $why"
fi

# Records sealed and opened by gleamd's own record layer (the default) and
# by OpenSSL's (GLEAM_TLS_RECORDS=openssl, as gleamctl's) are the same
# TLS 1.3 records: a client whose OpenSSL keeps them uploads 8 MiB to a
# server whose gleamd keeps its own, and reads it back intact.
why=""
GLEAM_TLS_RECORDS=openssl client "$TMP/ossl.sock" "$S1" alice --cache off ||
	why="a client with OpenSSL's records"
[ -z "$why" ] && ! through "$TMP/ossl.sock" "$TENANT" upload "$TMP/upload" >"$TMP/ossl.out" 2>&1 &&
	why="the upload: $(tail -n 1 "$TMP/ossl.out")"
if [ -z "$why" ]; then
	ok "OpenSSL's records and gleamd's own are the same: 8 MiB up and back intact between them"
else
	bad "records of OpenSSL against gleamd's own: $why"
fi

# ---- 8. Workers: a fresh image, another user, nothing of the daemon's ----
through "$TMP/mallory.sock" "$TENANT" alloc 1 5 >"$TMP/mw.out" 2>&1 &
mwpid=$!
poll 100 "" test -s "$TMP/mw.out"
wpid=$(pgrep -n -P "$SPID1")
if [ -n "$wpid" ]; then
	wuid=$(awk '/^Uid:/ { print $2 }' "/proc/$wpid/status")
	cmd=$(tr '\0' ' ' <"/proc/$wpid/cmdline")
	out=$($PEER scan-mem "$wpid" "$TMP/weights")
	rc=$?
	if [ "$cmd" = "gleamd worker " ] && [ $rc -eq 0 ] &&
		{ [ "$(id -u)" != 0 ] || [ "$wuid" != 0 ]; }; then
		ok "mallory's worker is a fresh image ($cmd) of uid $wuid; $out (alice's weights, which the server holds)"
	else
		bad "mallory's worker: '$cmd' uid $wuid; $out"
	fi
else
	bad "no worker found for mallory's session"
fi
wait "$mwpid"

# ---- 9. Descriptors the daemons did not open, names peers chose ----
"$BIN/gleamd" server --listen "127.0.0.1:${P[6]}" --backend sim 7>"$TMP/fd7" \
	>/dev/null 2>&1 &
fdpid=$!
PIDS+=("$fdpid")
sleep 0.5
leak=$(ls -l "/proc/$fdpid/fd" 2>/dev/null | grep -c "$TMP/fd7")
# The pipe is the started daemon's descriptor 3: the reader ends only if the daemon let it go.
bash -c "exec 3>&1; '$BIN/gleamd' server --listen 127.0.0.1:${P[7]} --backend sim \
	>/dev/null 2>&1 & echo \$! >'$TMP/pipe.pid'" | timeout 10 cat >/dev/null
rc=$?
PIDS+=("$(cat "$TMP/pipe.pid")")
if [ "$leak" = 0 ] && [ $rc = 0 ]; then
	ok "a daemon keeps no descriptor it inherited: a pipeline that started one ends"
else
	bad "inherited descriptors: fd 7 kept ($leak), pipeline status $rc"
fi
$PEER evil-names "$S1" "$CA/alice.pem" >/dev/null
sleep 0.3
if ! grep -q '^FAKE-LOG-LINE' "$TMP/server0.log" && grep -q 'evil\\x0aFAKE-LOG-LINE' "$TMP/server0.log"; then
	ok "names a peer sends reach the log escaped ($(grep -o 'evil\\x0aFAKE[^ ]*' "$TMP/server0.log" | head -n 1))"
else
	bad "names a peer sends reach the log raw: $(grep -a -m 1 'FAKE' "$TMP/server0.log")"
fi

# The count of what the log held back, once the interval is over.
sleep 10
if grep -q "more like it from 127.0.0.1" "$TMP/server3.log"; then
	ok "the log says once how many more came: $(grep -o '[0-9]* more like it from 127.0.0.1' "$TMP/server3.log" | head -n 1)"
else
	bad "no count of the connections held back from the log"
fi

for p in "$SPID0" "$SPID1"; do
	kill -0 "$p" 2>/dev/null || bad "a server died ($p)"
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
