# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl/live: status and apply (pam_memlock/memlockctl/live) on
# real processes in a private pid namespace (status-env.sh), and their
# readers of /proc and logind and per-user decisions on trees by hand.
LIVE_TESTS = tests/memlockctl/live/status.sh tests/memlockctl/live/apply.sh
TESTS += $(LIVE_TESTS)
EXTRA_DIST += $(LIVE_TESTS) tests/memlockctl/live/status-env.sh
tests/memlockctl/live/status.log tests/memlockctl/live/apply.log: memlockctl$(EXEEXT) tests/lib/memlock_hold$(EXEEXT) \
	tests/lib/libsyslog_file.la tests/lib/libfault_cue.la
if HAVE_CHECK
check_PROGRAMS += tests/memlockctl/live/test_status
tests_memlockctl_live_test_status_SOURCES = tests/memlockctl/live/test_status.c $(HARNESS) \
	$(FAKE_TREE) $(DIRFD_SOURCES) $(LIVE_SOURCES) $(CTL)/output/text.h $(CTL)/output/text.c \
	$(CTL)/output/json.h $(CTL)/output/json.c
tests_memlockctl_live_test_status_CPPFLAGS = $(CTL_CPPFLAGS)
tests_memlockctl_live_test_status_CFLAGS = $(TEST_CFLAGS)
TESTS += tests/memlockctl/live/test_status
endif
