# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/core: the PAM-free core on its own (pam_memlock/core): values,
# decision, memory base, loader and golden files, the safe read, unit
# rules and the generator's drop-ins.
if HAVE_CHECK
check_PROGRAMS += tests/core/test_size tests/core/test_memory \
	tests/core/test_decide tests/core/test_policy tests/core/test_safe_read
tests_core_test_size_SOURCES = tests/core/test_size.c $(HARNESS) \
	$(CTL)/output/text.h $(CTL)/output/text.c
tests_core_test_size_CPPFLAGS = $(CTL_CPPFLAGS)
tests_core_test_size_CFLAGS = $(TEST_CFLAGS)
tests_core_test_memory_SOURCES = tests/core/test_memory.c $(HARNESS) $(FAKE_TREE)
tests_core_test_memory_CFLAGS = $(TEST_CFLAGS)
tests_core_test_decide_SOURCES = tests/core/test_decide.c $(HARNESS)
tests_core_test_decide_CFLAGS = $(TEST_CFLAGS)
tests_core_test_policy_SOURCES = tests/core/test_policy.c $(GOLDEN) $(HARNESS)
tests_core_test_policy_CFLAGS = $(TEST_CFLAGS)
tests_core_test_safe_read_SOURCES = tests/core/test_safe_read.c $(HARNESS)
tests_core_test_safe_read_CFLAGS = $(TEST_CFLAGS)
# What the loader makes of any policy files, printed for a diff between
# two builds (.ci/libconfig-compare.sh); built here to keep it compiling.
check_PROGRAMS += tests/core/verdicts
tests_core_verdicts_SOURCES = tests/core/verdicts.c
tests_core_verdicts_LDADD = libpml.la $(LIBCONFIG_LIBS)

# test_size reads "12.5" under a German locale (decimal comma).  The locale
# is compiled here, into the build tree, and the test points LOCPATH at it:
# nothing is installed on the machine, and no system locale is needed.  If
# localedef cannot build it (no "locales" sources), the case skips and says so.
check_DATA = tests/locale/de_DE.UTF-8/LC_NUMERIC
tests/locale/de_DE.UTF-8/LC_NUMERIC:
	$(AM_V_GEN)rm -rf tests/locale/de_DE.UTF-8 && $(MKDIR_P) tests/locale && \
	{ localedef -i de_DE -f UTF-8 tests/locale/de_DE.UTF-8 && test -f $@ || \
	  { echo "localedef -i de_DE -f UTF-8 failed: test_size will skip ignores_the_locale" >&2; \
	    rm -rf tests/locale/de_DE.UTF-8; }; }

# Unit rules and the generator, against the fixture unit tree.
check_PROGRAMS += tests/core/test_units
tests_core_test_units_SOURCES = tests/core/test_units.c $(HARNESS) $(GENERATOR_SOURCES)
tests_core_test_units_CPPFLAGS = $(GENERATOR_CPPFLAGS)
tests_core_test_units_CFLAGS = $(TEST_CFLAGS)

TESTS += tests/core/test_size tests/core/test_memory tests/core/test_decide \
	tests/core/test_policy tests/core/test_safe_read tests/core/test_units
endif
clean-local:
	rm -rf tests/locale
