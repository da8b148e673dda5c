#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The cases of make check-slurm, run by tests/slurm/run.sh inside private
# mount, network, PID and UTS namespaces (and, for Debian 13, chrooted into
# a Debian 13 root): a one-node cluster of Debian's munged, slurmctld and
# slurmd on 127.0.0.1, every file it writes in $SLURM_WORK, and jobs
# submitted as the unprivileged test user through sbatch --wait and srun.
# Each job prints its own RLIMIT_MEMLOCK, soft and hard, from
# /proc/self/limits.  Prints TAP lines numbered from $SLURM_TAP_START + 1,
# each prefixed with $SLURM_RELEASE; run.sh prints the plan.
#
# Environment: SLURM_WORK (a root-owned 0755 directory), SLURM_MODULE (the
# pam_memlock.so to run), SLURM_PAM (the example /etc/pam.d/slurm),
# SLURM_RELEASE, SLURM_TAP_START, SLURM_CGROUP (the CgroupPlugin line of
# cgroup.conf for this Slurm).
set -u
W=$SLURM_WORK
MIB=1048576
# slurmd's limit, as Debian's unit gives it, but within the 8 MiB hard limit
# a process without CAP_SYS_RESOURCE is held to where this runs; every
# policy value below stays under it so that each case is told apart.
SLURMD_LIMIT=$((8 * MIB))
SHELL_SOFT=$((1 * MIB)) # the submitting shell's soft limit
POLICY=$((4 * MIB))     # the service = "slurm" rule
GROUP=$((6 * MIB))      # the later rule for group rdma
USER=pmltest UID_=4242
tap_n=$SLURM_TAP_START

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $SLURM_RELEASE: $1"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $SLURM_RELEASE: $1"; }
is() { # is DESC GOT WANT
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
		show_logs
	fi
}
show_logs() {
	local f
	for f in "$W"/log/slurmd.log "$W"/log/slurmctld.log; do
		[ -s "$f" ] || continue
		echo "# --- ${f##*/}"
		tail -n 15 "$f" | sed 's/^/# /'
	done
}
bail() { echo "# $SLURM_RELEASE: stopped: $*"; show_logs; exit 1; }

# --- The node: private files over /etc, a private /run ---------------------
# AI_ADDRCONFIG makes getaddrinfo(NULL, port) fail where lo has only
# 127.0.0.1 (glibc counts no other address as configured), and slurmd and
# srun bind their ports that way; a second loopback address on lo is
# enough.
setup_node() {
	local d
	hostname node1 &&
		ip link set lo up && ip addr add 127.0.0.2/32 dev lo &&
		mount -t tmpfs -o mode=0755 pml-slurm-run /run &&
		mkdir -m 0755 /run/munge || return 1
	mkdir -m 0755 "$W/etc" "$W/slurm" "$W/log" "$W/spool" "$W/state" \
		"$W/pam.d" "$W/policy" "$W/home" "$W/res" &&
		mkdir -m 0700 "$W/munge" "$W/munge-lib" "$W/munge-log" || return 1
	chown "$UID_:$UID_" "$W/home"
	# The machine's users and groups plus the test user, its own group and
	# rdma, a group rule's group (rdma-core makes it on Debian; the user
	# joins it there).
	{ cat /etc/passwd; echo "$USER:x:$UID_:$UID_::$W/home:/bin/sh"; } >"$W/etc/passwd"
	awk -F: -v OFS=: -v u=$USER -v uid=$UID_ '
		$1 == "rdma" { $4 = $4 (length($4) ? "," : "") u; seen = 1 }
		{ print }
		END { print u, "x", uid, ""; if (!seen) print "rdma", "x", 4244, u }' \
		/etc/group >"$W/etc/group"
	{ cat /etc/hosts; echo "127.0.0.1 node1"; } >"$W/etc/hosts"
	chmod 0644 "$W/etc/passwd" "$W/etc/group" "$W/etc/hosts"
	head -c 1024 /dev/urandom >"$W/munge/munge.key" && chmod 0400 "$W/munge/munge.key"
	for d in passwd group hosts; do mount --bind "$W/etc/$d" "/etc/$d" || return 1; done
	mount --bind "$W/munge" /etc/munge && mount --bind "$W/munge-lib" /var/lib/munge &&
		mount --bind "$W/munge-log" /var/log/munge &&
		mkdir -p /etc/slurm && mount --bind "$W/slurm" /etc/slurm &&
		mount --bind "$W/pam.d" /etc/pam.d || return 1
	munged --force || return 1
}

