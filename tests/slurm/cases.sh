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
# SLURM_CTL (memlockctl, built for this release), SLURM_RECIPE (the recipe
# conf/examples/slurm.conf), SLURM_RELEASE, SLURM_TAP_START, SLURM_CGROUP
# (the CgroupPlugin line of cgroup.conf for this Slurm).
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
# The site's users, NAME:UID:GROUPS, for the site policy and the recipe
# below: one in no group the rules name, one in hpc, one in hpc and
# rdma-admins, as the recipe's "# expect:" lines name them.
SITE_USERS="alice:4301: hank:4302:hpc raj:4303:hpc,rdma-admins"
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
		"$W/pam.d" "$W/policy" "$W/home" "$W/res" "$W/u" &&
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
	# The site's users, each with a group of its own, and their groups.
	local entry name uid groups g gid=4311 site_groups=()
	local -A members=()
	for entry in $SITE_USERS; do
		IFS=: read -r name uid groups <<<"$entry"
		echo "$name:x:$uid:$uid::$W/u/$name:/bin/sh" >>"$W/etc/passwd"
		echo "$name:x:$uid:" >>"$W/etc/group"
		mkdir -m 0755 "$W/u/$name" && chown "$uid:$uid" "$W/u/$name" || return 1
		for g in ${groups//,/ }; do
			[ -n "${members[$g]:-}" ] || site_groups+=("$g")
			members[$g]=${members[$g]:+${members[$g]},}$name
		done
	done
	for g in "${site_groups[@]}"; do
		echo "$g:x:$gid:${members[$g]}" >>"$W/etc/group"
		gid=$((gid + 1))
	done
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

# home_of USER: USER's home directory.
home_of() { getent passwd "$1" | cut -d: -f6; }
# as_user [SOFT] COMMAND...: COMMAND as the test user (the user $AS names,
# where set), with no PAM session of its own (setpriv, not su), from a
# shell whose soft limit is SOFT (default SHELL_SOFT) under the 8 MiB hard
# limit.
as_user() {
	local soft=$SHELL_SOFT who=${AS:-$USER} home
	case $1 in [0-9]*) soft=$1; shift ;; esac
	home=$(home_of "$who")
	(cd "$home" && prlimit --memlock=$soft:$SLURMD_LIMIT \
		setpriv --reuid="$(id -u "$who")" --regid="$(id -g "$who")" --init-groups \
		env -i PATH=/usr/bin:/bin HOME="$home" USER="$who" LC_ALL=C "$@")
}
# [AS=USER] batch NAME [SOFT] [SBATCH-OPTION...] &: sbatch --wait of $job
# (default job.sh), as the test user or USER, from a shell at SOFT; the
# job's output, the state slurmctld gives it and sbatch's exit status go
# to $W/res/NAME.  Jobs of one round run at once (the node takes several),
# each sbatch --wait polling every 2 s.
batch() {
	local name=$1 soft=$SHELL_SOFT id rc out
	shift
	case ${1:-} in [0-9]*) soft=$1; shift ;; esac
	out=$(home_of "${AS:-$USER}")/$name.out
	id=$(as_user "$soft" timeout 60 sbatch --wait --parsable --time=1 \
		--output="$out" "$@" "${job:-$W/job.sh}" 2>"$W/log/$name.sbatch")
	rc=$?
	{
		grep -v '^slurmstepd' "$out" 2>/dev/null | tr '\n' ' '
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

# --- A site's policy for Slurm nodes, in real jobs --------------------------
# 8 MiB for everyone; a quarter of RAM, at most 64 GiB, for group hpc and
# for every Slurm job (mode "set", as slurmd runs unlimited); no limit for
# rdma-admins.  The last rule that matches a session decides it, in its own
# mode, so the rule order decides whether an hpc member's job is capped.
#
# The numbers: a hard limit cannot rise above 8 MiB here, so slurmd's
# 8 MiB stands for Debian's LimitMEMLOCK=infinity, and the memory a
# session can use (the base of "25%", share_of = "available") is held to
# 16 MiB by a cgroup memory.max (fake_available): a quarter of it, 4 MiB,
# is below slurmd's 8 MiB, so a job the policy caps is told apart from one
# that keeps slurmd's limit.  The 64 GiB ceiling decides at neither 16 MiB
# nor 16 GiB.  "unlimited" in raise mode keeps slurmd's 8 MiB: a hard
# limit this machine cannot raise.
AVAILABLE=$((16 * MIB))

# fake_available: a cgroup v2 tree of two files over /sys/fs/cgroup, in
# this mount namespace only, whose memory.max holds what every session
# here can use to AVAILABLE; real_available takes it away.  Slurm keeps no
# cgroups of its own here (proctrack/linuxproc, task/none).
fake_available() {
	mount -t tmpfs -o mode=0755 pml-slurm-cgroup /sys/fs/cgroup &&
		: >/sys/fs/cgroup/cgroup.controllers &&
		echo $AVAILABLE >/sys/fs/cgroup/memory.max
}
real_available() { umount /sys/fs/cgroup; }

# site_policy RULE...: the site's policy, with its rules (hpc, slurm,
# rdma-admins) in the order given.
site_policy() {
	local rule sep=
	printf '%s\n' 'limit = "8 MiB";' 'rules = ('
	for rule in "$@"; do
		printf '%s' "$sep"
		case $rule in
		hpc) printf '  { group = "hpc"; limit = "25%%"; ceiling = "64 GiB"; }' ;;
		slurm) printf '  { service = "slurm"; limit = "25%%"; ceiling = "64 GiB"; mode = "set"; }' ;;
		rdma-admins) printf '  { group = "rdma-admins"; limit = "unlimited"; }' ;;
		esac
		sep=$',\n'
	done
	printf '\n);\n'
}
# lint FILE: what `memlockctl check --strict` says of FILE: each warning
# that a later rule decides in raise mode, as "line L decided by line M in
# raise mode;", and its exit status.  Its whole output is kept in
# $W/log/check.out, for show_check.
lint() {
	local out rc
	out=$("$SLURM_CTL" check --strict --conf "$1" 2>&1)
	rc=$?
	printf '%s\n' "$out" >"$W/log/check.out"
	printf '%s\n' "$out" | sed -n 's/^[^:]*:\([0-9]*\): warning: the later rule at [^ ]*:\([0-9]*\) decides .*mode = "raise".*/line \1 decided by line \2 in raise mode;/p' |
		tr '\n' ' '
	echo "exit=$rc"
}
show_check() { sed 's/^/# check: /' "$W/log/check.out"; }
# line_of PATTERN TEXT: the number of TEXT's line that has PATTERN.
line_of() { grep -n -F -- "$1" <<<"$2" | cut -d: -f1; }

