# gleamd: both roles, the replay worker and its backends.  liburing and
# libzstd (the sim reads compressed fat binaries) are linked statically: GPU
# machines need not have them installed.
# The sim backend (broker/sim.h): its core, memory, modules, streams, pools,
# arrays, host functions, virtual memory and peers, test kernels, graphs
# built node by node and JIT linking.
SIM_SRCS := broker/sim_core.c broker/sim_memory.c broker/sim_module.c broker/sim_stream.c \
	broker/sim_pool.c broker/sim_array.c broker/sim_host.c broker/sim_vmm.c broker/sim_kernels.c \
	broker/sim_graph.c broker/sim_link.c
GLEAMD_SRCS := broker/main.c broker/config.c broker/bridge.c broker/client.c broker/server.c \
	broker/worker.c broker/wk_custom.c broker/wk_array.c broker/wk_host.c broker/wk_output.c \
	broker/wk_vmm.c broker/wk_graph.c broker/wk_link.c \
	broker/backend_cuda.c $(SIM_SRCS) \
	broker/server_probe.c broker/cache.c broker/cache_client.c broker/cache_server.c broker/nameset.c broker/chunk.c broker/hashpool.c broker/cluster_probe.c \
	broker/pack.c broker/stripe.c
# /dev/vgpuN sessions: the helpers of kmod/user/, and libnl-genl-3 for the
# module's netlink family, linked dynamically (GPU machines have it).
GLEAMD_SRCS += broker/vgpu.c
# The scheduler: several servers, their links (TCP_INFO, rtnetlink through
# libnl-route-3) and placement.
GLEAMD_SRCS += broker/scheduler.c broker/linkmon.c broker/tcpinfo.c
# GPU utilisation on the cuda backend, through NVML (dlopen).
GLEAMD_SRCS += broker/nvml.c
# Who gets in and what they may do (Documentation/security.md).
GLEAMD_SRCS += broker/tenant.c broker/peerlog.c broker/wk_spawn.c broker/wk_quota.c
# OpenMetrics (--metrics) and systemd's readiness notification.
GLEAMD_SRCS += broker/metrics.c broker/notify.c
GLEAMD_NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null || \
		    echo -I/usr/include/libnl3)
# Linked statically, like liburing: GPU machines need not have libnl.
GLEAMD_NL_LIBS := -Wl,-Bstatic -lnl-route-3 -lnl-genl-3 -lnl-3 -Wl,-Bdynamic
GLEAMD_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(GLEAMD_SRCS)) $(BUILD)/obj/gen/worker_gen.o \
	$(BUILD)/obj/gen/sim_stubs_gen.o \
	$(COMMON_OBJS) $(TLS_OBJS) $(BUILD)/obj/kmod/user/vgpu_user.o $(BUILD)/obj/kmod/user/vgpu_nl.o
GLEAMD := $(BUILD)/bin/gleamd

$(BUILD)/obj/broker/%.o: CFLAGS_EXTRA := -Ibroker -Ikmod/user
$(BUILD)/obj/gen/worker_gen.o $(BUILD)/obj/gen/sim_stubs_gen.o: CFLAGS_EXTRA := -Ibroker
$(BUILD)/obj/kmod/user/vgpu_nl.o: CFLAGS_EXTRA := -Ikmod/user $(GLEAMD_NL_CFLAGS)
$(BUILD)/obj/broker/linkmon.o: CFLAGS_EXTRA := -Ibroker $(GLEAMD_NL_CFLAGS)

$(GLEAMD): $(GLEAMD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(GLEAMD_OBJS) -Wl,-Bstatic -luring -lzstd -Wl,-Bdynamic $(GLEAMD_NL_LIBS) \
		$(TLS_LIBS) -ldl -lpthread -lm

ALL_TARGETS += $(GLEAMD)

# The content-addressed chunk store and the hashing pool (Documentation/cache.md),
# not yet part of gleamd.  libcrypto is linked dynamically: GPU machines have it.
CACHE_SRCS := broker/chunk.c broker/hashpool.c
CACHE_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CACHE_SRCS))
CACHE_LIBS := -lcrypto -lpthread
HASHBENCH := $(BUILD)/bin/gleam-hashbench

$(BUILD)/obj/tools/gleam-hashbench.o: CFLAGS_EXTRA := -Ibroker

$(HASHBENCH): $(BUILD)/obj/tools/gleam-hashbench.o $(CACHE_OBJS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(CACHE_LIBS)

ALL_TARGETS += $(HASHBENCH)
