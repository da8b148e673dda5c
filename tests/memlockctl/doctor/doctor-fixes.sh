#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor's fixes on a small root laid out as Debian lays out its
# stacks (login: pam_limits, then common-session; sshd and cron:
# common-session, then pam_limits; runuser: neither), built here: the
# module not installed; pam-auth-update's profile shipped but not enabled;
# a drop-in refused for its mode or for being empty; raise mode below a
# unit's start; the note on a unit's own processes; the summary.  The
# policy is the build's default file under the root, so that its drop-ins
# are read as the module reads them.  Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
src=${PML_SRCDIR:?run with make check}
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy file must be owned by root: run make check as root"
	exit 0
fi
if ! command -v "${PML_PYTHON:-python3}" >/dev/null; then
	echo "1..0 # SKIP python3 is not installed (it reads doctor's JSON)"
	exit 0
fi
echo "1..17"

work=$(mktemp -d /tmp/pml-doctor-fixes-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
root=$work/root
conf=$("$ctl" --help | sed -n 's/.*read FILE instead of \(\/.*\)$/\1/p')
dropins=$root${conf%/*}/memlock.d
moddir=$root/lib/security

mkdir -p "$root/etc/pam.d" "$dropins" "$moddir" "$root/usr/share/pam-configs" \
	"$root/lib/systemd/system" || exit 99
printf 'ID=debian\nVERSION_ID="12"\n' >"$root/etc/os-release"
echo 'session required pam_unix.so' >"$root/etc/pam.d/common-session"
cp "$root/etc/pam.d/common-session" "$root/etc/pam.d/common-session-noninteractive"
printf 'session required pam_limits.so\n@include common-session\n' >"$root/etc/pam.d/login"
printf '@include common-session\nsession required pam_limits.so\n' >"$root/etc/pam.d/sshd"
printf '@include common-session-noninteractive\nsession required pam_limits.so\n' \
	>"$root/etc/pam.d/cron"
printf 'session required pam_limits.so\nsession required pam_unix.so\n' >"$root/etc/pam.d/runuser"
cp "$src/conf/pam-configs/memlock" "$root/usr/share/pam-configs/memlock" || exit 99
: >"$moddir/pam_unix.so"
: >"$moddir/pam_limits.so"
echo 'limit = "1 MiB";' >"$root$conf"

# doctor ARGS...: JSON in $work/out, exit status in $status.
doctor() {
	timeout 20 "$ctl" doctor --root "$root" --json "$@" >"$work/out" 2>"$work/err"
	status=$?
}

# expect NAME EXPR WANT [ARG]: EXPR over doc (the JSON), paths (by
# service) and sys.argv[3] (ARG).
expect() {
	local got
	got=$("${PML_PYTHON:-python3}" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
paths = {p["service"]: p for p in doc["paths"]}
print(eval(sys.argv[2]))' "$work/out" "$2" "${4:-}" 2>&1)
	if [ "$got" = "$3" ]; then ok "$1"; else not_ok "$1" "want: $3" "got:  $got"; fi
}

install_first='install pam_memlock.so first: it is in none of the module directories, so any line naming it only makes libpam log "PAM unable to dlopen"; then '
tool='run `pam-auth-update --enable memlock`: the package'"'"'s profile is installed but not enabled, and enabling it adds the line to common-session and common-session-noninteractive, which this stack includes with no pam_limits after them'

# --- The module is not installed: that comes first, in every fix.
doctor
expect "no module: every path's fix says to install it first" \
	'sorted(set(p["fix"][:len(sys.argv[3])] == sys.argv[3] for p in paths.values()))' \
	"[True]" "$install_first"
expect "no module: the summary's first thing to do is installing it" \
	'doc["summary"]["first"].split(": ", 1)[1].startswith(sys.argv[3])' True "$install_first"
echo 'session optional pam_memlock.so' >>"$root/etc/pam.d/runuser"
doctor --service runuser
expect "no module, a line naming it: an error whose fix is to install it" \
	'(paths["runuser"]["verdict"], paths["runuser"]["fix"])' \
	"('error', 'install pam_memlock.so: /etc/pam.d/runuser:3 names it, but it is in none of the module directories, so libpam logs \"PAM unable to dlopen\" for it')"
sed -i '$d' "$root/etc/pam.d/runuser"

# --- Installed, the profile shipped but not enabled: pam-auth-update for
# login, step 2 for sshd and cron, runuser's own file.
: >"$moddir/pam_memlock.so"
doctor
expect "profile not enabled: login's fix is pam-auth-update" 'paths["login"]["fix"]' "$tool"
expect "profile not enabled: sshd's and cron's are the line after their pam_limits" \
	'(paths["sshd"]["fix"], paths["cron"]["fix"])' \
	"('add \"session optional pam_memlock.so\" to /etc/pam.d/sshd, right after line 2 (pam_limits)', 'add \"session optional pam_memlock.so\" to /etc/pam.d/cron, right after line 2 (pam_limits)')"
expect "profile not enabled: runuser's is its own file" 'paths["runuser"]["fix"].split(",")[0]' \
	'add "session optional pam_memlock.so" to /etc/pam.d/runuser'
expect "the summary counts the verdicts, and pam-auth-update goes first" \
	'(doc["summary"]["ok"], doc["summary"]["missing"], doc["summary"]["overridden"], doc["summary"]["error"], doc["summary"]["first"] == "login: " + sys.argv[3])' \
	"(0, 4, 0, 0, True)" "$tool"
timeout 20 "$ctl" doctor --root "$root" >"$work/text" 2>&1
if [ "$(tail -n 2 "$work/text" | head -n 1)" = "summary: 0 ok, 4 missing, 0 overridden, 0 error" ] &&
	[ "$(tail -n 1 "$work/text")" = "first:   login: $tool" ]; then
	ok "the text ends with the summary line and what to do first"
else
	not_ok "the text ends with the summary line and what to do first" "$(tail -n 3 "$work/text")"
fi
rm "$root/usr/share/pam-configs/memlock"
doctor --service login
expect "without the profile, login's fix is the line after pam_limits" 'paths["login"]["fix"]' \
	'add "session optional pam_memlock.so" to /etc/pam.d/login, right after line 1 (pam_limits)'
# What enabling the profile writes: login is then ok.
echo 'session optional pam_memlock.so' >>"$root/etc/pam.d/common-session"
doctor --service login
expect "with the line in common-session, login is ok" 'paths["login"]["verdict"]' ok

# --- Refused drop-ins: the fix is the drop-in's, without the root.
echo 'limit = "2 MiB";' >"$dropins/50-bad.conf"
chmod 0666 "$dropins/50-bad.conf"
doctor --service login
expect "a 0666 drop-in: the error and the fix name it, chmod go-w" \
	'(paths["login"]["problem"]["file"], paths["login"]["fix"])' \
	"('${conf%/*}/memlock.d/50-bad.conf', 'run \`chmod go-w ${conf%/*}/memlock.d/50-bad.conf\`')"
if grep -q "$root" <("${PML_PYTHON:-python3}" -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("root"); print(d)' "$work/out"); then
	not_ok "no path in the output keeps the --root prefix" "$(grep -o ".\{40\}$root.\{40\}" "$work/out" | head -3)"
else
	ok "no path in the output keeps the --root prefix"
fi
: >"$dropins/50-bad.conf"
chmod 0644 "$dropins/50-bad.conf"
doctor --service login
expect "an empty drop-in: the fix is to remove it" 'paths["login"]["fix"]' \
	"remove the empty file ${conf%/*}/memlock.d/50-bad.conf (or give it a comment)"
echo 'limit = "2 MiB";' >"$dropins/50-bad.conf"
chown 65534 "$dropins/50-bad.conf"
doctor --service login
expect "a drop-in not root's: the fix is chown root" 'paths["login"]["fix"]' \
	"run \`chown root ${conf%/*}/memlock.d/50-bad.conf\`"
rm "$dropins/50-bad.conf"

# --- Raise mode below a unit's start: ok, and the step says so; the
# start step says the daemon's own processes never pass through PAM.
printf '[Service]\nLimitMEMLOCK=64M\n' >"$root/lib/systemd/system/cron.service"
echo 'session optional pam_memlock.so' >"$root/etc/pam.d/cron"
doctor --service cron
expect "raise below the start: ok, 64 MiB, and the step says the policy is no cap" \
	'(paths["cron"]["verdict"], paths["cron"]["soft"], "mode = \"set\" makes it one" in paths["cron"]["steps"][1]["effect"])' \
	"('ok', 67108864, True)"
expect "a unit's start says its own processes need LimitMEMLOCK= in the unit" \
	'"never pass through PAM: their limit is LimitMEMLOCK= in the unit" in paths["cron"]["steps"][0]["effect"]' True
echo 'mode = "set";' >>"$root$conf"
doctor --service cron
expect "set mode: a cap of 1 MiB, and no such note" \
	'(paths["cron"]["soft"], "no cap" in paths["cron"]["steps"][1]["effect"])' "(1048576, False)"
