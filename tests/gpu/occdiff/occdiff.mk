# occdiff (tests/gpu/occdiff/occdiff.c): NVIDIA's driver against Gleam's
# reading of module images and its occupancy rules, run on a GPU machine
# by tests/gpu/occupancy.sh.  Built against the toolkit's stub libcuda.so;
# the real driver is found at run time.  Its test kernels are compiled the
# ways programs and libraries ship them: cubins for sm_90 and sm_90a, with
# registers capped, with -dlcm=ca, a fat binary of several architectures,
# and PTX for the driver to compile.

OCCDIFF_DIR  := $(BUILD)/tests/occdiff
OCCDIFF      := $(OCCDIFF_DIR)/occdiff
OCCDIFF_SRC  := tests/kernels/resources.cu
OCCDIFF_IMGS := $(addprefix $(OCCDIFF_DIR)/,kernels-sm90.cubin kernels-sm90a.cubin \
	kernels-maxreg32.cubin kernels-dlcm.cubin kernels.fatbin kernels.ptx)

$(OCCDIFF): tests/gpu/occdiff/occdiff.c tests/gpu/occdiff/cluster_probe.h common/cubin.c \
		common/cudarules.c common/util.c broker/cluster_probe.c common/cubin.h \
		common/cudarules.h broker/cluster_probe.h $(GEN_DIR)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -o $@ tests/gpu/occdiff/occdiff.c common/cubin.c \
		common/cudarules.c common/util.c broker/cluster_probe.c \
		-L$(CUDA)/lib64/stubs -lcuda -ldl -lpthread

$(OCCDIFF_DIR)/kernels-sm90.cubin: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -arch=sm_90 -cubin -o $@ $<
$(OCCDIFF_DIR)/kernels-sm90a.cubin: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -arch=sm_90a -cubin -o $@ $<
$(OCCDIFF_DIR)/kernels-maxreg32.cubin: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -arch=sm_90 -maxrregcount=32 -cubin -o $@ $<
$(OCCDIFF_DIR)/kernels-dlcm.cubin: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -arch=sm_90 -Xptxas -dlcm=ca -cubin -o $@ $<
$(OCCDIFF_DIR)/kernels.fatbin: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
		-gencode arch=compute_90,code=compute_90 -fatbin -o $@ $<
$(OCCDIFF_DIR)/kernels.ptx: $(OCCDIFF_SRC)
	@mkdir -p $(dir $@)
	$(NVCC) -O3 -arch=compute_90 -ptx -o $@ $<

ALL_TARGETS += $(OCCDIFF) $(OCCDIFF_IMGS)
