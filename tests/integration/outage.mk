# Links that die for real: closed, reset, refusing, a black hole, for 1 s
# and 10 s under streams of copies and launches, and past the grace period
# (tests/integration/outage.sh, tools/linkem's ways of dying).
.PHONY: check-outage
check-outage: all
	BUILD=$(BUILD) tests/integration/outage.sh

CHECK_TARGETS += check-outage
