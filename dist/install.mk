# make install / make uninstall: Gleam as a service.  PREFIX (default
# /usr/local) and DESTDIR as usual; the libraries go in a directory of
# their own, $(GLEAM_LIBDIR), never over NVIDIA's.  Without DESTDIR, the
# group is created and DKMS builds the module for every installed kernel.
PREFIX      ?= /usr/local
DESTDIR     ?=
BINDIR      ?= $(PREFIX)/bin
SBINDIR     ?= $(PREFIX)/sbin
GLEAM_LIBDIR ?= $(PREFIX)/lib/gleam
MANDIR      ?= $(PREFIX)/share/man
SYSCONFDIR  ?= $(if $(filter /usr,$(PREFIX)),/etc,$(if $(filter /usr/local,$(PREFIX)),/etc,$(PREFIX)/etc))
UNITDIR     ?= $(PREFIX)/lib/systemd/system
UDEVDIR     ?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
DKMS_SRC    ?= /usr/src/gleam-vgpu-$(GLEAM_VERSION)

# What make install puts where, relative to DESTDIR: the tests read it.
INSTALL_MANIFEST = $(SBINDIR)/gleamd $(BINDIR)/gleamctl $(BINDIR)/gleam-run \
	$(GLEAM_LIBDIR)/libcuda.so.1 $(GLEAM_LIBDIR)/libnvidia-ml.so.1 \
	$(SYSCONFDIR)/gleam/client.conf $(SYSCONFDIR)/gleam/server.conf \
	$(UNITDIR)/gleamd-client.service $(UNITDIR)/gleamd-server.service \
	$(UDEVDIR)/60-gleam-vgpu.rules $(SYSUSERSDIR)/gleam.conf \
	$(MANDIR)/man8/gleamd.8 $(MANDIR)/man8/gleamctl.8 $(MANDIR)/man1/gleam-run.1 \
	$(DKMS_SRC)/dkms.conf

SUBST = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@BINDIR@|$(BINDIR)|g' \
	-e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@VERSION@|$(GLEAM_VERSION)|g'

.PHONY: install install-files install-system uninstall install-manifest

install: install-files install-system

install-manifest:
	@echo $(INSTALL_MANIFEST)

