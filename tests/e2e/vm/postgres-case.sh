# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The generator's cases in the check-vm boots with systemd as PID 1,
# against a real packaged daemon: Debian's postgresql@.service and the
# main cluster its package made.  Sourced by systemd-guest.sh and
# debian13-guest.sh after logins.sh; they count POSTGRES_BOOT_CASES and
# POSTGRES_CASES in their plans, call postgres_boot_cases VERSION
# POLICY-FILE before any other case, and postgres_cases VERSION
# POLICY-FILE once the generator and memlockctl are installed.  Each case
# edits the policy (or an admin's drop-in), runs daemon-reload and
# restarts the cluster's unit as an administrator would, then reads the
# postmaster's limits from /proc.
# postgresql@.service sets no LimitMEMLOCK=: its vendor limit is the VM's
# DefaultLimitMEMLOCK=64K.
POSTGRES_BOOT_CASES=4
POSTGRES_CASES=17

pg_unit=
# pg_pid: the postmaster's pid, once systemd has it as the unit's main
# process; "" after a bounded wait (60 s) for none.
pg_pid() {
	local i pid
	for i in $(seq 300); do
		pid=$(systemctl show -P MainPID "$pg_unit")
		if [ "${pid:-0}" != 0 ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]; then
			echo "$pid"
			return 0
		fi
		sleep 0.2
	done
	return 1
}
# pg_restart: daemon-reload (the generator runs), restart the unit, and
# the postmaster's "SOFT HARD" limits.
pg_restart() {
	local pid
	systemctl daemon-reload
	timeout 300 systemctl restart "$pg_unit" >>"$E2E_CASE/postgres.log" 2>&1
	pid=$(pg_pid) || {
		echo "no postmaster for $pg_unit"
		systemctl status "$pg_unit" --no-pager -n 10 2>&1 | tap_diag >&2
		return 1
	}
	limits_of "$pid"
}
# pg_show [UNIT]: what systemd says the unit's limit is, "SOFT HARD"
# (UNIT: the cluster's by default).
pg_show() {
	local unit=${1:-$pg_unit}
	echo "$(systemctl show -P LimitMEMLOCKSoft "$unit") $(systemctl show -P LimitMEMLOCK "$unit")"
}
# pg_doctor [UNIT]: doctor --unit's verdict (its first line's) and exit
# status.
pg_doctor() {
	local rc
	memlockctl doctor --unit "${1:-$pg_unit}" >"$E2E_CASE/doctor-unit.out" 2>&1
	rc=$?
	sed 's/^/# doctor: /' "$E2E_CASE/doctor-unit.out" >&2
	echo "$(head -n 1 "$E2E_CASE/doctor-unit.out" | sed 's/^[^ ]*: //') exit $rc"
}
# pg_explain: explain --unit's mode, drop-in file and its soft and hard.
pg_explain() {
	memlockctl explain --unit "$pg_unit" --json 2>"$E2E_CASE/explain-unit.err" | python3 -c '
import json, sys
e = json.load(sys.stdin)
d = e.get("dropin") or {}
print(e.get("mode"), d.get("file"), d.get("soft"), d.get("hard"))'
}
# pg_layer: status --all's layer, unit and file for the postmaster.
pg_layer() {
	local pid
	pid=$(pg_pid) || return 1
	memlockctl status --all --json 2>"$E2E_CASE/status-unit.err" | python3 -c '
import json, sys
pid = int(sys.argv[1])
for p in json.load(sys.stdin)["processes"]:
    if p["pid"] == pid:
        print(p["layer"], p["layer_unit"], p["layer_from"])' "$pid"
}
# pg_share PERCENT: what "PERCENT%" of RAM is, as the core computes a
# share: MemTotal times PERCENT/100, rounded down to a page.
pg_share() {
	echo $((pg_mem * $1 * 1000 / 100000 / pg_page * pg_page))
}
# pg_policy FILE SHARE: the policy is one unit rule, SHARE of RAM.
pg_policy() {
	printf 'rules = (\n  { unit = "postgresql@*.service"; limit = "%s"; mode = "set"; }\n);\n' "$2" >"$1"
}

