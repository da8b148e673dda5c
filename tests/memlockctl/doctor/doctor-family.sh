#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor on roots laid out as other distribution families lay
# out their stacks (tests/data/family/*, whose README names the sources):
# the family doctor takes each for, and its pam_limits model (upstream's);
# every service's verdict and fix before the README's procedure for that
# family and after it; and the limit doctor predicts, with and without a
# memlock line in limits.d.  Each root is copied to a private directory
# (the policy must be root's), the procedure applied there as the README
# gives it.  Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
data=${PML_TESTDATA:?run with make check}/family
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy file must be owned by root: run make check as root"
	exit 0
fi
if ! command -v "${PML_PYTHON:-python3}" >/dev/null; then
	echo "1..0 # SKIP python3 is not installed (it reads doctor's JSON)"
	exit 0
fi
echo "1..61"

work=$(mktemp -d /tmp/pml-doctor-family-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT

# fresh FAMILY MODDIR: a private copy of the family's root in $root, with
# the policy and the module installed (step 1 of every procedure).
fresh() {
	root=$work/$1
	rm -rf "$root"
	cp -R "$data/$1" "$root" &&
		find "$root" -type f -exec chmod 0644 {} + &&
		find "$root" -type d -exec chmod 0755 {} + || exit 99
	# openSUSE keeps /etc/security empty (its files are in /usr/etc).
	mkdir -p "$root/etc/security" || exit 99
	echo 'limit = "256 MiB";' >"$root/etc/security/memlock.conf"
	: >"$root/$2/pam_memlock.so"
	# authselect's links are absolute; made here, as a source tree (and
	# the Debian source package, lintian says) should hold none.
	if [ "$1" = fedora ]; then
		for f in system-auth password-auth postlogin; do
			ln -s "/etc/authselect/$f" "$root/etc/pam.d/$f" || exit 99
		done
	fi
}

# doctor: its JSON in $work/out, exit status in $status.
doctor() {
	timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
		>"$work/out" 2>"$work/err"
	status=$?
}

# query EXPR: a Python expression over doc (the JSON) and paths (by service).
query() {
	"${PML_PYTHON:-python3}" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
paths = {p["service"]: p for p in doc["paths"]}
print(eval(sys.argv[2]))' "$work/out" "$1" 2>&1
}

# expect NAME EXPR WANT
expect() {
	local got
	got=$(query "$2")
	if [ "$got" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "want: $3" "got:  $got"
	fi
}

# after_limits FILE: the line the procedures add, right after pam_limits.
after_limits() {
	sed -i '/^session[[:space:]]*required[[:space:]]*pam_limits\.so/a session optional pam_memlock.so' "$1"
}

verdicts='" ".join(s + "=" + p["verdict"] for s, p in sorted(paths.items()))'
limit='(paths["sshd"]["soft"], paths["sshd"]["hard"])'
memlock_line='* - memlock 65536'

# --- Fedora with authselect.
fresh fedora usr/lib64/security
doctor
expect "fedora: the family and its pam_limits, and why" \
	'(doc["models"]["family"]["name"], doc["models"]["family"]["why"], doc["models"]["pam_limits"])' \
	"('fedora', 'ID=fedora in /etc/os-release', 'upstream')"
timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf >"$work/text" 2>&1
if grep -qx 'family:     Fedora/RHEL (ID=fedora in /etc/os-release)' "$work/text" &&
	grep -qx "pam_limits: upstream's (memlock lines only; PID 1's limits with set_all) (Fedora/RHEL: not patched)" "$work/text"; then
	ok "fedora: the text head names the family, why, and its pam_limits"
else
	not_ok "fedora: the text head names the family, why, and its pam_limits" "$(head -5 "$work/text")"
fi
expect "fedora: every service misses the module before the procedure but the greeter's, and doctor exits 1 ($status)" \
	"$verdicts + ' $status'" \
	"cockpit=missing crond=missing gdm-autologin=missing gdm-launch-environment=greeter gdm-password=missing login=missing polkit-1=missing runuser=missing sddm=missing sddm-autologin=missing sshd=missing su=missing sudo=missing sudo-i=missing systemd-run0=missing systemd-user=missing xrdp-sesman=missing 1"
expect "fedora: the shared files' fix is authselect's custom profile, for both files" \
	'sorted(set(p["fix"].split(", each right")[0] for s, p in paths.items() if s not in ("runuser", "systemd-run0", "gdm-launch-environment")))' \
	"['authselect rewrites /etc/pam.d/password-auth: run \`authselect create-profile memlock --base-on=local\`, add \"session optional pam_memlock.so\" to /etc/authselect/custom/memlock/system-auth and password-auth', 'authselect rewrites /etc/pam.d/system-auth: run \`authselect create-profile memlock --base-on=local\`, add \"session optional pam_memlock.so\" to /etc/authselect/custom/memlock/system-auth and password-auth']"
expect "fedora: runuser's fix is its own file, and says why" 'paths["runuser"]["fix"]' \
	'add "session optional pam_memlock.so" to /etc/pam.d/runuser, right after line 4 (pam_limits): this stack includes none of system-auth, password-auth, so the line there does not reach it'
expect "fedora: systemd-run0's fix is a copy in /etc/pam.d, and says why" 'paths["systemd-run0"]["fix"]' \
	'copy /usr/lib/pam.d/systemd-run0 to /etc/pam.d/systemd-run0 and add "session optional pam_memlock.so" there, right after line 11: libpam reads /etc/pam.d first, and the package owns /usr/lib/pam.d/systemd-run0; this stack includes none of system-auth, password-auth, so the line there does not reach it'
expect "fedora: without a memlock line, upstream pam_limits keeps the caller's limit (unknown under --root)" \
	"$limit" "(None, None)"
mkdir -p "$root/etc/security/limits.d"
echo "$memlock_line" >"$root/etc/security/limits.d/90-memlock.conf"
doctor
expect "fedora: with a memlock line in limits.d, pam_limits sets it" "$limit" "(67108864, 67108864)"

# The README's procedure: what `authselect select custom/memlock` writes
# from the custom profile, runuser's own file, and systemd-run0's copy.
after_limits "$root/etc/authselect/system-auth"
after_limits "$root/etc/authselect/password-auth"
echo custom/memlock >"$root/etc/authselect/authselect.conf"
after_limits "$root/etc/pam.d/runuser"
cp "$root/usr/lib/pam.d/systemd-run0" "$root/etc/pam.d/systemd-run0"
echo "session optional pam_memlock.so" >>"$root/etc/pam.d/systemd-run0"
doctor
expect "fedora: after the procedure every service is ok (crond too: no skip jumps over the line), and doctor exits 0" \
	"$verdicts + ' $status'" \
	"cockpit=ok crond=ok gdm-autologin=ok gdm-launch-environment=ok gdm-password=ok login=ok polkit-1=ok runuser=ok sddm=ok sddm-autologin=ok sshd=ok su=ok sudo=ok sudo-i=ok systemd-run0=ok systemd-user=ok xrdp-sesman=ok 0"
expect "fedora: after it, the policy decides over the memlock line" "$limit" "(268435456, 268435456)"
rm "$root/etc/security/limits.d/90-memlock.conf"
doctor
expect "fedora: after it, without a memlock line, raise mode keeps whatever the caller had (unknown under --root)" \
	"$limit" "(None, None)"
echo 'mode = "set";' >>"$root/etc/security/memlock.conf"
doctor
expect "fedora: after it, without a memlock line, set mode decides alone" "$limit" "(268435456, 268435456)"

# authselect's system-auth skips its next line for crond alone (pam_succeed_if
# "service in crond"): the module placed right after that line runs for
# every other service that includes system-auth, and not for crond.
fresh fedora usr/lib64/security
sed -i '/pam_succeed_if\.so service in crond/a session optional pam_memlock.so' \
	"$root/etc/authselect/system-auth"
doctor
expect "fedora: the module after system-auth's crond skip runs for every service but crond" \
	'" ".join(s + "=" + paths[s]["verdict"] for s in ["crond", "login", "polkit-1", "su", "sudo", "sudo-i", "systemd-user"])' \
	"crond=missing login=ok polkit-1=ok su=ok sudo=ok sudo-i=ok systemd-user=ok"

# --- Arch (pambase).
fresh arch usr/lib/security
doctor
expect "arch: the family and its pam_limits" \
	'(doc["models"]["family"]["name"], doc["models"]["pam_limits"])' "('arch', 'upstream')"
expect "arch: every service misses the module before the procedure but the greeters'" "$verdicts" \
	"cockpit=missing crond=missing gdm-autologin=missing gdm-launch-environment=greeter gdm-password=missing lightdm=missing lightdm-autologin=missing lightdm-greeter=greeter login=missing polkit-1=missing remote=missing runuser=missing runuser-l=missing sddm=missing sddm-autologin=missing sddm-greeter=greeter sshd=missing su=missing su-l=missing sudo=missing systemd-run0=missing systemd-user=missing xrdp-sesman=missing"
expect "arch: the shared fix is system-auth, right after pam_limits" \
	'sorted(set(p["fix"] for s, p in paths.items() if s not in ("su", "su-l", "systemd-run0", "gdm-launch-environment", "lightdm-greeter", "sddm-greeter")))' \
	"['add \"session optional pam_memlock.so\" to /etc/pam.d/system-auth, right after line 4 (pam_limits)']"
expect "arch: su's fix is its own file, and says why" 'paths["su"]["fix"]' \
	'add "session optional pam_memlock.so" to /etc/pam.d/su, right after line 3: this stack includes none of system-auth, so the line there does not reach it'
expect "arch: without a memlock line, upstream pam_limits keeps the caller's limit" "$limit" "(None, None)"
mkdir -p "$root/etc/security/limits.d"
echo "$memlock_line" >"$root/etc/security/limits.d/90-memlock.conf"
doctor
expect "arch: with a memlock line in limits.d, pam_limits sets it" "$limit" "(67108864, 67108864)"

# The README's procedure: system-auth after pam_limits, su and su-l, and
# systemd-run0's copy.
after_limits "$root/etc/pam.d/system-auth"
echo "session optional pam_memlock.so" >>"$root/etc/pam.d/su"
echo "session optional pam_memlock.so" >>"$root/etc/pam.d/su-l"
cp "$root/usr/lib/pam.d/systemd-run0" "$root/etc/pam.d/systemd-run0"
echo "session optional pam_memlock.so" >>"$root/etc/pam.d/systemd-run0"
doctor
expect "arch: after the procedure every service is ok, the greeters (no common session) stay greeters, and doctor exits 0" "$verdicts + ' $status'" \
	"cockpit=ok crond=ok gdm-autologin=ok gdm-launch-environment=greeter gdm-password=ok lightdm=ok lightdm-autologin=ok lightdm-greeter=greeter login=ok polkit-1=ok remote=ok runuser=ok runuser-l=ok sddm=ok sddm-autologin=ok sddm-greeter=greeter sshd=ok su=ok su-l=ok sudo=ok systemd-run0=ok systemd-user=ok xrdp-sesman=ok 0"
expect "arch: after it, the policy decides over the memlock line" "$limit" "(268435456, 268435456)"

# --- Alpine: linux-pam's base-* stacks, only in /usr/lib/pam.d.
fresh alpine lib/security
doctor
expect "alpine: the family and its pam_limits" \
	'(doc["models"]["family"]["name"], doc["models"]["pam_limits"])' "('alpine', 'upstream')"
expect "alpine: every service misses the module before the procedure but the greeter's (other too: it opens sessions)" \
	"$verdicts" "gdm-autologin=missing gdm-launch-environment=greeter gdm-password=missing lightdm=missing lightdm-autologin=missing login=missing other=missing sshd=missing su=missing"
expect "alpine: the fix is a copy of base-session-noninteractive in /etc/pam.d" \
	'sorted(set(p["fix"] for p in paths.values() if p["verdict"] != "greeter"))' \
	"['copy /usr/lib/pam.d/base-session-noninteractive to /etc/pam.d/base-session-noninteractive and add \"session optional pam_memlock.so\" there, right after line 3 (pam_limits): libpam reads /etc/pam.d first, and the package owns /usr/lib/pam.d/base-session-noninteractive']"
mkdir -p "$root/etc/security/limits.d"
echo "$memlock_line" >"$root/etc/security/limits.d/90-memlock.conf"
doctor
expect "alpine: with a memlock line in limits.d, pam_limits sets it" "$limit" "(67108864, 67108864)"
cp "$root/usr/lib/pam.d/base-session-noninteractive" "$root/etc/pam.d/"
after_limits "$root/etc/pam.d/base-session-noninteractive"
doctor
expect "alpine: after the procedure every service is ok, and doctor exits 0" "$verdicts + ' $status'" \
	"gdm-autologin=ok gdm-launch-environment=ok gdm-password=ok lightdm=ok lightdm-autologin=ok login=ok other=ok sshd=ok su=ok 0"

# --- A derivative names its family in ID_LIKE, quoted, closest first;
# /etc/os-release comes before /usr/lib's.
rm "$root/etc/os-release"
printf 'ID="rocky"\nID_LIKE="rhel centos fedora"\nVERSION_ID="9.4"\n' >"$root/etc/os-release"
doctor
expect "ID_LIKE: a RHEL rebuild is Fedora's family, and the output says why" \
	'(doc["models"]["family"]["name"], doc["models"]["family"]["why"], doc["models"]["family"]["version_id"])' \
	"('fedora', 'ID=rocky, ID_LIKE=rhel centos fedora in /etc/os-release', '9.4')"

printf 'NAME="openSUSE Tumbleweed"\nID="opensuse-tumbleweed"\nID_LIKE="opensuse suse"\n' \
	>"$root/etc/os-release"
doctor
expect "openSUSE: its own ID names the family, upstream's pam_limits" \
	'(doc["models"]["family"]["name"], doc["models"]["family"]["why"], doc["models"]["pam_limits"])' \
	"('suse', 'ID=opensuse-tumbleweed in /etc/os-release', 'upstream')"

# --- An unknown family: upstream's model, and doctor says so; without
# /etc/os-release, /usr/lib's is read.
rm "$root/etc/os-release"
echo 'ID=plan9ish' >"$root/usr/lib/os-release"
doctor
expect "unknown: upstream's pam_limits, and the head says why" \
	'(doc["models"]["family"]["name"], doc["models"]["family"]["why"], doc["models"]["pam_limits"], doc["models"]["pam_limits_why"])' \
	"('unknown', \"ID=plan9ish in /usr/lib/os-release is no family doctor knows: upstream's pam_limits assumed\", 'upstream', \"an unknown family: upstream's assumed\")"

# --- Alpine's start: OpenRC, not systemd.  busybox init is PID 1
# (/sbin/init a link to /bin/busybox, made here as authselect's are);
# sshd starts from /etc/init.d/sshd with PID 1's limit unless rc_ulimit
# says -l, login from inittab's getty.  A systemd-user stack, which only
# systemd opens, is there to be left out.
fresh alpine lib/security
ln -s /bin/busybox "$root/sbin/init" || exit 99
printf 'session include base-session\n' >"$root/usr/lib/pam.d/systemd-user"
doctor
expect "alpine/openrc: the init system is OpenRC under busybox init, and doctor says why" \
	'(doc["models"]["init"]["name"], doc["models"]["init"]["pid1"], doc["models"]["init"]["why"])' \
	"('openrc', 'busybox init', '/sbin/init is a link to /bin/busybox, /sbin/openrc is there')"
timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf >"$work/text" 2>&1
if grep -qx 'init:       openrc, PID 1 busybox init (/sbin/init is a link to /bin/busybox, /sbin/openrc is there)' "$work/text"; then
	ok "alpine/openrc: the text head names the init system"
else
	not_ok "alpine/openrc: the text head names the init system" "$(head -5 "$work/text")"
fi
expect "alpine/openrc: no systemd unit anywhere, and no systemd-user path" \
	'(sorted(paths), [p["unit"] for p in paths.values() if (p["unit"] or "").endswith(".service")])' \
	"(['gdm-autologin', 'gdm-launch-environment', 'gdm-password', 'lightdm', 'lightdm-autologin', 'login', 'other', 'sshd', 'su'], [])"
expect "alpine/openrc: sshd starts from /etc/init.d/sshd with PID 1's limit, the kernel default" \
	'(paths["sshd"]["unit"], paths["sshd"]["steps"][0]["file"], paths["sshd"]["steps"][0]["soft"] == doc["models"]["kernel_default"], paths["sshd"]["soft"] == doc["models"]["kernel_default"])' \
	"('/etc/init.d/sshd', None, True, True)"
expect "alpine/openrc: login starts from inittab's first getty, with PID 1's limit" \
	'(paths["login"]["unit"], paths["login"]["steps"][0]["file"], paths["login"]["steps"][0]["line"], paths["login"]["soft"] == doc["models"]["kernel_default"])' \
	"('inittab', '/etc/inittab', 8, True)"

# rc_ulimit: /etc/rc.conf for every init script, /etc/conf.d/sshd later
# and so over it; inittab's getty is no init script.
echo 'rc_ulimit="-l 1024"' >>"$root/etc/rc.conf"
echo 'rc_ulimit="-l 65536"' >>"$root/etc/conf.d/sshd"
doctor
expect "alpine/openrc: rc_ulimit=\"-l 65536\" in conf.d/sshd (KiB) is sshd's start and, with no memlock line, its session's limit" \
	'(paths["sshd"]["steps"][0]["file"], paths["sshd"]["steps"][0]["line"], paths["sshd"]["steps"][0]["soft"], paths["sshd"]["steps"][0]["hard"], paths["sshd"]["soft"])' \
	"('/etc/conf.d/sshd', 8, 67108864, 67108864, 67108864)"
expect "alpine/openrc: rc.conf's rc_ulimit does not reach inittab's getty" \
	'paths["login"]["soft"] == doc["models"]["kernel_default"]' "True"

# After the README's procedure the start still decides in raise mode: a
# later rc_ulimit line wins, and sshd's unlimited start stays, while
# login's kernel default is raised to the policy's.
cp "$root/usr/lib/pam.d/base-session-noninteractive" "$root/etc/pam.d/"
after_limits "$root/etc/pam.d/base-session-noninteractive"
echo 'rc_ulimit="-l unlimited"' >>"$root/etc/conf.d/sshd"
doctor
expect "alpine/openrc: after the procedure, raise mode keeps sshd's unlimited start (conf.d/sshd's later line) and raises login's to the policy's" \
	"$verdicts"' + " " + str((paths["sshd"]["steps"][0]["line"], paths["sshd"]["soft_unlimited"], paths["login"]["soft"], '"$status"'))' \
	"gdm-autologin=ok gdm-launch-environment=ok gdm-password=ok lightdm=ok lightdm-autologin=ok login=ok other=ok sshd=ok su=ok (9, True, 268435456, 0)"

# --- Display managers, cockpit, xrdp and polkit (the stacks' sources are
# in the README of tests/data/family).  A greeter's stack is the login
# screen's, run under the display manager's own user: without the module
# it is told as a greeter, with no fix, and doctor still exits 0 for it.
fresh arch usr/lib/security
after_limits "$root/etc/pam.d/system-auth"
doctor
expect "greeters: with the shared line, only the greeters lack it, and they ask for nothing" \
	'(sorted(s for s, p in paths.items() if p["verdict"] != "ok"), [paths[s]["fix"] for s in ("gdm-launch-environment", "lightdm-greeter", "sddm-greeter")], doc["summary"]["greeter"])' \
	"(['gdm-launch-environment', 'lightdm-greeter', 'sddm-greeter', 'su', 'su-l', 'systemd-run0'], [None, None, None], 3)"
timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf \
	--service sddm-greeter --service sddm >"$work/text" 2>&1
status=$?
if grep -qx 'sddm-greeter: greeter' "$work/text" &&
	grep -qx "  note:   a login screen, run under its display manager's own user: no user's program runs in this session, so it needs no pam_memlock" "$work/text" &&
	grep -qx 'summary: 1 ok, 0 missing, 0 overridden, 0 error, 1 greeter' "$work/text" &&
	! grep -q '^  fix:' "$work/text" && [ "$status" = 0 ]; then
	ok "greeters: the text says what the stack is, counts it apart, and doctor exits 0"
else
	not_ok "greeters: the text says what the stack is, counts it apart, and doctor exits 0" \
		"status $status" "$(cat "$work/text")"
fi
echo "session optional pam_memlock.so" >>"$root/etc/pam.d/sddm-greeter"
rm "$root/usr/lib/security/pam_env.so"
doctor
expect "greeters: one that runs the module is ok; one whose stack fails is an error still" \
	'(paths["sddm-greeter"]["verdict"], paths["gdm-launch-environment"]["verdict"], paths["gdm-launch-environment"]["problem"]["line"])' \
	"('ok', 'error', 10)"

# The units the display managers' and cockpit's sessions start in.
mkdir -p "$root/usr/lib/systemd/system"
printf '[Service]\nExecStart=/usr/bin/sddm\nLimitMEMLOCK=64M\n' >"$root/usr/lib/systemd/system/sddm.service"
printf '[Service]\nExecStart=/usr/lib/cockpit/cockpit-session\n' \
	>"$root/usr/lib/systemd/system/cockpit-session@.service"
doctor
expect "units: sddm's stacks start in sddm.service, cockpit's in cockpit-session@.service" \
	'(paths["sddm"]["unit"], paths["sddm-autologin"]["unit"], paths["sddm-greeter"]["unit"], paths["sddm"]["steps"][0]["soft"], paths["cockpit"]["unit"])' \
	"('sddm.service', 'sddm.service', 'sddm.service', 67108864, 'cockpit-session@.service')"
expect "polkit-1: pkexec's session has no unit (its caller's limits) and reaches system-auth from /usr/lib/pam.d" \
	'(paths["polkit-1"]["file"], paths["polkit-1"]["unit"], paths["polkit-1"]["verdict"])' \
	"('/usr/lib/pam.d/polkit-1', None, 'ok')"

# Fedora: gdm's greeter includes system-auth, so the custom profile's
# line reaches it, as it reaches gdm-password (password-auth).
fresh fedora usr/lib64/security
doctor
expect "fedora: the greeter is a greeter before the procedure, with no fix" \
	'(paths["gdm-launch-environment"]["verdict"], paths["gdm-launch-environment"]["fix"], doc["summary"]["greeter"])' \
	"('greeter', None, 1)"
expect "fedora: gdm-password, sddm, cockpit and xrdp-sesman get the fix of password-auth" \
	'sorted(set(paths[s]["fix"].split(":")[0] for s in ("gdm-password", "sddm", "cockpit", "xrdp-sesman")))' \
	"['authselect rewrites /etc/pam.d/password-auth']"
after_limits "$root/etc/authselect/system-auth"
after_limits "$root/etc/authselect/password-auth"
doctor
expect "fedora: after the shared files' line, the greeter runs the module too" \
	'(paths["gdm-launch-environment"]["verdict"], paths["gdm-launch-environment"]["steps"][-1]["file"])' \
	"('ok', '/etc/pam.d/system-auth')"

# Alpine: lightdm-greeter keeps no session line after Alpine's patch, so
# libpam runs other's session stack for it (not listed: asked for).
fresh alpine lib/security
timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	--service lightdm-greeter >"$work/out" 2>"$work/err"
status=$?
expect "alpine: lightdm-greeter runs other's stack, a greeter, and doctor exits 0 ($status)" \
	'(paths["lightdm-greeter"]["file"], paths["lightdm-greeter"]["verdict"])' \
	"('/usr/lib/pam.d/other', 'greeter')"
cp "$root/usr/lib/pam.d/base-session-noninteractive" "$root/etc/pam.d/"
after_limits "$root/etc/pam.d/base-session-noninteractive"
timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	--service lightdm-greeter >"$work/out" 2>"$work/err"
expect "alpine: after the procedure, other's stack runs the module for lightdm-greeter too" \
	'paths["lightdm-greeter"]["verdict"]' "ok"

# --- openSUSE Tumbleweed: vendor stacks in /usr/lib/pam.d, pam-config's
# common-*-pc in /etc/pam.d, and no pam_limits in either since 2024.
fresh opensuse usr/lib64/security
# pam-config's links are relative (symlink(2) of the bare -pc name), made
# here as pam-config makes them.
pamconfig_links() {
	for f in common-session common-session-nonlogin postlogin-session; do
		ln -sfn "$f-pc" "$root/etc/pam.d/$f" || exit 99
	done
}
pamconfig_links
doctor
expect "opensuse: the family, why, its tool, and its pam_limits" \
	'(doc["models"]["family"]["name"], doc["models"]["family"]["why"], doc["models"]["family"]["managed_by"], doc["models"]["pam_limits"])' \
	"('suse', 'ID=opensuse-tumbleweed in /etc/os-release', 'pam-config', 'upstream')"
expect "opensuse: every service misses the module, no -pc or postlogin file is a service, and doctor exits 1 ($status)" \
	"$verdicts + ' $status'" \
	"crond=missing login=missing polkit-1=missing remote=missing runuser=missing sshd=missing su=missing sudo=missing sudo-i=missing systemd-run0=missing systemd-user=missing 1"
suse_fix() {
	echo "pam-config rewrites /etc/pam.d/$1-pc, which /etc/pam.d/$1 links to: in /etc/pam.d replace common-session and common-session-nonlogin each by a copy of its -pc file (\`rm NAME; sed '/^#/d' NAME-pc > NAME\`), then add \"session optional pam_memlock.so\" to each, $2; pam-config changes no longer reach the copies"
}
expect "opensuse: sshd (a substack), login, remote, pkexec, sudo -i, run0 and the user manager reach common-session: the copy in place of pam-config's link" \
	'" | ".join(sorted(set(p["fix"] for s, p in paths.items() if s in ("login", "polkit-1", "remote", "sshd", "sudo-i", "systemd-run0", "systemd-user"))))' \
	"$(suse_fix common-session 'as its last line')"
expect "opensuse: su, sudo, cron and runuser reach common-session-nonlogin, and its fix says so" \
	'" | ".join(sorted(set(p["fix"] for s, p in paths.items() if s in ("crond", "runuser", "su", "sudo"))))' \
	"$(suse_fix common-session-nonlogin 'as its last line')"
mkdir -p "$root/etc/security/limits.d"
echo "$memlock_line" >"$root/etc/security/limits.d/90-memlock.conf"
doctor
expect "opensuse: no stack runs pam_limits, so a memlock line in limits.d changes nothing" "$limit" "(None, None)"

# Without pam-config, libpam falls back to the vendor files.
rm "$root/etc/pam.d/common-session" "$root/etc/pam.d/common-session-nonlogin"
doctor
expect "opensuse: without pam-config's links, the vendor common-session is read, and the fix copies it" \
	'paths["sshd"]["fix"]' \
	'copy /usr/lib/pam.d/common-session to /etc/pam.d/common-session and add "session optional pam_memlock.so" there, right after line 8: libpam reads /etc/pam.d first, and the package owns /usr/lib/pam.d/common-session'
for f in common-session common-session-nonlogin; do
	cp "$root/usr/lib/pam.d/$f" "$root/etc/pam.d/$f"
	echo "session optional pam_memlock.so" >>"$root/etc/pam.d/$f"
done
doctor
expect "opensuse: without them, the README's copies from /usr/lib/pam.d make every service ok" "$verdicts" \
	"crond=ok login=ok polkit-1=ok remote=ok runuser=ok sshd=ok su=ok sudo=ok sudo-i=ok systemd-run0=ok systemd-user=ok"
pamconfig_links

# pam-extra installed and `pam-config --add --limits`: pam_limits first in
# both -pc files.
: >"$root/usr/lib64/security/pam_limits.so"
for f in common-session-pc common-session-nonlogin-pc; do
	sed -i '0,/^session/s//session\trequired\tpam_limits.so\nsession/' "$root/etc/pam.d/$f"
done
doctor
expect "opensuse: with pam-extra's pam_limits in the -pc files, the memlock line sets the limit" "$limit" "(67108864, 67108864)"
expect "opensuse: with it, the line goes right after pam_limits" 'paths["sshd"]["fix"]' \
	"$(suse_fix common-session 'right after its pam_limits line')"
ln -sfn /etc/pam.d/common-session-pc "$root/etc/pam.d/common-session"
doctor
expect "opensuse: an absolute link is resolved inside the root" \
	'(paths["sshd"]["verdict"], paths["sshd"]["soft"])' "('missing', 67108864)"
pamconfig_links

# The README's procedure: each link replaced by a copy without comments,
# the line at its end.
for f in common-session common-session-nonlogin; do
	rm "$root/etc/pam.d/$f"
	sed '/^#/d' "$root/etc/pam.d/$f-pc" >"$root/etc/pam.d/$f"
	echo "session optional pam_memlock.so" >>"$root/etc/pam.d/$f"
done
doctor
expect "opensuse: after the procedure every service is ok, and doctor exits 0" "$verdicts + ' $status'" \
	"crond=ok login=ok polkit-1=ok remote=ok runuser=ok sshd=ok su=ok sudo=ok sudo-i=ok systemd-run0=ok systemd-user=ok 0"
expect "opensuse: after it, the policy decides over the memlock line" "$limit" "(268435456, 268435456)"

# --- Arch's lightdm: its package's lightdm and lightdm-autologin include
# system-login and system-local-login, so they reach system-auth; the
# greeter's stack, upstream's, runs pam_unix and pam_systemd only.
fresh arch usr/lib/security
doctor
expect "arch/lightdm: lightdm and lightdm-autologin miss the module and get sshd's fix (system-auth); lightdm-greeter is a greeter with none" \
	'[(s, paths[s]["verdict"], paths[s]["fix"] == paths["sshd"]["fix"]) for s in ("lightdm", "lightdm-autologin")] + [(paths["lightdm-greeter"]["verdict"], paths["lightdm-greeter"]["fix"])]' \
	"[('lightdm', 'missing', True), ('lightdm-autologin', 'missing', True), ('greeter', None)]"
after_limits "$root/etc/pam.d/system-auth"
mkdir -p "$root/usr/lib/systemd/system"
printf '[Service]\nExecStart=/usr/bin/lightdm\n' >"$root/usr/lib/systemd/system/lightdm.service"
doctor
expect "arch/lightdm: after system-auth's line, lightdm and lightdm-autologin run it there, in lightdm.service, and the greeter stays a greeter" \
	'[(s, paths[s]["verdict"], paths[s]["unit"], [(t["file"], t["line"], t["module"]) for t in paths[s]["steps"][1:]]) for s in ("lightdm", "lightdm-autologin", "lightdm-greeter")]' \
	"[('lightdm', 'ok', 'lightdm.service', [('/etc/pam.d/system-auth', 4, 'pam_limits'), ('/etc/pam.d/system-auth', 5, 'pam_memlock')]), ('lightdm-autologin', 'ok', 'lightdm.service', [('/etc/pam.d/system-auth', 4, 'pam_limits'), ('/etc/pam.d/system-auth', 5, 'pam_memlock')]), ('lightdm-greeter', 'greeter', 'lightdm.service', [])]"
