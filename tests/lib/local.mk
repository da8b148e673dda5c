# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/lib: what the tests share.  The shell tests' TAP (tap.sh) and
# private pid namespace (pidns.sh); helpers the live commands' tests run or
# preload; and the C tests' harness, which reports check's cases as TAP.
EXTRA_DIST += tests/lib/tap.sh tests/lib/pidns.sh

# status and apply on real processes: a helper that locks and pins memory,
# and syslog caught by a preloaded library.
check_PROGRAMS += tests/lib/memlock_hold
tests_lib_memlock_hold_SOURCES = tests/lib/memlock_hold.c
# Never with the sanitizers: they turn mlock(2) into a no-op, and the
# helper exists to lock memory.
tests_lib_memlock_hold_CFLAGS = -Wall -Wextra $(LIBURING_CFLAGS)
tests_lib_memlock_hold_LDFLAGS =
tests_lib_memlock_hold_LDADD = $(LIBURING_LIBS)
if HAVE_LIBURING
tests_lib_memlock_hold_CPPFLAGS = $(AM_CPPFLAGS) -DPML_HAVE_LIBURING
endif
check_LTLIBRARIES += tests/lib/libsyslog_file.la
tests_lib_libsyslog_file_la_SOURCES = tests/lib/syslog_file.c
tests_lib_libsyslog_file_la_LDFLAGS = $(AM_LDFLAGS) -module -shared -avoid-version \
	-rpath /nowhere
# The moments a test cannot hit by timing, on cue: a pid that passes to
# another process during apply, a stopped child, a signal inside install.
check_LTLIBRARIES += tests/lib/libfault_cue.la
tests_lib_libfault_cue_la_SOURCES = tests/lib/fault_cue.c
tests_lib_libfault_cue_la_LDFLAGS = $(AM_LDFLAGS) -module -shared -avoid-version \
	-rpath /nowhere
tests_lib_libfault_cue_la_LIBADD = -ldl

# --- The C tests: check suites, through tests/lib/harness.c.  configure
# finds check (the framework) or says it is missing; then `make check`
# stops with that message instead of failing to compile.
if HAVE_CHECK
# What every C test links: the core, check, libconfig and libpam; and
# where it finds this folder's headers.
LDADD = libpml.la $(CHECK_LIBS) $(LIBCONFIG_LIBS) $(PAM_LIBS) -ldl -lpthread
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(LIBCONFIG_CFLAGS) -I$(top_srcdir)/tests/lib
HARNESS = tests/lib/harness.h tests/lib/harness.c tests/lib/log_buffer.h tests/lib/log_buffer.c
GOLDEN = tests/lib/golden.h tests/lib/golden.c
# A directory that stands in for / (doctor, status, the cgroup base).
FAKE_TREE = tests/lib/fake_tree.h tests/lib/fake_tree.c
# Sessions through the real libpam in a private pam.d, with syslog caught.
PAM_TEST_SOURCES = tests/lib/pam_session.h tests/lib/pam_session.c \
	tests/lib/syslog_capture.h tests/lib/syslog_capture.c $(HARNESS)

# The harness's own promise: a skip counts only a case that did not run.
check_PROGRAMS += tests/lib/test_harness
tests_lib_test_harness_SOURCES = tests/lib/test_harness.c $(HARNESS)
tests_lib_test_harness_CFLAGS = $(TEST_CFLAGS)
TESTS += tests/lib/test_harness
endif
