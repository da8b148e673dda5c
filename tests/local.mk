# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The tests' frame, included by the top Makefile.am like every fragment
# of tests/.  Every test speaks TAP, so that each case is counted.
TEST_EXTENSIONS = .sh
LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
SH_LOG_DRIVER = $(LOG_DRIVER)
AM_TESTS_ENVIRONMENT = \
	PML_MODULE='$(abs_top_builddir)/.libs/pam_memlock.so'; \
	PML_TESTDATA='$(abs_top_srcdir)/tests/data'; \
	PML_SRCDIR='$(abs_top_srcdir)'; \
	PML_BUILDDIR='$(abs_top_builddir)'; \
	PML_SANITIZERS='$(enable_sanitizers)'; \
	PML_MAKE='$(MAKE)'; \
	PML_MULTIARCH='$(PML_MULTIARCH)'; \
	PML_PAMEXAMPLESDIR='$(pamexamplesdir)'; \
	PML_PYTHON='$(PYTHON3)'; \
	: "the soak counts the heap; glibc's tcache would hide what it holds"; \
	GLIBC_TUNABLES=glibc.malloc.tcache_count=0; \
	: "check's timeout catches a hang, not a slow case: its 4 s a case ran"; \
	: "out under other builds on 2 cores (the caller's value stands)"; \
	CK_TIMEOUT_MULTIPLIER=$${CK_TIMEOUT_MULTIPLIER:-10}; \
	export PML_MODULE PML_TESTDATA PML_SRCDIR PML_BUILDDIR PML_SANITIZERS PML_MAKE PML_MULTIARCH \
		PML_PAMEXAMPLESDIR PML_PYTHON GLIBC_TUNABLES CK_TIMEOUT_MULTIPLIER;
# The fixtures, shared by every folder's tests (PML_TESTDATA).
EXTRA_DIST += tests/data

# make check-unsanitized: what make check of a dist tree built with
# --enable-sanitizers cannot run in full, each saying why in its SKIP
# line: login programs cannot load a sanitized module (E2E_TESTS); ASan's
# own allocator takes the failures test_alloc_fail injects; its runtime
# adds libc symbols to what exports counts; LeakSanitizer's thread fails
# under readonly's ptrace; and version.sh's debian/changelog is not in a
# dist tree.  CI runs make check that way, and these from a plain build,
# which builds only the test programs they run.
UNSANITIZED_TESTS = $(E2E_TESTS) tests/module/test_alloc_fail tests/module/exports.sh \
	tests/memlockctl/readonly.sh tests/project/version.sh
check-unsanitized:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS='$(UNSANITIZED_TESTS)' \
		check_PROGRAMS='$(E2E_HELPERS) tests/module/test_alloc_fail$(EXEEXT)'
.PHONY: check-unsanitized
