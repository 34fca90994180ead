#!/bin/sh
# Inside the vm-check VM, after vgpu_test, with gleam_vgpu.ko loaded
# (nr_vgpus=2): the real gleamd in both roles (a server with the sim
# backend on 127.0.0.1 and a client) serves /dev/vgpu0, /dev/vgpu1 and its
# socket.  The driver-API test programs run through each node and must
# print what they print on NVIDIA's driver; then an application killed in
# the middle of a call, gleamd killed under waiting applications and
# restarted, and the round trip of an empty synchronous call through
# /dev/vgpuN against the socket.
#
# Prints "ok N - name" or "not ok N - name", "  BENCH" lines and
# "N passed, N failed"; exits 1 on any failure.
G=/gleam
BIN=$G/bin
PROGS=$G/tests/programs
EXP=$G/expected
T=/tmp/gleam-vm
PORT=7381
export GLEAM_SOCKET=$T/gleamd.sock
n=0
passed=0
failed=0
mkdir -p $T

ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $*"; }
bad() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
note() { echo "  $*"; }

# Applications run on Gleam's libcuda.so.1; the daemons never load it.
app() { LD_LIBRARY_PATH=$G/lib timeout 300 "$@"; }

sysfs() { cat /sys/class/gleam_vgpu/vgpu$1/$2; }

# Processes whose parent is $1.
children() {
	awk -v p="$1" '$4 == p { c++ } END { print c + 0 }' /proc/[0-9]*/stat 2>/dev/null
}

# Wait up to $2 tenths of a second for command $1 to succeed.
await() {
	i=0
	while ! eval "$1" >/dev/null 2>&1; do
		i=$((i + 1))
		[ $i -gt "$2" ] && return 1
		sleep 0.1
	done
	return 0
}

# Under TCG a sim kernel can hold the only CPU for longer than a keepalive,
# and this script tests the module's path, not the network's: no keepalive,
# no resume here (tests/integration/silent.sh and resume.sh test them).
NET_OPTS="--keepalive 0 --resume 0"

start_server() {
	$BIN/gleamd server --listen 127.0.0.1:$PORT --backend sim $NET_OPTS >>$T/server.log 2>&1 &
	SPID=$!
	await "$BIN/gleamctl server-info 127.0.0.1:$PORT" 300
}

start_client() {
	$BIN/gleamd client --server 127.0.0.1:$PORT --socket $GLEAM_SOCKET $NET_OPTS \
		>>$T/client.log 2>&1 &
	CPID=$!
	await "$BIN/gleamctl status | grep -q '^vgpu: 2 node'" 300
}

# A program through one node: its stdout must be what NVIDIA's driver printed.
run_prog() {
	node=$1 name=$2
	shift 2
	out=$T/$name.vgpu$node.out
	s0=$(sysfs "$node" sessions_opened)
	t=$(date +%s)
	GLEAM_TRANSPORT=vgpu CUDA_VISIBLE_DEVICES=$node app $PROGS/$name "$@" \
		>$out 2>$T/$name.vgpu$node.err
	rc=$?
	t=$(($(date +%s) - t))
	s1=$(sysfs "$node" sessions_opened)
	if [ $rc -ne 0 ]; then
		bad "$name on /dev/vgpu$node exited $rc: $(tail -n 1 $T/$name.vgpu$node.err)"
		return 1
	fi
	if [ "$s1" -le "$s0" ]; then
		bad "$name did not open /dev/vgpu$node"
		return 1
	fi
	return 0
}

ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
start_server || { bad "server gleamd starts"; tail -n 5 $T/server.log; }
if start_client; then
	ok "gleamd client serves /dev/vgpu0 and /dev/vgpu1 and its socket"
else
	bad "gleamd client takes the control node"
	tail -n 10 $T/client.log
	$BIN/gleamctl status
	echo "$passed passed, $failed failed"
	exit 1
fi

