#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The check-vm cases, run by the VM's init as root with every capability,
# in a tmpfs overlay over the host's read-only /.  It edits /etc freely:
# the overlay is the VM's own, gone at power-off.  Prints TAP.
#
# Here, unlike on the build machine, the module can raise the HARD limit:
# every session starts from 64 KiB soft and hard, the default of kernels
# before 5.16.
if [ ! -e /.pml-vm-guest ] || [ "$(cat /proc/1/comm 2>/dev/null)" != init ]; then
	echo "guest.sh runs only inside the check-vm VM" >&2
	exit 1
fi
. /.pml-vm-guest
. "$PML_SRCDIR/tests/e2e/lib.sh"
# The module's syslog lines, shown with any failing case.
E2E_CASE=/tmp/pml-vm-logs
mkdir -p "$E2E_CASE"
if command -v busybox >/dev/null; then
	# Not on the pipe to init: that would keep the TAP stream open.
	busybox syslogd -n -O "$E2E_CASE/syslog.log" </dev/null >/dev/null 2>&1 &
	syslogd_pid=$!
	trap 'kill $syslogd_pid 2>/dev/null' EXIT
	sleep 0.3
fi

OLD_KERNEL=65536:65536
MIB=1048576

# The test user, its group and supplementary group, a home, the probe.
sed "s|@HOME@|/home/$E2E_USER|" "$e2e_dir/fixtures/passwd" >>/etc/passwd
cat "$e2e_dir/fixtures/group" >>/etc/group
cat "$e2e_dir/fixtures/shadow" >>/etc/shadow
mkdir -p "/home/$E2E_USER" && chown "$E2E_UID:$E2E_UID" "/home/$E2E_USER"
probe=/usr/local/bin/pml_uring_probe
mkdir -p /usr/local/bin /etc/security/pml-vm
cp "$PML_BUILDDIR/tests/e2e/uring_probe" "$probe" 2>/dev/null && chmod 0755 "$probe"
conf=/etc/security/pml-vm/memlock.conf

# session START CONTROL POLICY COMMAND: runuser -l to the test user from the
# limits START (soft:hard bytes) through a PAM stack with the module
# (CONTROL optional/required) or without it (none); prints COMMAND's output
# and the exit status, joined on one line.
session() {
	local start=$1 control=$2 text=$3 command=$4 module_line="" service
	: >"$E2E_CASE/syslog.log"
	printf '%s\n' "$text" >"$conf"
	chmod 0644 "$conf"
	[ "$control" = none ] || module_line="session $control $PML_MODULE conf=$conf debug"
	for service in runuser runuser-l; do
		cat >"/etc/pam.d/$service" <<-PAM
		auth     sufficient pam_rootok.so
		account  required   pam_permit.so
		session  required   pam_permit.so
		$module_line
		PAM
	done
	{
		prlimit --memlock="$start" runuser -l "$E2E_USER" -c "$command" </dev/null
		echo "exit=$?"
	} 2>/dev/null | tr '\n' ' ' | sed 's/ *$//'
}

# ssh_session POLICY COMMAND: a real sshd, started with 64 KiB soft and hard,
# with the module in its session stack; the test user logs in with a key
# and runs COMMAND.  Prints the output and the ssh client's exit status.
ssh_session() {
	local text=$1 command=$2 dir=/tmp/pml-vm-ssh i
	printf '%s\n' "$text" >"$conf"
	cat >/etc/pam.d/sshd <<-PAM
	auth     required pam_deny.so
	account  required pam_permit.so
	session  required pam_permit.so
	session  optional $PML_MODULE conf=$conf
	PAM
	if [ ! -d "$dir" ]; then
		mkdir -p -m 0755 "$dir" /run/sshd
		ip link set lo up
		ssh-keygen -q -t ed25519 -N '' -f "$dir/ssh_host_ed25519_key" </dev/null
		ssh-keygen -q -t ed25519 -N '' -f "$dir/id_ed25519" </dev/null
		cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
		chmod 0644 "$dir/authorized_keys"
	fi
	sed -e "s|@PORT@|22|" -e "s|@DIR@|$dir|" "$e2e_dir/sshd_config.in" >"$dir/sshd_config"
	: >"$E2E_CASE/sshd.log"
	prlimit --memlock=$OLD_KERNEL /usr/sbin/sshd -D -e -f "$dir/sshd_config" \
		2>>"$E2E_CASE/sshd.log" </dev/null >/dev/null &
	local sshd_pid=$!
	for i in $(seq 100); do
		grep -q 'Server listening' "$E2E_CASE/sshd.log" && break
		sleep 0.1
	done
	{
		ssh -F /dev/null -i "$dir/id_ed25519" -p 22 -o StrictHostKeyChecking=no \
			-o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
			-o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=30 \
			"$E2E_USER@127.0.0.1" "$command" </dev/null
		echo "exit=$?"
	} 2>/dev/null | tr '\n' ' ' | sed 's/ *$//'
	kill "$sshd_pid" 2>/dev/null
	wait "$sshd_pid" 2>/dev/null
}

