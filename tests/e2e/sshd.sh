#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# End to end through a real OpenSSH server: sshd, started with a 64 KiB soft
# memlock limit, runs pam_memlock in its PAM session stack; the user logs in
# with a key and the remote shell prints `ulimit -Sl; ulimit -Hl`.
E2E_SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"

SSHD=${SSHD:-/usr/sbin/sshd}
PORT=2222 # the case's own network namespace: nothing else listens there

# --- inside the namespaces -------------------------------------------------
# ssh_case CONTROL POLICY_TEXT COMMAND: mounts a PAM file for sshd whose
# session stack has the module (CONTROL = optional, required, or "none" for
# no module at all), starts sshd, logs in and runs COMMAND; prints its
# output, then "exit=STATUS" of the ssh client.
ssh_case() {
	local control=$1 text=$2 command=$3 conf module_line="" i rc
	conf=$(e2e_policy "$text")
	[ "$control" = none ] || module_line="session $control $PML_MODULE conf=$conf debug"
	e2e_pam sshd <<-EOF || return 1
	auth     required pam_deny.so
	account  required pam_permit.so
	password required pam_deny.so
	session  required pam_permit.so
	$module_line
	EOF
	sed -e "s|@PORT@|$PORT|" -e "s|@DIR@|$E2E_TMP/ssh|" \
		"$e2e_dir/sshd_config.in" >"$E2E_CASE/sshd_config"
	prlimit --memlock="$E2E_START_MEMLOCK" "$SSHD" -D -e -f "$E2E_CASE/sshd_config" \
		2>"$E2E_CASE/sshd.log" &
	for i in $(seq 100); do
		grep -q 'Server listening' "$E2E_CASE/sshd.log" && break
		sleep 0.1
	done
	ssh -n -F /dev/null -i "$E2E_TMP/ssh/id_ed25519" -p "$PORT" \
		-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
		-o GlobalKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR \
		-o ConnectTimeout=20 "$E2E_USER@127.0.0.1" "$command"
	rc=$?
	echo "exit=$rc"
	# Let sshd finish its log lines for this connection.
	sleep 0.2
}

e2e_dispatch "$@"

# --- outside -----------------------------------------------------------------
why=$(e2e_unrunnable)
[ -z "$why" ] || tap_skip_all "$why"
[ -x "$SSHD" ] || tap_skip_all "$SSHD missing (Debian: openssh-server)"
command -v ssh >/dev/null || tap_skip_all "ssh client missing (Debian: openssh-client)"
command -v ssh-keygen >/dev/null || tap_skip_all "ssh-keygen missing"

e2e_prepare
mkdir -m 0755 "$E2E_TMP/ssh"
ssh-keygen -q -t ed25519 -N '' -f "$E2E_TMP/ssh/ssh_host_ed25519_key" </dev/null &&
ssh-keygen -q -t ed25519 -N '' -f "$E2E_TMP/ssh/id_ed25519" </dev/null ||
	tap_skip_all "ssh-keygen failed"
cp "$E2E_TMP/ssh/id_ed25519.pub" "$E2E_TMP/ssh/authorized_keys"
chmod 0644 "$E2E_TMP/ssh/authorized_keys"
probe=$E2E_TMP/uring_probe
cp "$PML_BUILDDIR/tests/e2e/uring_probe" "$probe" 2>/dev/null && chmod 0755 "$probe"

show='ulimit -Sl; ulimit -Hl'
share=10 # 0.010% of RAM, in thousandths of a percent
share_bytes=$(e2e_share_bytes $share)
if [ "$share_bytes" -ge 8388608 ]; then share=1 share_bytes=$(e2e_share_bytes 1); fi
share_text=0.$(printf %03d $share)%

tap_plan 8

e2e_run_case control ssh_case none 'limit = "8 MiB";' "$show"
tap_is "sshd without the module: the shell keeps sshd's 64 KiB soft limit" \
	"$(e2e_output)" "64 8192 exit=0"

e2e_run_case shipped ssh_case optional "$(cat "$PML_SRCDIR/conf/memlock.conf")" "$show"
tap_is "sshd, shipped policy: 8 MiB soft and hard in the login shell" \
	"$(e2e_output)" "8192 8192 exit=0"

e2e_run_case share ssh_case optional \
	"limit = \"$share_text\"; mode = \"set\";" "$E2E_SHOW_BYTES"
tap_is "sshd, $share_text of RAM in set mode: $share_bytes bytes soft and hard" \
	"$(e2e_output)" "$share_bytes $share_bytes exit=0"

e2e_run_case group ssh_case optional \
	'limit = "2 MiB"; mode = "set";
	 rules = ( { group = "pmlgrp"; limit = "4 MiB"; },
	           { user = "somebody-else"; limit = "1 MiB"; } );' "$show"
tap_is "sshd, rule for the supplementary group pmlgrp: 4 MiB" \
	"$(e2e_output)" "4096 4096 exit=0"

e2e_run_case broken-optional ssh_case optional 'limit = 8388608;' "$show"
tap_is "sshd, broken policy under optional: login goes on, limits untouched" \
	"$(e2e_output)" "64 8192 exit=0"

e2e_run_case broken-required ssh_case required 'limit = 8388608;' "$show"
got=$(e2e_output)
# OpenSSH logs the failed pam_open_session, runs no command and the
# session's child exits 254 ("PAM session not opened"); older ones drop the
# connection (255).  Either way the user's command must not have run.
if [[ $got =~ ^exit=25[45]$ ]] &&
	grep -q 'PAM: pam_open_session(): ' "$E2E_CASE/sshd.log"; then
	tap_ok "sshd, broken policy under required: login refused at pam_open_session"
else
	tap_is "sshd, broken policy under required: login refused at pam_open_session" \
		"$got" "exit=254 or 255 with no output, and sshd logging pam_open_session"
fi

e2e_run_case raise ssh_case optional 'limit = "4 MiB";' "$show"
tap_is "sshd, 4 MiB in raise mode: soft raised, the higher hard limit kept" \
	"$(e2e_output)" "4096 8192 exit=0"

if [ ! -x "$probe" ]; then
	tap_skip "sshd, io_uring 1 MiB fixed buffer in the session" "uring_probe was not built"
else
	e2e_run_case uring ssh_case optional 'limit = "8 MiB";' "$show; $probe 1048576"
	got=$(e2e_output)
	case $got in
	*unusable*) tap_skip "sshd, io_uring 1 MiB fixed buffer in the session" \
		"io_uring not usable here: $got" ;;
	*) tap_is "sshd, io_uring: a 1 MiB fixed buffer registers in the session" \
		"$got" "8192 8192 registered exit=0" ;;
	esac
fi
