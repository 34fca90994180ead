# Gleam's libnvidia-ml.so.1: NVML answered from the servers' GPUs through
# the client gleamd (Documentation/nvml.md).  Every name NVIDIA's library
# exports is exported (libnvml/nvml-symbols.txt), through a version script;
# the calls Gleam cannot answer are generated stubs.  Default visibility:
# the version script alone decides what is exported.
NVML_SRCS := libnvml/init.c libnvml/device.c libnvml/internal.c
NVML_GEN  := $(GEN_DIR)/nvml/nvml_stubs.c $(GEN_DIR)/nvml/libnvidia-ml.map
NVML_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(NVML_SRCS)) $(BUILD)/obj/gen/nvml/nvml_stubs.o \
	$(BUILD)/obj/common/util.o
NVML_LIB  := $(BUILD)/lib/libnvidia-ml.so.1

$(GEN_DIR)/nvml/.stamp: libnvml/nvml-symbols.txt $(NVML_SRCS) tools/gen-nvml.py
	@mkdir -p $(GEN_DIR)/nvml
	$(PYTHON) tools/gen-nvml.py libnvml/nvml-symbols.txt $(GEN_DIR)/nvml $(NVML_SRCS)
	@touch $@
$(NVML_GEN): $(GEN_DIR)/nvml/.stamp
# The stubs follow the sources: a function answered now is no stub any more.
$(BUILD)/obj/gen/nvml/nvml_stubs.o: $(GEN_DIR)/nvml/.stamp

$(BUILD)/obj/libnvml/%.o: CFLAGS_EXTRA := -Ilibnvml
$(BUILD)/obj/gen/nvml/nvml_stubs.o: CFLAGS_EXTRA := -Ilibnvml

$(NVML_LIB): $(NVML_OBJS) $(GEN_DIR)/nvml/libnvidia-ml.map
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libnvidia-ml.so.1 \
		-Wl,--version-script=$(GEN_DIR)/nvml/libnvidia-ml.map \
		-Wl,-z,defs -Wl,-z,now -o $@ $(NVML_OBJS) -lpthread
	ln -sf libnvidia-ml.so.1 $(BUILD)/lib/libnvidia-ml.so

ALL_TARGETS += $(NVML_LIB)
