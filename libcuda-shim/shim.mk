# libcuda.so.1: the driver API, exported through a version script that
# lists it and nothing else.
SHIM_SRCS := libcuda-shim/core.c libcuda-shim/context.c libcuda-shim/memory.c \
	libcuda-shim/module.c libcuda-shim/transport.c libcuda-shim/span.c libcuda-shim/errors.c \
	libcuda-shim/export.c libcuda-shim/md2.c libcuda-shim/cls.c \
	libcuda-shim/rt_stream.c libcuda-shim/rt_pointer.c libcuda-shim/rt_function.c \
	libcuda-shim/rt_peer.c \
	libcuda-shim/graph.c libcuda-shim/pool.c libcuda-shim/waits.c \
	libcuda-shim/array.c libcuda-shim/texture.c libcuda-shim/hostfn.c libcuda-shim/gnodes.c \
	libcuda-shim/link.c libcuda-shim/vmm.c libcuda-shim/twin.c libcuda-shim/memo.c
# /dev/vgpuN sessions: kmod/user/vgpu_user.c (MIT, libc only) is compiled
# in, so that the library still links nothing but libc and libpthread.
SHIM_SRCS += libcuda-shim/vgpu.c
SHIM_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(SHIM_SRCS)) \
	$(BUILD)/obj/gen/shim_gen.o $(BUILD)/obj/gen/errors_gen.o $(COMMON_OBJS) \
	$(BUILD)/obj/kmod/user/vgpu_user.o
SHIM_LIB  := $(BUILD)/lib/libcuda.so.1

$(BUILD)/obj/libcuda-shim/%.o: CFLAGS_EXTRA := -Ilibcuda-shim -Ikmod/user -fvisibility=hidden
$(BUILD)/obj/kmod/user/vgpu_user.o: CFLAGS_EXTRA := -Ikmod/user -fvisibility=hidden
$(BUILD)/obj/gen/shim_gen.o $(BUILD)/obj/gen/errors_gen.o: CFLAGS_EXTRA := -Ilibcuda-shim -fvisibility=hidden

$(SHIM_LIB): $(SHIM_OBJS) $(GEN_DIR)/libcuda.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=$(GEN_DIR)/libcuda.map \
		-Wl,-z,defs -Wl,-z,now -o $@ $(SHIM_OBJS) -lpthread
	ln -sf libcuda.so.1 $(BUILD)/lib/libcuda.so

ALL_TARGETS += $(SHIM_LIB)
