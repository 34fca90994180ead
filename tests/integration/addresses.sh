#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Mapped and managed memory where the server's device addresses are not
# the ones asked for (Documentation/design.md, "Virtual memory, peers,
# mapped and managed memory"): the sim server gives reservations as a
# driver with an address range of its own does (GLEAM_SIM_VA_HINTS=0:
# hints never taken; GLEAM_SIM_VA_BASE: lowest free address first, from
# where the program's executable lies when it runs under setarch -R).  The
# first range the server offers is one the program already holds; the
# programs must still print what they print on NVIDIA's driver.  Ends with
# "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=$((20000 + $$ % 12000))
. "$ROOT/tests/lib/daemons.sh"
EXPECTED=$ROOT/tests/programs/expected
PROGS=$BUILD/tests/programs
export LD_LIBRARY_PATH=$BUILD/lib GLEAM_TEST_KERNELS=$BUILD/tests/kernels

# Where a position-independent executable lies without address randomisation.
if ! base=$(setarch -R sh -c 'grep -m1 -o "^[0-9a-f]*" /proc/self/maps' 2>/dev/null); then
	echo "SKIP: setarch -R is refused here (personality(2) blocked)"
	exit 0
fi
export GLEAM_SIM_VA_HINTS=0 GLEAM_SIM_VA_BASE=0x$base
start_or_end "sim backend, device addresses from 0x$base"
unset GLEAM_SIM_VA_HINTS GLEAM_SIM_VA_BASE

for name in mapped managed; do
	setarch -R timeout 120 "$PROGS/$name" >"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$name, the server's first range held here: exit $rc: $(tail -n 1 "$TMP/$name.err")"
	elif ! cmp -s "$TMP/$name.out" "$EXPECTED/$name.out"; then
		bad "$name, the server's first range held here: printed other than on NVIDIA's driver"
		diff "$EXPECTED/$name.out" "$TMP/$name.out" | head -5
	else
		ok "$name: the server's first range is held here, another is found, same output as on NVIDIA's driver"
	fi
done

survived
summary
