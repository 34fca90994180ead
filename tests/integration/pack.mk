# Packed uploads through an emulated link (tests/integration/pack.sh),
# also run by check-integration.
.PHONY: check-pack
check-pack: all
	BUILD=$(BUILD) tests/integration/pack.sh