# pg_cluster VERSION: pg_unit and what pg_share needs; false where
# VERSION has no main cluster.
pg_cluster() {
	pg_unit=postgresql@$1-main.service
	pg_mem=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)
	pg_page=$(getconf PAGESIZE)
	[ -e "/etc/postgresql/$1/main/postgresql.conf" ]
}

# postgres_boot_cases VERSION POLICY-FILE: the cluster's instance as the
# boot started it.  tests/e2e/vm.sh put into the overlay, before systemd
# started, the generator, POLICY-FILE (one unit rule: postgresql@*.service,
# "2%", mode set) and a multi-user.target.wants link for the instance: the
# generator ran at early boot and the boot started the unit under its
# drop-in, with no daemon-reload or restart since.  Then the instance
# stops, the policy and the link go, and daemon-reload takes the drop-in
# away: the guest goes on as if none of it had been seeded (on Debian 13
# the package then installs its conffile where no file is).
postgres_boot_cases() {
	local version=$1 conf=$2 dropin=/run/systemd/generator/postgresql@.service.d/50-pam-memlock.conf
	local p2 state restarts active guest generators when=later
	uptime_note "postgresql at boot"
	if pg_cluster "$version"; then
		p2=$(pg_share 2)
		state=$(systemctl show -P ActiveState "$pg_unit")
		restarts=$(systemctl show -P NRestarts "$pg_unit")
		active=$(systemctl show -P ActiveEnterTimestampMonotonic "$pg_unit")
		guest=$(systemctl show -P ExecMainStartTimestampMonotonic pml-vm-guest.service)
		generators=$(systemctl show -P GeneratorsFinishTimestampMonotonic)
		echo "# $pg_unit active at ${active:-?} us, the generators finished at ${generators:-?} us, the guest started at ${guest:-?} us (monotonic)"
		# From the boot: active before the guest began, and the generators'
		# last run (daemon-reload runs them again) before that.
		if [ "${active:-0}" -gt 0 ] && [ "$active" -lt "${guest:-0}" ] &&
			[ "${generators:-0}" -gt 0 ] && [ "$generators" -lt "$active" ]; then
			when=boot
		fi
		tap_is "the boot started $pg_unit (enabled in multi-user.target.wants): active, NRestarts=0, before the guest started, and no generator run since" \
			"$state $restarts $when" "active 0 boot"
		tap_is "the generator at early boot wrote the template's drop-in from the policy's unit rule, \"2%\": 2% of RAM, $p2 bytes" \
			"$(grep '^LimitMEMLOCK=' "$dropin" 2>&1)" "LimitMEMLOCK=$p2:$p2"
		tap_is "the postmaster the boot started has 2% of RAM in /proc/PID/limits" \
			"$(limits_of "$(pg_pid)")" "$p2 $p2"
		tap_is "systemctl show -p LimitMEMLOCKSoft -p LimitMEMLOCK $pg_unit agrees" "$(pg_show)" "$p2 $p2"
		systemctl stop "$pg_unit"
	else
		for _ in $(seq $POSTGRES_BOOT_CASES); do
			tap_skip "$pg_unit at boot" "no PostgreSQL $version main cluster (Debian: postgresql)"
		done
	fi
	rm -f "$conf" "/etc/systemd/system/multi-user.target.wants/$pg_unit"
	systemctl daemon-reload
}