# RULES (in order) | check --strict | each site user's job (SITE_USERS'
# order: alice, hank in hpc, raj in hpc and rdma-admins), soft and hard, MiB
site_cases=(
	# The order check --strict accepts: the slurm rule comes after the
	# hpc rule, and caps hank's job at a quarter of the session's memory.
	"hpc slurm rdma-admins|accepted|4 4 8"
	# The order the linter once asked for (general rules first): the hpc
	# rule comes later, decides hank's job in raise mode, and the job
	# keeps slurmd's 8 MiB (unlimited in production); check --strict
	# names the slurm rule and the hpc rule that overrides it.
	"slurm hpc rdma-admins|warns|4 8 8"
)
fake_available || bail "cannot hold the sessions' memory to 16 MiB with a private cgroup tree"
i=0
for row in "${site_cases[@]}"; do
	IFS='|' read -r order verdict wants <<<"$row"
	read -ra want_mib <<<"$wants"
	i=$((i + 1))
	# shellcheck disable=SC2086 # the rules' names are split on purpose
	policy=$(site_policy $order)
	stack optional "$policy"
	want="exit=0"
	[ "$verdict" = warns ] && want="line $(line_of 'service = "slurm"' "$policy") decided by line $(line_of 'group = "hpc"' "$policy") in raise mode; exit=1"
	is "site policy, rules ${order// /, }: check --strict $verdict" \
		"$(lint "$W/policy/memlock.conf")" "$want"
	show_check
	for entry in $SITE_USERS; do
		AS=${entry%%:*} batch "site$i-${entry%%:*}" &
	done
	round
	j=0
	for entry in $SITE_USERS; do
		IFS=: read -r name _ groups <<<"$entry"
		bytes=$((want_mib[j] * MIB))
		is "site policy, rules ${order// /, }: $name's job (groups: ${groups:-none}) gets ${want_mib[j]} MiB" \
			"$(res "site$i-$name")" "$bytes $bytes exit=0 JobState=COMPLETED"
		j=$((j + 1))
	done
