# gleamctl's argument checks, programs that fail at once and say why, state
# files per client gleamd, boolean variables (tests/integration/ctl.sh).
.PHONY: check-ctl
check-ctl: all
	BUILD=$(BUILD) tests/integration/ctl.sh

CHECK_TARGETS += check-ctl
