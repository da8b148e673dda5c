# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-directory: sessions with users and groups from a real
# directory (Debian's slapd and nslcd), which tests/directory/run.sh starts
# in private mount and network namespaces; slapd killed and stopped.
# Its summary is test-suite-directory.log; it skips where slapd or nslcd
# cannot start.
EXTRA_DIST += tests/directory/run.sh tests/directory/gen-ldif.py
if HAVE_CHECK
check_PROGRAMS += tests/directory/test_directory
tests_directory_test_directory_SOURCES = tests/directory/test_directory.c $(PAM_TEST_SOURCES)
tests_directory_test_directory_CFLAGS = $(TEST_CFLAGS)
check-directory: tests/directory/test_directory$(EXEEXT) pam_memlock.la
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='tests/directory/run.sh' \
		check_PROGRAMS='tests/directory/test_directory$(EXEEXT)' \
		TEST_SUITE_LOG=test-suite-directory.log
endif
.PHONY: check-directory
