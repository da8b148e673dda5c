# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/module: the module through the real libpam (pam_memlock/module
# with the core under it): sessions, the export list, rules and drop-ins,
# glibc's NSS, the unsafe files, threads, soaks, failed allocations and
# policies rewritten under load.
# The module's dynamic symbols: exactly the two session entry points.
TESTS += tests/module/exports.sh
EXTRA_DIST += tests/module/exports.sh tests/module/soak-long.sh
if HAVE_CHECK
# The module through the real libpam; the export list; rules and drop-ins
# under nss_wrapper (tests/data/rules).
RULES_ENV = tests/module/rules_env.h tests/module/rules_env.c $(PAM_TEST_SOURCES)
check_PROGRAMS += tests/module/test_pam tests/module/test_dlopen tests/module/test_rules \
	tests/module/test_dropins tests/module/test_default_dir
tests_module_test_pam_SOURCES = tests/module/test_pam.c $(PAM_TEST_SOURCES)
tests_module_test_pam_CFLAGS = $(TEST_CFLAGS)
tests_module_test_dlopen_SOURCES = tests/module/test_dlopen.c $(HARNESS)
tests_module_test_dlopen_CFLAGS = $(TEST_CFLAGS)
tests_module_test_rules_SOURCES = tests/module/test_rules.c tests/module/rules_nss.h \
	tests/module/test_rules_nss.c $(RULES_ENV)
tests_module_test_rules_CFLAGS = $(TEST_CFLAGS)
tests_module_test_dropins_SOURCES = tests/module/test_dropins.c $(RULES_ENV)
tests_module_test_dropins_CFLAGS = $(TEST_CFLAGS)
tests_module_test_default_dir_SOURCES = tests/module/test_default_dir.c $(RULES_ENV)
tests_module_test_default_dir_CFLAGS = $(TEST_CFLAGS)

# Group and user lookups through glibc's own NSS, in private mount
# namespaces, with a failing NSS source of its own: glibc loads
# libnss_pmltest.so.2 from tests/module/.libs, which test_nss puts on its
# LD_LIBRARY_PATH.  -rpath makes libtool build it shared.
check_LTLIBRARIES += tests/module/libnss_pmltest.la
tests_module_libnss_pmltest_la_SOURCES = tests/module/nss_pmltest.c
tests_module_libnss_pmltest_la_LDFLAGS = $(AM_LDFLAGS) -module -shared \
	-rpath /nowhere -version-info 2:0:0
check_PROGRAMS += tests/module/test_nss
tests_module_test_nss_SOURCES = tests/module/test_nss.c $(PAM_TEST_SOURCES)
tests_module_test_nss_CFLAGS = $(TEST_CFLAGS)

# Hardening: the golden corpus and the unsafe files through the real
# module, threads, and a soak of 1,000 sessions in one process.
check_PROGRAMS += tests/module/test_corpus_pam tests/module/test_unsafe \
	tests/module/test_unsafe_dropins tests/module/test_threads tests/module/soak
tests_module_test_corpus_pam_SOURCES = tests/module/test_corpus_pam.c $(GOLDEN) $(PAM_TEST_SOURCES)
tests_module_test_corpus_pam_CFLAGS = $(TEST_CFLAGS)
UNSAFE_FILES = tests/module/unsafe_files.h tests/module/unsafe_files.c $(PAM_TEST_SOURCES)
tests_module_test_unsafe_SOURCES = tests/module/test_unsafe.c $(UNSAFE_FILES)
tests_module_test_unsafe_CFLAGS = $(TEST_CFLAGS)
tests_module_test_unsafe_dropins_SOURCES = tests/module/test_unsafe_dropins.c $(UNSAFE_FILES)
tests_module_test_unsafe_dropins_CFLAGS = $(TEST_CFLAGS)
tests_module_test_threads_SOURCES = tests/module/test_threads.c $(PAM_TEST_SOURCES)
tests_module_test_threads_CFLAGS = $(TEST_CFLAGS) -pthread
tests_module_soak_SOURCES = tests/module/soak.c $(PAM_TEST_SOURCES)
tests_module_soak_CFLAGS = $(TEST_CFLAGS)

# Allocation failure at every site of a session (it defines malloc), and
# policies rewritten (rename, memlockctl install, in place, drop-ins) while
# 64 processes open 5,000 sessions.
check_PROGRAMS += tests/module/test_alloc_fail tests/module/test_races
tests_module_test_alloc_fail_SOURCES = tests/module/test_alloc_fail.c \
	tests/module/failing_alloc.h tests/module/failing_alloc.c $(PAM_TEST_SOURCES)