done

# --- The recipe conf/examples/slurm.conf, in real jobs ----------------------
# The recipe as shipped, held to its own "# expect:" lines for Slurm jobs
# (service=slurm) at ram=16GiB, with the sessions' memory held to 16 MiB
# as above: its shares scale with it (4GiB there is 4 MiB here), and
# "unlimited" is slurmd's 8 MiB.  Its lines at other RAM (the 64 GiB
# ceiling at 512 GiB) need a hard limit this machine cannot give;
# tests/memlockctl/policy/recipes.sh holds explain to them.
# scaled SIZE: the expectation SIZE at 16 GiB, in bytes at 16 MiB.
scaled() {
	case $1 in
	unlimited) echo $SLURMD_LIMIT ;;
	*GiB) case ${1%GiB} in
		'' | *[!0-9]*) echo "not a whole number of GiB: $1" ;;
		*) echo $((${1%GiB} * MIB)) ;;
		esac ;;
	*) echo "not a size in GiB, as a share of 16GiB is: $1" ;;
	esac
}
policy=$(cat "$SLURM_RECIPE")
stack optional "$policy"
is "the recipe ${SLURM_RECIPE##*/}: check --strict passes" "$(lint "$W/policy/memlock.conf")" "exit=0"
show_check
recipe_jobs=()
in_groups=no out_groups=no
while read -r line; do
	user='' groups='' service='' ram='' soft='' hard=''
	for kv in ${line/->/ }; do
		case $kv in
		user=* | groups=* | service=* | ram=* | soft=* | hard=*) printf -v "${kv%%=*}" %s "${kv#*=}" ;;
		esac
	done
	if [ "$service" != slurm ] || [ "$ram" != 16GiB ]; then continue; fi
	# The user this node has, in the groups the line names.
	node_groups=$(id -Gn "$user" 2>/dev/null | tr ' ' '\n' | grep -vx -- "$user" | sort | paste -sd,)
	want_groups=$(tr ',' '\n' <<<"$groups" | grep . | sort | paste -sd,)
	if ! id "$user" >/dev/null 2>&1 || [ "$node_groups" != "$want_groups" ]; then
		not_ok "the recipe's user $user (groups: ${groups:-none}) is one of SITE_USERS, in those groups"
		continue
	fi
	if [ -n "$groups" ]; then in_groups=yes; else out_groups=yes; fi
	n=${#recipe_jobs[@]}
	recipe_jobs+=("$user|${groups:-none}|$soft|$hard")
	AS=$user batch "recipe$n" &
done < <(sed -n 's/^# expect: //p' "$SLURM_RECIPE")
round
is "the recipe expects Slurm jobs of users in its groups and out of them" \
	"in=$in_groups out=$out_groups" "in=yes out=yes"
n=0
for entry in "${recipe_jobs[@]}"; do
	IFS='|' read -r user groups soft hard <<<"$entry"
	is "the recipe: $user's job (groups: $groups) gets what it expects at 16 GiB, soft=$soft hard=$hard" \
		"$(res "recipe$n")" "$(scaled "$soft") $(scaled "$hard") exit=0 JobState=COMPLETED"
	n=$((n + 1))
done
real_available

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
