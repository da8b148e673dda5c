#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The check-vm cases of the systemd boot, run by pml-vm-guest.service once
# the VM has reached multi-user.target.  PID 1 is this machine's systemd,
# with DefaultLimitMEMLOCK=64K; logind, dbus, sshd and cron are this
# machine's own, started by it.  The module is installed the way a Debian
# administrator installs it, then enabled with the README's Debian steps,
# which this script reads out of the README itself: the docs and the test
# cannot drift apart.  Each case logs in through a real login path and
# reads the limit inside the session.  Prints TAP on the second serial
# port; the host's harness prints it.
#
# The overlay is the VM's own, gone at power-off: /etc is edited freely.
. "$(dirname "$0")/logins.sh"
. "$e2e_dir/vm/postgres-case.sh"
. "$e2e_dir/vm/unit-cases.sh"
tap_plan $((64 + POSTGRES_BOOT_CASES + POSTGRES_CASES + UNIT_CASES))
echo "# PID 1's RLIMIT_MEMLOCK: $PID1 (soft hard, bytes); services: DefaultLimitMEMLOCK=64K"

# --- The generator at boot: PostgreSQL 15 as the boot started it -------------
# (tests/e2e/vm.sh seeded the generator and a unit rule where this build
# reads its policy; the cases remove them.)
postgres_boot_cases 15 "$PML_SYSCONFDIR/security/memlock.conf"

# --- 0. Before anything is installed ---------------------------------------
tap_is "Debian's stacks: pam_limits before the common session in login, su, sudo, sudo-i, systemd-user; after it in sshd, cron; runuser has none" \
	"$(for s in login su su-l sudo sudo-i systemd-user sshd cron runuser runuser-l; do
		stack_order $s; done | tr '\n' ' ' | sed 's/ $//')" \
	"login:limits<common su:limits<common su-l:includes-su sudo:limits<common sudo-i:limits<common systemd-user:limits<common sshd:common<limits cron:common<limits runuser:limits,no-common runuser-l:includes-runuser"
tap_is "services start at DefaultLimitMEMLOCK=64K: sshd's daemon has 64 KiB soft and hard" \
	"$(limits_of "$(systemctl show -P MainPID ssh.service)")" "$SERVICE_BYTES $SERVICE_BYTES"
case $PID1 in
"$SERVICE_BYTES "* | "$POLICY_BYTES "* | "$CRON_BYTES "* | "" | unlimited*)
	tap_not_ok "PID 1's limit ($PID1) must differ from 64 KiB, 256 MiB and 300 MiB to tell them apart" ;;
*)
	tap_ok "PID 1's limit, $PID1, differs from the service's 64 KiB and the policy's 256 and 300 MiB" ;;
esac
tap_is "no pam_memlock: an sshd session gets PID 1's $PID1 from Debian's pam_limits, not sshd's 64 KiB" \
	"$(ssh_login "$show")" "$PID1"

# --- Install, as a Debian administrator does --------------------------------
# (the files of make install with Debian's layout, by hand: this tree is
# built with configure's defaults).
moddir=/lib/x86_64-linux-gnu/security
install -m 0644 "$PML_MODULE" "$moddir/pam_memlock.so"
install -m 0755 "$PML_BUILDDIR/memlockctl" /usr/sbin/memlockctl
# The generator where systemd looks for an administrator's own; the boot
# masked the generators this machine has, not this one.
install -m 0755 "$PML_BUILDDIR/pam-memlock-generator" /etc/systemd/system-generators/
install -m 0644 "$PML_SRCDIR/conf/pam-configs/memlock" /usr/share/pam-configs/memlock
# The policy goes where this build looks for it ($PML_SYSCONFDIR/security).
conf=$PML_SYSCONFDIR/security/memlock.conf
mkdir -p -m 0755 "${conf%/*}"
cat >"$conf" <<'CONF'
limit = "256 MiB";
rules = (
  { service = "cron"; limit = "300 MiB"; }
);
CONF
chmod 0644 "$conf"
echo "# policy $conf: 256 MiB, 300 MiB for service \"cron\""

