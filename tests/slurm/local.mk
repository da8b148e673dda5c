# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-slurm: batch jobs through Debian's munged, slurmctld and
# slurmd on 127.0.0.1 in private namespaces, with conf/pam.d/slurm as the
# stack: Debian 12's Slurm on this machine, and Debian 13's in a Debian 13
# root; see tests/slurm/run.sh.  Its summary is tests/slurm/test-suite.log.
EXTRA_DIST += tests/slurm/run.sh tests/slurm/cases.sh
check-slurm: pam_memlock.la memlockctl$(EXEEXT)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='tests/slurm/run.sh' check_PROGRAMS= \
		TEST_SUITE_LOG=tests/slurm/test-suite.log
.PHONY: check-slurm
