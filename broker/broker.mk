# gleamd: both roles, the replay worker and its backends.  liburing is
# linked statically: GPU machines need not have it installed.
GLEAMD_SRCS := broker/main.c broker/bridge.c broker/client.c broker/server.c \
	broker/worker.c broker/wk_custom.c broker/backend_cuda.c broker/backend_sim.c \
	broker/sim_kernels.c
GLEAMD_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(GLEAMD_SRCS)) $(BUILD)/obj/gen/worker_gen.o \
	$(COMMON_OBJS)
GLEAMD := $(BUILD)/bin/gleamd

$(BUILD)/obj/broker/%.o: CFLAGS_EXTRA := -Ibroker
$(BUILD)/obj/gen/worker_gen.o: CFLAGS_EXTRA := -Ibroker

$(GLEAMD): $(GLEAMD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(GLEAMD_OBJS) -Wl,-Bstatic -luring -Wl,-Bdynamic -ldl -lpthread -lm

ALL_TARGETS += $(GLEAMD)
