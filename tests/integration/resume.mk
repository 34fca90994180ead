# Sessions that survive a dropped or silent link (tests/integration/resume.sh).
.PHONY: check-resume
check-resume: all
	BUILD=$(BUILD) tests/integration/resume.sh

CHECK_TARGETS += check-resume