# The test programs, default arguments but memops, through both nodes.
t0=$(date +%s)
for node in 0 1; do
	for exp in $EXP/*.out; do
		name=$(basename $exp .out)
		if [ $name = memops ]; then
			# Sizes up to 1 MiB + 7 only: the rest is too slow under TCG.
			run_prog $node memops 1048583 || continue
			awk '!/^size / || $2 + 0 <= 1048583' $exp >$T/memops.exp
			exp=$T/memops.exp
		else
			run_prog $node $name || continue
		fi
		# A program that needs more devices than a node gives says SKIP (twogpus).
		if head -n 1 $T/$name.vgpu$node.out | grep -q '^SKIP:'; then
			echo "  $(head -n 1 $T/$name.vgpu$node.out) (through /dev/vgpu$node)"
			continue
		fi
		if cmp -s $T/$name.vgpu$node.out $exp; then
			ok "$name through /dev/vgpu$node prints what it prints on NVIDIA's driver ($t s)"
		else
			bad "$name through /dev/vgpu$node printed other than on NVIDIA's driver"
			diff $exp $T/$name.vgpu$node.out | head -n 5
		fi
	done
	if run_prog $node devinfo && grep -q '^devinfo: PASS$' $T/devinfo.vgpu$node.out &&
		grep -q '^device 0: Gleam sim device$' $T/devinfo.vgpu$node.out; then
		ok "devinfo through /dev/vgpu$node sees the server's device"
	elif [ -s $T/devinfo.vgpu$node.out ]; then
		bad "devinfo through /dev/vgpu$node"
	fi
done
note "programs: $(($(date +%s) - t0)) s"

# Both kinds of session at once, and status shows each with its way in.
GLEAM_TRANSPORT=socket app $PROGS/vecadd >$T/vecadd.sock.out 2>&1 &
p1=$!
GLEAM_TRANSPORT=vgpu app $PROGS/vecadd >$T/vecadd.both.out 2>&1 &
p2=$!
wait $p1
r1=$?
wait $p2
r2=$?
js=$($BIN/gleamctl status --json)
if [ $r1 = 0 ] && [ $r2 = 0 ] && cmp -s $T/vecadd.sock.out $EXP/vecadd.out &&
	cmp -s $T/vecadd.both.out $EXP/vecadd.out &&
	echo "$js" | grep -q '"via":"socket"' && echo "$js" | grep -q '"via":"vgpu0"' &&
	echo "$js" | grep -q '"kernel":{"sessions_opened":'; then
	ok "a socket session and a /dev/vgpu0 session at the same time; status shows both"
else
	bad "socket and vgpu sessions together ($r1, $r2)"
fi

# A node named twice in CUDA_VISIBLE_DEVICES: cuInit answers
# CUDA_ERROR_INVALID_DEVICE, as the driver does, and opens no session.
s0=$(sysfs 1 sessions_opened)
GLEAM_TRANSPORT=vgpu CUDA_VISIBLE_DEVICES=1,1 LD_LIBRARY_PATH=$G/lib \
	$G/vm_cuda wait 1 >$T/twice.out 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q 'setup: CUDA_ERROR_INVALID_DEVICE' $T/twice.out &&
   grep -q 'names a /dev/vgpuN twice' $T/twice.out && [ "$(sysfs 1 sessions_opened)" = "$s0" ]; then
	ok "CUDA_VISIBLE_DEVICES=1,1: CUDA_ERROR_INVALID_DEVICE, no session"
else
	bad "CUDA_VISIBLE_DEVICES=1,1: exit $rc, $(tail -n 2 $T/twice.out | tr '\n' ' ')"
fi

# An application killed in the middle of a call: its session, server
# session and worker go.
GLEAM_TRANSPORT=vgpu CUDA_VISIBLE_DEVICES=1 LD_LIBRARY_PATH=$G/lib \
	$G/vm_cuda wait 120 >$T/victim.out 2>&1 &
victim=$!
if await "grep -q ready $T/victim.out" 600; then
	kill -9 $victim
	wait $victim 2>/dev/null
	# Under TCG the worker's exit and gleamd's noticing can take seconds.
	if await "[ \$(children $SPID) = 0 ] && [ \$(sysfs 1 sessions_active) = 0 ] &&
		! $BIN/gleamctl status | grep -q ' $victim '" 300; then
		ok "an application killed mid-call leaves no session, ring or worker"
	else
		bad "killed application: $(children $SPID) worker(s), $(sysfs 1 sessions_active) session(s) left, $($BIN/gleamctl status | grep -c " $victim ") status line(s) of it"
		$BIN/gleamctl status
	fi
else
	kill -9 $victim 2>/dev/null
	bad "vm_cuda did not start: $(tail -n 1 $T/victim.out)"
fi

# gleamd (client) killed while applications on both nodes wait: each gets
# CUDA_ERROR_DEVICE_UNAVAILABLE, then and later; none hangs.
# A waiter that hangs is killed after 60 s: far more than it needs.
pids=
for node in 0 1; do
	GLEAM_TRANSPORT=vgpu CUDA_VISIBLE_DEVICES=$node LD_LIBRARY_PATH=$G/lib \
		timeout -s KILL 60 $G/vm_cuda wait 50 >$T/waiter$node.out 2>&1 &
	pids="$pids $!"
done
if await "grep -q ready $T/waiter0.out && grep -q ready $T/waiter1.out" 400; then
	kill -9 $CPID
	wait $CPID 2>/dev/null
	t0=$(date +%s)
	good=0
	for p in $pids; do
		wait $p && good=$((good + 1))
	done
	if [ $good = 2 ]; then
		ok "gleamd killed under waiting applications: both get CUDA_ERROR_DEVICE_UNAVAILABLE in $(($(date +%s) - t0)) s"
	else
		bad "gleamd killed under waiting applications: $good of 2 failed cleanly"
		cat $T/waiter0.out $T/waiter1.out
	fi
else
	bad "waiters did not start"
	kill -9 $pids 2>/dev/null
fi
if await "[ \$(children $SPID) = 0 ]" 100; then
	ok "the server ended the sessions of the dead client gleamd"
else
	bad "$(children $SPID) worker(s) left after the client gleamd died"
fi

# A restarted gleamd takes the nodes over.
if start_client && run_prog 0 vecadd && cmp -s $T/vecadd.vgpu0.out $EXP/vecadd.out &&
	run_prog 1 vecadd && cmp -s $T/vecadd.vgpu1.out $EXP/vecadd.out; then
	ok "a restarted gleamd serves both nodes"
else
	bad "restarted gleamd"
	tail -n 5 $T/client.log
fi

# The round trip of an empty synchronous call, alternating the transports.
rm -f $T/rtt.vgpu $T/rtt.socket
rounds=0
for r in 1 2 3 4 5 6 7 8 9 10; do
	GLEAM_TRANSPORT=vgpu app $G/vm_cuda rtt 400 $T/rtt.vgpu &&
		GLEAM_TRANSPORT=socket app $G/vm_cuda rtt 400 $T/rtt.socket &&
		rounds=$((rounds + 1))
done
if [ $rounds = 10 ] && app $G/vm_cuda report $T/rtt.vgpu $T/rtt.socket 10; then
	ok "round trip of cuCtxSynchronize, /dev/vgpuN against the socket"
else
	bad "round-trip benchmark"
fi
$BIN/gleamctl status | sed 's/^/  status: /'

kill $CPID $SPID 2>/dev/null
wait 2>/dev/null
if grep -q 'vgpu0: session [0-9]* opened by pid' $T/client.log &&
	grep -q 'killed by signal 9' $T/client.log; then
	ok "gleamd logged the module's netlink session events"
else
	bad "no netlink session events in gleamd's log"
fi
if grep -Eq 'malformed|Segmentation|Assertion' $T/client.log $T/server.log; then
	bad "trouble in the daemons' logs"
	grep -E 'malformed|Segmentation|Assertion' $T/client.log $T/server.log | head
fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
