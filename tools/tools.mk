# gleamctl and gleam-run.
GLEAMCTL := $(BUILD)/bin/gleamctl
GLEAM_RUN := $(BUILD)/bin/gleam-run

$(GLEAMCTL): $(BUILD)/obj/tools/gleamctl.o $(BUILD)/obj/tools/gleamctl-tls.o $(COMMON_OBJS) \
	$(TLS_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(TLS_LIBS)

$(GLEAM_RUN): tools/gleam-run.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

ALL_TARGETS += $(GLEAMCTL) $(GLEAM_RUN)

# What NVIDIA's driver answers in export-table slots still being learned;
# run directly on a GPU machine (Documentation/export-tables.md).
EXPORT_PROBE := $(BUILD)/bin/gleam-export-probe

$(EXPORT_PROBE): tools/probe/export-probe.c
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -I$(CUDA)/include -o $@ $< -L$(CUDA)/lib64/stubs -lcuda

ALL_TARGETS += $(EXPORT_PROBE)

# The machine's ceilings for each step of a copy (Documentation/design.md).
MEMBENCH := $(BUILD)/bin/gleam-membench

$(MEMBENCH): tools/gleam-membench.c tools/size_arg.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -o $@ $< -pthread -ldl

ALL_TARGETS += $(MEMBENCH)

# Ways of sending a ring's bytes on one TCP connection (Documentation/design.md).
SENDBENCH := $(BUILD)/bin/gleam-sendbench

$(SENDBENCH): tools/gleam-sendbench.c tools/size_arg.h
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) -std=gnu11 -o $@ $< -pthread

ALL_TARGETS += $(SENDBENCH)
