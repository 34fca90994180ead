# Code shared by the shim, gleamd, gleamctl and the tests; the API tables
# generated from uapi/api.tbl.
GEN_DIR   := $(BUILD)/gen
GEN_FILES := $(GEN_DIR)/gleam_api_gen.h $(GEN_DIR)/api_gen.c $(GEN_DIR)/shim_gen.c \
	$(GEN_DIR)/libcuda.map $(GEN_DIR)/worker_gen.c $(GEN_DIR)/backend_gen.h $(GEN_DIR)/errors_gen.c \
	$(GEN_DIR)/sim_stubs_gen.c

$(GEN_DIR)/.stamp: uapi/api.tbl uapi/driver-symbols.txt tools/gen-api.py
	@mkdir -p $(GEN_DIR)
	$(PYTHON) tools/gen-api.py uapi/api.tbl uapi/driver-symbols.txt $(GEN_DIR) $(CUDA)/include/cuda.h
	@touch $@
$(GEN_FILES): $(GEN_DIR)/.stamp

COMMON_SRCS := common/ring.c common/util.c common/image.c common/cubin.c common/cudarules.c \
	common/bigcopy.c \
	common/cuarray.c common/version.c
# Position-independent objects serve both the shared library and programs.
COMMON_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(COMMON_SRCS)) $(BUILD)/obj/gen/api_gen.o

# The version every program says (--version): VERSION, and the commit where
# there is one.  Rewritten only when it changes, so that a build with
# nothing new rebuilds nothing.
GLEAM_VERSION := $(shell cat VERSION)
GLEAM_GIT     := $(shell git rev-parse --short HEAD 2>/dev/null)

.PHONY: version-force
$(GEN_DIR)/gleam_version.h: version-force
	@mkdir -p $(GEN_DIR)
	@printf '#define GLEAM_VERSION "%s"\n#define GLEAM_GIT "%s"\n' '$(GLEAM_VERSION)' '$(GLEAM_GIT)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

$(BUILD)/obj/%.o: %.c $(GEN_DIR)/.stamp | $(GEN_DIR)/gleam_version.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_EXTRA) -fPIC -c $< -o $@

$(BUILD)/obj/gen/%.o: $(GEN_DIR)/%.c $(GEN_DIR)/.stamp
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $(CFLAGS_EXTRA) -fPIC -c $< -o $@

# TLS (common/tls.c): gleamd and gleamctl only, never libcuda.so.1.
TLS_OBJS := $(BUILD)/obj/common/tls.o
TLS_LIBS := -lssl -lcrypto
# The generated headers are kept in uapi/gen/ too, so that a change of the
# wire layout (a record's fields, a function's number) shows in review:
# check-gen fails when they differ from what the table generates, and
# update-gen copies the generated ones there.
GEN_KEPT := gleam_api_gen.h backend_gen.h
check-gen: $(GEN_DIR)/.stamp
	@for f in $(GEN_KEPT); do \
		cmp -s $(GEN_DIR)/$$f uapi/gen/$$f || { \
			diff -u uapi/gen/$$f $(GEN_DIR)/$$f | head -n 40; \
			echo "check-gen: uapi/gen/$$f differs from what uapi/api.tbl generates" \
			     "(make update-gen, then review and commit the difference)"; exit 1; }; \
	done; echo "check-gen: uapi/gen/ matches uapi/api.tbl"
update-gen: $(GEN_DIR)/.stamp
	@mkdir -p uapi/gen
	@for f in $(GEN_KEPT); do cp $(GEN_DIR)/$$f uapi/gen/$$f; done
	@echo "update-gen: uapi/gen/ refreshed; review the difference before committing"
.PHONY: check-gen update-gen
CHECK_TARGETS += check-gen
