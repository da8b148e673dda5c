# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The generator's cases on units the guest writes itself, in the check-vm
# boots with systemd as PID 1.  Sourced by systemd-guest.sh and
# debian13-guest.sh after postgres-case.sh (whose pg_show and pg_doctor
# they use); they count UNIT_CASES (and debian13-guest.sh
# UNIT_REMOVAL_CASES) in their plans and call unit_cases POLICY-FILE once
# the generator and memlockctl are installed, and unit_removal_cases
# VERSION POLICY-FILE last of all where a package ships the generator.
UNIT_CASES=7
UNIT_REMOVAL_CASES=3

# A oneshot that registers a 1 MiB io_uring buffer as the test user (root's
# CAP_IPC_LOCK would exempt it; systemd warns of User=nobody): more than
# DefaultLimitMEMLOCK=64K allows, less than the rule's 8 MiB.
uring_unit=pml-uring.service
uring_bytes=1048576
# A unit whose own file gives 128 MiB, more than its raise-mode rule's.
raise_unit=pml-raise.service
raise_bytes=$((128 * 1048576))

# uring_start: start the oneshot; "started|failed RESULT STATUS WORD SOFT
# HARD": systemctl start's outcome, the unit's Result and ExecMainStatus,
# the probe's word (registered, ENOMEM) and the limits it ran with, from
# the journal (its stdout and stderr go there).
uring_start() {
	local cursor how=started word limits i
	cursor=$(journal_cursor)
	systemctl reset-failed "$uring_unit" 2>/dev/null
	timeout 120 systemctl start "$uring_unit" 2>>"$E2E_CASE/uring.log" || how=failed
	# journald may read the probe's stream after the unit has ended.
	for i in $(seq 50); do
		journalctl --sync
		journalctl --after-cursor="$cursor" -u "$uring_unit" -o cat --no-pager \
			>"$E2E_CASE/uring.journal" 2>&1
		word=$(grep -x -m 1 'registered\|ENOMEM' "$E2E_CASE/uring.journal")
		[ -n "$word" ] && break
		sleep 0.2
	done
	tap_diag "$E2E_CASE/uring.journal" >&2
	limits=$(sed -n 's/^uring_probe: uid [0-9]*, RLIMIT_MEMLOCK soft \([0-9]*\) hard \([0-9]*\)$/\1 \2/p' \
		"$E2E_CASE/uring.journal" | head -n 1)
	echo "$how $(systemctl show -P Result "$uring_unit") $(systemctl show -P ExecMainStatus "$uring_unit") $word $limits"
}

