#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make install into a DESTDIR, as a package build does: every file where it
# belongs with its mode, the libraries in a directory of their own, units
# systemd accepts, configurations gleamd reads, man pages groff renders
# without a warning, a dkms.conf DKMS builds the module from, binaries that
# say their version, an installed gleam-run that runs a program on the
# installed libraries and refuses a port another program holds, systemd's
# readiness protocol and a socket gone after
# SIGTERM; then make uninstall leaves only the configuration.  Ends with
# "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
D=$(mktemp -d /tmp/gleam-install.XXXXXX)
passed=0
failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "FAIL: $*"; failed=$((failed + 1)); }
skip() { echo "SKIP: $*"; }
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
M="make -s -C $ROOT BUILD=$BUILD PREFIX=/usr DESTDIR=$D/root"
VERSION=$(cat "$ROOT/VERSION")

if $M install >"$D/install.log" 2>&1; then
	ok "make install PREFIX=/usr DESTDIR=..."
else
	bad "make install: $(tail -n 3 "$D/install.log")"
	echo "$passed passed, $failed failed"
	exit 1
fi
R=$D/root
missing=""
for f in $($M install-manifest); do
	[ -e "$R$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok "every file of the manifest is there" || bad "missing:$missing"

modes=""
for f in usr/sbin/gleamd usr/bin/gleamctl usr/bin/gleam-run usr/lib/gleam/libcuda.so.1 \
	usr/lib/gleam/libnvidia-ml.so.1; do
	[ "$(stat -c %a "$R/$f")" = 755 ] || modes="$modes $f:$(stat -c %a "$R/$f")"
done
for f in etc/gleam/client.conf etc/gleam/server.conf usr/lib/systemd/system/gleamd-client.service \
	usr/lib/systemd/system/gleamd-server.service usr/lib/udev/rules.d/60-gleam-vgpu.rules \
	usr/lib/sysusers.d/gleam.conf usr/share/man/man8/gleamd.8 usr/share/man/man8/gleamctl.8 \
	usr/share/man/man1/gleam-run.1 "usr/src/gleam-vgpu-$VERSION/dkms.conf"; do
	[ "$(stat -c %a "$R/$f")" = 644 ] || modes="$modes $f:$(stat -c %a "$R/$f")"
done
[ -z "$modes" ] && ok "programs and libraries 755, everything else 644" || bad "modes:$modes"

libs=$(cd "$R" && find . -name 'libcuda.so*' -o -name 'libnvidia-ml.so*' | sort | tr '\n' ' ')
if [ "$libs" = "./usr/lib/gleam/libcuda.so ./usr/lib/gleam/libcuda.so.1 ./usr/lib/gleam/libnvidia-ml.so ./usr/lib/gleam/libnvidia-ml.so.1 " ]; then
	ok "libcuda.so.1 and libnvidia-ml.so.1 in /usr/lib/gleam only, never over NVIDIA's"
else
	bad "libraries: $libs"
fi

# The units: systemd's own verdict where systemd-analyze is, with the paths
# pointed into DESTDIR; what they must say in any case.
U=$R/usr/lib/systemd/system
units_ok=1
for u in gleamd-client gleamd-server; do
	grep -q '^Type=notify$' "$U/$u.service" && grep -q '^KillMode=mixed$' "$U/$u.service" &&
		grep -q "^ExecStart=/usr/sbin/gleamd ${u#gleamd-} --config /etc/gleam/${u#gleamd-}.conf$" "$U/$u.service" ||
		units_ok=0
done
grep -q '^Group=gleam$' "$U/gleamd-client.service" && grep -q '^RuntimeDirectory=gleam$' "$U/gleamd-client.service" ||
	units_ok=0
[ $units_ok = 1 ] && ok "units: Type=notify, SIGTERM to gleamd alone, the client's socket directory the group's" ||
	bad "units do not say what they must"
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$D/units"
	for u in gleamd-client gleamd-server; do
		sed -e "s|ExecStart=/|ExecStart=$R/|; s|--config /|--config $R/|" "$U/$u.service" >"$D/units/$u.service"
	done
	if systemd-analyze verify --man=no "$D/units/gleamd-client.service" "$D/units/gleamd-server.service" \
		>"$D/verify.out" 2>&1 && [ ! -s "$D/verify.out" ]; then
		ok "systemd-analyze verify: both units clean"
	else
		bad "systemd-analyze verify: $(tr '\n' ' ' <"$D/verify.out")"
	fi
else
	skip "systemd-analyze verify: no systemd-analyze (the static checks above stand)"
fi

if "$R/usr/sbin/gleamd" client --config "$R/etc/gleam/client.conf" --help >/dev/null 2>&1 &&
	"$R/usr/sbin/gleamd" server --config "$R/etc/gleam/server.conf" --help >/dev/null 2>&1; then
	ok "gleamd reads both default configuration files"
else
	bad "a default configuration file does not parse"
fi

v1=$("$R/usr/sbin/gleamd" --version) v2=$("$R/usr/bin/gleamctl" --version) v3=$("$R/usr/bin/gleam-run" --version)
case "$v1|$v2|$v3" in
"gleamd (Gleam) $VERSION"*"|gleamctl (Gleam) $VERSION"*"|gleam-run (Gleam) $VERSION"*)
	ok "--version: $v1" ;;
