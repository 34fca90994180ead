# Code shared by the shim, gleamd, gleamctl and the tests; the API tables
# generated from uapi/api.tbl.
GEN_DIR   := $(BUILD)/gen
GEN_FILES := $(GEN_DIR)/gleam_api_gen.h $(GEN_DIR)/api_gen.c $(GEN_DIR)/shim_gen.c \
	$(GEN_DIR)/libcuda.map $(GEN_DIR)/worker_gen.c $(GEN_DIR)/backend_gen.h $(GEN_DIR)/errors_gen.c

$(GEN_DIR)/.stamp: uapi/api.tbl uapi/driver-symbols.txt tools/gen-api.py
	@mkdir -p $(GEN_DIR)
	$(PYTHON) tools/gen-api.py uapi/api.tbl uapi/driver-symbols.txt $(GEN_DIR) $(CUDA)/include/cuda.h
	@touch $@
$(GEN_FILES): $(GEN_DIR)/.stamp

COMMON_SRCS := common/ring.c common/util.c common/image.c common/cubin.c common/occupancy.c
# Position-independent objects serve both the shared library and programs.
COMMON_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(COMMON_SRCS)) $(BUILD)/obj/gen/api_gen.o

$(BUILD)/obj/%.o: %.c $(GEN_DIR)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_EXTRA) -fPIC -c $< -o $@

$(BUILD)/obj/gen/%.o: $(GEN_DIR)/%.c $(GEN_DIR)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_EXTRA) -fPIC -c $< -o $@

# TLS (common/tls.c): gleamd and gleamctl only, never libcuda.so.1.
TLS_OBJS := $(BUILD)/obj/common/tls.o
TLS_LIBS := -lssl -lcrypto
