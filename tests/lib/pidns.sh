# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Sourced first by a test that must see only its own processes (status,
# apply, measure): the test runs again, once, as PID 1 of a private pid and
# mount namespace with its own /proc (unshare -pf --mount-proc).  Before
# that, without root, jq (the tests read JSON back with it) or the
# namespaces, the whole test is skipped with the reason; PML_PIDNS_ROOT_WHY
# says why the test needs root.
if [ -z "${PML_PIDNS_INNER:-}" ]; then
	: "${PML_BUILDDIR:?run with make check}"
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root: ${PML_PIDNS_ROOT_WHY:-it changes the limits of other users}"
		exit 0
	fi
	if ! command -v jq >/dev/null; then
		echo "1..0 # SKIP jq is not installed: it reads the JSON back"
		exit 0
	fi
	if ! unshare -pf --mount-proc true 2>/dev/null; then
		echo "1..0 # SKIP no private pid and mount namespace here (unshare -pf --mount-proc)"
		exit 0
	fi
	exec env PML_PIDNS_INNER=1 unshare -pf --mount-proc "$0" "$@"
fi
# Never go on outside it: these tests change the limits of every process
# they can see.
if [ "$$" != 1 ]; then
	echo "Bail out! not PID 1 of a private pid namespace"
	exit 99
fi