*) bad "--version: $v1 | $v2 | $v3" ;;
esac

warn=""
for m in man8/gleamd.8 man8/gleamctl.8 man1/gleam-run.1; do
	out=$(groff -man -Tutf8 -ww -z "$R/usr/share/man/$m" 2>&1)
	[ -z "$out" ] || warn="$warn $m: $out"
	grep -q "@VERSION@" "$R/usr/share/man/$m" && warn="$warn $m: @VERSION@ left"
done
[ -z "$warn" ] && ok "man pages gleamd(8), gleamctl(8), gleam-run(1) render without a warning" || bad "man:$warn"

# DKMS builds the module from what was installed, in a tree of its own.
S=$R/usr/src/gleam-vgpu-$VERSION
KREL=$(ls /lib/modules 2>/dev/null | sort -V | tail -n 1)
if ! grep -q "^PACKAGE_VERSION=\"$VERSION\"$" "$S/dkms.conf" || ! grep -q '^AUTOINSTALL="yes"$' "$S/dkms.conf"; then
	bad "dkms.conf: $(tr '\n' ' ' <"$S/dkms.conf")"
elif ! command -v dkms >/dev/null || [ -z "$KREL" ] || [ ! -e "/lib/modules/$KREL/build/Makefile" ]; then
	skip "dkms build: no dkms or no kernel headers (dkms.conf checked)"