# slurm_conf [PROPAGATION-LINE]: the cluster's slurm.conf and cgroup.conf.
# A job starts as soon as it is submitted (batch_sched_delay=0), several at
# once (OverSubscribe), and sbatch --wait polls every 2 s: it waits 4 times
# longer each time while that stays under MinJobAge / 2.
slurm_conf() {
	cat >/etc/slurm/slurm.conf <<-EOF
	ClusterName=pml
	SlurmctldHost=node1(127.0.0.1)
	SlurmctldPort=16817
	SlurmdPort=16818
	SlurmUser=root
	AuthType=auth/munge
	StateSaveLocation=$W/state
	SlurmdSpoolDir=$W/spool
	SlurmctldLogFile=$W/log/slurmctld.log
	SlurmdLogFile=$W/log/slurmd.log
	SlurmctldPidFile=/run/slurmctld.pid
	SlurmdPidFile=/run/slurmd.pid
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	JobAcctGatherType=jobacct_gather/none
	SchedulerType=sched/builtin
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	MpiDefault=none
	ReturnToService=2
	SchedulerParameters=batch_sched_delay=0
	MinJobAge=5
	UsePAM=1
	${1:-}
	NodeName=node1 NodeAddr=127.0.0.1 CPUs=1 RealMemory=100 State=UNKNOWN
	PartitionName=debug Nodes=node1 Default=YES MaxTime=5 OverSubscribe=FORCE:8 State=UP
	EOF
	echo "$SLURM_CGROUP" >/etc/slurm/cgroup.conf
}

# cluster_start: slurmctld, then slurmd at SLURMD_LIMIT; waits for the node
# to be idle.
cluster_start() {
	local i
	slurmctld -i || return 1
	prlimit --memlock=$SLURMD_LIMIT:$SLURMD_LIMIT slurmd || return 1
	for i in $(seq 150); do
		[ "$(sinfo -h -n node1 -o %T 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	return 1
}
cluster_stop() {
	local pid
	for pid in $(cat /run/slurmd.pid /run/slurmctld.pid 2>/dev/null); do
		kill "$pid" 2>/dev/null
		while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
	done
}

# --- One case's stack and policy --------------------------------------------
# stack CONTROL POLICY_TEXT: /etc/pam.d/slurm is the example file, with
# pam_memlock's line given CONTROL ("none" drops it), the module built here
# and the case's policy file.
stack() {
	local control=$1
	printf '%s\n' "$2" >"$W/policy/memlock.conf"
	chmod 0644 "$W/policy/memlock.conf"
	awk -v c="$control" -v m="$SLURM_MODULE" -v p="$W/policy/memlock.conf" '
		$1 == "session" && $3 == "pam_memlock.so" {
			if (c == "none") next
			$2 = c; $3 = m " conf=" p
		}
		{ print }' "$SLURM_PAM" >/etc/pam.d/slurm
}

# The job: its own limits, "SOFT HARD" in bytes.
cat >"$W/job.sh" <<'EOF'
#!/bin/sh
awk '/^Max locked memory/ { print $4, $5 }' /proc/self/limits
EOF
# A batch job that runs the same as a step of its own (srun inside).
cat >"$W/job-srun.sh" <<'EOF'
#!/bin/sh
awk '/^Max locked memory/ { print $4, $5 }' /proc/self/limits
srun /bin/sh -c "awk '/^Max locked memory/ { print \$4, \$5 }' /proc/self/limits"
EOF
chmod 0755 "$W/job.sh" "$W/job-srun.sh"

# as_user [SOFT] COMMAND...: COMMAND as the test user, with no PAM session
# of its own (setpriv, not su), from a shell whose soft limit is SOFT
# (default SHELL_SOFT) under the 8 MiB hard limit.
as_user() {
	local soft=$SHELL_SOFT
	case $1 in [0-9]*) soft=$1; shift ;; esac
	(cd "$W/home" && prlimit --memlock=$soft:$SLURMD_LIMIT \
		setpriv --reuid=$UID_ --regid=$UID_ --init-groups \
		env -i PATH=/usr/bin:/bin HOME="$W/home" USER=$USER LC_ALL=C "$@")
}
# batch NAME [SOFT] [SBATCH-OPTION...] &: sbatch --wait of $job (default
# job.sh) from a shell at SOFT; the job's output, the state slurmctld gives
# it and sbatch's exit status go to $W/res/NAME.  Jobs of one round run at
# once (the node takes several), each sbatch --wait polling every 2 s.
batch() {
	local name=$1 soft=$SHELL_SOFT id rc
	shift
	case ${1:-} in [0-9]*) soft=$1; shift ;; esac
	id=$(as_user "$soft" timeout 60 sbatch --wait --parsable --time=1 \
		--output="$W/home/$name.out" "$@" "${job:-$W/job.sh}" 2>"$W/log/$name.sbatch")
	rc=$?
	{
		grep -v '^slurmstepd' "$W/home/$name.out" 2>/dev/null | tr '\n' ' '
		echo "exit=$rc $(scontrol -o show job "$id" | grep -o 'JobState=[A-Z_]*')"
		scontrol -o show job "$id" >"$W/log/$name.job"
	} >"$W/res/$name"
}
# round: waits for the round's jobs.  A job that failed where it should not
# have drained the node: it is resumed, so that one failure fails one case.
round() {
	wait
	echo "# $SLURM_RELEASE: round done $(since) after the start"
	case $(sinfo -h -n node1 -o %T) in
	drain*) scontrol update NodeName=node1 State=RESUME ;;
	esac
}
res() { cat "$W/res/$1" 2>/dev/null; }

