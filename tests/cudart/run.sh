#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Unmodified CUDA runtime programs through Gleam: the programs of
# tests/cudart/, built by nvcc with the static cudart and with the shared
# one, and the export tables' driver-API test, each run asynchronously and
# with GLEAM_ASYNC=0, through a server and a client gleamd on loopback with
# the sim backend.  Each must exit 0, print what it printed on NVIDIA's
# driver (tests/cudart/expected/), and meet nothing Gleam does not support.
# Ends with "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CUDA=${CUDA:-/usr/local/cuda}
# Apart from tests/integration/run.sh's ports, should both run at once.
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
PROGS=$BUILD/tests/cudart
EXPECTED=$ROOT/tests/cudart/expected

# Gleam's libcuda.so.1 first; the shared cudart from the toolkit.
gleam() {
	LD_LIBRARY_PATH=$BUILD/lib:$CUDA/lib64 timeout 300 "$@"
}

start_or_end "sim backend"

for exp in "$EXPECTED"/*.out; do
	name=$(basename "$exp" .out)
	for prog in "$name" "$name-shared"; do
		[ -x "$PROGS/$prog" ] || continue
		for mode in async sync; do
			out=$TMP/$prog.$mode.out
			err=$TMP/$prog.$mode.err
			GLEAM_ASYNC=$([ $mode = sync ] && echo 0 || echo 1) \
				gleam "$PROGS/$prog" >"$out" 2>"$err"
			rc=$?
			if [ $rc -ne 0 ]; then
				bad "$prog ($mode) exited $rc: $(tail -n 1 "$err")"
			elif ! cmp -s "$out" "$exp"; then
				bad "$prog ($mode) printed other than on NVIDIA's driver"
				diff "$exp" "$out" | head -5
			elif grep -q "not supported" "$err"; then
				bad "$prog ($mode) met what Gleam does not support: $(grep -m1 "not supported" "$err")"
			else
				ok "$prog ($mode) prints what it prints on NVIDIA's driver"
			fi
		done
	done
done

# A program whose kernels the sim does not mirror (Thrust's, loaded as PTX
# on a 9.0 device): the sim gives each the layout its PTX declares, as the
# shim reads it, so the only complaint is the launch's, which names the
# kernel in the server's log, and the program fails rather than run wrong.
if [ -x "$PROGS/thrust" ]; then
	gleam "$PROGS/thrust" >"$TMP/thrust.out" 2>"$TMP/thrust.err"
	rc=$?
	if [ $rc -eq 0 ]; then
		bad "thrust on the sim exited 0: its kernels cannot have run"
	elif grep -q "differ from the driver" "$TMP/thrust.err"; then
		bad "thrust on the sim: the sim's layout of a PTX kernel is not its PTX's: $(grep -m1 differ "$TMP/thrust.err")"
	elif ! grep -q "sim: kernel _Z.* is not one the sim can run" "$TMP/server.log"; then
		bad "thrust on the sim failed (exit $rc) without the server naming the kernel"
	else
		ok "thrust on the sim fails at its first launch (exit $rc), the kernel named, layouts agreed"
	fi
fi

# Both daemons are still alive after everything above.
survived
summary