else
	mkdir -p "$D/dkms/tree" "$D/dkms/inst"
	if dkms build --dkmstree "$D/dkms/tree" --sourcetree "$R/usr/src" --installtree "$D/dkms/inst" \
		-m gleam-vgpu -v "$VERSION" -k "$KREL" >"$D/dkms.log" 2>&1 &&
		[ -n "$(find "$D/dkms/tree" -name 'gleam_vgpu.ko*' -path "*/$KREL/*")" ]; then
		ok "dkms build: gleam_vgpu.ko for $KREL from /usr/src/gleam-vgpu-$VERSION"
	else
		bad "dkms build: $(tail -n 5 "$D/dkms.log" | tr '\n' ' ')"
	fi
fi

# The installed gleam-run: daemons from /usr/sbin, programs on /usr/lib/gleam.
export GLEAM_SOCKET=$D/run/gleamd.sock GLEAM_BACKEND=sim GLEAM_PORT=$((20000 + ($$ + 401) % 20000))
out=$("$R/usr/bin/gleam-run" sh -c 'echo "$LD_LIBRARY_PATH"; exec "$0" "$@"' "$BUILD/tests/programs/devinfo" 2>&1)
if [ "$(echo "$out" | head -n 1 | cut -d: -f1)" = "$R/usr/lib/gleam" ] &&
	echo "$out" | grep -q '^device 0: Gleam sim device$'; then
	ok "installed gleam-run runs a program on /usr/lib/gleam's libraries"
else
	bad "installed gleam-run: $(echo "$out" | tr '\n' ' ' | head -c 300)"
fi
daemons=$(cat "$D"/run/client.pid "$D"/run/server.pid 2>/dev/null)
"$R/usr/bin/gleam-run" --stop
left=
for p in $daemons; do
	[ -d /proc/$p ] && ! grep -q '^State:[[:space:]]*Z' /proc/$p/status 2>/dev/null && left="$left $p"
done
if [ -n "$daemons" ] && [ -z "$left" ]; then
	ok "gleam-run --stop returns once both daemons have exited"
else
	bad "gleam-run --stop: daemons '$daemons', still running after it returned:$left"
fi

# A port that another program holds (it takes connections and says
# nothing): refused, said, within seconds.
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); time.sleep(30)' "$GLEAM_PORT" &
squat=$!
pids+=($squat)
for _ in $(seq 50); do
	timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$GLEAM_PORT" 2>/dev/null && break
	sleep 0.1
done
t0=$(date +%s%N)
out=$("$R/usr/bin/gleam-run" true 2>&1)
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
kill $squat 2>/dev/null
if [ $rc = 127 ] && echo "$out" | grep -q "port $GLEAM_PORT is taken by another program" && [ $ms -lt 4000 ]; then
	ok "gleam-run refuses a port another program holds, and says so ($ms ms)"
else
	bad "gleam-run on a held port: exit $rc after $ms ms: $out"
fi
"$R/usr/bin/gleam-run" --stop >/dev/null 2>&1
unset GLEAM_BACKEND

# systemd's readiness protocol, and SIGTERM: goodbye, socket removed, exit 0.
cat >"$D/notify.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
with open(sys.argv[2], "a") as f:
	for _ in range(2):
		try:
			f.write(s.recv(256).decode() + "\n")
			f.flush()
		except socket.timeout:
			break
PY
python3 "$D/notify.py" "$D/notify.sock" "$D/notify.out" &
pids+=($!)
for _ in $(seq 50); do [ -S "$D/notify.sock" ] && break; sleep 0.1; done
NOTIFY_SOCKET=$D/notify.sock "$R/usr/sbin/gleamd" client --server 127.0.0.1:9 \
	--socket "$D/svc/gleamd.sock" --state-dir "$D/state" >"$D/svc.log" 2>&1 &
svc=$!
pids+=($svc)
for _ in $(seq 50); do grep -q READY=1 "$D/notify.out" 2>/dev/null && break; sleep 0.1; done
ready=$(grep -c '^READY=1$' "$D/notify.out" 2>/dev/null)
sock_before=$([ -S "$D/svc/gleamd.sock" ] && echo yes)
kill -TERM $svc
wait $svc
rc=$?
for _ in $(seq 20); do grep -q STOPPING=1 "$D/notify.out" 2>/dev/null && break; sleep 0.1; done
if [ "$ready" = 1 ] && [ "$sock_before" = yes ] && grep -q '^STOPPING=1$' "$D/notify.out" &&
	[ $rc = 0 ] && [ ! -e "$D/svc/gleamd.sock" ]; then
	ok "READY=1 once it listens; SIGTERM: STOPPING=1, exit 0, the socket removed"
else
	bad "notify/SIGTERM: ready=$ready socket=$sock_before rc=$rc notify=$(tr '\n' ' ' <"$D/notify.out" 2>/dev/null)"
fi

if $M uninstall >"$D/uninstall.log" 2>&1; then
	left=$(cd "$R" && find . -type f -o -type l | sort | tr '\n' ' ')
	if [ "$left" = "./etc/gleam/client.conf ./etc/gleam/server.conf " ]; then
		ok "make uninstall leaves the configuration only"
	else
		bad "make uninstall left: $left"
	fi
else
	bad "make uninstall: $(tail -n 3 "$D/uninstall.log")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
