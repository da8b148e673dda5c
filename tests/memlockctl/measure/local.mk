# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl/measure: measure (pam_memlock/memlockctl/measure) on
# this machine's kernel against a real client, and its search on its own.
TESTS += tests/memlockctl/measure/measure.sh
EXTRA_DIST += tests/memlockctl/measure/measure.sh
if HAVE_CHECK
check_PROGRAMS += tests/memlockctl/measure/test_measure
tests_memlockctl_measure_test_measure_SOURCES = tests/memlockctl/measure/test_measure.c \
	$(HARNESS) $(CTL)/measure/bisect.h $(CTL)/measure/bisect.c
tests_memlockctl_measure_test_measure_CPPFLAGS = $(CTL_CPPFLAGS)
tests_memlockctl_measure_test_measure_CFLAGS = $(TEST_CFLAGS)
TESTS += tests/memlockctl/measure/test_measure
endif
# The real client: liburing's rings, a registered buffer, mlock, under
# lowered limits (tests/e2e/uring_rings; check-vm-measure runs it too).
# Never with the sanitizers: they make mlock(2) a no-op.
EXTRA_DIST += tests/e2e/uring_rings.c
MEASURE_CLIENT =
if HAVE_LIBURING
MEASURE_CLIENT += tests/e2e/uring_rings$(EXEEXT)
check_PROGRAMS += tests/e2e/uring_rings
tests_e2e_uring_rings_SOURCES = tests/e2e/uring_rings.c
tests_e2e_uring_rings_CFLAGS = -Wall -Wextra $(LIBURING_CFLAGS)
tests_e2e_uring_rings_LDFLAGS =
tests_e2e_uring_rings_LDADD = $(LIBURING_LIBS)
endif
tests/memlockctl/measure/measure.log: memlockctl$(EXEEXT) $(MEASURE_CLIENT)
