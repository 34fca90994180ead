# A session's large messages on further connections (tests/integration/stripes.sh).
.PHONY: check-stripes
check-stripes: all
	BUILD=$(BUILD) tests/integration/stripes.sh
	BUILD=$(BUILD) GLEAM_TEST_TLS=1 tests/integration/stripes.sh

CHECK_TARGETS += check-stripes
