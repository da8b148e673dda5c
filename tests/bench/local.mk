# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make bench: what a session costs with pam_memlock, against pam_permit
# alone, pam_limits with the same policy and ref_libconfig (libconfig's parse
# of the same file and a setrlimit: the floor).  Needs root and nss_wrapper;
# BENCH_FLAGS=--quick runs it at a tiny size (CI does, to keep it working).
EXTRA_PROGRAMS += tests/bench/bench tests/bench/loop tests/bench/nss_loop
tests_bench_bench_SOURCES = tests/bench/bench.c tests/bench/bench.h \
	tests/bench/session_costs.c tests/bench/ctl_check.c tests/bench/report.c \
	tests/bench/fixture.h tests/bench/fixture.c \
	tests/bench/session.h tests/bench/session.c \
	tests/lib/pam_session.h tests/lib/pam_session.c \
	tests/bench/alloc_count.h tests/bench/alloc_count.c
tests_bench_bench_CFLAGS = $(AM_CFLAGS)
# -rdynamic: the counting malloc must be what every library calls.
tests_bench_bench_LDFLAGS = $(AM_LDFLAGS) -rdynamic
tests_bench_bench_LDADD = $(PAM_LIBS)
# What callgrind runs: sessions of one service, without the counting malloc,
# and with libpam alone, so that every session loads libconfig as it does
# in sshd; the NSS look-up of the group rules, which needs the loader, is
# a program of its own.
tests_bench_loop_SOURCES = tests/bench/loop.c tests/bench/fixture.h \
	tests/bench/session.h tests/bench/session.c \
	tests/lib/pam_session.h tests/lib/pam_session.c
tests_bench_loop_CFLAGS = $(AM_CFLAGS)
tests_bench_loop_LDADD = $(PAM_LIBS)
tests_bench_nss_loop_SOURCES = tests/bench/nss_loop.c tests/bench/fixture.h
tests_bench_nss_loop_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
tests_bench_nss_loop_LDADD = libpml.la $(LIBCONFIG_LIBS)
EXTRA_LTLIBRARIES = tests/bench/ref_libconfig.la
tests_bench_ref_libconfig_la_SOURCES = tests/bench/ref_libconfig.c
tests_bench_ref_libconfig_la_CFLAGS = $(AM_CFLAGS) $(LIBCONFIG_CFLAGS)
tests_bench_ref_libconfig_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version \
	-shared -rpath /nowhere -Wl,-z,relro,-z,now
tests_bench_ref_libconfig_la_LIBADD = $(LIBCONFIG_LIBS)
CLEANFILES += tests/bench/bench tests/bench/loop tests/bench/nss_loop tests/bench/generator \
	tests/bench/ref_libconfig.la
EXTRA_DIST += tests/bench/callgrind.sh tests/bench/README tests/bench/status.sh \
	tests/bench/status-cgroups.sh
BENCH_FLAGS =
bench: tests/bench/bench$(EXEEXT) tests/bench/loop$(EXEEXT) \
		tests/bench/nss_loop$(EXEEXT) \
		tests/bench/ref_libconfig.la pam_memlock.la memlockctl$(EXEEXT)
	$(builddir)/tests/bench/bench$(EXEEXT) \
		--memlock '$(abs_top_builddir)/.libs/pam_memlock.so' \
		--ref '$(abs_top_builddir)/tests/bench/.libs/ref_libconfig.so' \
		--loop '$(abs_top_builddir)/tests/bench/loop$(EXEEXT)' \
		--nss-loop '$(abs_top_builddir)/tests/bench/nss_loop$(EXEEXT)' \
		--memlockctl '$(abs_top_builddir)/memlockctl$(EXEEXT)' \
		--ctl-default-conf '$(sysconfdir)/security/memlock.conf' $(BENCH_FLAGS)
	@case ' $(BENCH_FLAGS) ' in *' --quick '*) n=100 ;; *) n='5000 50000' ;; esac; \
	$(abs_top_srcdir)/tests/bench/status-cgroups.sh '$(abs_top_builddir)/memlockctl$(EXEEXT)' $$n

# The generator's whole run over 1,000 unit files and 100 unit rules.
EXTRA_PROGRAMS += tests/bench/generator
tests_bench_generator_SOURCES = tests/bench/generator.c $(GENERATOR_SOURCES)
tests_bench_generator_CPPFLAGS = $(GENERATOR_CPPFLAGS)
tests_bench_generator_LDADD = libpml.la $(LIBCONFIG_LIBS)
bench-generator: tests/bench/generator$(EXEEXT)
	$(builddir)/tests/bench/generator$(EXEEXT) $(BENCH_GENERATOR_ARGS)
bench: bench-generator
.PHONY: bench bench-generator
