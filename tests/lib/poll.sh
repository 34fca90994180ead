# SPDX-License-Identifier: MIT
#
# Sourced by the test scripts that start daemons and wait for them: one way
# to wait until something answers.

# poll TRIES PID CMD...: CMD (its output thrown away) every 50 ms until it
# succeeds, TRIES times at most; false if it never does, or as soon as PID
# (unless empty) has ended: a daemon that died will not answer.
poll() {
	local tries=$1 pid=$2
	shift 2
	for _ in $(seq "$tries"); do
		[ -z "$pid" ] || kill -0 "$pid" 2>/dev/null || return 1
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.05
	done
	return 1
}

# output_has PATTERN CMD...: whether CMD writes a line that matches PATTERN
# (grep's), for poll: poll TRIES PID output_has PATTERN CMD...
output_has() {
	local pattern=$1
	shift
	"$@" 2>/dev/null | grep -q "$pattern"
}