unit_cases() {
	local conf=$1 gen=/run/systemd/generator mib8=8388608 pid
	uptime_note "unit rules: an io_uring service, raise mode"
	cp "$conf" "$E2E_CASE/memlock.conf.units"
	cat >"/etc/systemd/system/$uring_unit" <<-EOF
	[Unit]
	Description=check-vm: a $uring_bytes-byte io_uring buffer, registered as $E2E_USER
	[Service]
	Type=oneshot
	User=$E2E_USER
	ExecStart=$probe $uring_bytes
	EOF
	cat >"/etc/systemd/system/$raise_unit" <<-EOF
	[Unit]
	Description=check-vm: a unit whose own file gives LimitMEMLOCK=128M
	[Service]
	ExecStart=/bin/sleep infinity
	LimitMEMLOCK=128M
	EOF
	systemctl daemon-reload

	# --- A service that registers io_uring buffers ------------------------
	if [ -x "$probe" ]; then
		tap_is "$uring_unit (User=$E2E_USER, a $uring_bytes-byte io_uring buffer), no unit rule: DefaultLimitMEMLOCK=64K, systemctl start fails, the probe says ENOMEM" \
			"$(uring_start)" "failed exit-code 2 ENOMEM $SERVICE_BYTES $SERVICE_BYTES"
	else
		tap_skip "$uring_unit without a rule" "no io_uring probe (built with liburing only)"
	fi
	printf '%s\n' 'rules = (' \
		"  { unit = \"$uring_unit\"; limit = \"8 MiB\"; mode = \"set\"; }," \
		"  { unit = \"$raise_unit\"; limit = \"8 MiB\"; mode = \"raise\"; }" ');' >"$conf"
	systemctl daemon-reload
	tap_is "a unit rule { unit = \"$uring_unit\"; limit = \"8 MiB\"; mode = \"set\"; }, daemon-reload: the generator's drop-in sets 8 MiB" \
		"$(grep '^LimitMEMLOCK=' "$gen/$uring_unit.d/50-pam-memlock.conf" 2>&1)" "LimitMEMLOCK=$mib8:$mib8"
	if [ -x "$probe" ]; then
		tap_is "$uring_unit under the rule: systemctl start succeeds, the buffer registers with 8 MiB" \
			"$(uring_start)" "started success 0 registered $mib8 $mib8"
	else
		tap_skip "$uring_unit under the rule" "no io_uring probe (built with liburing only)"
	fi
	tap_is "systemctl show -p LimitMEMLOCKSoft -p LimitMEMLOCK $uring_unit agrees: 8 MiB" \
		"$(pg_show "$uring_unit")" "$mib8 $mib8"

	# --- Raise mode leaves a unit whose own file gives more alone ---------
	tap_is "$raise_unit (LimitMEMLOCK=128M in its file), a rule of 8 MiB in raise mode: the generator writes no drop-in for it" \
		"$(ls -A "$gen/$raise_unit.d" 2>/dev/null || echo "no $raise_unit.d")" "no $raise_unit.d"
	systemctl start "$raise_unit"
	pid=$(systemctl show -P MainPID "$raise_unit")
	tap_is "$raise_unit: systemctl show and its process's /proc/PID/limits keep 128 MiB" \
		"$(pg_show "$raise_unit") $(limits_of "${pid:-0}")" \
		"$raise_bytes $raise_bytes $raise_bytes $raise_bytes"
	systemctl stop "$raise_unit"
	tap_is "memlockctl doctor --unit $raise_unit: ok" "$(pg_doctor "$raise_unit")" "ok exit 0"

	cp "$E2E_CASE/memlock.conf.units" "$conf"
	rm -f "/etc/systemd/system/$uring_unit" "/etc/systemd/system/$raise_unit"
	systemctl daemon-reload
}

# unit_removal_cases VERSION POLICY-FILE: the package that ships the
# generator removed (not purged: the policy, a conffile, stays), the next
# daemon-reload leaves no drop-in, and the cluster's unit has its vendor's
# limit again.  Last in the guest: nothing runs the generator after it.
unit_removal_cases() {
	local version=$1 conf=$2 gen=/run/systemd/generator pkg
	local generator=/usr/lib/systemd/system-generators/pam-memlock-generator
	uptime_note "the generator's package removed"
	pg_unit=postgresql@$version-main.service
	pkg=$(dpkg-query -S "$generator" 2>/dev/null | cut -d: -f1)
	echo "# $generator is in package ${pkg:-(none)}"
	pg_policy "$conf" 2%
	systemctl daemon-reload
	tap_is "before the removal: a rule for postgresql@*.service, daemon-reload: the generator writes the template's drop-in" \
		"$(find "$gen" -name 50-pam-memlock.conf 2>&1)" "$gen/postgresql@.service.d/50-pam-memlock.conf"
	apt-get remove -y -q "${pkg:-libpam-memlock}" >"$E2E_CASE/apt-remove.log" 2>&1 ||
		tap_diag "$E2E_CASE/apt-remove.log"
	systemctl daemon-reload
	# (systemd removes $gen itself when no generator writes anything)
	tap_is "apt-get remove ${pkg:-libpam-memlock}, daemon-reload: the generator is gone, the policy stays, no 50-pam-memlock.conf under $gen" \
		"$(ls "$generator" 2>/dev/null)|$(ls "$conf")|$([ ! -d "$gen" ] || find "$gen" -name 50-pam-memlock.conf 2>&1)" \
		"|$conf|"
	tap_is "$pg_unit: systemctl show is back to the vendor's 64K" \
		"$(pg_show)" "$SERVICE_BYTES $SERVICE_BYTES"
}
