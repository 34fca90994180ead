# Test kernels (tests/kernels/*.cu -> PTX and cubins) and the host programs
# that use them (tests/programs/*.c), all under $(BUILD)/tests/.  Included
# by the top-level Makefile, which sets BUILD, CUDA, NVCC, CC, CFLAGS_COMMON.

TEST_KERNEL_DIR  := $(BUILD)/tests/kernels
TEST_PROGRAM_DIR := $(BUILD)/tests/programs

TEST_KERNEL_SRCS := $(wildcard tests/kernels/*.cu)
TEST_KERNEL_PTX  := $(patsubst tests/kernels/%.cu,$(TEST_KERNEL_DIR)/%.ptx,$(TEST_KERNEL_SRCS))
TEST_KERNEL_CUBIN := $(patsubst tests/kernels/%.cu,$(TEST_KERNEL_DIR)/%.cubin,$(TEST_KERNEL_SRCS))
# Kernels kept apart for the programs of tests/cudart/, which build them
# into their own modules; misc.cu includes them.
TEST_KERNEL_HDRS := $(wildcard tests/kernels/*.cuh)

TEST_PROGRAMS     := vecadd matmul memops streams contexts threads devinfo errors bigcopy asyncerr \
	churn uploads allocs graphs occupancy steady rowfills arrays hostfn devprintf gnodes jitlink \
	vmm peers mapped managed twogpus once
TEST_PROGRAM_BINS := $(addprefix $(TEST_PROGRAM_DIR)/,$(TEST_PROGRAMS))
TEST_PROGRAM_OBJS := $(addprefix $(TEST_PROGRAM_DIR)/,$(addsuffix .o,$(TEST_PROGRAMS) util))

# PTX for compute_75 runs (JIT-compiled) on any supported GPU; the cubins
# are for sm_90 (H100/H200) only.
TEST_NVCCFLAGS   ?= -O3
TEST_PROGRAM_LIBS := -L$(CUDA)/lib64/stubs -lcuda -lpthread -lm

$(TEST_KERNEL_PTX): $(TEST_KERNEL_DIR)/%.ptx: tests/kernels/%.cu $(TEST_KERNEL_HDRS) | $(TEST_KERNEL_DIR)
	$(NVCC) $(TEST_NVCCFLAGS) -ptx -arch=compute_75 -o $@ $<

$(TEST_KERNEL_CUBIN): $(TEST_KERNEL_DIR)/%.cubin: tests/kernels/%.cu $(TEST_KERNEL_HDRS) | $(TEST_KERNEL_DIR)
	$(NVCC) $(TEST_NVCCFLAGS) -cubin -arch=sm_90 -o $@ $<

# Relocatable device code (tests/kernels/rdc/*.cu): inputs that only a JIT
# link (tests/programs/jitlink.c) makes whole, as PTX named rdc_NAME.ptx.
TEST_RDC_PTX := $(patsubst tests/kernels/rdc/%.cu,$(TEST_KERNEL_DIR)/rdc_%.ptx,\
	$(wildcard tests/kernels/rdc/*.cu))

$(TEST_RDC_PTX): $(TEST_KERNEL_DIR)/rdc_%.ptx: tests/kernels/rdc/%.cu | $(TEST_KERNEL_DIR)
	$(NVCC) $(TEST_NVCCFLAGS) -rdc=true -ptx -arch=compute_75 -o $@ $<

$(TEST_PROGRAM_OBJS): $(TEST_PROGRAM_DIR)/%.o: tests/programs/%.c | $(TEST_PROGRAM_DIR)
	$(CC) $(CFLAGS_COMMON) -pthread -c -o $@ $<

$(TEST_PROGRAM_BINS): $(TEST_PROGRAM_DIR)/%: $(TEST_PROGRAM_DIR)/%.o $(TEST_PROGRAM_DIR)/util.o
	$(CC) -pthread -o $@ $^ $(TEST_PROGRAM_LIBS)

$(TEST_KERNEL_DIR) $(TEST_PROGRAM_DIR):
	mkdir -p $@

# Build just these: `make test-programs`.
.PHONY: test-programs
test-programs: $(TEST_KERNEL_PTX) $(TEST_KERNEL_CUBIN) $(TEST_RDC_PTX) $(TEST_PROGRAM_BINS)

ALL_TARGETS += $(TEST_KERNEL_PTX) $(TEST_KERNEL_CUBIN) $(TEST_RDC_PTX) $(TEST_PROGRAM_BINS)
