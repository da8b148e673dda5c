#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor --service slurm, and explain --service slurm, on roots
# written here: a Slurm compute node as Debian sets it up (slurmd.service
# with LimitMEMLOCK=infinity), the example /etc/pam.d/slurm from conf/,
# and one slurm.conf, policy or stack changed per case.  Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
src=${PML_SRCDIR:?run with make check}
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy files must be owned by root: run make check as root"
	exit 0
fi
command -v "${PML_PYTHON:-python3}" >/dev/null || { echo "1..0 # SKIP python3 reads doctor's JSON"; exit 0; }

work=$(mktemp -d /tmp/pml-doctor-slurm-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT

set_rule='rules = ( { service = "slurm"; limit = "4 MiB"; mode = "set"; } );'
# node [SLURM_CONF_LINES] [POLICY]: a fresh root in $root, a compute node.
node() {
	root=$work/root
	rm -rf "$root"
	mkdir -p "$root/etc/pam.d" "$root/etc/slurm" "$root/etc/security" \
		"$root/lib/systemd/system" "$root/lib/${PML_MULTIARCH:-x86_64-linux-gnu}/security"
	for m in pam_unix pam_memlock pam_permit pam_systemd pam_limits; do
		: >"$root/lib/${PML_MULTIARCH:-x86_64-linux-gnu}/security/$m.so"
	done
	printf '[Service]\nExecStart=/usr/sbin/slurmd -D -s $SLURMD_OPTIONS\nLimitMEMLOCK=infinity\n' \
		>"$root/lib/systemd/system/slurmd.service"
	cp "$src/conf/pam.d/slurm" "$root/etc/pam.d/slurm"
	printf 'session required pam_unix.so\nsession optional pam_systemd.so\n' \
		>"$root/etc/pam.d/other"
	printf '# a compute node\nClusterName=c\n%s\nNodeName=n1 CPUs=2\n' \
		"${1-UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK}" >"$root/etc/slurm/slurm.conf"
	printf '%s\n' "${2-$set_rule}" >"$root/etc/security/memlock.conf"
}

# doctor [USER]: --service slurm on $root, JSON in $work/out, status in
# $status.
doctor() {
	timeout 20 "$ctl" doctor ${1+"$1"} --root "$root" --conf /etc/security/memlock.conf \
		--service slurm --json >"$work/out" 2>"$work/err"
	status=$?
}
# field EXPR: a Python expression over the slurm path p of the last JSON.
field() {
	"${PML_PYTHON:-python3}" -c '
import json, sys
p = json.load(open(sys.argv[1]))["paths"][0]
print(eval(sys.argv[2]))' "$work/out" "$1" 2>&1
}
expect() { # expect NAME EXPR WANT
	local got
	got=$(field "$2")
	if [ "$got" = "$3" ]; then ok "$1"; else not_ok "$1" "want: $3" "got:  $got" "$(cat "$work/err")"; fi
}

echo "1..18"

node
doctor
expect "the example stack, UsePAM=1, PropagateResourceLimitsExcept=MEMLOCK, a set-mode rule: ok, 4 MiB" \
	'p["verdict"], p["soft"], p["hard"], p["fix"]' "('ok', 4194304, 4194304, None)"
expect "... it starts from slurmd.service's LimitMEMLOCK=infinity, and reads slurm.conf" \
	'p["steps"][0]["module"], p["steps"][0]["hard_unlimited"], p["steps"][-1]["file"], p["steps"][-1]["line"]' \
	"('slurmd.service', True, '/etc/slurm/slurm.conf', 4)"
[ "$status" = 0 ] && ok "exit 0 when the path is ok" || not_ok "exit 0 when the path is ok" "status $status"

node 'UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK' 'rules = ( { service = "slurm"; limit = "4 MiB"; } );'
doctor
expect "raise mode against slurmd's unlimited: overridden, unlimited, fix: mode = \"set\" for the rule that decides" \
	'p["verdict"], p["hard_unlimited"], p["fix"].split(": in raise mode")[0]' \
	"('overridden', True, 'give the rule at /etc/security/memlock.conf:1, which decides for this session, mode = \"set\"')"
[ "$status" = 1 ] && ok "exit 1 when the path is not ok" || not_ok "exit 1 when the path is not ok" "status $status"

# A site's policy: 8 MiB for all, 25% (at most 64 GiB) for a group (root
# here, which this host's NSS knows) and for Slurm jobs in mode "set",
# unlimited for rdma-admins.  In the order check accepts, the set rule
# comes after the group rule and decides for its members' jobs too; in
# the other, the group rule decides them in mode "raise", and the job
# keeps slurmd's unlimited: the fix names that rule, not the one for
# slurm.
site_group='  { group = "root"; limit = "25%"; ceiling = "64 GiB"; },'
site_slurm='  { service = "slurm"; limit = "25%"; ceiling = "64 GiB"; mode = "set"; },'
site_rdma='  { group = "pml-rdma-admins"; limit = "unlimited"; }'
node 'UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK' "limit = \"8 MiB\";
rules = (
$site_group
$site_slurm
$site_rdma
);"
doctor root
expect "the site's policy, set rule last: a group member's job is capped: ok" \
	'p["verdict"], p["hard_unlimited"], p["fix"]' "('ok', False, None)"
doctor
expect "... without a user: ok for each class, the group's and rdma's checked as their members" \
	'p["verdict"], p["for"], [(c["who"], c["verdict"]) for c in p["classes"]]' \
	"('ok', None, [('a user no rule names', 'ok'), ('members of group root (rule /etc/security/memlock.conf:3)', 'ok'), ('members of group pml-rdma-admins (rule /etc/security/memlock.conf:5)', 'ok')])"
node 'UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK' "limit = \"8 MiB\";
rules = (
$site_slurm
$site_group
$site_rdma
);"
doctor root
expect "the site's policy, group rule last: overridden, and the fix names the group rule at line 4" \
	'p["verdict"], p["hard_unlimited"], p["fix"].split(": in raise mode")[0]' \
	"('overridden', True, 'give the rule at /etc/security/memlock.conf:4, which decides for this session, mode = \"set\"')"
# Without a user, as a playbook runs it: ok for a user no rule names, but
# the group's members are the path's verdict, and the fix is their rule's.
doctor
expect "... without a user: overridden for the group's members, the fix names the group rule" \
	'p["verdict"], p["for"], p["hard_unlimited"], p["classes"][0]["verdict"], p["fix"].split(": in raise mode")[0]' \
	"('overridden', 'members of group root (rule /etc/security/memlock.conf:4)', True, 'ok', 'give the rule at /etc/security/memlock.conf:4, which decides for this session, mode = \"set\"')"

node 'usepam=yes'
doctor
expect "MEMLOCK propagated (the default, keys in any case): overridden, soft unknown, fix names slurm.conf" \
	'p["verdict"], p["soft"], p["hard"], p["fix"]' \
	"('overridden', None, 4194304, 'add PropagateResourceLimitsExcept=MEMLOCK to /etc/slurm/slurm.conf')"

node 'UsePAM=0
PropagateResourceLimits=NONE'
doctor
expect "UsePAM=0: missing, the jobs keep slurmd's unlimited, fix: UsePAM=1" \
	'p["verdict"], p["hard_unlimited"], p["fix"]' "('missing', True, 'set UsePAM=1 in /etc/slurm/slurm.conf')"

node
rm "$root/etc/pam.d/slurm"
doctor
expect "no /etc/pam.d/slurm: libpam's other, flagged missing, fix: the example" \
	'" | ".join((p["verdict"], p["file"], p["fix"].split(":")[0]))' \
	"missing | /etc/pam.d/other | copy ${PML_PAMEXAMPLESDIR:?run with make check}/slurm to /etc/pam.d/slurm"

# Every fix the path needs, not only the first: no /etc/pam.d/slurm and
# MEMLOCK propagated (the default); the soft limit is the submitting shell's.
node 'UsePAM=1'
rm "$root/etc/pam.d/slurm"
doctor
expect "no /etc/pam.d/slurm and MEMLOCK propagated: both fixes, the soft limit the submitting shell's" \
	'p["verdict"], [f.split(":")[0] for f in p["fix"].split("; and ")], p["soft"], p["soft_from_submitting_shell"]' \
	"('missing', ['copy $PML_PAMEXAMPLESDIR/slurm to /etc/pam.d/slurm', 'add PropagateResourceLimitsExcept=MEMLOCK to /etc/slurm/slurm.conf'], None, True)"
node 'UsePAM=1'
"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --service slurm >"$work/out" 2>&1
if grep -q "^  result: soft the submitting shell's (at most the hard), hard 4 MiB" "$work/out"; then
	ok "the text result names the submitting shell's soft limit"
else
	not_ok "the text result names the submitting shell's soft limit" "$(grep result: "$work/out")"
fi

# A container: PID 1's bounding set lacks CAP_SYS_RESOURCE (bit 24), so
# the session's hard limit (slurmd's 8 MiB here) cannot rise; the module
# takes the soft one up to it.  With the bit, the policy's 64 MiB.
for case in 000001fffeffffff:8388608 000001ffffffffff:67108864; do
	node 'UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK' 'rules = ( { service = "slurm"; limit = "64 MiB"; mode = "set"; } );'
	sed -i 's/^LimitMEMLOCK=.*/LimitMEMLOCK=8388608/' "$root/lib/systemd/system/slurmd.service"
	mkdir -p "$root/proc/1"
	printf 'Name:\tinit\nCapInh:\t0000000000000000\nCapBnd:\t%s\nCapAmb:\t0000000000000000\n' \
		"${case%%:*}" >"$root/proc/1/status"
	doctor
	expect "CapBnd ${case%%:*} in the root's proc/1/status: the session gets ${case#*:}" \
		'p["soft"], p["hard"], json.load(open(sys.argv[1]))["models"]["pid1"]["cap_sys_resource"]' \
		"(${case#*:}, ${case#*:}, $([ "${case#*:}" = 8388608 ] && echo False || echo True))"
done

node 'UsePAM=1
PropagateResourceLimitsExcept=MEMLOCK' 'limit = 8388608;'
doctor
expect "an invalid policy: error, with its file and line" \
	'p["verdict"], p["problem"]["file"], p["problem"]["line"]' "('error', '/etc/security/memlock.conf', 1)"

# explain works for the slurm service as for any other.
printf 'rules = ( { service = "slurm"; limit = "4 MiB"; mode = "set"; } );\n' >"$work/policy.conf"
chmod 0644 "$work/policy.conf"
got=$("$ctl" explain root --service slurm --conf "$work/policy.conf" --json 2>&1 |
	"${PML_PYTHON:-python3}" -c 'import json, sys; e = json.load(sys.stdin); print(e["soft"], e["hard"], e["mode"])' 2>&1)
[ "$got" = "4194304 4194304 set" ] && ok "explain root --service slurm: the rule's 4 MiB, set" ||
	not_ok "explain root --service slurm: the rule's 4 MiB, set" "got: $got"
