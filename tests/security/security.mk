# Hostile tests of who gets in and what they may do (tests/security/run.sh):
# the attacks the review of 794e9d7 reproduced, each refused.
SECURITY_TENANT := $(BUILD)/tests/security/tenant

$(BUILD)/tests/security/tenant.o: tests/security/tenant.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -c -o $@ $<

$(SECURITY_TENANT): $(BUILD)/tests/security/tenant.o $(TEST_PROGRAM_DIR)/util.o
	$(CC) -o $@ $^ $(TEST_PROGRAM_LIBS)

ALL_TARGETS += $(SECURITY_TENANT)

.PHONY: check-security
check-security: all
	BUILD=$(BUILD) tests/security/run.sh
	BUILD=$(BUILD) GLEAM_TEST_TLS=1 tests/integration/resume.sh

CHECK_TARGETS += check-security