show='ulimit -Sl; ulimit -Hl'
share_bytes=$(e2e_share_bytes 2000)

tap_plan 13

tap_is "no module: the session keeps 64 KiB soft and hard" \
	"$(session $OLD_KERNEL none 'limit = "8 MiB";' "$show")" "64 64 exit=0"

tap_is "shipped policy from 64 KiB: 8 MiB soft and hard (hard raised)" \
	"$(session $OLD_KERNEL optional "$(cat "$PML_SRCDIR/conf/memlock.conf")" "$show")" \
	"8192 8192 exit=0"

if [ "$share_bytes" -gt 8388608 ]; then
	tap_is "2% of the VM's RAM: $share_bytes bytes, above 8 MiB" \
		"$(session $OLD_KERNEL optional 'limit = "2%";' "$E2E_SHOW_BYTES")" \
		"$share_bytes $share_bytes exit=0"
else
	tap_not_ok "2% of the VM's RAM should be above 8 MiB, is $share_bytes bytes (VM too small?)"
fi

tap_is "group rule for the supplementary group: unlimited" \
	"$(session $OLD_KERNEL optional 'rules = ( { group = "pmlgrp"; limit = "unlimited"; } );' "$show")" \
	"unlimited unlimited exit=0"

tap_is "raise mode keeps a higher hard limit (64 MiB)" \
	"$(session 65536:67108864 optional 'limit = "8 MiB";' "$show")" "8192 65536 exit=0"

tap_is "raise mode never lowers (16 MiB stays)" \
	"$(session 16777216:16777216 optional 'limit = "8 MiB";' "$show")" "16384 16384 exit=0"

tap_is "set mode lowers 16 MiB to 8 MiB" \
	"$(session 16777216:16777216 optional 'limit = "8 MiB"; mode = "set";' "$show")" \
	"8192 8192 exit=0"

got=$(session $OLD_KERNEL required 'limit = "8 MiB" junk;' "$show")
if [[ $got =~ ^exit=[1-9][0-9]*$ ]]; then
	tap_ok "broken policy under required: session refused ($got)"
else
	tap_is "broken policy under required: session refused" "$got" "exit=<non-zero>, no output"
fi

if [ ! -x "$probe" ]; then
	for i in 1 2 3; do tap_skip "io_uring 16 MiB fixed buffer" "uring_probe was not built"; done
else
	got=$(session $OLD_KERNEL none 'limit = "8 MiB";' "ulimit -Sl; $probe $((16 * MIB))")
	case $got in
	*unusable*)
		for i in 1 2 3; do tap_skip "io_uring 16 MiB fixed buffer" "io_uring unusable: $got"; done ;;
	*)
		tap_is "io_uring at 64 KiB, no module: 16 MiB fixed buffer refused" \
			"$got" "64 ENOMEM exit=2"
		tap_is "io_uring with the shipped 8 MiB: 16 MiB fixed buffer still refused" \
			"$(session $OLD_KERNEL optional 'limit = "8 MiB";' "ulimit -Sl; $probe $((16 * MIB))")" \
			"8192 ENOMEM exit=2"
		tap_is "io_uring after login with 32 MiB: 16 MiB fixed buffer registers" \
			"$(session $OLD_KERNEL optional 'limit = "32 MiB";' "ulimit -Sl; $probe $((16 * MIB))")" \
			"32768 registered exit=0" ;;
	esac
fi

if [ ! -x /usr/sbin/sshd ] || ! command -v ssh >/dev/null; then
	tap_skip "sshd from 64 KiB" "openssh-server or -client missing"
	tap_skip "sshd io_uring" "openssh-server or -client missing"
else
	tap_is "sshd from 64 KiB soft and hard, shipped policy: 8 MiB in the login shell" \
		"$(ssh_session "$(cat "$PML_SRCDIR/conf/memlock.conf")" "$show")" \
		"8192 8192 exit=0"
	if [ -x "$probe" ] && [[ $got != *unusable* ]]; then
		tap_is "sshd with 32 MiB: a 16 MiB io_uring fixed buffer registers in the ssh session" \
			"$(ssh_session 'limit = "32 MiB";' "ulimit -Sl; ulimit -Hl; $probe $((16 * MIB))")" \
			"32768 32768 registered exit=0"
	else
		tap_skip "sshd io_uring" "uring_probe missing or io_uring unusable"
	fi
fi
