# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl/monitor: metrics and nagios (pam_memlock/memlockctl/monitor)
# on saved trees, which tests/fleet/node-exporter.sh reads too.
TESTS += tests/memlockctl/monitor/monitor.sh
EXTRA_DIST += tests/memlockctl/monitor/monitor.sh tests/memlockctl/monitor/monitor-tree.sh
tests/memlockctl/monitor/monitor.log: memlockctl$(EXEEXT)
