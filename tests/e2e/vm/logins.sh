# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# What the check-vm guests of the systemd boots share, sourced first by
# systemd-guest.sh (Debian 12, this machine's own root) and
# debian13-guest.sh (a Debian 13 root): when sourced it sends the script's
# TAP to the second serial port (running the script again for that), makes
# the test user (a password, a key for sshd, a crontab) and starts sshd and
# cron; then it defines the ways into a session, each of which prints the
# session's limits ("SOFT HARD", bytes), the README's Debian steps, and
# memlockctl doctor's summary.
#
# The overlay is the VM's own, gone at power-off: /etc is edited freely.
if [ ! -e /.pml-vm-guest ] || [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
	echo "${0##*/} runs only inside the check-vm VM booted with systemd" >&2
	exit 1
fi
if [ -z "${PML_VM_TAP:-}" ]; then
	PML_VM_TAP=1 bash "$0" 2>&1 | sed -u 's/^/PMLTAP /' >/dev/ttyS1
	# Everything written must be out of the port before the power goes.
	python3 -c 'import os, termios; termios.tcdrain(os.open("/dev/ttyS1", os.O_WRONLY | os.O_NOCTTY))'
	exit 0
fi
. /.pml-vm-guest
. "$PML_SRCDIR/tests/e2e/lib.sh"
export DEBIAN_FRONTEND=noninteractive
E2E_CASE=/tmp/pml-vm-logs
mkdir -p "$E2E_CASE"

MIB=1048576
POLICY_BYTES=$((256 * MIB))
CRON_BYTES=$((300 * MIB))
SERVICE_BYTES=65536
POLICY="$POLICY_BYTES $POLICY_BYTES"
CRON="$CRON_BYTES $CRON_BYTES"
PASSWORD=pml-vm-Secret-1
HOME_DIR=/home/$E2E_USER
README=$PML_SRCDIR/README

# --- How the machine came up ---------------------------------------------
usec=$(systemctl show -P ActiveEnterTimestampMonotonic multi-user.target)
echo "# multi-user.target reached $((usec / 1000000)).$(printf %06d $((usec % 1000000)) | cut -c1-2) s after the kernel started"
systemctl --failed --no-legend --plain 2>&1 | sed 's/^/# failed unit: /'

# limits_of PID: "SOFT HARD" in bytes, or "unlimited".
limits_of() {
	awk '/^Max locked memory/ { print $4, $5 }' "/proc/$1/limits" 2>/dev/null
}
PID1=$(limits_of 1)

# --- The test user, with a password, a key for sshd and a crontab ----------
sed "s|@HOME@|$HOME_DIR|" "$e2e_dir/fixtures/passwd" >>/etc/passwd
cat "$e2e_dir/fixtures/group" >>/etc/group
cat "$e2e_dir/fixtures/shadow" >>/etc/shadow
echo "$E2E_USER:$PASSWORD" | chpasswd
mkdir -p -m 0755 "$HOME_DIR/.ssh"
ssh_dir=/root/pml-vm-ssh
mkdir -p -m 0700 "$ssh_dir"
ssh-keygen -q -t ed25519 -N '' -f "$ssh_dir/id_ed25519" </dev/null
cp "$ssh_dir/id_ed25519.pub" "$HOME_DIR/.ssh/authorized_keys"
chown -R "$E2E_UID:$E2E_UID" "$HOME_DIR"
# What every session runs: its own limits in bytes, soft then hard.
mkdir -p /usr/local/bin
cat >/usr/local/bin/pml-limits <<'SH'
#!/bin/sh
exec awk '/^Max locked memory/ { print $4, $5 }' /proc/self/limits
SH
chmod 0755 /usr/local/bin/pml-limits
show=/usr/local/bin/pml-limits
probe=/usr/local/bin/pml_uring_probe
cp "$PML_BUILDDIR/tests/e2e/uring_probe" "$probe" 2>/dev/null && chmod 0755 "$probe"
# sshd and cron are this machine's own units; a machine where the packages'
# postinst did not enable them (a container image) still has them here.
[ -e /etc/ssh/ssh_host_ed25519_key ] || ssh-keygen -A >/dev/null
systemctl start ssh.service cron.service
journal_cursor() { journalctl -n 1 -o export 2>/dev/null | sed -n 's/^__CURSOR=//p'; }

# --- Ways into a session; each prints the session's limits ----------------
ssh_login() {	# ssh_login COMMAND
	ssh -F /dev/null -i "$ssh_dir/id_ed25519" -o StrictHostKeyChecking=no \
		-o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
		-o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=60 \
		"$E2E_USER@127.0.0.1" "$1" </dev/null 2>"$E2E_CASE/ssh.log" |
		tr '\n' ' ' | sed 's/ *$//'
}
console_login() {
	python3 "$e2e_dir/vm/pty_login.py" "$E2E_USER" "$PASSWORD" "$show" \
		</dev/null 2>"$E2E_CASE/login.log"
}
su_login() { su -l "$E2E_USER" -c "$show" </dev/null; }
su_plain() { su "$E2E_USER" -c "$show" </dev/null; }
sudo_login() { sudo -i -u "$E2E_USER" "$show" </dev/null; }
sudo_plain() { sudo -u "$E2E_USER" "$show" </dev/null; }
runuser_login() { runuser -l "$E2E_USER" -c "$show" </dev/null; }
runuser_plain() { runuser -u "$E2E_USER" -- "$show" </dev/null; }
pamname_service() {
	systemd-run --quiet --wait --pipe -p PAMName=login -p User="$E2E_USER" "$show" </dev/null
}
# A service of the user's own manager (user@UID.service).
user_service() {
	runuser -u "$E2E_USER" -- env XDG_RUNTIME_DIR="/run/user/$E2E_UID" \
		systemd-run --user --quiet --wait --pipe "$show" </dev/null
}
user_manager() {
	limits_of "$(systemctl show -P MainPID "user@$E2E_UID.service")"
}
# A crontab line that runs every minute, and cron started 3 s before a
# minute begins (the clock is the VM's own to set), so that the job runs
# through /etc/pam.d/cron within seconds instead of up to a minute.
cron_job() {
	local out=$HOME_DIR/cron.out i now
	rm -f "$out" "$out.tmp"
	systemctl stop cron.service
	now=$(date +%s)
	date -s "@$(((now / 60 + 1) * 60 - 3))" >/dev/null
	systemctl start cron.service
	for i in $(seq 900); do
		[ -s "$out" ] && break
		sleep 0.1
	done
	cat "$out" 2>/dev/null
}
printf 'MAILTO=""\n* * * * * %s >%s.tmp && mv %s.tmp %s\n' \
	"$show" "$HOME_DIR/cron.out" "$HOME_DIR/cron.out" "$HOME_DIR/cron.out" |
	crontab -u "$E2E_USER" -

# readme_step N: the README's block that starts "# Debian step N:", up to
# the first blank line, without its indentation.
readme_step() {
	awk -v n="$1" '
		$0 ~ "^    # Debian step " n ":" { on = 1 }
		on && /^$/ { exit }
		on { sub(/^    /, ""); print }' "$README"
}
run_readme_step() {	# run_readme_step N: runs it; prints the commands run
	local step
	step=$(readme_step "$1")
	[ -n "$step" ] || { echo "# README has no \"Debian step $1\" block"; return 1; }
	echo "$step" | sed 's/^/#   /'
	bash -e -c "$step" >"$E2E_CASE/step$1.log" 2>&1 || {
		tap_diag "$E2E_CASE/step$1.log"
		return 1
	}
}

# stack_order SERVICE: where the service's stack has pam_limits against its
# include of the common session stack, as the README and pam_memlock(8)
# describe Debian's stacks.
stack_order() {
	local f=/etc/pam.d/$1
	[ -e "$f" ] || f=/usr/lib/pam.d/$1
	awk -v s="$1" '
		/^[ \t]*#/ { next }
		/^session[ \t].*pam_limits\.so/ && !l { l = NR }
		/^@include[ \t]+common-session/ && !i { i = NR }
		/^session[ \t]+include[ \t]/ { inc = $3 }
		END {
			if (l && i) print s ":" (l < i ? "limits<common" : "common<limits")
			else if (l) print s ":limits,no-common"
			else if (i) print s ":common,no-limits"
			else if (inc) print s ":includes-" inc
			else print s ":?"
		}' "$f"
}

# doctor_run [--limits] [--start] SERVICE...: one run of doctor for the
# test user's paths, summed up by doctor_summary.py (which says the format)
# in one go: python starts slowly under TCG.  doctor_path SERVICE: its line
# for SERVICE, without the name.
doctor_run() {
	local args=() arg
	for arg in "$@"; do [[ $arg == --* ]] || args+=(--service "$arg"); done
	memlockctl doctor "$E2E_USER" "${args[@]}" --json >"$E2E_CASE/doctor.json" \
		2>"$E2E_CASE/doctor.err"
	python3 "$e2e_dir/vm/doctor_summary.py" "$@" <"$E2E_CASE/doctor.json" \
		>"$E2E_CASE/doctor.sum"
}
doctor_path() { sed -n "s/^$1 //p" "$E2E_CASE/doctor.sum"; }
# limits_line FILE: the line of FILE's pam_limits session line.
limits_line() {
	grep -n '^session[[:space:]].*pam_limits\.so' "$1" | head -n 1 | cut -d: -f1
}
uptime_note() { echo "# $1: $(cut -d' ' -f1 /proc/uptime) s of uptime"; }

session_journal() {	# session_journal COMMAND: an ssh login; its pam_memlock lines
	local cursor
	cursor=$(journal_cursor)
	ssh_login "$1" >"$E2E_CASE/out"
	echo >>"$E2E_CASE/out"
	journalctl --sync
	# sshd's own lines: the user manager that this login starts runs the
	# module too (systemd-user), and may log within the same window.
	journalctl --after-cursor="$cursor" -o cat --no-pager 2>/dev/null |
		grep -F 'pam_memlock(sshd:session)' >"$E2E_CASE/journal.log"
}

user_conf() {	# user_conf VALUE: set it, restart the user manager
	sed -i '/^DefaultLimitMEMLOCK=/d' /etc/systemd/user.conf
	echo "DefaultLimitMEMLOCK=$1" >>/etc/systemd/user.conf
	systemctl restart "user@$E2E_UID.service"
}