tests_module_test_alloc_fail_CFLAGS = $(TEST_CFLAGS)
tests_module_test_races_SOURCES = tests/module/test_races.c \
	tests/module/policy_race.h tests/module/policy_race.c $(PAM_TEST_SOURCES)
tests_module_test_races_CFLAGS = $(TEST_CFLAGS)
# It runs memlockctl install.
EXTRA_tests_module_test_races_DEPENDENCIES = memlockctl$(EXEEXT)

TESTS += tests/module/test_pam tests/module/test_dlopen tests/module/test_rules \
	tests/module/test_dropins tests/module/test_default_dir tests/module/test_nss \
	tests/module/test_corpus_pam tests/module/test_unsafe tests/module/test_unsafe_dropins \
	tests/module/test_threads tests/module/soak tests/module/test_alloc_fail \
	tests/module/test_races

# make soak-long: 100,000 sessions in one process; RSS and descriptors
# sampled every 5,000 (its summary is test-suite-soak.log).  Too long for
# make check; tests/run-all.sh runs it.  Built by make check, to keep it
# compiling.
check_PROGRAMS += tests/module/soak_long
tests_module_soak_long_SOURCES = tests/module/soak_long.c $(PAM_TEST_SOURCES)
tests_module_soak_long_CFLAGS = $(TEST_CFLAGS)
soak-long: tests/module/soak_long$(EXEEXT) pam_memlock.la
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='tests/module/soak-long.sh' \
		check_PROGRAMS='tests/module/soak_long$(EXEEXT)' \
		TEST_SUITE_LOG=test-suite-soak.log
endif
.PHONY: soak-long

# --- make check-valgrind: the libpam tests and the soak under memcheck,
# through the same TAP driver (its summary is test-suite-valgrind.log).
# Check forks each case without exec, and valgrind follows a fork by
# itself, so each child's leak check runs when it exits and fails that case.
# Only its own test programs are built.  The longest first, so that make
# -j2 keeps both processors busy to the end: test_alloc_fail, then
# test_corpus_pam and the soak beside it.
# test_alloc_fail defines malloc: nouserintercepts keeps memcheck from
# replacing it (memcheck still sees every block through __libc_malloc).
VALGRIND_TESTS = tests/module/test_alloc_fail tests/module/test_corpus_pam tests/module/soak \
	tests/module/test_pam
EXTRA_DIST += tests/lib/valgrind.supp tests/lib/valgrind.sh
VALGRIND_FLAGS = --quiet --error-exitcode=1 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --track-fds=yes \
	--soname-synonyms=somalloc=nouserintercepts \
	--suppressions=$(srcdir)/tests/lib/valgrind.supp
check-valgrind: $(VALGRIND_TESTS) pam_memlock.la
	@test -n "$(VALGRIND)" || { echo "check-valgrind: valgrind not found (re-run configure)" >&2; exit 1; }
	@test "x$(enable_sanitizers)" != xyes || { echo "check-valgrind: not in an --enable-sanitizers build" >&2; exit 1; }
	CK_TIMEOUT_MULTIPLIER=20 $(MAKE) $(AM_MAKEFLAGS) check \
		TESTS='$(VALGRIND_TESTS)' check_PROGRAMS='$(VALGRIND_TESTS)' \
		TEST_SUITE_LOG=test-suite-valgrind.log \
		LOG_COMPILER='$(SHELL) $(srcdir)/tests/lib/valgrind.sh $(VALGRIND) $(VALGRIND_FLAGS)'
.PHONY: check-valgrind

# --- make demo: one real PAM session through the module with the shipped
# policy, from a 64 KiB soft limit, showing the limit before and after.
EXTRA_PROGRAMS = tests/module/demo
tests_module_demo_SOURCES = tests/module/demo.c tests/lib/pam_session.h tests/lib/pam_session.c \
	tests/lib/syslog_capture.h tests/lib/syslog_capture.c
tests_module_demo_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/tests/lib
tests_module_demo_LDADD = $(PAM_LIBS)
CLEANFILES += tests/module/demo
demo: tests/module/demo$(EXEEXT) pam_memlock.la
	@$(builddir)/tests/module/demo$(EXEEXT) '$(abs_top_builddir)/.libs/pam_memlock.so' \
		'$(abs_top_srcdir)/conf/memlock.conf'
.PHONY: demo