# --- 1. The README's Debian step 1 alone -----------------------------------
echo "# README, Debian step 1:"
if run_readme_step 1; then
	tap_ok "README Debian step 1 runs"
else
	tap_not_ok "README Debian step 1 runs"
fi
declare -A measured
measured[sshd]=$(ssh_login "$show")
tap_is "step 1 only: sshd (pam_limits after common-session) is overridden with PID 1's $PID1" \
	"${measured[sshd]}" "$PID1"
measured[cron]=$(cron_job)
tap_is "step 1 only: a cron job (pam_limits after common-session-noninteractive) is overridden with PID 1's $PID1" \
	"${measured[cron]}" "$PID1"
measured[runuser-l]=$(runuser_login)
tap_is "step 1 only: runuser -l (no common-session) gets PID 1's $PID1 from pam_limits" \
	"${measured[runuser-l]}" "$PID1"

# --- memlockctl doctor against those sessions --------------------------------
sshd_limits=/etc/pam.d/sshd:$(limits_line /etc/pam.d/sshd)
cron_limits=/etc/pam.d/cron:$(limits_line /etc/pam.d/cron)
runuser_limits=/etc/pam.d/runuser:$(limits_line /etc/pam.d/runuser)
uptime_note "doctor after step 1"
doctor_run --limits --start sshd cron runuser-l
# sshd's path starts from ssh.service: no LimitMEMLOCK, so the manager's
# DefaultLimitMEMLOCK=64K of the VM's system.conf.d drop-in.
tap_is "doctor, step 1 only, sshd: overridden by pam_limits at $sshd_limits, start 64 KiB (system.conf.d), predicts the measured ${measured[sshd]}" \
	"$(doctor_path sshd)" \
	"overridden ${measured[sshd]} pam_limits@$sshd_limits start=$SERVICE_BYTES:$SERVICE_BYTES"
tap_is "doctor, step 1 only, cron: overridden by pam_limits at $cron_limits, start 64 KiB, predicts the measured ${measured[cron]}" \
	"$(doctor_path cron)" \
	"overridden ${measured[cron]} pam_limits@$cron_limits start=$SERVICE_BYTES:$SERVICE_BYTES"
# runuser starts from its caller's limits: unknown until pam_limits.
tap_is "doctor, step 1 only, runuser-l: missing, start unknown (the caller's), pam_limits at $runuser_limits predicts the measured ${measured[runuser-l]}" \
	"$(doctor_path runuser-l)" \
	"missing ${measured[runuser-l]} pam_limits@$runuser_limits start=unknown:unknown"

# --- 2. The README's Debian step 2: every path ------------------------------
echo "# README, Debian step 2:"
if run_readme_step 2; then
	tap_ok "README Debian step 2 runs"
else
	tap_not_ok "README Debian step 2 runs"
fi
cursor=$(journal_cursor)
got=$(ssh_login "$show; $probe $((16 * MIB))")
journalctl --sync
journalctl --after-cursor="$cursor" -o short-monotonic --no-pager 2>/dev/null |
	grep pam_memlock >"$E2E_CASE/journal.log"
tap_is "sshd key login: 256 MiB soft and hard, and a 16 MiB io_uring buffer registers" \
	"$got" "$POLICY registered"
measured[sshd]=$(echo "$got" | cut -d' ' -f1,2)
# The module is in that stack twice: from common-session, and after
# pam_limits.  The later run decided (above); neither logged anything.
tap_is "sshd's stack has the module twice, and the journal has no pam_memlock line for the session" \
	"$(grep -c pam_memlock /etc/pam.d/common-session /etc/pam.d/sshd | tr '\n' ' ')$(cat "$E2E_CASE/journal.log")" \
	"/etc/pam.d/common-session:1 /etc/pam.d/sshd:1 "

