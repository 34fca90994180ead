# A server's GPUs on the wire (tests/gpus/run.sh): a session that names its
# GPU, the refusals, and the usage INFO reports, on a sim server of two GPUs.
GPUS_TEST_BIN := $(BUILD)/tests/gpus

$(GPUS_TEST_BIN): tests/gpus/gpus.c tests/lib/cuctx.h tests/lib/tcp.h $(COMMON_OBJS) $(GEN_DIR)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -D_GNU_SOURCE -I$(BUILD)/gen -Iuapi -Icommon \
		-I$(CUDA)/include -o $@ tests/gpus/gpus.c $(COMMON_OBJS) \
		-L$(CUDA)/lib64/stubs -lcuda

ALL_TARGETS += $(GPUS_TEST_BIN)

.PHONY: check-gpus
check-gpus: all
	BUILD=$(BUILD) tests/gpus/run.sh

CHECK_TARGETS += check-gpus
