# Gleam's libnvidia-ml.so.1 against the sim: what NVML answers matches what
# gleamctl says.
NVML_QUERY := $(BUILD)/tests/nvml/nvml-query

$(NVML_QUERY): tests/nvml/nvml-query.c
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -o $@ $< -ldl

ALL_TARGETS += $(NVML_QUERY)

.PHONY: check-nvml
check-nvml: all
	BUILD=$(BUILD) tests/nvml/run.sh

CHECK_TARGETS += check-nvml
