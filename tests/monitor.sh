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
. "${PML_SRCDIR:?run with make check}/tests/tap.sh"

echo 'limit = "8 MiB";' >"$work/ok.conf"
echo 'limit = 8;' >"$work/bad.conf"

# tree and proc: saved roots (tests/monitor-tree.sh).
. "$PML_SRCDIR/tests/monitor-tree.sh"

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

if command -v promtool >/dev/null; then
	linted=0
	for f in m mu mb mo mg mi md; do
		promtool check metrics <"$work/$f" >"$work/lint" 2>&1 || break
		linted=$((linted + 1))
	done
	[ $linted = 7 ]
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
failed=
for args in "--warning x" "--critical -1" "--json" "--bogus" "user"; do
	# shellcheck disable=SC2086 # each a list of words
	plugin 3 "^MEMLOCK UNKNOWN - usage: " $args || { failed=$args; break; }
done
[ -z "$failed" ]
verdict "nagios: 3 UNKNOWN for a usage error, never 2${failed:+ (not for $failed)}" "$work/p" "$work/err"
"$ctl" metrics --bogus >/dev/null 2>&1
[ $? = 2 ]
verdict "metrics: a usage error is 2, as for every command but nagios"

echo "1..$n"