# --- The cases ---------------------------------------------------------------
setup_node || bail "cannot set up the node's private files and munged"
set_rule='rules = ( { service = "slurm"; limit = "4 MiB"; mode = "set"; } );'
started=$(date +%s%N)
since() { local ms=$((($(date +%s%N) - started) / 1000000)); echo "$((ms / 1000)).$(printf %03d $((ms % 1000))) s"; }

# 1. slurm.conf without a PropagateResourceLimits line: all of them are
# propagated, so the job's soft limit is the submitting shell's.
slurm_conf
cluster_start || bail "slurmctld and slurmd did not bring node1 up"
echo "# $SLURM_RELEASE: node1 idle $(since) after the start"

stack none ''
batch none &
round
is "no pam_memlock: slurmd's 8 MiB hard limit, the submitting shell's 1 MiB soft (propagated)" \
	"$(res none)" "$SHELL_SOFT $SLURMD_LIMIT exit=0 JobState=COMPLETED"
stack optional "$set_rule"
batch set &
batch set-none --propagate=NONE &
batch above $((6 * MIB)) &
batch above-user $((6 * MIB)) --propagate=MEMLOCK &
round
is "service = \"slurm\" rule, mode set, 4 MiB, default propagation: hard 4 MiB, soft the shell's 1 MiB" \
	"$(res set)" "$SHELL_SOFT $POLICY exit=0 JobState=COMPLETED"
is "the same with sbatch --propagate=NONE: 4 MiB soft and hard" \
	"$(res set-none)" "$POLICY $POLICY exit=0 JobState=COMPLETED"
is "a submitting shell at 6 MiB soft, above the policy's hard 4 MiB: soft held to 4 MiB" \
	"$(res above)" "$POLICY $POLICY exit=0 JobState=COMPLETED"
is "the same with sbatch --propagate=MEMLOCK: the user cannot lift the 4 MiB hard limit" \
	"$(res above-user)" "$POLICY $POLICY exit=0 JobState=COMPLETED"
cluster_stop

