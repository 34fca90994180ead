# Unit tests (Check), integration tests over loopback with the sim backend,
# and hostile-input tests against running daemons.
UNIT_SRCS := tests/unit/runner.c tests/unit/unit.c tests/unit/test_ring.c tests/unit/test_table.c \
	tests/unit/test_image.c tests/unit/test_shim.c tests/unit/test_export.c \
	tests/unit/test_chunkstore.c tests/unit/test_cubin.c tests/unit/test_util.c \
	tests/unit/test_pack.c tests/unit/test_memo.c
# The export tables' algorithms and the answers kept for the session depend
# on nothing else in the shim: linked in.
UNIT_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(UNIT_SRCS)) $(COMMON_OBJS) \
	$(BUILD)/obj/libcuda-shim/md2.o $(BUILD)/obj/libcuda-shim/cls.o \
	$(BUILD)/obj/libcuda-shim/memo.o
# The chunk store and hashing pool (broker/broker.mk) stand alone: linked in.
UNIT_OBJS += $(CACHE_OBJS) $(BUILD)/obj/broker/pack.o
UNIT_BIN  := $(BUILD)/tests/unit-tests
HOSTILE_BIN := $(BUILD)/tests/hostile

$(BUILD)/obj/tests/unit/%.o: CFLAGS_EXTRA := -Itests/unit -Ilibcuda-shim -Ibroker
$(BUILD)/obj/tests/hostile/%.o: CFLAGS_EXTRA := -Itests/hostile

$(UNIT_BIN): $(UNIT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(UNIT_OBJS) $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread) -ldl \
		$(CACHE_LIBS) -lzstd -lm

$(HOSTILE_BIN): $(BUILD)/obj/tests/hostile/hostile.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

ALL_TARGETS += $(UNIT_BIN) $(HOSTILE_BIN)

.PHONY: check-unit check-integration check-valgrind check-kill
# The suites that open libcuda.so.1 open this build's (GLEAM_SHIM, unless set).
check-unit: $(UNIT_BIN) $(SHIM_LIB)
	GLEAM_SHIM=$${GLEAM_SHIM:-$(SHIM_LIB)} $(UNIT_BIN)

# The unit runner under valgrind, in one process, with no leak allowed
# (GLEAM_UNIT_VALGRIND: the tests that valgrind cannot run say so and pass).
check-valgrind: $(UNIT_BIN) $(SHIM_LIB)
	GLEAM_SHIM=$${GLEAM_SHIM:-$(SHIM_LIB)} GLEAM_UNIT_VALGRIND=1 CK_FORK=no valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite \
		$(UNIT_BIN)

check-integration: all
	BUILD=$(BUILD) tests/integration/run.sh
	BUILD=$(BUILD) tests/integration/pack.sh
	BUILD=$(BUILD) tests/integration/addresses.sh

# A program, its worker, the client or the server gleamd killed at seeded
# points; the daemons must come back to where they started.
check-kill: all
	BUILD=$(BUILD) tests/integration/kill.sh

CHECK_TARGETS += check-unit check-valgrind check-integration check-kill

# The scheduler: its model alone (the scheduler, what it keeps of links
# and names, and the config it reads), then three server gleamd behind
# emulated links of their own.
SCHED_TEST_BIN := $(BUILD)/tests/sched/test-sched
SCHED_TEST_OBJS := $(BUILD)/obj/tests/sched/test_sched.o \
	$(addprefix $(BUILD)/obj/broker/,scheduler.o nameset.o linkmon.o chunk.o config.o) \
	$(COMMON_OBJS)
$(BUILD)/obj/tests/sched/%.o: CFLAGS_EXTRA := -Ibroker -Ikmod/user

$(SCHED_TEST_BIN): $(SCHED_TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(SCHED_TEST_OBJS) $(GLEAMD_NL_LIBS) -lcrypto \
		$(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread) \
		-lpthread -lm

ALL_TARGETS += $(SCHED_TEST_BIN)

.PHONY: check-sched
check-sched: all
	BUILD=$(BUILD) tests/sched/run.sh

CHECK_TARGETS += check-sched

# The benchmark workloads: a driver-API program like the test programs.
BENCH_BIN := $(BUILD)/bin/gleam-bench
$(BENCH_BIN): tests/bench/gleam-bench.c tests/lib/cuctx.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -I$(CUDA)/include -o $@ $< -L$(CUDA)/lib64/stubs -lcuda -lm

ALL_TARGETS += $(BENCH_BIN)

# Copies timed as CUDA programs commonly time them, with the runtime API.
BWTEST_BIN := $(BUILD)/bin/gleam-bwtest
$(BWTEST_BIN): tests/bench/gleam-bwtest.cu
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -o $@ $<

ALL_TARGETS += $(BWTEST_BIN)

# Every document in Documentation/ is listed in its index.
.PHONY: check-docs
check-docs:
	@missing=$$(for f in Documentation/*.md; do b=$${f#Documentation/}; \
		[ "$$b" = README.md ] || grep -q "($$b)" Documentation/README.md || echo "$$b"; done); \
	if [ -n "$$missing" ]; then echo "check-docs: not in Documentation/README.md: $$missing"; exit 1; fi; \
	echo "check-docs: every document is in Documentation/README.md"
CHECK_TARGETS += check-docs

# A session over two sim servers (tests/servers/run.sh).
.PHONY: check-servers
check-servers: all
	BUILD=$(BUILD) tests/servers/run.sh

CHECK_TARGETS += check-servers
