# CUDA runtime programs (tests/cudart/*.cu) built by nvcc twice, with the
# static cudart (nvcc's default) and with -cudart shared, and the export
# tables' driver-API test (exports.c, which checks the integrity answer
# with libcuda-shim/md2.c).  tests/cudart/run.sh runs them on the sim
# backend.  Included by the top-level Makefile, which sets BUILD, CUDA,
# NVCC, CC, OPT and WARN.

CUDART_DIR     := $(BUILD)/tests/cudart
CUDART_SRCS    := $(wildcard tests/cudart/*.cu)
CUDART_STATIC  := $(patsubst tests/cudart/%.cu,$(CUDART_DIR)/%,$(CUDART_SRCS))
CUDART_SHARED  := $(addsuffix -shared,$(CUDART_STATIC))
CUDART_EXPORTS := $(CUDART_DIR)/exports
# What the programs include: their header and the kernels of tests/kernels/.
CUDART_HDRS    := tests/cudart/cudart.h tests/kernels/vec_add.cu $(wildcard tests/kernels/*.cuh)

# The default architecture's PTX and code: the sim finds the kernels by
# name in either, a GPU runs one of them.
CUDART_NVCCFLAGS ?= -O2

$(CUDART_STATIC): $(CUDART_DIR)/%: tests/cudart/%.cu $(CUDART_HDRS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_NVCCFLAGS) -o $@ $<

$(CUDART_SHARED): $(CUDART_DIR)/%-shared: tests/cudart/%.cu $(CUDART_HDRS)
	@mkdir -p $(dir $@)
	$(NVCC) $(CUDART_NVCCFLAGS) -cudart shared -o $@ $<

$(CUDART_EXPORTS): tests/cudart/exports.c libcuda-shim/md2.c libcuda-shim/export.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -I$(CUDA)/include -Ilibcuda-shim -o $@ \
		tests/cudart/exports.c libcuda-shim/md2.c -L$(CUDA)/lib64/stubs -lcuda -lpthread

ALL_TARGETS += $(CUDART_STATIC) $(CUDART_SHARED) $(CUDART_EXPORTS)

.PHONY: check-cudart
check-cudart: all
	BUILD=$(BUILD) CUDA=$(CUDA) tests/cudart/run.sh

CHECK_TARGETS += check-cudart