# The same twice-stacked sshd, with debug on both lines: two decisions,
# and the second, after pam_limits, is what the session has.
cp /etc/pam.d/common-session /etc/pam.d/sshd "$E2E_CASE/"
sed -i 's/pam_memlock\.so/& debug/' /etc/pam.d/common-session /etc/pam.d/sshd
session_journal "$show"
sed 's/^/# journal: /' "$E2E_CASE/journal.log"
tap_is "twice in sshd's stack, with debug: two decisions logged, the session has the second's 256 MiB" \
	"$(grep -c ' decides, ' "$E2E_CASE/journal.log") $(cat "$E2E_CASE/out")" "2 $POLICY"
cp "$E2E_CASE/common-session" "$E2E_CASE/sshd" /etc/pam.d/
# A policy that warns (soft above hard): once per session, not once per run.
cp "$conf" "$E2E_CASE/memlock.conf"
printf 'soft = "512 MiB";\nhard = "256 MiB";\n' >"$conf"
session_journal "$show"
sed 's/^/# journal: /' "$E2E_CASE/journal.log"
# What the first run of a handle logged, the second does not log again.
tap_is "twice in sshd's stack, a policy that warns: one warning for the session, 256 MiB" \
	"$(grep -c 'soft lowered' "$E2E_CASE/journal.log") $(cat "$E2E_CASE/out")" "1 $POLICY"
cp "$E2E_CASE/memlock.conf" "$conf"

measured[login]=$(console_login)
tap_is "console login: login(1) on a pseudo-terminal, password typed: 256 MiB" \
	"${measured[login]}" "$POLICY"
measured[su-l]=$(su_login)
tap_is "su -l: 256 MiB" "${measured[su-l]}" "$POLICY"
measured[su]=$(su_plain)
tap_is "su (not -l): 256 MiB" "${measured[su]}" "$POLICY"
measured[sudo-i]=$(sudo_login)
tap_is "sudo -i: 256 MiB" "${measured[sudo-i]}" "$POLICY"
measured[sudo]=$(sudo_plain)
tap_is "sudo (not -i): 256 MiB" "${measured[sudo]}" "$POLICY"
measured[runuser-l]=$(runuser_login)
tap_is "runuser -l, with the line after pam_limits in /etc/pam.d/runuser: 256 MiB" \
	"${measured[runuser-l]}" "$POLICY"
measured[runuser]=$(runuser_plain)
tap_is "runuser -u (service runuser), with the line after pam_limits: 256 MiB" \
	"${measured[runuser]}" "$POLICY"
tap_is "systemd-run -p PAMName=login -p User=$E2E_USER: 256 MiB" "$(pamname_service)" "$POLICY"

# The user manager: started afresh (an earlier login may have started it
# before the module was installed), through the systemd-user stack.
loginctl enable-linger "$E2E_USER"
systemctl restart "user@$E2E_UID.service"
tap_is "user@$E2E_UID.service, the user manager (systemd-user stack): 256 MiB" \
	"$(user_manager)" "$POLICY"
measured[systemd-user]=$(user_service)
tap_is "a systemd-run --user service inherits the user manager's 256 MiB" \
	"${measured[systemd-user]}" "$POLICY"
measured[cron]=$(cron_job)
tap_is "a cron job, with the rule for service \"cron\": 300 MiB" "${measured[cron]}" "$CRON"
# doctor after both steps: every measured path ok, predicted = measured.
uptime_note "doctor after step 2"
doctor_run sshd login su su-l sudo sudo-i runuser runuser-l systemd-user cron
for service in sshd login su su-l sudo sudo-i runuser runuser-l systemd-user cron; do
	tap_is "doctor, both steps, $service: ok, predicts the measured ${measured[$service]}" \
		"$(doctor_path "$service")" "ok ${measured[$service]}"
