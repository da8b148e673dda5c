#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl metrics and nagios on saved trees (--root): a pam.d that
# doctor finds ok or not, and a /proc of processes at, or below, the
# policy.  metrics' output is linted by Prometheus's own promtool where it
# is installed; nagios has a case for each exit status.  TAP.
set -u
umask 022

: "${PML_BUILDDIR:?run with make check}"
ctl=$PML_BUILDDIR/memlockctl
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root: policy files must be root's"
	exit 0
fi
work=$(mktemp -d /tmp/pml-monitor-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

echo 'limit = "8 MiB";' >"$work/ok.conf"
echo 'limit = 8;' >"$work/bad.conf"

# tree and proc: saved roots (tests/memlockctl/monitor/monitor-tree.sh).
. "$PML_SRCDIR/tests/memlockctl/monitor/monitor-tree.sh"

good=$work/good # every path ok, every process at the policy
tree "$good"
proc "$good" 71 8388608 1024 0
proc "$good" 72 8388608 2048 4
below=$work/below # and one process below it
tree "$below"
proc "$below" 71 8388608 1024 0
proc "$below" 73 65536 0 8
overridden=$work/overridden # pam_limits after pam_memlock takes the last word
tree "$overridden"
proc "$overridden" 71 8388608 0 0
printf '* hard memlock 1024\n* soft memlock 1024\n' >"$overridden/etc/security/limits.conf"
printf 'session optional pam_memlock.so conf=/etc/security/memlock.conf\nsession required pam_limits.so\n' \
	>"$overridden/etc/pam.d/sshd"
greeter=$work/greeter # and a login screen's stack without the module
tree "$greeter"
proc "$greeter" 71 8388608 0 0
printf 'session required pam_permit.so\n' >"$greeter/etc/pam.d/lightdm-greeter"
noproc=$work/noproc # no /proc to read
tree "$noproc"
rmdir "$noproc/proc"

# --- metrics
"$ctl" metrics --root "$good" --conf "$work/ok.conf" >"$work/m" 2>"$work/err"
rc=$?
[ $rc = 0 ] &&
	grep -qx 'memlock_policy_loads 1' "$work/m" &&
	grep -qx 'memlock_policy_warnings{about="policy"} 0' "$work/m" &&
	grep -qx 'memlock_doctor_path{service="sshd",verdict="ok"} 1' "$work/m" &&
	grep -qx 'memlock_doctor_path{service="sshd",verdict="missing"} 0' "$work/m" &&
	grep -qx 'memlock_doctor_paths_not_ok 0' "$work/m" &&
	grep -qx 'memlock_status_success 1' "$work/m" &&
	grep -qx 'memlock_processes{verdict="ok"} 2' "$work/m" &&
	grep -qx 'memlock_processes{verdict="below"} 0' "$work/m" &&
	grep -qx 'memlock_locked_bytes 3145728' "$work/m" &&
	grep -qx 'memlock_pinned_bytes 4096' "$work/m" &&
	grep -Eqx 'memlock_info\{version="[^"]+"\} 1' "$work/m" &&
	grep -Eqx 'memlock_last_run_timestamp_seconds [0-9]+\.[0-9]{3}' "$work/m"
verdict "metrics: check's, doctor's and status's figures of a good tree" "$work/m" "$work/err"

# Each family has HELP and TYPE before its samples, and no sample carries
# a timestamp (node_exporter's textfile collector refuses them).
awk '/^# HELP /{help[$3] = 1; next} /^# TYPE /{if (!($3 in help)) bad = 1; type[$3] = 1; next}
	{ name = $1; sub(/\{.*/, "", name); if (!(name in type) || NF != 2) bad = 1 }
	END { exit bad }' "$work/m"
verdict "metrics: HELP and TYPE for every family, no timestamps" "$work/m"

! grep -q 'user=' "$work/m" &&
	"$ctl" metrics --root "$good" --conf "$work/ok.conf" --per-user >"$work/mu" 2>"$work/err" &&
	grep -qx 'memlock_user_processes{user="nobody"} 2' "$work/mu" &&
	grep -qx 'memlock_user_locked_bytes{user="nobody"} 3145728' "$work/mu" &&
	grep -qx 'memlock_user_pinned_bytes{user="nobody"} 4096' "$work/mu"
verdict "metrics: user names only with --per-user" "$work/mu" "$work/err"

"$ctl" metrics --root "$below" --conf "$work/ok.conf" >"$work/mb" 2>"$work/err" &&
	grep -qx 'memlock_processes{verdict="ok"} 1' "$work/mb" &&
	grep -qx 'memlock_processes{verdict="below"} 1' "$work/mb" &&
	grep -qx 'memlock_pinned_bytes 8192' "$work/mb"
verdict "metrics: a process below the policy is counted as below" "$work/mb" "$work/err"

"$ctl" metrics --root "$overridden" --conf "$work/ok.conf" >"$work/mo" 2>"$work/err" &&
	grep -qx 'memlock_doctor_path{service="sshd",verdict="overridden"} 1' "$work/mo" &&
	grep -qx 'memlock_doctor_path{service="sshd",verdict="ok"} 0' "$work/mo" &&
	grep -qx 'memlock_doctor_paths_not_ok 1' "$work/mo"
verdict "metrics: doctor's verdict overridden, as a label" "$work/mo" "$work/err"

"$ctl" metrics --root "$greeter" --conf "$work/ok.conf" >"$work/mg" 2>"$work/err" &&
	grep -qx 'memlock_doctor_path{service="lightdm-greeter",verdict="greeter"} 1' "$work/mg" &&
	grep -qx 'memlock_doctor_path{service="lightdm-greeter",verdict="missing"} 0' "$work/mg" &&
	grep -qx 'memlock_doctor_paths_not_ok 0' "$work/mg"
verdict "metrics: a greeter is a label of its own, and no path to fix" "$work/mg" "$work/err"

"$ctl" metrics --root "$good" --conf "$work/bad.conf" >"$work/mi" 2>"$work/err" &&
	grep -qx 'memlock_policy_loads 0' "$work/mi" &&
	grep -qx 'memlock_status_success 0' "$work/mi" &&
	! grep -q '^memlock_processes' "$work/mi" &&
	grep -q 'bad.conf' "$work/err"
verdict "metrics: an invalid policy is policy_loads 0, and no process is judged by it" "$work/mi" "$work/err"

# Service names are file names: a quote, a backslash and a byte that is
# not ASCII each come out as the format allows.
odd=$work/odd
tree "$odd"
proc "$odd" 71 8388608 0 0
cp "$odd/etc/pam.d/sshd" "$odd/etc/pam.d/a\"b\\c$(printf '\351')"
"$ctl" metrics --root "$odd" --conf "$work/ok.conf" >"$work/md" 2>"$work/err" &&
	grep -qxF 'memlock_doctor_path{service="a\"b\\c\\xe9",verdict="ok"} 1' "$work/md"
verdict "metrics: a quote, a backslash and a non-ASCII byte in a label, escaped" "$work/md" "$work/err"

# A name the policy uses and this host lacks: a series each, the name a
# label escaped as the format wants; none for a name the host has.
cat >"$work/typo.conf" <<'POLICY'
limit = "8 MiB";
rules = ( { group = "hcp"; limit = "16 MiB"; }, { group = "hcp"; user = "q\"b\\"; limit = "4 MiB"; },
	{ user = "root"; limit = "1 GiB"; } );
POLICY
"$ctl" metrics --root "$good" --conf "$work/typo.conf" >"$work/mn" 2>"$work/err" &&
	[ "$(grep -c '^memlock_policy_name_unknown{' "$work/mn")" = 2 ] &&
	grep -qxF 'memlock_policy_name_unknown{kind="group",name="hcp"} 1' "$work/mn" &&
	grep -qxF 'memlock_policy_name_unknown{kind="user",name="q\"b\\"} 1' "$work/mn" &&
	! grep -q 'memlock_policy_name_unknown' "$work/m"
verdict "metrics: each name the host lacks, once, as kind and name labels" "$work/mn" "$work/err"

if command -v promtool >/dev/null; then
	linted=0
	for f in m mu mb mo mg mi md mn; do
		promtool check metrics <"$work/$f" >"$work/lint" 2>&1 || break
		linted=$((linted + 1))
	done
	[ $linted = 8 ]
	verdict "promtool check metrics: every output above passes" "$work/lint"
else
	skip "promtool check metrics: every output above passes" "promtool is not installed (Debian package prometheus)"
fi

mkdir "$work/textfile"
"$ctl" metrics --root "$good" --conf "$work/ok.conf" --output "$work/textfile/memlock.prom" \
	>"$work/out" 2>"$work/err"
[ $? = 0 ] && [ ! -s "$work/out" ] &&
	[ "$(stat -c %a "$work/textfile/memlock.prom")" = 644 ] &&
	[ "$(ls -A "$work/textfile")" = memlock.prom ] &&
	diff <(grep -v timestamp "$work/m") <(grep -v timestamp "$work/textfile/memlock.prom") \
		>"$work/diff"
verdict "metrics --output: the same series in FILE, mode 0644, nothing else left beside it" \
	"$work/diff" "$work/err"
chmod 0600 "$work/textfile/memlock.prom"
"$ctl" metrics --root "$below" --conf "$work/ok.conf" --output "$work/textfile/memlock.prom" \
	2>"$work/err" &&
	[ "$(stat -c %a "$work/textfile/memlock.prom")" = 644 ] &&
	grep -qx 'memlock_processes{verdict="below"} 1' "$work/textfile/memlock.prom" &&
	[ "$(ls -A "$work/textfile")" = memlock.prom ]
verdict "metrics --output replaces the file whole" "$work/err"
# The file's mode: --mode's, else 0666 less the umask (a per-user file
# names what hidepid=2 hides).
modes_ok=
while read -r mask args want; do
	[ "$args" = - ] && args=
	rm -f "$work/textfile/memlock.prom"
	# shellcheck disable=SC2086 # ARGS: a list of words, or none ("-")
	(umask "$mask" && exec "$ctl" metrics --root "$good" --conf "$work/ok.conf" --per-user \
		--output "$work/textfile/memlock.prom" $args) 2>"$work/err" &&
		[ "$(stat -c %a "$work/textfile/memlock.prom")" = "$want" ] &&
		[ "$(ls -A "$work/textfile")" = memlock.prom ] || { modes_ok="umask $mask $args"; break; }
done <<'CASES'
022 - 644
027 - 640
077 - 600
022 --mode=0640 640
077 --mode=0644 644
022 --mode=600 600
CASES
[ -z "$modes_ok" ]
verdict "metrics --output: the mode --mode gives, else 0666 less the umask${modes_ok:+ (not for $modes_ok)}" "$work/err"
failed=
for args in "--mode 0640" "--output $work/x --mode 8" "--output $work/x --mode 01777" "--output $work/x --mode ''"; do
	# shellcheck disable=SC2086 # each a list of words
	eval "\"\$ctl\" metrics $args" >/dev/null 2>"$work/err"
	[ $? = 2 ] && [ ! -e "$work/x" ] || { failed=$args; break; }
done
[ -z "$failed" ]
verdict "metrics --mode: without --output, or not an octal mode to 0777, is a usage error${failed:+ (not for $failed)}" "$work/err"
"$ctl" metrics --root "$good" --conf "$work/ok.conf" --output "$work/none/memlock.prom" \
	>/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'cannot write' "$work/err"
verdict "metrics --output: a directory that is not there fails with 1" "$work/err"

# --- nagios: each exit status
# plugin EXPECTED-STATUS EXPECTED-LINE-PATTERN ARGS...
plugin() {
	local want=$1 line=$2
	shift 2
	"$ctl" nagios "$@" >"$work/p" 2>"$work/err"
	local rc=$?
	[ $rc = "$want" ] && [ "$(wc -l <"$work/p")" -ge 1 ] && head -n1 "$work/p" | grep -Eq "$line"
}
plugin 0 "^MEMLOCK OK - 0 of 2 processes below the policy, 0 of 1 session path not ok \| 'policy_loads'=1;;1:;0 .*'below'=0;0;;0 .*'locked'=3145728B;;;0" \
	--root "$good" --conf "$work/ok.conf"
verdict "nagios: 0 OK, with performance data" "$work/p" "$work/err"
plugin 1 "^MEMLOCK WARNING - 1 of 2 processes below the policy" --root "$below" --conf "$work/ok.conf"
verdict "nagios: 1 WARNING for a process below the policy" "$work/p" "$work/err"
plugin 0 "^MEMLOCK OK - 1 of 2 processes below .*'below'=1;1;3;0" \
	--root "$below" --conf "$work/ok.conf" --warning 1 --critical 3
verdict "nagios: --warning 1 lets one process below pass" "$work/p" "$work/err"
plugin 1 "^MEMLOCK WARNING - 0 of 1 process below the policy, 1 of 1 session path not ok \(sshd: overridden\)" \
	--root "$overridden" --conf "$work/ok.conf"
verdict "nagios: 1 WARNING for a path doctor finds overridden" "$work/p" "$work/err"
plugin 0 "^MEMLOCK OK - 0 of 1 process below the policy, 0 of 2 session paths not ok" \
	--root "$greeter" --conf "$work/ok.conf"
verdict "nagios: 0 OK beside a greeter" "$work/p" "$work/err"
plugin 2 "^MEMLOCK CRITICAL - 1 of 2 processes below" --root "$below" --conf "$work/ok.conf" --critical 0
verdict "nagios: 2 CRITICAL above --critical" "$work/p" "$work/err"
plugin 2 "^MEMLOCK CRITICAL - the policy is invalid" --root "$good" --conf "$work/bad.conf"
verdict "nagios: 2 CRITICAL for an invalid policy" "$work/p" "$work/err"
plugin 3 "^MEMLOCK UNKNOWN - cannot read the processes" --root "$noproc" --conf "$work/ok.conf"
verdict "nagios: 3 UNKNOWN where /proc cannot be read" "$work/p" "$work/err"
# A "|" in a service name (a file name in the image) would start the
# performance data: written as \x7c, the line has one "|".
pipe=$work/pipe
tree "$pipe"
proc "$pipe" 71 8388608 0 0
printf 'session required pam_permit.so\n' >"$pipe/etc/pam.d/a|'x'=1;;;0 "
plugin 1 "^MEMLOCK WARNING - .*\(a\\\\x7c'x'=1;;;0 : missing\) \| 'policy_loads'" \
	--root "$pipe" --conf "$work/ok.conf" &&
	[ "$(head -n1 "$work/p" | tr -cd '|' | wc -c)" = 1 ]
verdict "nagios: a | in a service name is escaped, the line has one |" "$work/p" "$work/err"

# An invalid policy is loaded once: its error once on stderr, one line on
# stdout.
"$ctl" nagios --root "$good" --conf "$work/bad.conf" >"$work/p" 2>"$work/err"
[ $? = 2 ] && [ "$(wc -l <"$work/p")" = 1 ] &&
	[ "$(grep -c "^$work/bad.conf:1: " "$work/err")" = 1 ] &&
	[ "$(grep -c "bad.conf" "$work/err")" = 2 ]
verdict "nagios: an invalid policy's error once on stderr" "$work/p" "$work/err"

# check's warnings: a rule a later one overrides is a warning about the
# policy (WARNING unless --policy-warning allows it); a group this host
# lacks is a host warning, counted with --strict-host=names.
printf '%s\n' 'limit = "8 MiB";' \
	'rules = ( { user = "nobody"; limit = "8 MiB"; }, { user = "nobody"; limit = "4 MiB"; } );' \
	>"$work/over.conf"
printf '%s\n' 'limit = "8 MiB";' 'rules = ( { group = "hcp"; limit = "16 MiB"; } );' >"$work/hcp.conf"
failed=
while read -r want line conf args; do
	[ "$args" = - ] && args=
	# shellcheck disable=SC2086 # ARGS: a list of words, or none ("-")
	plugin "$want" "$line" --root "$good" --conf "$work/$conf" $args ||
		{ failed="$conf $args"; break; }
done <<'CASES'
1 ^MEMLOCK.WARNING.-.0.of.2.processes.below.the.policy,.0.of.1.session.path.not.ok,.1.warning.from.memlockctl.check.\|.*'policy_warnings'=1;0;;0.'host_warnings'=0; over.conf -
0 ^MEMLOCK.OK.-.*1.warning.from.*'policy_warnings'=1;1;;0 over.conf --policy-warning=1
2 ^MEMLOCK.CRITICAL.-.*'policy_warnings'=1;5;0;0 over.conf --policy-warning=5 --policy-critical=0
0 ^MEMLOCK.OK.-.0.of.2.processes.below.the.policy,.0.of.1.session.path.not.ok.\|.*'policy_warnings'=0;0;;0.'host_warnings'=1; hcp.conf -
1 ^MEMLOCK.WARNING.-.*1.warning.from.memlockctl.check.*'host_warnings'=1; hcp.conf --strict-host=names
0 ^MEMLOCK.OK.-.*'host_warnings'=1; hcp.conf --strict-host=bounds,other
CASES
[ -z "$failed" ]
verdict "nagios: check's warnings against --policy-warning and --policy-critical${failed:+ (not for $failed)}" "$work/p" "$work/err"

# A drop-in left behind that sorts after the site's and lowers a user:
# WARNING.  The policy's own directory is mounted over this build's
# default one in a private mount namespace; where that directory is
# missing, a tmpfs over its nearest existing ancestor holds it (as
# tests/memlockctl/memlockctl.sh does).
default_conf=$("$ctl" --help | sed -n 's/.*read FILE instead of \(\/.*\)$/\1/p')
secdir=$(dirname "$default_conf")
anchor=$secdir
while [ ! -d "$anchor" ]; do anchor=$(dirname "$anchor"); done
case $anchor in /|/etc|/usr|/var|/tmp) free=false ;; *) free=true ;; esac
case "$work/ $ctl" in "$anchor"/* | *" $anchor"/*) free=false ;; esac
if unshare -m true 2>/dev/null && { [ -d "$secdir" ] || $free; }; then
	mkdir -p "$work/sec/memlock.d"
	echo 'limit = "8 MiB";' >"$work/sec/memlock.conf"
	echo 'rules = ( { user = "nobody"; limit = "1 MiB"; } );' >"$work/sec/memlock.d/50-site.conf"
	echo 'rules = ( { user = "nobody"; limit = "512 KiB"; } );' >"$work/sec/memlock.d/50-site.old.conf"
	unshare -m -- sh -c '
		mount --make-rprivate / || exit 99
		if [ ! -d "$2" ]; then mount -t tmpfs pml-test "$3" && mkdir -p "$2" || exit 99; fi
		mount --bind "$1" "$2" && shift 3 && exec "$@"' \
		_ "$work/sec" "$secdir" "$anchor" "$ctl" nagios --root "$good" >"$work/p" 2>"$work/err"
	[ $? = 1 ] && grep -Eq "^MEMLOCK WARNING - .*[1-9][0-9]* warnings? from memlockctl check" "$work/p" &&
		grep -q "50-site.conf:1: warning:" "$work/err"
	verdict "nagios: WARNING for a leftover drop-in that overrides the site's" "$work/p" "$work/err"
else
	skip "nagios: WARNING for a leftover drop-in that overrides the site's" \
		"needs unshare -m, and $secdir or a tmpfs over $anchor that hides nothing the test needs"
fi

# Without logind's records every session's service is unknown: --service
# answers for them, as status's does.
nologind=$work/nologind
tree "$nologind"
proc "$nologind" 71 8388608 0 0
rm "$nologind/run/systemd/sessions/71"
printf '%s\n' 'limit = "8 MiB";' 'rules = ( { service = "sshd"; limit = "16 MiB"; } );' >"$work/svc.conf"
plugin 0 "^MEMLOCK OK - 0 of 1 process below .*'unknown'=1;" --root "$nologind" --conf "$work/svc.conf" &&
	plugin 1 "^MEMLOCK WARNING - 1 of 1 process below .*'unknown'=0;" \
		--root "$nologind" --conf "$work/svc.conf" --service sshd &&
	"$ctl" metrics --root "$nologind" --conf "$work/svc.conf" --service sshd >"$work/ms" 2>>"$work/err" &&
	grep -qx 'memlock_processes{verdict="below"} 1' "$work/ms"
verdict "nagios, metrics --service: the service of sessions logind names none for" "$work/p" "$work/err"

# The units the policy's unit rules match: doctor's verdict for each, as
# series and in the plugin's state.  The policy is this build's default
# file, here (check reads it) and in the root (doctor reads the root's, as
# the generator does), mounted as above; the generator's drop-in is the
# real generator's.
units=$work/units
tree "$units"
proc "$units" 71 8388608 0 0
printf '[Service]\nExecStart=/usr/bin/db\n' >"$units/lib/systemd/system/db.service"
mkdir -p "$work/usec" "$units$secdir" "$units/run/systemd/generator"
printf '%s\n' 'limit = "8 MiB";' 'rules = ( { unit = "db.service"; limit = "64 MiB"; mode = "set"; } );' \
	>"$work/usec/memlock.conf"
cp "$work/usec/memlock.conf" "$units$default_conf"
# in_policy_ns COMMAND...: COMMAND with this build's default policy file
# the units root's.
in_policy_ns() {
	unshare -m -- sh -c '
		mount --make-rprivate / || exit 99
		if [ ! -d "$2" ]; then mount -t tmpfs pml-test "$3" && mkdir -p "$2" || exit 99; fi
		mount --bind "$1" "$2" && shift 3 && exec "$@"' _ "$work/usec" "$secdir" "$anchor" "$@"
}
export SYSTEMD_UNIT_PATH=/etc/systemd/system:/lib/systemd/system
if unshare -m true 2>/dev/null && { [ -d "$secdir" ] || $free; }; then
	in_policy_ns "$ctl" metrics --root "$units" >"$work/munits" 2>"$work/err" &&
		grep -qx 'memlock_doctor_unit{unit="db.service",verdict="stale"} 1' "$work/munits" &&
		grep -qx 'memlock_doctor_unit{unit="db.service",verdict="ok"} 0' "$work/munits" &&
		grep -qx 'memlock_doctor_units_not_ok 1' "$work/munits" &&
		grep -qx 'memlock_doctor_units_not_ok 0' "$work/m"
	verdict "metrics: each unit's verdict (db.service, no generator run: stale); none but a 0 without unit rules" \
		"$work/munits" "$work/err"
	in_policy_ns "$ctl" nagios --root "$units" >"$work/p" 2>"$work/err"
	[ $? = 1 ] && grep -q "^MEMLOCK WARNING - 0 of 1 process below the policy, 0 of 1 session path not ok, 1 of 1 unit not ok (db.service: stale) |.*'units_not_ok'=1;0;;0" "$work/p"
	verdict "nagios: 1 WARNING for a stale unit, named" "$work/p" "$work/err"
	in_policy_ns env SYSTEMD_UNIT_PATH="$units/etc/systemd/system:$units/lib/systemd/system" \
		"$PML_BUILDDIR/pam-memlock-generator" "$units/run/systemd/generator" 2>"$work/err" &&
		in_policy_ns "$ctl" nagios --root "$units" >"$work/p" 2>>"$work/err"
	[ $? = 0 ] && grep -q "^MEMLOCK OK - .*, 0 of 1 unit not ok |.*'units_not_ok'=0;0;;0" "$work/p"
	verdict "nagios: 0 OK once the generator has written the unit's drop-in" "$work/p" "$work/err"
	mkdir -p "$units/etc/systemd/system/db.service.d"
	printf '[Service]\nLimitMEMLOCK=1G\n' >"$units/etc/systemd/system/db.service.d/60-admin.conf"
	in_policy_ns "$ctl" nagios --root "$units" >"$work/p" 2>"$work/err"
	[ $? = 1 ] && grep -q "1 of 1 unit not ok (db.service: overridden)" "$work/p"
	verdict "nagios: 1 WARNING for a unit an admin's later drop-in overrides" "$work/p" "$work/err"
else
	for what in "metrics: each unit's verdict" "nagios: 1 WARNING for a stale unit" \
		"nagios: 0 OK once the generator has written" "nagios: 1 WARNING for an overridden unit"; do
		skip "$what" "needs unshare -m, and $secdir or a tmpfs over $anchor that hides nothing the test needs"
	done
fi
unset SYSTEMD_UNIT_PATH

failed=
for args in "--warning x" "--critical -1" "--policy-warning -1" "--strict-host=name" "--mode 0644" "--json" "--bogus" "user"; do
	# shellcheck disable=SC2086 # each a list of words
	plugin 3 "^MEMLOCK UNKNOWN - usage: " $args || { failed=$args; break; }
done
[ -z "$failed" ]
verdict "nagios: 3 UNKNOWN for a usage error, never 2${failed:+ (not for $failed)}" "$work/p" "$work/err"
"$ctl" metrics --bogus >/dev/null 2>&1
[ $? = 2 ]
verdict "metrics: a usage error is 2, as for every command but nagios"

echo "1..$n"
