#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor --root reads nothing outside the root, whatever the
# image holds: an absolute symbolic link, a ".." in an include name or in
# conf=, a link into this machine's files from limits.d or a unit's
# drop-ins.  Each reaches, on this machine, a file outside the root that
# holds a marker doctor would quote or use; none may show.  strace shows
# that no device node in the root is opened but with O_PATH.  And: C1
# controls in names come out escaped; --root / is this machine.
# Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy files must be owned by root: run make check as root"
	exit 0
fi
echo "1..8"

work=$(mktemp -d /tmp/pml-doctor-root-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
root=$work/root
out=$work/outside
mkdir -p "$root/etc/pam.d" "$root/etc/security/limits.d" "$root/usr/lib/security" \
	"$root/etc/systemd/system/ssh.service.d" "$root/lib/systemd/system" "$out"
: >"$root/usr/lib/security/pam_permit.so"
: >"$root/usr/lib/security/pam_memlock.so"
: >"$root/usr/lib/security/pam_limits.so"
printf '[Service]\nExecStart=/usr/sbin/sshd\n' >"$root/lib/systemd/system/ssh.service"
echo 'limit = "8 MiB";' >"$root/etc/security/memlock.conf"
: >"$root/etc/security/limits.conf"
echo "session optional pam_permit.so" >"$root/etc/pam.d/other"

# Outside the root: what each trick would reach, each with its marker.
echo "secretmarker41 required pam_permit.so" >"$out/service"
echo "session required secretmarker42.so" >"$out/include"
echo 'secretmarker43 = "1";' >"$out/memlock.conf"
echo "nobody hard memlock 7777" >"$out/limits"
printf '[Service]\nLimitMEMLOCK=7777K\n' >"$out/unit"
up=../../../../../../../../../../../..

ln -s "$out/service" "$root/etc/pam.d/abs-link"
echo "session include $up$out/include" >"$root/etc/pam.d/dotdot-include"
echo "session optional pam_memlock.so conf=/etc/security/$up$out/memlock.conf" >"$root/etc/pam.d/dotdot-conf"
ln -s "$out" "$root/etc/evil"
echo "session optional pam_memlock.so conf=/etc/evil/memlock.conf" >"$root/etc/pam.d/link-conf"
ln -s "$out/limits" "$root/etc/security/limits.d/50-evil.conf"
ln -s "$out/unit" "$root/etc/systemd/system/ssh.service.d/50-evil.conf"
printf 'session required pam_limits.so\nsession optional pam_memlock.so\n' >"$root/etc/pam.d/sshd"

# doctor ARGS...: output in $work/out.
doctor() { timeout 20 "$ctl" doctor --root "$root" "$@" >"$work/out" 2>&1; }

for case in abs-link:secretmarker41 dotdot-include:secretmarker42 \
	dotdot-conf:secretmarker43 link-conf:secretmarker43; do
	service=${case%%:*} marker=${case#*:}
	doctor --service "$service" --json
	if grep -q "$marker" "$work/out"; then
		not_ok "$service: nothing outside the root is read or quoted" "$(grep "$marker" "$work/out" | head -3)"
	elif ! grep -q '"verdict"' "$work/out"; then
		not_ok "$service: nothing outside the root is read or quoted" "no verdict: $(head -3 "$work/out")"
	else
		ok "$service: nothing outside the root is read or quoted"
	fi
done

# limits.d and a unit's drop-in: a link to this machine's 7777 KiB.
doctor nobody --service sshd --json
if grep -q '7964648\|7777' "$work/out"; then
	not_ok "limits.d and unit drop-ins: links resolve inside the root" "$(grep -o '[^"]*7777[^"]*\|7964648' "$work/out" | head -3)"
else
	ok "limits.d and unit drop-ins: links resolve inside the root"
fi

# A device node where a stack, a limits file and a drop-in are read: seen
# through O_PATH, never opened.
if ! command -v strace >/dev/null; then
	skip "device nodes are never opened" "strace is not installed"
elif ! mknod "$root/etc/pam.d/devnode" c 1 3 2>/dev/null; then
	skip "device nodes are never opened" "mknod is not permitted here"
else
	mknod "$root/etc/security/limits.d/60-dev.conf" c 1 3
	mknod "$root/etc/systemd/system/ssh.service.d/60-dev.conf" c 1 3
	strace -f -e trace=open,openat,openat2 -o "$work/trace" \
		"$ctl" doctor --root "$root" nobody --service devnode --service sshd >/dev/null 2>&1
	opened=$(grep -E '(devnode|60-dev\.conf)' "$work/trace" | grep -v 'O_PATH' | grep -v ENOENT)
	seen=$(grep -c -E '(devnode|60-dev\.conf)' "$work/trace")
	if [ -n "$opened" ]; then
		not_ok "device nodes are never opened" "$opened"
	elif [ "$seen" -eq 0 ]; then
		not_ok "device nodes are never opened" "strace saw no look at them: the test sees nothing"
	else
		ok "device nodes are never opened ($seen looks, all O_PATH)"
	fi
fi

# C1 controls (U+009B, a terminal's CSI, and U+009D) in a service's name
# and an argument: escaped in the text output.
printf 'session optional pam_memlock.so conf=/etc/security/memlock\xc2\x9d.conf\n' \
	>"$root/etc/pam.d/c1-"$'\xc2\x9b'
doctor --service c1-$'\xc2\x9b'
if LC_ALL=C grep -q $'\xc2[\x9b\x9d]' "$work/out"; then
	not_ok "C1 controls are escaped in text output" "$(cat -v "$work/out" | head -5)"
elif ! grep -q 'c1-\\xc2\\x9b' "$work/out"; then
	not_ok "C1 controls are escaped in text output" "no escaped name: $(cat -v "$work/out" | head -5)"
else
	ok "C1 controls are escaped in text output"
fi

# --root / is this machine: PID 1's limits read from /proc.
timeout 20 "$ctl" doctor --root / --json --service sshd >"$work/out" 2>&1
if "${PML_PYTHON:-python3}" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["models"]["pid1"]["source"]=="/proc/1/limits" else 1)' "$work/out"; then
	ok "--root / reads PID 1's limits, as without --root"
else
	not_ok "--root / reads PID 1's limits, as without --root" "$(head -c 600 "$work/out")"
fi
