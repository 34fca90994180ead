# cuBLAS programs (tests/gpu/cublas/*.c): ordinary CUDA runtime programs
# that call cuBLAS, built by the C compiler against the toolkit's headers,
# the shared cudart and libcublas.  They need a GPU (the sim backend cannot
# run cuBLAS's own kernels): tests/gpu/torch-check.sh runs them directly
# and through Gleam.  Built only where the toolkit has libcublas.  Included
# by the top-level Makefile, which sets BUILD, CUDA, CC, OPT and WARN.

ifneq ($(wildcard $(CUDA)/lib64/libcublas.so),)

CUBLAS_DIR   := $(BUILD)/tests/cublas
CUBLAS_SRCS  := $(wildcard tests/gpu/cublas/*.c)
CUBLAS_PROGS := $(patsubst tests/gpu/cublas/%.c,$(CUBLAS_DIR)/%,$(CUBLAS_SRCS))

# RUNPATH (not RPATH) to the toolkit's libraries, so that LD_LIBRARY_PATH,
# which gleam-run points at Gleam's libcuda.so.1, still comes first.
CUBLAS_LDFLAGS ?= -L$(CUDA)/lib64 -Wl,--enable-new-dtags,-rpath,$(CUDA)/lib64

$(CUBLAS_PROGS): $(CUBLAS_DIR)/%: tests/gpu/cublas/%.c tests/gpu/cublas/common.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -I$(CUDA)/include -o $@ $< \
		$(CUBLAS_LDFLAGS) -lcublas -lcudart -lm

ALL_TARGETS += $(CUBLAS_PROGS)

endif
