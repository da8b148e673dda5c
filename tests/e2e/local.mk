# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# End to end (tests/e2e): real sshd, su, runuser and io_uring, each case
# in private mount/net/pid namespaces with private passwd/group/shadow and
# PAM files; the real /etc is never written.
E2E_TESTS = tests/e2e/sshd.sh tests/e2e/su.sh tests/e2e/uring.sh
TESTS += $(E2E_TESTS)
EXTRA_DIST += $(E2E_TESTS) tests/e2e/lib.sh tests/e2e/sshd_config.in \
	tests/e2e/fixtures tests/e2e/uring_probe.c \
	tests/e2e/vm.sh tests/e2e/vm/init tests/e2e/vm/guest.sh \
	tests/e2e/vm-systemd.sh tests/e2e/vm/systemd-guest.sh tests/e2e/vm/logins.sh \
	tests/e2e/vm-debian13.sh tests/e2e/vm/debian13-guest.sh tests/e2e/vm/postgres-case.sh \
	tests/e2e/vm/unit-cases.sh \
	tests/e2e/vm/pty_login.py tests/e2e/vm/doctor_summary.py tests/e2e/vm/systemd \
	tests/e2e/vm-measure.sh tests/e2e/vm/measure-guest.sh
E2E_HELPERS =
if HAVE_LIBURING
E2E_HELPERS += tests/e2e/uring_probe$(EXEEXT)
check_PROGRAMS += tests/e2e/uring_probe
tests_e2e_uring_probe_SOURCES = tests/e2e/uring_probe.c
tests_e2e_uring_probe_CFLAGS = $(AM_CFLAGS) $(LIBURING_CFLAGS)
tests_e2e_uring_probe_LDADD = $(LIBURING_LIBS)
endif

# --- make check-vm: the cases that need real root (raising the hard limit),
# in TCG virtual machines booting Debian's kernels: Debian 13 (its kernel,
# systemd and root, the package built for it; every login path), this
# machine's systemd as PID 1 (every Debian 12 login path), a busybox init,
# and memlockctl measure with its real clients on Debian 12's and 13's
# kernels; see tests/e2e/vm.sh, vm-debian13.sh and vm-measure.sh.  A TCG
# VM keeps one processor busy: `make -j2 check-vm` boots two at a time,
# the longest first.  Run through the TAP driver so that their cases are
# counted like the others, in their own log (tests/e2e/test-suite.log).
# check-TESTS builds every check program first: only the VMs' are named.
VM_TESTS = tests/e2e/vm-debian13.sh tests/e2e/vm-systemd.sh tests/e2e/vm.sh \
	tests/e2e/vm-measure.sh
check-vm: pam_memlock.la memlockctl$(EXEEXT) pam-memlock-generator$(EXEEXT) $(E2E_HELPERS) \
		$(MEASURE_CLIENT)
	PML_SYSCONFDIR='$(sysconfdir)' \
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(VM_TESTS)' \
		check_PROGRAMS='$(E2E_HELPERS) $(MEASURE_CLIENT)' \
		TEST_SUITE_LOG=tests/e2e/test-suite.log
# make check-vm-measure: only the boots of tests/e2e/vm-measure.sh
# (liburing rings, a registered buffer, mlock, fio with fixed buffers in a
# PAM session), in its own summary, tests/e2e/test-suite-measure.log.
check-vm-measure: pam_memlock.la memlockctl$(EXEEXT) $(MEASURE_CLIENT)
	PML_SYSCONFDIR='$(sysconfdir)' \
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='tests/e2e/vm-measure.sh' \
		check_PROGRAMS='$(MEASURE_CLIENT)' \
		TEST_SUITE_LOG=tests/e2e/test-suite-measure.log
.PHONY: check-vm check-vm-measure