done
tap_is "memlockctl explain $E2E_USER --service cron, installed in /usr/sbin: 300 MiB too" \
	"$(memlockctl explain "$E2E_USER" --service cron --json 2>&1 |
		sed -n 's/^  "\(soft\|hard\)": \([0-9]*\),$/\2/p' | tr '\n' ' ' | sed 's/ $//')" "$CRON"

# --- DefaultLimitMEMLOCK= in /etc/systemd/user.conf --------------------------
# Read when the user manager starts.  Below the session's limit it lowers
# every user service; above it, the manager cannot raise its own hard
# limit and gives its services what it has.
user_conf 64K
tap_is "user.conf DefaultLimitMEMLOCK=64K: the user manager keeps 256 MiB" \
	"$(user_manager)" "$POLICY"
measured[systemd-user]=$(user_service)
tap_is "user.conf DefaultLimitMEMLOCK=64K: its services get 64 KiB" \
	"${measured[systemd-user]}" "$SERVICE_BYTES $SERVICE_BYTES"
doctor_run systemd-user
tap_is "doctor, user.conf DefaultLimitMEMLOCK=64K, systemd-user: overridden, predicts the services' measured ${measured[systemd-user]}" \
	"$(doctor_path systemd-user)" "overridden ${measured[systemd-user]}"
user_conf 1G
measured[systemd-user]=$(user_service)
tap_is "user.conf DefaultLimitMEMLOCK=1G: its services get the manager's 256 MiB" \
	"${measured[systemd-user]}" "$POLICY"
# The manager cannot raise its hard limit: its services keep the
# session's 256 MiB, and that is no override.
doctor_run systemd-user
tap_is "doctor, user.conf DefaultLimitMEMLOCK=1G, systemd-user: ok, predicts the services' measured ${measured[systemd-user]}" \
	"$(doctor_path systemd-user)" "ok ${measured[systemd-user]}"
sed -i '/^DefaultLimitMEMLOCK=/d' /etc/systemd/user.conf

# --- Groups that pam_group adds at pam_setcred ------------------------------
# /etc/security/group.conf gives the test user group pmlextra (gid 4300),
# which no NSS source lists them in, on every service and terminal.  With
# pam_group in the auth stacks of login, sshd and su, and pam_exec writing
# the groups of the process that opens the session (id -G, at the end of
# the session stack, after pam_memlock), a rule on pmlextra shows what the
# module can see: groups from NSS only.
uptime_note "pam_group"
groupadd -g 4300 pmlextra
cp "$conf" "$E2E_CASE/memlock.conf"
cp /etc/security/group.conf /etc/pam.d/login /etc/pam.d/sshd /etc/pam.d/su "$E2E_CASE/"
echo "*;*;$E2E_USER;Al0000-2400;pmlextra" >>/etc/security/group.conf
cat >/usr/local/bin/pml-opener <<'SH'
#!/bin/sh
# The uid and groups of the process that runs pam_open_session.
echo "uid $(id -u) groups $(id -G)"
SH
chmod 0755 /usr/local/bin/pml-opener
for service in login sshd su; do
	sed -i '1i auth optional pam_group.so' "/etc/pam.d/$service"
	echo "session optional pam_exec.so quiet type=open_session log=/run/pml-open-$service /usr/local/bin/pml-opener" \
		>>"/etc/pam.d/$service"
done
printf 'limit = "256 MiB";\nrules = ( { group = "pmlextra"; limit = "200 MiB"; } );\n' >"$conf"
cat >/usr/local/bin/pml-groups <<'SH'
#!/bin/sh
# The session's limits, and whether its process has gid 4300.
l=$(awk '/^Max locked memory/ { print $4, $5 }' /proc/self/limits)
case " $(id -G) " in *" 4300 "*) echo "$l 4300" ;; *) echo "$l -" ;; esac
SH
chmod 0755 /usr/local/bin/pml-groups
has_4300() {	# has_4300 SERVICE: did the process opening the session have gid 4300?
	local line
	line=$(tail -n 1 "/run/pml-open-$1" 2>/dev/null)
	echo "# $1: the process opening the session had $line" >&2
	case " $line " in
	*" groups "*" 4300 "*) echo yes ;;
	"  ") echo "no log" ;;
	*) echo no ;;
	esac
}
got=$(python3 "$e2e_dir/vm/pty_login.py" "$E2E_USER" "$PASSWORD" /usr/local/bin/pml-groups \
	</dev/null 2>"$E2E_CASE/login.log")
