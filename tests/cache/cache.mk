# Uploads by content (Documentation/cache.md): the upload program and the
# test that runs it through a server with a chunk store (tests/cache/run.sh).
CACHE_TEST_BIN := $(BUILD)/tests/cache/upload

$(CACHE_TEST_BIN): tests/cache/upload.c tests/lib/cuctx.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -I$(CUDA)/include -o $@ $< -L$(CUDA)/lib64/stubs -lcuda

ALL_TARGETS += $(CACHE_TEST_BIN)

.PHONY: check-cache
check-cache: all
	BUILD=$(BUILD) tests/cache/run.sh

CHECK_TARGETS += check-cache
