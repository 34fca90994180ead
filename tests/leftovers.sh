#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# After every suite: no process of this build's programs is left running.
# A daemon a test started and lost (a background shell function's pid
# killed in its place, a trap that never ran) holds its ports, its sockets
# and whatever pipe its caller gave it: the next run, or CI's own pipe,
# would wait on it.  Waits up to 5 s for processes still on their way out.
#
# Usage: tests/leftovers.sh BUILD_DIR
set -u
dir=$(cd "${1:-build}" 2>/dev/null && pwd -P) || { echo "leftovers: no directory ${1:-build}" >&2; exit 2; }

find_left() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		case "$exe" in
		"$dir"/*) echo "${p#/proc/} $(tr '\0' ' ' <"$p/cmdline" 2>/dev/null | cut -c1-160)" ;;
		esac
	done
}

for _ in $(seq 50); do
	left=$(find_left)
	[ -z "$left" ] && exit 0
	sleep 0.1
done
echo "FAIL: processes of $dir left running after the tests:" >&2
echo "$left" | sed 's/^/  /' >&2
exit 1