# Measured on Debian 12: login opens the session before it sets any of the
# user's groups; sshd's privileged monitor has pmlextra by then (from its
# pam_setcred) on top of root's own, but not the user's groups from NSS;
# su has them all.  The module reads NSS alone, on every path.
tap_is "pam_group, login: the shell has pmlextra, the process opening the session did not; the rule on it does not match: 256 MiB" \
	"$got $(has_4300 login)" "$POLICY 4300 no"
got=$(ssh_login /usr/local/bin/pml-groups)
tap_is "pam_group, sshd: the shell has pmlextra, and so did sshd's root process opening the session; the rule on it does not match: 256 MiB" \
	"$got $(has_4300 sshd)" "$POLICY 4300 yes"
got=$(su -l "$E2E_USER" -c /usr/local/bin/pml-groups </dev/null 2>"$E2E_CASE/su.log")
tap_is "pam_group, su -l: the shell has pmlextra, and so did the process opening the session; the rule on it does not match: 256 MiB" \
	"$got $(has_4300 su)" "$POLICY 4300 yes"
cp "$E2E_CASE/group.conf" /etc/security/group.conf
cp "$E2E_CASE/login" "$E2E_CASE/sshd" "$E2E_CASE/su" /etc/pam.d/
cp "$E2E_CASE/memlock.conf" "$conf"

