# SPDX-License-Identifier: MIT
#
# Sourced by the scripts that run programs on an NVIDIA GPU directly and
# through Gleam (tests/gpu/gpu-check.sh, torch-check.sh): the skip when
# there is no GPU or no gleam-run, and which names the command line picked.
#
# The caller sets WANT (the names asked for; all when empty) and GLEAM_RUN
# first; sourcing this exits 77 (SKIP) where nothing can run.

skip() {
	echo "SKIP: $*"
	exit 77
}

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
	skip "no NVIDIA GPU or driver on this machine"
fi
[ -x "$GLEAM_RUN" ] || skip "$GLEAM_RUN not built (make)"

# selected NAME: whether NAME is to run.
selected() {
	local n
	[ ${#WANT[@]} -eq 0 ] && return 0
	for n in "${WANT[@]}"; do
		[ "$n" = "$1" ] && return 0
	done
	return 1
}
