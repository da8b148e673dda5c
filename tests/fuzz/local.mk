# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make fuzz: the libFuzzer targets, FUZZ_SECONDS each, seeded from
# tests/data (tests/fuzz/run.sh says how to run them longer).  They compile
# the library sources with FUZZ_FLAGS, so that libFuzzer sees their coverage.
EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/policy.dict \
	tests/fuzz/fuzz_value.c tests/fuzz/fuzz_policy.c tests/fuzz/fuzz_syntax.c
FUZZ_SECONDS = 60
if FUZZING
noinst_PROGRAMS = tests/fuzz/fuzz_value tests/fuzz/fuzz_policy \
	tests/fuzz/fuzz_syntax
FUZZ_CFLAGS = $(AM_CFLAGS) $(FUZZ_FLAGS) $(LIBCONFIG_CFLAGS)
tests_fuzz_fuzz_value_SOURCES = tests/fuzz/fuzz_value.c $(libpml_la_SOURCES)
tests_fuzz_fuzz_value_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_value_LDFLAGS = $(FUZZ_FLAGS)
tests_fuzz_fuzz_value_LDADD = $(LIBCONFIG_LIBS)
tests_fuzz_fuzz_policy_SOURCES = tests/fuzz/fuzz_policy.c $(libpml_la_SOURCES)
tests_fuzz_fuzz_policy_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_policy_LDFLAGS = $(FUZZ_FLAGS)
tests_fuzz_fuzz_policy_LDADD = $(LIBCONFIG_LIBS)
tests_fuzz_fuzz_syntax_SOURCES = tests/fuzz/fuzz_syntax.c $(libpml_la_SOURCES)
tests_fuzz_fuzz_syntax_CFLAGS = $(FUZZ_CFLAGS)
tests_fuzz_fuzz_syntax_LDFLAGS = $(FUZZ_FLAGS)
tests_fuzz_fuzz_syntax_LDADD = $(LIBCONFIG_LIBS)
fuzz: $(noinst_PROGRAMS)
	PML_FUZZ_BIN='$(abs_top_builddir)/tests/fuzz' \
		$(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(FUZZ_SECONDS)
else
fuzz:
	@echo "make fuzz: configure with CC=clang --enable-fuzzing, or run tests/fuzz/run.sh" >&2; exit 1
endif
.PHONY: fuzz
