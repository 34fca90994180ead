# gleam_vgpu.ko, its user-space helpers and its tests in a VM.  Included by
# the top-level Makefile, which defines BUILD, CC, KDIR, OPT, WARN and
# CFLAGS_COMMON.
#
#   make kmod            build $(BUILD)/kmod/gleam_vgpu.ko against KDIR
#   make kmod-user       build $(BUILD)/kmod/libgleam_vgpu.a (kmod/user/)
#   make kmod-checkpatch checkpatch.pl --strict over the module and its ABI
#   make vm-check        boot KDIR's kernel under QEMU and run tests/vm/:
#                        the module's tests, then gleamd and the test
#                        programs through /dev/vgpuN

KMOD_OUT   := $(BUILD)/kmod
KMOD_TREE  := $(KMOD_OUT)/tree
KMOD_KO    := $(KMOD_OUT)/gleam_vgpu.ko
KMOD_KSRC  := Kbuild kmod/Kbuild $(wildcard kmod/*.c kmod/*.h) \
	      uapi/gleam_vgpu.h uapi/gleam_ring.h
# The compiler the kernel was built with, not the one user space uses.
KMOD_CC    ?= gcc
CHECKPATCH ?= $(KDIR)/scripts/checkpatch.pl

KMOD_NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null || \
		    echo -I/usr/include/libnl3)
KMOD_NL_LIBS   := -lnl-genl-3 -lnl-3 -lpthread
KMOD_USER_OBJS := $(KMOD_OUT)/user/vgpu_user.o $(KMOD_OUT)/user/vgpu_nl.o
KMOD_USER_LIB  := $(KMOD_OUT)/libgleam_vgpu.a

VM_OUT       := $(KMOD_OUT)/vm
VM_BIN       := $(VM_OUT)/vgpu_test
VM_INITRAMFS := $(VM_OUT)/initramfs.cpio.gz
VM_SRCS      := $(filter-out tests/vm/vm_cuda.c,$(wildcard tests/vm/*.c)) \
		kmod/user/vgpu_user.c kmod/user/vgpu_nl.c
# A driver-API program, linked like tests/programs/ against the stub libcuda.
VM_CUDA      := $(VM_OUT)/vm_cuda
# What the initramfs takes from the rest of the build.
VM_GLEAM     := $(GLEAMD) $(GLEAMCTL) $(SHIM_LIB) $(TEST_PROGRAM_BINS) \
		$(TEST_KERNEL_PTX) $(TEST_KERNEL_CUBIN) \
		$(wildcard tests/programs/expected/*.out)
VM_HDRS      := $(wildcard tests/vm/*.h kmod/user/*.h) uapi/gleam_vgpu.h \
		uapi/gleam_ring.h uapi/gleam_record.h
# The kernel that KDIR's headers describe, so that the module loads.
VM_KREL      := $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
		  $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
VM_KERNEL    ?= /boot/vmlinuz-$(VM_KREL)
VM_BUSYBOX   ?= $(firstword $(wildcard /bin/busybox /usr/bin/busybox))
VM_QEMU      ?= qemu-system-x86_64

KMOD_HAVE_KDIR := $(wildcard $(KDIR)/Makefile)
VM_MISSING := $(if $(KMOD_HAVE_KDIR),,kernel headers at $(KDIR)) \
	$(if $(shell test -r '$(VM_KERNEL)' && echo y),,readable $(VM_KERNEL)) \
	$(if $(VM_BUSYBOX),,busybox (busybox-static)) \
	$(if $(shell command -v $(VM_QEMU)),,$(VM_QEMU)) \
	$(if $(shell command -v cpio),,cpio)
VM_MISSING := $(strip $(VM_MISSING))

ifneq ($(KMOD_HAVE_KDIR),)
ALL_TARGETS += kmod
else
ALL_TARGETS += kmod-skip
endif
ALL_TARGETS += kmod-user
CHECK_TARGETS += kmod-checkpatch
ifeq ($(VM_MISSING),)
CHECK_TARGETS += vm-check
else
CHECK_TARGETS += vm-check-skip
endif

.PHONY: kmod kmod-skip kmod-user kmod-checkpatch vm-check vm-check-skip

kmod: $(KMOD_KO)

kmod-skip:
	@echo "SKIP kmod: no kernel build tree at KDIR=$(KDIR)"

# Kbuild writes its objects beside the sources, so it builds a copy of the
# sources laid out as in the repository (Kbuild, kmod/, uapi/).
$(KMOD_KO): $(KMOD_KSRC)
	@test -f $(KDIR)/Makefile || \
		{ echo "kmod: no kernel build tree at KDIR=$(KDIR)" >&2; exit 1; }
	@mkdir -p $(KMOD_TREE)/kmod $(KMOD_TREE)/uapi
	@cp -p Kbuild $(KMOD_TREE)/
	@cp -p kmod/Kbuild kmod/*.c kmod/*.h $(KMOD_TREE)/kmod/
	@cp -p uapi/gleam_vgpu.h uapi/gleam_ring.h $(KMOD_TREE)/uapi/
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_TREE)) CC=$(KMOD_CC) W=1 modules
	cp $(KMOD_TREE)/kmod/gleam_vgpu.ko $@

$(KMOD_OUT)/user/%.o: kmod/user/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -Ikmod/user $(KMOD_NL_CFLAGS) -c $< -o $@

$(KMOD_USER_LIB): $(KMOD_USER_OBJS)
	rm -f $@
	ar rcs $@ $^

kmod-user: $(KMOD_USER_LIB)

kmod-checkpatch:
	@if [ -f $(CHECKPATCH) ]; then \
		perl $(CHECKPATCH) --strict --no-tree --terse -f \
			Kbuild kmod/Kbuild kmod/*.c kmod/*.h uapi/gleam_vgpu.h && \
		echo "kmod-checkpatch: clean"; \
	else \
		echo "SKIP kmod-checkpatch: no $(CHECKPATCH) (set CHECKPATCH=)"; \
	fi

# Static, so that the initramfs needs no libraries.  The linker's only
# warnings come from libnl objects that mention getaddrinfo() and kin,
# which static glibc warns about and the tests never call.
$(VM_BIN): $(VM_SRCS) $(VM_HDRS)
	@mkdir -p $(@D)
	$(CC) -static $(OPT) $(WARN) -std=gnu11 -D_GNU_SOURCE -Iuapi \
		-Ikmod/user -Itests/vm $(KMOD_NL_CFLAGS) -o $@ $(VM_SRCS) \
		$(KMOD_NL_LIBS) -Wl,--no-warnings

$(VM_CUDA): tests/vm/vm_cuda.c
	@mkdir -p $(@D)
	$(CC) $(OPT) $(WARN) -std=gnu11 -D_GNU_SOURCE -I$(CUDA)/include -pthread -o $@ $< \
		-L$(CUDA)/lib64/stubs -lcuda

$(VM_INITRAMFS): $(VM_BIN) $(KMOD_KO) $(VM_CUDA) $(VM_GLEAM) tests/vm/init \
		tests/vm/gleam.sh tests/vm/mkinitramfs.sh
	tests/vm/mkinitramfs.sh $@ $(VM_BUSYBOX) tests/vm/init $(KMOD_KO) \
		$(VM_BIN) tests/vm/gleam.sh $(VM_CUDA) $(BUILD) tests/programs/expected

vm-check: $(VM_INITRAMFS)
	@test -z "$(VM_MISSING)" || \
		{ echo "vm-check: missing $(VM_MISSING)" >&2; exit 1; }
	QEMU=$(VM_QEMU) tests/vm/run.sh $(VM_KERNEL) $(VM_INITRAMFS) $(VM_OUT)

vm-check-skip:
	@echo "SKIP vm-check: missing $(VM_MISSING)"
