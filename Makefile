# Gleam top-level build.  Everything lands in $(BUILD); each part keeps its
# rules in a fragment (*.mk) beside its sources.
BUILD     ?= build
CUDA      ?= /usr/local/cuda
CC        ?= gcc
PYTHON    ?= python3
NVCC      ?= $(CUDA)/bin/nvcc
OPT       ?= -O2 -g
KDIR      ?= /lib/modules/$(shell ls /lib/modules 2>/dev/null | sort -V | tail -n 1)/build

WARN      := -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers
CFLAGS_COMMON := $(OPT) $(WARN) -std=gnu11 -fno-strict-aliasing -D_GNU_SOURCE \
	-I$(BUILD)/gen -Iuapi -Icommon -I$(CUDA)/include -MMD -MP

ALL_TARGETS   :=
CHECK_TARGETS :=
CLEAN_DIRS    := $(BUILD)

.PHONY: all check demo deps clean gpu-check bench bench-sched bench-tls kmod vm-check fuzz install uninstall
all: all-targets

# Debian packages; run first on a fresh machine (as root).
deps:
	tools/install-deps.sh

include common/common.mk
include libcuda-shim/shim.mk
include libnvml/libnvml.mk
include broker/broker.mk
include tools/tools.mk
-include tools/linkem/linkem.mk
include tests/tests.mk
-include tests/programs/programs.mk
-include tests/cudart/cudart.mk
-include tests/cache/cache.mk
-include tests/gpus/gpus.mk
-include tests/integration/silent.mk
-include tests/integration/resume.mk
-include tests/integration/outage.mk
-include tests/integration/pack.mk
-include tests/integration/stripes.mk
-include tests/security/security.mk
-include tests/integration/ctl.mk
-include tests/gpu/cublas/cublas.mk
-include tests/gpu/occdiff/occdiff.mk
-include tests/nvml/nvml.mk
-include tests/install/install.mk
-include kmod/kmod.mk
include tests/fuzz/fuzz.mk
include dist/install.mk

all-targets: $(ALL_TARGETS)

# The README's test command: every test that can run on this machine.
check: all $(CHECK_TARGETS)
	@tests/leftovers.sh $(BUILD)
	@echo "make check: all suites passed"

# The main job: a CUDA program through the whole path.
demo: all
	BUILD=$(BUILD) tools/demo.sh

# On a machine with an NVIDIA GPU: the test programs run directly and
# through Gleam must print the same.
gpu-check: all
	BUILD=$(BUILD) tests/gpu/gpu-check.sh

# Benchmarks: Gleam against local and synchronous runs over emulated links.
bench: all
	BUILD=$(BUILD) $(PYTHON) tools/bench.py
	BUILD=$(BUILD) $(PYTHON) tools/sched-bench.py
	BUILD=$(BUILD) $(PYTHON) tools/tls-bench.py

# What TLS costs: copies at 10 Gbit/s, launch-heavy at 1 Gbit/s, with and without.
bench-tls: all
	BUILD=$(BUILD) $(PYTHON) tools/tls-bench.py

# The scheduler alone: auto against round-robin and random placement.
bench-sched: all
	BUILD=$(BUILD) $(PYTHON) tools/sched-bench.py

clean:
	rm -rf $(CLEAN_DIRS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
