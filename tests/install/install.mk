# make install into a DESTDIR, the units, DKMS, man pages, make uninstall.
.PHONY: check-install
check-install: all
	BUILD=$(BUILD) tests/install/run.sh

CHECK_TARGETS += check-install
