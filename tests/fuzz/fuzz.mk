# libFuzzer targets (clang, ASan, UBSan) for the decoders that read bytes
# from outside.  `make fuzz FUZZ_SECONDS=N` runs each for N seconds (default
# 600) and keeps its corpus in $(BUILD)/fuzz/corpus-NAME; `make check` runs
# each for a short while.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 600
# make check: a fixed seed and count, so that CI's run is this machine's run.
FUZZ_CHECK_SECONDS ?= 60
FUZZ_CHECK_RUNS ?= 300000
FUZZ_FLAGS   := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-std=gnu11 -D_GNU_SOURCE -I$(BUILD)/gen -Iuapi -Icommon -Ibroker -I$(CUDA)/include
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_TARGETS := ring image config records wire control
# Inputs up to 64 KiB; fuzz_wire's up to 256 KiB, which fill a 64 KiB ring.
FUZZ_MAX_LEN = $$([ $$t = wire ] && echo 262144 || echo 65536)
# fuzz_records is one long session: what one input creates lives on for the
# next, as it would in a session, so it runs without leak detection.
# fuzz_wire and fuzz_control drive both gleamd roles' own code (bridge.c,
# server.c, client.c) through a stand-in for io_uring's kernel side
# (fz_uring.c); fuzz_control also gleamctl's decoding (tools/gleamctl.c).

FUZZ_SRC_ring    := tests/fuzz/fuzz_ring.c common/ring.c
FUZZ_SRC_image   := tests/fuzz/fuzz_image.c common/image.c common/cubin.c common/util.c
# The reader unpacks fat binaries' entries with libzstd (dlopen) or its own LZ4.
FUZZ_LIBS_image  := -lpthread
FUZZ_SRC_config  := tests/fuzz/fuzz_config.c broker/config.c common/util.c
FUZZ_SRC_records := tests/fuzz/fuzz_records.c broker/worker.c broker/wk_custom.c broker/wk_quota.c \
	broker/wk_array.c broker/wk_host.c broker/wk_output.c broker/wk_graph.c broker/wk_link.c \
	broker/wk_vmm.c \
	$(SIM_SRCS) broker/backend_cuda.c broker/cluster_probe.c \
	common/ring.c common/util.c common/image.c common/cubin.c common/cudarules.c \
	common/cuarray.c common/bigcopy.c \
	$(GEN_DIR)/worker_gen.c $(GEN_DIR)/api_gen.c $(GEN_DIR)/sim_stubs_gen.c
# The sim reads compressed fat binaries.
FUZZ_LIBS_records := -lzstd -lpthread
# gleamd's own sources as broker.mk lists them; the harness stands in for
# main.c (its loop and server_probe()) and builds client.c and server.c into
# fz_role_*.c, to reach their static handlers.
FUZZ_GLEAMD      := $(filter-out broker/main.c broker/client.c broker/server.c broker/server_probe.c,\
	$(GLEAMD_SRCS)) \
	kmod/user/vgpu_user.c kmod/user/vgpu_nl.c $(COMMON_SRCS) common/tls.c $(GEN_DIR)/worker_gen.c \
	$(GEN_DIR)/sim_stubs_gen.c \
	$(GEN_DIR)/api_gen.c tests/fuzz/fz_uring.c tests/fuzz/fz_role_server.c \
	tests/fuzz/fz_role_client.c tests/fuzz/fz_json.c
FUZZ_SRC_wire    := tests/fuzz/fuzz_wire.c $(FUZZ_GLEAMD)
FUZZ_SRC_control := tests/fuzz/fuzz_control.c tests/fuzz/fz_gleamctl.c tools/gleamctl-tls.c \
	$(FUZZ_GLEAMD)
FUZZ_CFLAGS_wire := -Ikmod/user $(GLEAMD_NL_CFLAGS)
FUZZ_CFLAGS_control := $(FUZZ_CFLAGS_wire) -Itools
FUZZ_LIBS_wire   := -luring -lzstd $(GLEAMD_NL_LIBS) $(CACHE_LIBS) -lssl
FUZZ_LIBS_control := $(FUZZ_LIBS_wire)

$(FUZZ_DIR)/fuzz_%: $(GEN_DIR)/.stamp | $(GEN_DIR)/gleam_version.h
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_CFLAGS_$*) -o $@ $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) -ldl -lm

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
$(FUZZ_BINS): $(wildcard tests/fuzz/*.c tests/fuzz/*.h broker/*.c broker/*.h common/*.c common/*.h \
	tools/gleamctl.c tools/gleamctl-tls.c kmod/user/*.c kmod/user/*.h)

.PHONY: fuzz check-fuzz
fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		env $$([ $$t = records ] && echo ASAN_OPTIONS=detect_leaks=0) \
			$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
			-timeout=10 -artifact_prefix=$(FUZZ_DIR)/ \
			-print_final_stats=1 $(FUZZ_DIR)/corpus-$$t tests/fuzz/seeds/$$t \
			2>$(FUZZ_DIR)/fuzz_$$t.log || { tail -n 40 $(FUZZ_DIR)/fuzz_$$t.log; exit 1; }; \
		grep -E 'stat::number_of_executed_units|cov:' $(FUZZ_DIR)/fuzz_$$t.log | tail -n 2; \
	done

# The first corpus directory is where new inputs go: never the seeds.
check-fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$t; \
		env $$(t=$$t; [ $$t = records ] && echo ASAN_OPTIONS=detect_leaks=0) \
			$(FUZZ_DIR)/fuzz_$$t -seed=1 -runs=$(FUZZ_CHECK_RUNS) \
			-max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=$(FUZZ_MAX_LEN) \
			-timeout=10 -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus-$$t \
			tests/fuzz/seeds/$$t >$(FUZZ_DIR)/check_$$t.log 2>&1 && \
			echo "fuzz_$$t: ok ($$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_DIR)/check_$$t.log))" || \
			{ echo "fuzz_$$t: FAILED"; tail -n 40 $(FUZZ_DIR)/check_$$t.log; exit 1; }; \
	done

ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
CHECK_TARGETS += check-fuzz
endif
