# cuBLAS programs (tests/gpu/cublas/*.c): ordinary CUDA runtime programs
# that call cuBLAS (fft.c cuFFT; mathlibs.c cuRAND, cuSPARSE and cuSOLVER),
# built by the C compiler against the toolkit's headers, the shared cudart
# and libcublas (and the libraries each names).  They need a GPU (the sim backend cannot
# run cuBLAS's own kernels): tests/gpu/torch-check.sh runs them directly
# and through Gleam.  Built only where the toolkit has libcublas.  Included
# by the top-level Makefile, which sets BUILD, CUDA, CC, OPT and WARN.

ifneq ($(wildcard $(CUDA)/lib64/libcublas.so),)

CUBLAS_DIR   := $(BUILD)/tests/cublas
CUBLAS_SRCS  := $(wildcard tests/gpu/cublas/*.c)
# fft.c calls cuFFT: built only where the toolkit has it too.
ifeq ($(wildcard $(CUDA)/lib64/libcufft.so),)
CUBLAS_SRCS  := $(filter-out tests/gpu/cublas/fft.c,$(CUBLAS_SRCS))
endif
CUBLAS_LIBS_fft := -lcufft
# mathlibs.c calls cuRAND, cuSPARSE and cuSOLVER: built only where it has all three.
ifneq ($(words $(wildcard $(CUDA)/lib64/libcurand.so $(CUDA)/lib64/libcusparse.so $(CUDA)/lib64/libcusolver.so)),3)
CUBLAS_SRCS  := $(filter-out tests/gpu/cublas/mathlibs.c,$(CUBLAS_SRCS))
endif
CUBLAS_LIBS_mathlibs := -lcurand -lcusparse -lcusolver
CUBLAS_PROGS := $(patsubst tests/gpu/cublas/%.c,$(CUBLAS_DIR)/%,$(CUBLAS_SRCS))

# RUNPATH (not RPATH) to the toolkit's libraries, so that LD_LIBRARY_PATH,
# which gleam-run points at Gleam's libcuda.so.1, still comes first.
CUBLAS_LDFLAGS ?= -L$(CUDA)/lib64 -Wl,--enable-new-dtags,-rpath,$(CUDA)/lib64

$(CUBLAS_PROGS): $(CUBLAS_DIR)/%: tests/gpu/cublas/%.c tests/gpu/cublas/common.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -I$(CUDA)/include -o $@ $< \
		$(CUBLAS_LDFLAGS) $(CUBLAS_LIBS_$*) -lcublas -lcudart -lm

ALL_TARGETS += $(CUBLAS_PROGS)

endif
