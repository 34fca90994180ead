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
FUZZ_TARGETS := ring image config records
# fuzz_records is one long session: what one input creates lives on for the
# next, as it would in a session, so it runs without leak detection.

FUZZ_SRC_ring    := tests/fuzz/fuzz_ring.c common/ring.c
FUZZ_SRC_image   := tests/fuzz/fuzz_image.c common/image.c
FUZZ_SRC_config  := tests/fuzz/fuzz_config.c broker/config.c common/util.c
FUZZ_SRC_records := tests/fuzz/fuzz_records.c broker/worker.c broker/wk_custom.c \
	broker/backend_sim.c broker/backend_cuda.c broker/sim_kernels.c common/ring.c \
	common/util.c common/image.c $(GEN_DIR)/worker_gen.c $(GEN_DIR)/api_gen.c
# The sim reads compressed fat binaries.
FUZZ_LIBS_records := -lzstd

$(FUZZ_DIR)/fuzz_%: $(GEN_DIR)/.stamp
	@mkdir -p $(FUZZ_DIR)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) -ldl -lm

FUZZ_BINS := $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
$(FUZZ_BINS): $(wildcard tests/fuzz/*.c broker/*.c broker/*.h common/*.c common/*.h)

.PHONY: fuzz check-fuzz
fuzz: $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_DIR)/corpus-$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		env $$([ $$t = records ] && echo ASAN_OPTIONS=detect_leaks=0) \
			$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
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
			-max_total_time=$(FUZZ_CHECK_SECONDS) -max_len=65536 \
			-timeout=10 -artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/corpus-$$t \
			tests/fuzz/seeds/$$t >$(FUZZ_DIR)/check_$$t.log 2>&1 && \
			echo "fuzz_$$t: ok ($$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' $(FUZZ_DIR)/check_$$t.log))" || \
			{ echo "fuzz_$$t: FAILED"; tail -n 40 $(FUZZ_DIR)/check_$$t.log; exit 1; }; \
	done

ifneq ($(shell command -v $(FUZZ_CC) 2>/dev/null),)
CHECK_TARGETS += check-fuzz
endif