postgres_cases() {
	local version=$1 conf=$2
	local gen=/run/systemd/generator/postgresql@.service.d
	local dropin=$gen/50-pam-memlock.conf admin=/etc/systemd/system/postgresql@.service.d
	local p2 p3 vendor="$SERVICE_BYTES $SERVICE_BYTES" ex line got
	uptime_note "postgresql"
	if ! pg_cluster "$version"; then
		for _ in $(seq $POSTGRES_CASES); do
			tap_skip "$pg_unit" "no PostgreSQL $version main cluster (Debian: postgresql)"
		done
		return 0
	fi
	p2=$(pg_share 2)
	p3=$(pg_share 3)
	echo "# MemTotal $pg_mem bytes: 2% of RAM is $p2 bytes, 3% is $p3"
	cp "$conf" "$E2E_CASE/memlock.conf.pg"

	# --- The policy's share, after daemon-reload and restart -------------
	pg_policy "$conf" 2%
	got=$(pg_restart)
	tap_is "daemon-reload with a rule for postgresql@*.service, \"2%\": the generator's drop-in for the template sets 2% of RAM" \
		"$(grep '^LimitMEMLOCK=' "$dropin" 2>&1)" "LimitMEMLOCK=$p2:$p2"
	ex=$(pg_explain)
	tap_is "memlockctl explain --unit $pg_unit --json: set, the template's drop-in, 2% of RAM" \
		"$ex" "set postgresql@.service.d/50-pam-memlock.conf $p2 $p2"
	ex=$(echo "$ex" | cut -d' ' -f3,4)
	tap_is "$pg_unit restarted: the postmaster's /proc/PID/limits has what explain says the drop-in sets" \
		"$got" "$ex"
	tap_is "systemctl show -p LimitMEMLOCKSoft -p LimitMEMLOCK $pg_unit agrees" "$(pg_show)" "$ex"
	tap_is "memlockctl doctor --unit $pg_unit: ok" "$(pg_doctor)" "ok exit 0"
	line=$(grep -n '^LimitMEMLOCK=' "$dropin" | cut -d: -f1)
	tap_is "memlockctl status --all --json: the postmaster's layer is the unit, set by the generator's drop-in" \
		"$(pg_layer)" "unit $pg_unit $dropin:$line"

	# --- An admin's drop-in in /etc has the last word --------------------
	mkdir -p "$admin"
	printf '[Service]\nLimitMEMLOCK=48M\n' >"$admin/override.conf"
	got=$(pg_restart)
	tap_is "an admin's $admin/override.conf with LimitMEMLOCK=48M wins over the generator's" \
		"$got" "$((48 * MIB)) $((48 * MIB))"
	tap_is "systemctl show agrees: 48 MiB" "$(pg_show)" "$((48 * MIB)) $((48 * MIB))"
	tap_is "memlockctl doctor --unit $pg_unit: overridden, exit 1" "$(pg_doctor)" "overridden exit 1"
	tap_is "memlockctl status: the postmaster's layer is the unit, set by the admin's drop-in" \
		"$(pg_layer)" "unit $pg_unit $admin/override.conf:2"
	rm -rf "$admin"

	# --- A policy change: stale until daemon-reload and restart ----------
	got=$(pg_restart)
	pg_policy "$conf" 3%
	tap_is "the policy changed to \"3%\", no daemon-reload: doctor says stale (the postmaster still has $got)" \
		"$(pg_doctor)" "stale exit 1"
	got=$(pg_restart)
	tap_is "after daemon-reload and restart: doctor says ok" "$(pg_doctor)" "ok exit 0"
	ex=$(pg_explain | cut -d' ' -f3,4)
	tap_is "the postmaster has 3% of RAM, as explain says" "$got $ex" "$p3 $p3 $p3 $p3"
	tap_is "systemctl show agrees: 3% of RAM" "$(pg_show)" "$p3 $p3"

	# --- An invalid policy: no drop-in, the vendor's limit ---------------
	printf 'rules = (\n  { unit = "postgresql@*.service"; user = "root"; limit = "2%%"; mode = "set"; }\n);\n' >"$conf"
	got=$(pg_restart)
	journalctl -k --no-pager -o cat 2>/dev/null | grep -i memlock | tail -n 3 | sed 's/^/# kernel log: /'
	tap_is "an invalid policy (unit with user), daemon-reload: the generator writes no drop-in" \
		"$(ls -A "$gen" 2>/dev/null)" ""
	tap_is "an invalid policy: $pg_unit keeps its vendor limit, DefaultLimitMEMLOCK=64K, and systemctl show agrees" \
		"$got $(pg_show)" "$vendor $vendor"
	tap_is "an invalid policy: doctor --unit says error" "$(pg_doctor)" "error exit 1"

	cp "$E2E_CASE/memlock.conf.pg" "$conf"
	systemctl stop "$pg_unit"
	systemctl daemon-reload
}
