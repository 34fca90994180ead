# A link gone silent: keepalive ends the session, nothing hangs
# (tests/integration/silent.sh, tools/linkem's stall).
.PHONY: check-silent
check-silent: all
	BUILD=$(BUILD) tests/integration/silent.sh

CHECK_TARGETS += check-silent