# 2. PropagateResourceLimitsExcept=MEMLOCK, as the README says: the
# session's limit reaches the job whole.
slurm_conf PropagateResourceLimitsExcept=MEMLOCK
cluster_start || bail "slurmctld and slurmd did not come back with PropagateResourceLimitsExcept=MEMLOCK"
stack optional "$set_rule"
batch except &
job=$W/job-srun.sh batch step &
as_user srun "$W/job.sh" >"$W/res/srun" 2>"$W/log/srun.log" &
round
is "PropagateResourceLimitsExcept=MEMLOCK, rule in set mode: 4 MiB soft and hard" \
	"$(res except)" "$POLICY $POLICY exit=0 JobState=COMPLETED"
is "srun from the submitting shell: 4 MiB soft and hard" \
	"$(res srun)" "$POLICY $POLICY"
is "a batch job and an srun step inside it: 4 MiB soft and hard in both" \
	"$(res step)" "$POLICY $POLICY $POLICY $POLICY exit=0 JobState=COMPLETED"
stack optional 'rules = ( { service = "slurm"; limit = "4 MiB"; } );'
batch raise &
round
is "the same rule in raise mode: slurmd's 8 MiB kept (with slurmd unlimited, unlimited)" \
	"$(res raise)" "$SLURMD_LIMIT $SLURMD_LIMIT exit=0 JobState=COMPLETED"
stack optional "rules = ( { service = \"slurm\"; limit = \"4 MiB\"; mode = \"set\"; },
	{ group = \"rdma\"; limit = \"6 MiB\"; mode = \"set\"; } );"
batch group &
round
is "a later rule for group rdma, which the user is in: 6 MiB" \
	"$(res group)" "$GROUP $GROUP exit=0 JobState=COMPLETED"
share_bytes=$(($(getconf _PHYS_PAGES) * $(getconf PAGESIZE) * 10 / 100000))
share_bytes=$((share_bytes - share_bytes % $(getconf PAGESIZE)))
stack optional 'rules = ( { service = "slurm"; limit = "0.010%"; share_of = "ram"; mode = "set"; } );'
batch share &
round
is "0.010% of RAM in set mode: $share_bytes bytes, page-rounded" \
	"$(res share)" "$share_bytes $share_bytes exit=0 JobState=COMPLETED"
stack optional 'limit = 8388608;'
batch optional &
round
is "an invalid policy under optional: the job runs with slurmd's limits" \
	"$(res optional)" "$SLURMD_LIMIT $SLURMD_LIMIT exit=0 JobState=COMPLETED"
# An invalid policy under required: slurmstepd's pam_open_session fails, no
# task runs, and slurmctld drains the node.  Without --wait: 24.11 puts the
# job back in the queue, where sbatch --wait would wait for it forever.
stack required 'limit = 8388608;'
id=$(as_user sbatch --parsable --time=1 --output="$W/home/required.out" "$W/job.sh")
for i in $(seq 300); do
	case $(sinfo -h -n node1 -o %T) in drain*) break ;; esac
	sleep 0.1
done
echo "# $(scontrol -o show job "$id")"
# 22.05 calls the job done; 24.11 requeues it, to start later elsewhere.
case $(slurmd -V) in
*" 22."*) want="JobState=COMPLETED Restarts=0" ;;
*) want="JobState=PENDING Restarts=1" ;;
esac
is "an invalid policy under required: nothing of the job runs; slurmctld records $want" \
	"$(cat "$W/home/required.out" 2>/dev/null)$(scontrol -o show job "$id" |
		grep -o 'JobState=[A-Z_]*\|Restarts=[0-9]*' | tr '\n' ' ' | sed 's/ $//')" "$want"
is "... slurmd logs the failed session" \
	"$(grep -o 'error: pam_open_session: .*\|error: error in pam_setup' "$W/log/slurmd.log" | tr '\n' '|')" \
	"error: pam_open_session: Error in service module|error: error in pam_setup|"
is "... and slurmctld drains the node: \"batch job complete failure\"" \
	"$(sinfo -h -n node1 -o '%T|%E')" "drained|batch job complete failure"
cluster_stop
echo "# $SLURM_RELEASE: every case done $(since) after the start"
