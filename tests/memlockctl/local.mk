# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl: the command against golden files (memlockctl.sh), and
# the promise of the commands that only read (readonly.sh); one folder
# below for each room of pam_memlock/memlockctl that its tests hold.
MEMLOCKCTL_TESTS = tests/memlockctl/memlockctl.sh tests/memlockctl/readonly.sh
TESTS += $(MEMLOCKCTL_TESTS)
EXTRA_DIST += $(MEMLOCKCTL_TESTS)
tests/memlockctl/memlockctl.log: memlockctl$(EXEEXT)
