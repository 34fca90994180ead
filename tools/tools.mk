# gleamctl and gleam-run.
GLEAMCTL := $(BUILD)/bin/gleamctl
GLEAM_RUN := $(BUILD)/bin/gleam-run

$(GLEAMCTL): $(BUILD)/obj/tools/gleamctl.o $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^

$(GLEAM_RUN): tools/gleam-run.sh
	@mkdir -p $(dir $@)
	install -m 755 $< $@

ALL_TARGETS += $(GLEAMCTL) $(GLEAM_RUN)
