#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-vm, second boot: the VM of tests/e2e/vm.sh with this machine's
# systemd as PID 1, every login path of a Debian machine, and the module
# installed the way the README tells a Debian administrator to; see
# tests/e2e/vm/systemd-guest.sh.
PML_VM_MODE=systemd exec bash "$(dirname "$0")/vm.sh" "$@"
