# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# The Slurm cases of the systemd VM, sourced by systemd-guest.sh at its end
# (its helpers, the test users, $conf and the share of RAM are set there):
# a share of a job's memory, the rdma rule, raise mode, doctor and status.
#
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
				grep -o '"command":"sleep","session":null,"slurm_job":[0-9]*,"service":"slurm","service_given":false,"soft":[0-9]*,"hard":[0-9]*' |
				sed 's/.*"slurm_job":\([0-9]*\),"service":"\([a-z]*\)","service_given":false,"soft":\([0-9]*\),"hard":\([0-9]*\)/\1 \2 \3 \4/')" \
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