install-files: $(GLEAMD) $(GLEAMCTL) $(GLEAM_RUN) $(SHIM_LIB) $(NVML_LIB)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(GLEAM_LIBDIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR) \
		$(DESTDIR)$(UDEVDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(SYSCONFDIR)/gleam \
		$(DESTDIR)$(DKMS_SRC)/kmod $(DESTDIR)$(DKMS_SRC)/uapi
	install -m 755 $(GLEAMD) $(DESTDIR)$(SBINDIR)/gleamd
	install -m 755 $(GLEAMCTL) $(DESTDIR)$(BINDIR)/gleamctl
	install -m 755 $(GLEAM_RUN) $(DESTDIR)$(BINDIR)/gleam-run
	install -m 755 $(SHIM_LIB) $(DESTDIR)$(GLEAM_LIBDIR)/libcuda.so.1
	install -m 755 $(NVML_LIB) $(DESTDIR)$(GLEAM_LIBDIR)/libnvidia-ml.so.1
	ln -sf libcuda.so.1 $(DESTDIR)$(GLEAM_LIBDIR)/libcuda.so
	ln -sf libnvidia-ml.so.1 $(DESTDIR)$(GLEAM_LIBDIR)/libnvidia-ml.so
	@# A configuration already there is the administrator's: kept.
	for f in client.conf server.conf; do \
		[ -e $(DESTDIR)$(SYSCONFDIR)/gleam/$$f ] || \
			install -m 644 dist/etc/$$f $(DESTDIR)$(SYSCONFDIR)/gleam/$$f; \
	done
	for u in gleamd-client gleamd-server; do \
		$(SUBST) dist/systemd/$$u.service.in >$(DESTDIR)$(UNITDIR)/$$u.service && \
		chmod 644 $(DESTDIR)$(UNITDIR)/$$u.service; \
	done
	install -m 644 udev/60-gleam-vgpu.rules $(DESTDIR)$(UDEVDIR)/60-gleam-vgpu.rules
	install -m 644 dist/gleam.sysusers $(DESTDIR)$(SYSUSERSDIR)/gleam.conf
	for m in gleamd.8:man8 gleamctl.8:man8 gleam-run.1:man1; do \
		$(SUBST) man/$${m%%:*} >$(DESTDIR)$(MANDIR)/$${m##*:}/$${m%%:*} && \
		chmod 644 $(DESTDIR)$(MANDIR)/$${m##*:}/$${m%%:*}; \
	done
	$(SUBST) kmod/dkms.conf.in >$(DESTDIR)$(DKMS_SRC)/dkms.conf
	install -m 644 Kbuild $(DESTDIR)$(DKMS_SRC)/Kbuild
	install -m 644 kmod/Kbuild kmod/*.c kmod/*.h $(DESTDIR)$(DKMS_SRC)/kmod/
	install -m 644 uapi/gleam_vgpu.h uapi/gleam_ring.h $(DESTDIR)$(DKMS_SRC)/uapi/

# On the machine itself (no DESTDIR): the group, udev, systemd, DKMS.
install-system: install-files
	@if [ -z "$(DESTDIR)" ]; then \
		getent group gleam >/dev/null || \
			{ command -v systemd-sysusers >/dev/null && \
			  systemd-sysusers $(SYSUSERSDIR)/gleam.conf; } || groupadd --system gleam; \
		command -v udevadm >/dev/null && udevadm control --reload 2>/dev/null || true; \
		command -v systemctl >/dev/null && systemctl daemon-reload 2>/dev/null || true; \
		if command -v dkms >/dev/null; then \
			dkms add gleam-vgpu/$(GLEAM_VERSION) 2>/dev/null || true; \
			for k in /lib/modules/*/build; do \
				[ -e $$k/Makefile ] && dkms install gleam-vgpu/$(GLEAM_VERSION) \
					-k $$(basename $$(dirname $$k)) || true; \
			done; \
		else \
			echo "install: no dkms: gleam_vgpu.ko is not built for the installed kernels"; \
		fi; \
	fi

uninstall:
	@if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null; then \
		dkms remove gleam-vgpu/$(GLEAM_VERSION) --all 2>/dev/null || true; \
	fi
	rm -f $(DESTDIR)$(SBINDIR)/gleamd $(DESTDIR)$(BINDIR)/gleamctl $(DESTDIR)$(BINDIR)/gleam-run
	rm -f $(DESTDIR)$(GLEAM_LIBDIR)/libcuda.so.1 $(DESTDIR)$(GLEAM_LIBDIR)/libcuda.so \
		$(DESTDIR)$(GLEAM_LIBDIR)/libnvidia-ml.so.1 $(DESTDIR)$(GLEAM_LIBDIR)/libnvidia-ml.so
	-rmdir $(DESTDIR)$(GLEAM_LIBDIR)
	rm -f $(DESTDIR)$(UNITDIR)/gleamd-client.service $(DESTDIR)$(UNITDIR)/gleamd-server.service
	rm -f $(DESTDIR)$(UDEVDIR)/60-gleam-vgpu.rules $(DESTDIR)$(SYSUSERSDIR)/gleam.conf
	rm -f $(DESTDIR)$(MANDIR)/man8/gleamd.8 $(DESTDIR)$(MANDIR)/man8/gleamctl.8 \
		$(DESTDIR)$(MANDIR)/man1/gleam-run.1
	rm -rf $(DESTDIR)$(DKMS_SRC)
	@# The configuration is the administrator's: kept, as the group is.
	@echo "uninstall: $(SYSCONFDIR)/gleam and the group gleam are left in place"
