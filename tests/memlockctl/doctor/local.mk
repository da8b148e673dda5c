# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl/doctor: doctor (pam_memlock/memlockctl/doctor), on
# hand-written roots, on Debian's own files, on other families' stacks,
# its fixes, --root's confinement and its unit verdicts; its models on
# their own (stacks, pam_limits, systemd, OpenRC), and its stack reader
# held to this machine's libpam.
DOCTOR_TESTS = tests/memlockctl/doctor/doctor.sh tests/memlockctl/doctor/doctor-root.sh \
	tests/memlockctl/doctor/doctor-debian.sh tests/memlockctl/doctor/doctor-slurm.sh \
	tests/memlockctl/doctor/doctor-family.sh tests/memlockctl/doctor/doctor-fixes.sh \
	tests/memlockctl/doctor/doctor-units.sh
TESTS += $(DOCTOR_TESTS)
EXTRA_DIST += $(DOCTOR_TESTS)
tests/memlockctl/doctor/doctor.log tests/memlockctl/doctor/doctor-root.log \
	tests/memlockctl/doctor/doctor-debian.log tests/memlockctl/doctor/doctor-slurm.log \
	tests/memlockctl/doctor/doctor-family.log tests/memlockctl/doctor/doctor-fixes.log \
	tests/memlockctl/doctor/doctor-units.log: memlockctl$(EXEEXT)

# doctor's stack reader against this machine's own libpam, on a corpus of
# odd pam.d files (no check framework: it prints TAP itself).
check_PROGRAMS += tests/memlockctl/doctor/pam_parity
tests_memlockctl_doctor_pam_parity_SOURCES = tests/memlockctl/doctor/pam_parity.c \
	$(DIRFD_SOURCES) $(DOCTOR_SOURCES)
tests_memlockctl_doctor_pam_parity_CPPFLAGS = $(CTL_CPPFLAGS) $(DOCTOR_CPPFLAGS)
tests_memlockctl_doctor_pam_parity_LDADD = $(PAM_LIBS) -ldl
TESTS += tests/memlockctl/doctor/pam_parity

if HAVE_CHECK
check_PROGRAMS += tests/memlockctl/doctor/test_doctor_stack \
	tests/memlockctl/doctor/test_doctor_limits tests/memlockctl/doctor/test_doctor_openrc
tests_memlockctl_doctor_test_doctor_stack_SOURCES = tests/memlockctl/doctor/test_doctor_stack.c \
	$(HARNESS) $(FAKE_TREE) $(DIRFD_SOURCES) $(DOCTOR_SOURCES)
tests_memlockctl_doctor_test_doctor_stack_CPPFLAGS = $(CTL_CPPFLAGS) $(DOCTOR_CPPFLAGS)
tests_memlockctl_doctor_test_doctor_stack_CFLAGS = $(TEST_CFLAGS)
tests_memlockctl_doctor_test_doctor_limits_SOURCES = tests/memlockctl/doctor/test_doctor_limits.c \
	$(HARNESS) $(FAKE_TREE) $(DIRFD_SOURCES) $(DOCTOR_SOURCES)
tests_memlockctl_doctor_test_doctor_limits_CPPFLAGS = $(CTL_CPPFLAGS) $(DOCTOR_CPPFLAGS)
tests_memlockctl_doctor_test_doctor_limits_CFLAGS = $(TEST_CFLAGS)
tests_memlockctl_doctor_test_doctor_openrc_SOURCES = tests/memlockctl/doctor/test_doctor_openrc.c \
	$(HARNESS) $(FAKE_TREE) $(DIRFD_SOURCES) $(DOCTOR_SOURCES)
tests_memlockctl_doctor_test_doctor_openrc_CPPFLAGS = $(CTL_CPPFLAGS) $(DOCTOR_CPPFLAGS)
tests_memlockctl_doctor_test_doctor_openrc_CFLAGS = $(TEST_CFLAGS)
TESTS += tests/memlockctl/doctor/test_doctor_stack tests/memlockctl/doctor/test_doctor_limits \
	tests/memlockctl/doctor/test_doctor_openrc
endif
