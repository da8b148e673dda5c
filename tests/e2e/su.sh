#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# End to end through util-linux su and runuser: root, holding a 64 KiB soft
# memlock limit, switches to the test user with a login shell
# (`su - pmltest -c ...`, `runuser -l pmltest -c ...`) through a private PAM
# file whose session stack has pam_memlock; the shell prints its limits.
E2E_SCRIPT=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"

# --- inside the namespaces -------------------------------------------------
# switch_case PROGRAM CONTROL POLICY_TEXT [COMMAND]: PROGRAM is su or
# runuser; CONTROL is optional, required or none (no module).  The shell runs
# COMMAND (default: print `ulimit -Sl` and `ulimit -Hl`); prints its output,
# then "exit=STATUS".
switch_case() {
	local program=$1 control=$2 text=$3 command=${4:-'ulimit -Sl; ulimit -Hl'}
	local conf module_line="" service rc
	conf=$(e2e_policy "$text")
	[ "$control" = none ] || module_line="session $control $PML_MODULE conf=$conf debug"
	# su - and runuser -l use the "-l" services on Debian; cover both.
	for service in "$program" "$program-l"; do
		[ -e "/etc/pam.d/$service" ] || continue
		e2e_pam "$service" <<-EOF || return 1
		auth     sufficient pam_rootok.so
		auth     required   pam_deny.so
		account  required   pam_permit.so
		password required   pam_deny.so
		session  required   pam_permit.so
		$module_line
		EOF
	done
	case $program in
	su) prlimit --memlock="$E2E_START_MEMLOCK" su - "$E2E_USER" -c "$command" ;;
	runuser) prlimit --memlock="$E2E_START_MEMLOCK" runuser -l "$E2E_USER" -c "$command" ;;
	esac </dev/null
	rc=$?
	echo "exit=$rc"
}

e2e_dispatch "$@"

# --- outside -----------------------------------------------------------------
why=$(e2e_unrunnable)
[ -z "$why" ] || tap_skip_all "$why"
e2e_prepare

share=10 # 0.010% of RAM, in thousandths of a percent
share_bytes=$(e2e_share_bytes $share)
if [ "$share_bytes" -ge 8388608 ]; then share=1 share_bytes=$(e2e_share_bytes 1); fi
share_text=0.$(printf %03d $share)%

tap_plan 14
for program in su runuser; do
	if ! command -v $program >/dev/null; then
		for i in $(seq 7); do tap_skip "$program" "$program missing (util-linux)"; done
		continue
	fi
	e2e_run_case $program-control switch_case $program none 'limit = "8 MiB";'
	tap_is "$program without the module: 64 KiB soft limit kept" \
		"$(e2e_output)" "64 8192 exit=0"

	e2e_run_case $program-shipped switch_case $program optional \
		"$(cat "$PML_SRCDIR/conf/memlock.conf")"
	tap_is "$program, shipped policy: 8 MiB soft and hard" \
		"$(e2e_output)" "8192 8192 exit=0"

	e2e_run_case $program-share switch_case $program optional \
		"limit = \"$share_text\"; mode = \"set\";" "$E2E_SHOW_BYTES"
	tap_is "$program, $share_text of RAM in set mode: $share_bytes bytes" \
		"$(e2e_output)" "$share_bytes $share_bytes exit=0"

	e2e_run_case $program-group switch_case $program optional \
		'limit = "2 MiB"; mode = "set";
		 rules = ( { group = "pmlgrp"; limit = "4 MiB"; },
		           { user = "somebody-else"; limit = "1 MiB"; } );'
	tap_is "$program, rule for the supplementary group pmlgrp: 4 MiB" \
		"$(e2e_output)" "4096 4096 exit=0"

	e2e_run_case $program-raise switch_case $program optional 'limit = "4 MiB";'
	tap_is "$program, 4 MiB in raise mode: the higher hard limit kept" \
		"$(e2e_output)" "4096 8192 exit=0"

	e2e_run_case $program-broken-optional switch_case $program optional \
		'limit = "8 MiB" junk;'
	tap_is "$program, broken policy under optional: session goes on, limits untouched" \
		"$(e2e_output)" "64 8192 exit=0"

	e2e_run_case $program-broken-required switch_case $program required \
		'limit = "8 MiB" junk;'
	got=$(e2e_output)
	if [[ $got =~ ^exit=[1-9][0-9]*$ ]] &&
		grep -q 'cannot open session' "$E2E_CASE/err"; then
		tap_ok "$program, broken policy under required: refused, no shell ($got)"
	else
		tap_is "$program, broken policy under required: refused, no shell" \
			"$got" "exit=<non-zero>, no output, \"cannot open session\""
	fi
done