# --- share_of: "50%" of what the session's cgroups allow ----------------------
# The installed policy becomes a share, applied exactly; runuser -u opens
# the sessions, through /etc/pam.d/runuser (pam_limits, then the module,
# step 2).  Not runuser -l: runuser-l's pam_systemd moves the session into
# a logind scope under user-UID.slice, out of the cgroup it started in.  RAM_HALF is
# what the module computes for "50%" of RAM: MemTotal (sysinfo's RAM, as
# sysconf(_SC_PHYS_PAGES) times the page size reads it) times 50000/100000,
# rounded down to a page.
uptime_note "share_of"
cp "$conf" "$E2E_CASE/memlock.conf"
share_policy() {	# share_policy [SHARE_OF]
	printf 'limit = "50%%"; mode = "set";\n%s' "${1:+share_of = \"$1\";}" >"$conf"
}
page=$(getconf PAGESIZE)
mem_total=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)
RAM_HALF=$((mem_total * 50000 / 100000 / page * page))
HALF_256=$((128 * MIB))
HALF_200=$((100 * MIB))
echo "# MemTotal $mem_total bytes, page $page: 50% of RAM is $RAM_HALF bytes"
# A second user, uid 4243, that no slice limit below names.
useradd -m -u 4243 -s /bin/bash pmlother 2>"$E2E_CASE/useradd.log"
# A cgroup of 256 MiB at the top of the hierarchy, beside systemd's slices.
cg=/sys/fs/cgroup/pmltest
echo +memory >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
mkdir -p "$cg"
echo $((256 * MIB)) >"$cg/memory.max"
in_cgroup() {	# in_cgroup COMMAND...: runs it from inside $cg
	bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" "$@" </dev/null
}
session_as() {	# session_as USER: a runuser session's limits
	runuser -u "$1" -- "$show" </dev/null
}
explain_base() {	# explain_base: "BASE BASE_FROM SOFT" of explain's soft side
	"$@" memlockctl explain "$E2E_USER" --service runuser --json 2>"$E2E_CASE/explain.err" |
		tee "$E2E_CASE/explain.json" | awk '
		/^  "soft": / { soft = $2 }
		/^  "soft_detail": / { detail = 1 }
		/^  "hard_detail": / { detail = 0 }
		detail && /"base": / && base == "" { base = $2 }
		detail && /"base_from": / && from == "" { from = $2 }
		END { gsub(/[",]/, "", soft); gsub(/[",]/, "", base); gsub(/[",]/, "", from)
			print base, from, soft }'
}
share_policy
tap_is "share_of available, a session from a cgroup with memory.max 256 MiB, \"50%\": 128 MiB soft and hard" \
	"$(in_cgroup runuser -u "$E2E_USER" -- "$show")" "$HALF_256 $HALF_256"
# explain has no session to read: it starts from the user's slice, not
# from the cgroup it runs in (here no limit there yet: RAM).
tap_is "memlockctl explain, run inside that cgroup: the base is the user's slice, not its own cgroup: RAM, soft 50% of it" \
	"$(explain_base in_cgroup)" "$mem_total null $RAM_HALF"
# A container's view: its own cgroup namespace, cgroup2 mounted anew, the
# 256 MiB cgroup as the root it sees ("0::/").
tap_is "share_of available in a cgroup namespace (unshare -C -m, cgroup2 remounted), root at memory.max 256 MiB: 128 MiB" \
	"$(in_cgroup unshare -C -m --propagation private bash -c \
		'umount /sys/fs/cgroup && mount -t cgroup2 none /sys/fs/cgroup &&
		cat /proc/self/cgroup && exec runuser -u "$0" -- "$1"' \
		"$E2E_USER" "$show" 2>"$E2E_CASE/cgroupns.log" | tr '\n' ' ' | sed 's/ $//')" \
	"0::/ $HALF_256 $HALF_256"
systemctl start "user-$E2E_UID.slice"
systemctl set-property --runtime "user-$E2E_UID.slice" MemoryMax=200M
slice=/sys/fs/cgroup/user.slice/user-$E2E_UID.slice
tap_is "user-$E2E_UID.slice MemoryMax=200M: its memory.max is 200 MiB" \
	"$(cat "$slice/memory.max" 2>&1)" "$((200 * MIB))"
# The session is not in the slice (runuser -u stays in the guest's cgroup):
# the slice counts for its uid.
tap_is "share_of available, user-$E2E_UID.slice at 200 MiB, a session from the guest's own cgroup: 100 MiB for $E2E_USER" \
	"$(session_as "$E2E_USER")" "$HALF_200 $HALF_200"
tap_is "memlockctl explain: base 200 MiB from $slice/memory.max, soft 100 MiB" \
	"$(explain_base)" "$((200 * MIB)) $slice/memory.max $HALF_200"
tap_is "share_of available, another uid (4243, no slice limit), same cgroup: 50% of RAM, $RAM_HALF" \
	"$(session_as pmlother)" "$RAM_HALF $RAM_HALF"
tap_is "share_of available, another uid from the 256 MiB cgroup: 128 MiB" \
	"$(in_cgroup runuser -u pmlother -- "$show")" "$HALF_256 $HALF_256"
share_policy ram
tap_is "share_of ram, $E2E_USER from the 256 MiB cgroup, slice at 200 MiB: 50% of RAM, $RAM_HALF" \
	"$(in_cgroup runuser -u "$E2E_USER" -- "$show")" "$RAM_HALF $RAM_HALF"
cp "$E2E_CASE/memlock.conf" "$conf"

# --- Slurm ------------------------------------------------------------------
# A share of a job's memory, the rdma rule, raise mode, doctor and status.
# This machine's munged, slurmctld and slurmd under their Debian units
# (slurmd.service: LimitMEMLOCK=infinity, Delegate=yes), UsePAM=1 and the
# example /etc/pam.d/slurm as shipped; task/cgroup with
# ConstrainRAMSpace=yes puts each job in a cgroup whose memory.max is its
# --mem, and slurmstepd opens the PAM session from inside it.
uptime_note "slurm"
slurm_cases=9
slurm_case() {	# slurm_case USER SBATCH-OPTION...: a batch job's limits
	local user=$1 out
	shift
	out=$(mktemp /tmp/pml-slurm-XXXXXX) && chown "$user" "$out"
	(cd /tmp && setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups \
		timeout 120 sbatch --wait --quiet --time=2 --output="$out" "$@" /usr/local/bin/pml-limits \
		>>"$E2E_CASE/sbatch.log" 2>&1)
	cat "$out"
}
slurm_start() {	# slurm_start CONSTRAIN: (re)start the daemons, wait for the node
	local i
	cat >/etc/slurm/cgroup.conf <<-EOF
	CgroupPlugin=cgroup/v2
	ConstrainRAMSpace=$1
	EOF
	systemctl restart munge.service slurmctld.service slurmd.service
	for i in $(seq 600); do
		[ "$(sinfo -h -n "$node" -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.2
	done
	return 1
}
node=$(hostname -s)
if [ ! -x /usr/sbin/slurmd ] || [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/munged ]; then
	for i in $(seq $slurm_cases); do
		tap_skip "slurm in the VM" "slurmd, slurmctld or munge is not installed (Debian: slurmd slurmctld slurm-client munge)"
	done
else
	# The boot masked the units this machine enables; these run here.
	rm -f /etc/systemd/system/munge.service /etc/systemd/system/slurmctld.service \
		/etc/systemd/system/slurmd.service
	systemctl daemon-reload
	# AI_ADDRCONFIG: slurmd binds with getaddrinfo(NULL), which wants an
	# address besides 127.0.0.1 (see tests/slurm/cases.sh).
	ip addr add 127.0.0.2/32 dev lo
	echo "127.0.0.1 $node" >>/etc/hosts
	mem_mib=$((mem_total / MIB))
	cat >/etc/slurm/slurm.conf <<-EOF
	ClusterName=pmlvm
	SlurmctldHost=$node(127.0.0.1)
	SlurmUser=root
	AuthType=auth/munge
	StateSaveLocation=/var/lib/slurm/slurmctld
	SlurmdSpoolDir=/var/lib/slurm/slurmd
	SlurmctldLogFile=/var/log/slurm/slurmctld.log
	SlurmdLogFile=/var/log/slurm/slurmd.log
	ProctrackType=proctrack/cgroup
	TaskPlugin=task/cgroup
	JobAcctGatherType=jobacct_gather/none
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core_Memory
	SchedulerParameters=batch_sched_delay=0
	MpiDefault=none
	ReturnToService=2
	UsePAM=1
	PropagateResourceLimitsExcept=MEMLOCK
	NodeName=$node NodeAddr=127.0.0.1 CPUs=1 RealMemory=$((mem_mib / 2))
	PartitionName=debug Nodes=$node Default=YES MaxTime=5 State=UP
	EOF
	mkdir -p /var/log/slurm
	install -m 0644 "$PML_SRCDIR/conf/pam.d/slurm" /etc/pam.d/slurm
	# pmltest is in rdma; pmlother is not.  No slice limit for either.
	getent group rdma >/dev/null || groupadd -r rdma
	usermod -a -G rdma "$E2E_USER"
	systemctl set-property --runtime "user-$E2E_UID.slice" MemoryMax=infinity
	cat >"$conf" <<-'EOF'
	rules = (
	  { service = "slurm"; limit = "50%"; mode = "set"; },
	  { service = "slurm"; group = "rdma"; limit = "unlimited"; mode = "set"; }
	);
	EOF
	HALF_200=$((100 * MIB))
	if slurm_start yes; then
		tap_is "slurmd.service runs with Debian's LimitMEMLOCK=infinity" \
			"$(limits_of "$(systemctl show -P MainPID slurmd.service)")" "unlimited unlimited"
		tap_is "slurm, task/cgroup with ConstrainRAMSpace=yes, sbatch --mem=200M, \"50%\" (share_of available): 100 MiB" \
			"$(slurm_case pmlother --mem=200M)" "$HALF_200 $HALF_200"
		tap_is "slurm, the same job of a user in group rdma (a later rule: unlimited): unlimited" \
			"$(slurm_case "$E2E_USER" --mem=200M)" "unlimited unlimited"
		tap_is "memlockctl doctor --service slurm: ok" \
			"$(memlockctl doctor --service slurm 2>&1 | sed -n 's/^slurm: //p')" "ok"
		# A running job: status finds its processes by the job's cgroup.
		job=$(cd /tmp && setpriv --reuid=pmlother --regid="$(id -g pmlother)" --init-groups \
			sbatch --parsable --time=2 --mem=200M --output=/dev/null --wrap='sleep 120')
		for i in $(seq 300); do
			[ "$(squeue -h -j "$job" -o %T 2>/dev/null)" = RUNNING ] && pgrep -u pmlother -x sleep >/dev/null && break
			sleep 0.2
		done
		tap_is "memlockctl status: the job's sleep, job $job, service slurm, 100 MiB" \
			"$(memlockctl status --json 2>"$E2E_CASE/status.err" | tr -d ' \n' |
				grep -o '"command":"sleep","session":null,"slurm_job":[0-9]*,"service":"slurm","service_given":false,"layer":[^,]*,"layer_unit":[^,]*,"layer_from":[^,]*,"layer_rule":[^,]*,"soft":[0-9]*,"hard":[0-9]*' |
				sed 's/.*"slurm_job":\([0-9]*\),"service":"\([a-z]*\)","service_given":false,.*"soft":\([0-9]*\),"hard":\([0-9]*\)/\1 \2 \3 \4/')" \
			"$job slurm $HALF_200 $HALF_200"
		scancel "$job"
		printf 'rules = ( { service = "slurm"; limit = "50%%"; } );\n' >"$conf"
		tap_is "slurm, the \"50%\" rule in raise mode: slurmd's unlimited stays (use mode = \"set\")" \
			"$(slurm_case pmlother --mem=200M)" "unlimited unlimited"
		tap_is "memlockctl doctor --service slurm, raise mode: overridden, fix mode = \"set\"" \
			"$(memlockctl doctor --service slurm 2>&1 | sed -n 's/^slurm: //p; s/^  fix: *\(give the rule at [^,]*\),.*/\1/p' | tr '\n' '|')" \
			"overridden|give the rule at $conf:1|"
	else
		for i in 1 2 3 4 5 6 7; do tap_not_ok "slurm: the node came up with ConstrainRAMSpace=yes"; done
		tail -n 20 /var/log/slurm/slurmd.log /var/log/slurm/slurmctld.log 2>&1 | tap_diag
	fi
	printf 'rules = ( { service = "slurm"; limit = "50%%"; mode = "set"; } );\n' >"$conf"
	if slurm_start no; then
		tap_is "slurm, ConstrainRAMSpace=no: the job's cgroup has no memory limit, \"50%\" is half of RAM, $RAM_HALF" \
			"$(slurm_case pmlother --mem=200M)" "$RAM_HALF $RAM_HALF"
		tap_is "memlockctl explain pmlother --service slurm: the same $RAM_HALF" \
			"$(memlockctl explain pmlother --service slurm --json 2>&1 |
				sed -n 's/^  "\(soft\|hard\)": \([0-9]*\),$/\2/p' | tr '\n' ' ' | sed 's/ $//')" \
			"$RAM_HALF $RAM_HALF"
	else
		for i in 1 2; do tap_not_ok "slurm: the node came up with ConstrainRAMSpace=no"; done
	fi
	systemctl stop slurmd.service slurmctld.service
	cp "$E2E_CASE/memlock.conf" "$conf"
fi

# --- Unit rules: this machine's PostgreSQL 15 under Debian's unit ------------
postgres_cases 15 "$conf"
unit_cases "$conf"
echo "# guest script finished: $(cut -d' ' -f1 /proc/uptime) s of uptime"
