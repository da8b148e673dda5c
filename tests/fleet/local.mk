# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: the fleet's tools, for real.  Debian's
# node_exporter scrapes what memlockctl metrics wrote, on Debian 12 and in
# a Debian 13 root (tests/fleet/node-exporter.sh), Debian's
# ansible-playbook runs doc/ansible/memlock-rollout.yml against Debian 12
# and 13 roots (tests/fleet/ansible.sh), and unattended-upgrades meets a
# security update of a conffile that step 2 edited, on Debian 12 and 13
# (tests/fleet/unattended.sh).  Its summary is tests/fleet/test-suite.log.
FLEET_TESTS = tests/fleet/node-exporter.sh tests/fleet/ansible.sh tests/fleet/unattended.sh
EXTRA_DIST += $(FLEET_TESTS) doc/ansible/memlock-rollout.yml doc/ansible/memlock-undo.yml
check-fleet: memlockctl$(EXEEXT)
	$(MAKE) $(AM_MAKEFLAGS) check-TESTS TESTS='$(FLEET_TESTS)' check_PROGRAMS= \
		TEST_SUITE_LOG=tests/fleet/test-suite.log
.PHONY: check-fleet
