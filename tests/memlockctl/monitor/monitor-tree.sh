# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Saved roots for memlockctl's --root: sourced by tests/memlockctl/monitor/monitor.sh and
# tests/fleet/node-exporter.sh, so that both read the same figures.

# tree DIR: a root whose one service, sshd, doctor finds ok; pam_memlock
# names its policy, so doctor reads the root's and not --conf's.
tree() {
	local r=$1
	mkdir -p "$r/etc/pam.d" "$r/etc/security" "$r/usr/lib/security" "$r/lib/systemd/system" \
		"$r/proc" "$r/run/systemd/sessions"
	for m in pam_permit pam_memlock pam_limits; do : >"$r/usr/lib/security/$m.so"; done
	printf '[Service]\nExecStart=/usr/sbin/sshd\n' >"$r/lib/systemd/system/ssh.service"
	echo 'limit = "8 MiB";' >"$r/etc/security/memlock.conf"
	: >"$r/etc/security/limits.conf"
	printf 'session required pam_limits.so\nsession optional pam_memlock.so conf=/etc/security/memlock.conf\n' \
		>"$r/etc/pam.d/sshd"
}
# proc DIR PID SOFT LOCKED-KB PINNED-KB: a process of nobody's in login
# session PID (service sshd), with RLIMIT_MEMLOCK SOFT (and hard).
proc() {
	local d=$1/proc/$2
	mkdir -p "$d"
	echo "$2 (saved) S 1 $2 $2 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4242 1 1" >"$d/stat"
	printf 'Name:\tsaved\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nVmLck:\t%8s kB\nVmPin:\t%8s kB\n' \
		"$4" "$5" >"$d/status"
	printf 'Limit Soft Hard Units\nMax locked memory         %-20s %-20s bytes\n' "$3" "$3" >"$d/limits"
	echo 65534 >"$d/loginuid"
	echo "$2" >"$d/sessionid"
	printf 'SERVICE=sshd\n' >"$1/run/systemd/sessions/$2"
}
