# linkem: a user-space TCP relay that emulates one network link between two
# brokers (rate, delay, jitter, cuts).  See Documentation/linkem.md.

LINKEM_SRCS := main.c parse.c link.c relay.c control.c
LINKEM_ODIR := $(BUILD)/tools/linkem
LINKEM_OBJS := $(addprefix $(LINKEM_ODIR)/,$(LINKEM_SRCS:.c=.o))
LINKEM_BIN  := $(BUILD)/bin/linkem
LINKEM_TEST := $(LINKEM_ODIR)/test_linkem

ALL_TARGETS   += $(LINKEM_BIN)
CHECK_TARGETS += check-linkem

# The size parser is common/util.c's.
$(LINKEM_BIN): $(LINKEM_OBJS) $(BUILD)/obj/common/util.o | $(BUILD)/bin
	$(CC) -o $@ $(LINKEM_OBJS) $(BUILD)/obj/common/util.o -lm

$(LINKEM_ODIR)/%.o: tools/linkem/%.c | $(LINKEM_ODIR)
	$(CC) $(CFLAGS_COMMON) -c -o $@ $<

$(LINKEM_TEST): $(LINKEM_ODIR)/test_linkem.o | $(LINKEM_ODIR)
	$(CC) -o $@ $< -pthread -lm

$(LINKEM_ODIR) $(BUILD)/bin:
	mkdir -p $@

# Measures delay, rate and cuts against the settings (about 15 s).
.PHONY: check-linkem
check-linkem: $(LINKEM_BIN) $(LINKEM_TEST)
	$(LINKEM_TEST) $(LINKEM_BIN)
