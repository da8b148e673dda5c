#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# What users install pam_memlock for: io_uring fixed buffers.  As the
# unprivileged test user, registering a 1 MiB buffer fails with ENOMEM at a
# 64 KiB memlock limit and works in a session pam_memlock raised.  (The
# kernel charges registered buffers to the user's locked memory against the
# process's RLIMIT_MEMLOCK, unless it has CAP_IPC_LOCK, which the test user
# has not.)
E2E_SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"

MIB=1048576

# --- inside the namespaces -------------------------------------------------
# uring_case CONTROL POLICY_TEXT: runuser -l to the test user from a 64 KiB
# soft limit, through a PAM stack with the module (CONTROL optional or
# required) or without it (none); the session registers a 1 MiB buffer.
uring_case() {
	local control=$1 text=$2 conf module_line="" service
	conf=$(e2e_policy "$text")
	[ "$control" = none ] || module_line="session $control $PML_MODULE conf=$conf"
	for service in runuser runuser-l; do
		[ -e "/etc/pam.d/$service" ] || continue
		e2e_pam "$service" <<-EOF || return 1
		auth     sufficient pam_rootok.so
		account  required   pam_permit.so
		session  required   pam_permit.so
		$module_line
		EOF
	done
	prlimit --memlock="$E2E_START_MEMLOCK" \
		runuser -l "$E2E_USER" -c "ulimit -Sl; $E2E_TMP/uring_probe $MIB" </dev/null
}

e2e_dispatch "$@"

# --- outside -----------------------------------------------------------------
why=$(e2e_unrunnable)
[ -z "$why" ] || tap_skip_all "$why"
command -v runuser >/dev/null || tap_skip_all "runuser missing (util-linux)"
[ -x "$PML_BUILDDIR/tests/e2e/uring_probe" ] ||
	tap_skip_all "tests/e2e/uring_probe was not built (liburing-dev missing?)"
e2e_prepare
# A copy the test user can reach whatever the build directory's modes are.
cp "$PML_BUILDDIR/tests/e2e/uring_probe" "$E2E_TMP/uring_probe"
chmod 0755 "$E2E_TMP/uring_probe"

probe_as_user() {
	prlimit --memlock="$1" setpriv --reuid "$E2E_UID" --regid "$E2E_UID" \
		--clear-groups "$E2E_TMP/uring_probe" "$2" 2>/dev/null
}
got=$(probe_as_user 8388608:8388608 4096)
case $? in
0) ;;
3) tap_skip_all "io_uring not usable here ($got; kernel.io_uring_disabled=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo n/a))" ;;
*) tap_skip_all "uring_probe cannot run as uid $E2E_UID: $got" ;;
esac

tap_plan 6

tap_is "uid $E2E_UID at 64 KiB, no session: 1 MiB fixed buffer refused (ENOMEM)" \
	"$(probe_as_user "$E2E_START_MEMLOCK" $MIB)" "ENOMEM"
tap_is "uid $E2E_UID at 8 MiB, no session: 1 MiB fixed buffer registers" \
	"$(probe_as_user 8388608:8388608 $MIB)" "registered"

e2e_run_case control uring_case none 'limit = "8 MiB";'
tap_is "runuser session without the module: ENOMEM at 64 KiB" \
	"$(e2e_output)" "64 ENOMEM"

e2e_run_case shipped uring_case optional "$(cat "$PML_SRCDIR/conf/memlock.conf")"
tap_is "runuser session with the shipped policy: the 1 MiB buffer registers" \
	"$(e2e_output)" "8192 registered"

e2e_run_case small uring_case optional 'limit = "512 KiB"; mode = "set";'
tap_is "session given 512 KiB: the kernel enforces the module's number (ENOMEM)" \
	"$(e2e_output)" "512 ENOMEM"

e2e_run_case enough uring_case required 'limit = "4 MiB"; mode = "set";'
tap_is "session given 4 MiB under required: the buffer registers" \
	"$(e2e_output)" "4096 registered"
