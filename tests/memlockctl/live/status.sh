#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl status on real processes, and on saved trees (--root).  TAP.
# The namespace, the helpers and the policies are tests/memlockctl/live/status-env.sh;
# apply is tests/memlockctl/live/apply.sh.
. "${PML_SRCDIR:?run with make check}/tests/memlockctl/live/status-env.sh"

# --- status: locked and pinned memory, per process and per user.
hold 8388608 8388608 $MiB $MiB
p1=$pid said1=$said
hold 8388608 8388608 $MiB $MiB
p2=$pid
case $said1 in
ready) uring=true ;;
unusable:*) uring=false ;;
*) echo "Bail out! memlock_hold said: $said1"; exit 1 ;;
esac

"$ctl" status nobody --json --conf "$raise8" >"$work/s.json" 2>"$work/s.err"
[ $? = 0 ]; verdict "status --json exits 0 when every process is at the policy" "$work/s.err"
jq_check "$work/s.json" --argjson a "$p1" --argjson b "$p2" \
	'[.processes[].pid] | (index($a) != null) and (index($b) != null)'
verdict "status --json parses, and lists both helpers"
jq_check "$work/s.json" --argjson p "$p1" '.processes[] | select(.pid == $p) | .locked >= 1048576'
verdict "status: VmLck of a process that locked 1 MiB is at least 1 MiB"
if $uring; then
	jq_check "$work/s.json" --argjson p "$p1" '.processes[] | select(.pid == $p) | .pinned >= 1048576'
	verdict "status: VmPin of a process with a 1 MiB io_uring buffer is at least 1 MiB"
	jq_check "$work/s.json" \
		'.users as $u | [.processes[] | select(.user == "nobody")] as $p
		 | ($u | length) == 1 and $u[0].user == "nobody"
		 and $u[0].processes == ($p | length)
		 and $u[0].locked == ($p | map(.locked) | add) and $u[0].locked >= 2097152
		 and $u[0].pinned == ($p | map(.pinned) | add) and $u[0].pinned >= 2097152
		 and $u[0].smallest_soft == ($p | map(.soft) | min)'
	verdict "status: the user's totals are the sums over its processes (>= 2 MiB each)"
else
	skip "status: VmPin of a process with a 1 MiB io_uring buffer" "io_uring unusable here: $said1"
	skip "status: the user's totals are the sums over its processes" "io_uring unusable here: $said1"
fi
jq_check "$work/s.json" --argjson p "$p1" \
	'.processes[] | select(.pid == $p)
	 | .policy.soft == 8388608 and .policy.hard == 8388608
	   and .policy.mode == "raise" and .verdict == "ok" and .soft == 8388608
	   and .command == "memlock_hold" and .uid == 65534 and .session == null'
verdict "status: the policy's answer, and the verdict ok"

"$ctl" status nobody --conf "$raise8" >"$work/s.txt" 2>&1
grep -q "^ *$p1 nobody  *memlock_hold .* 8 MiB/8 MiB raise  *ok  *\(inherited\|unit .*\)$" "$work/s.txt" &&
	grep -q '^nobody  *2 ' "$work/s.txt" &&
	grep -q 'charges io_uring registered buffers and RDMA pins to the user' "$work/s.txt"
verdict "status text: a row per process, the user's totals, and the per-user charge" "$work/s.txt"
# Sorted by locked+pinned, descending: the helpers before a bare sleep.
spawn 65536 8388608 -- sleep 1000
low=$pid
wait_limits "$low" "65536 8388608"
"$ctl" status nobody --conf "$raise8" >"$work/s.txt"
[ $? = 1 ]; verdict "status exits 1 when a process is below the policy"
[ "$(grep ' nobody ' "$work/s.txt" | tail -1 | awk '{print $1, $(NF - 1)}')" = "$low below" ]
verdict "status text: the process below the policy says so, and comes last" "$work/s.txt"
"$ctl" status nobody --json --conf "$set4" >"$work/s.json"
jq_check "$work/s.json" --argjson p "$p1" \
	'.processes[] | select(.pid == $p) | .verdict == "above" and .policy.mode == "set"'
verdict "status: higher than a set policy is above"
end "$low"

# --- logind's service, and the default selection (a loginuid).
in_session
"$ctl" status --json --conf "$bysvc" >"$work/s.json"
jq_check "$work/s.json" --argjson p "$insession" --argjson s "$session" \
	'.selection == "sessions" and (.processes | length) == 1
	 and .processes[0].pid == $p and .processes[0].session == $s
	 and .processes[0].service == "sshd" and .processes[0].policy.soft == 2097152
	 and .processes[0].policy.mode == "set" and .processes[0].verdict == "above"'
verdict "status without users: only processes in a login session, with logind's service"
"$ctl" status nobody --json --conf "$bysvc" >"$work/s.json"
jq_check "$work/s.json" --argjson p "$p1" \
	'.processes[] | select(.pid == $p) | .verdict == "unknown" and .policy == null and .service == null'
verdict "status: without a known service, where a service rule could apply, the verdict is unknown"
end "$insession" "$p1" "$p2"

# --- --root: a saved tree instead of this machine's /proc and /run.
tree=$work/tree
mkdir -p "$tree/proc/77" "$tree/run/systemd/sessions"
echo '77 (saved (x)) S 1 77 77 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4242 1 1' >"$tree/proc/77/stat"
printf 'Name:\tsaved\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nVmLck:\t    2048 kB\nVmPin:\t       4 kB\n' \
	>"$tree/proc/77/status"
printf 'Limit Soft Hard Units\nMax locked memory         65536                65536                bytes\n' \
	>"$tree/proc/77/limits"
echo 65534 >"$tree/proc/77/loginuid"
echo 9 >"$tree/proc/77/sessionid"
printf 'SERVICE=login\n' >"$tree/run/systemd/sessions/9"
# A Slurm job's process: no login uid, no session; its cgroup names the job.
mkdir -p "$tree/proc/78"
sed 's/^77 (saved (x))/78 (job)/' "$tree/proc/77/stat" >"$tree/proc/78/stat"
printf 'Name:\tjob\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nVmLck:\t       0 kB\nVmPin:\t       0 kB\n' \
	>"$tree/proc/78/status"
cp "$tree/proc/77/limits" "$tree/proc/78/limits"
echo 4294967295 >"$tree/proc/78/loginuid"
echo 4294967295 >"$tree/proc/78/sessionid"
echo 0::/system.slice/node1_slurmstepd.scope/job_42/step_batch/user/task_0 >"$tree/proc/78/cgroup"
"$ctl" status --root "$tree" --json --conf "$bysvc" >"$work/s.json"
[ $? = 1 ] && jq_check "$work/s.json" --arg conf "$bysvc" \
	'.processes == [{"pid": 77, "user": "nobody", "uid": 65534, "user_known": true,
	   "command": "saved (x)", "session": 9, "slurm_job": null, "service": "login",
	   "service_given": false, "layer": "session", "layer_unit": null,
	   "layer_from": ($conf + ":1"), "layer_rule": null,
	   "soft": 65536, "hard": 65536, "locked": 2097152, "pinned": 4096,
	   "policy": {"base": null, "base_from": null, "soft": 8388608, "hard": 8388608,
	              "mode": "raise", "rule": null},
	   "verdict": "below"},
	  {"pid": 78, "user": "nobody", "uid": 65534, "user_known": true,
	   "command": "job", "session": null, "slurm_job": 42, "service": "slurm",
	   "service_given": false, "layer": "inherited", "layer_unit": null,
	   "layer_from": null, "layer_rule": null,
	   "soft": 65536, "hard": 65536, "locked": 0, "pinned": 0,
	   "policy": {"base": null, "base_from": null, "soft": 8388608, "hard": 8388608,
	              "mode": "raise", "rule": null},
	   "verdict": "below"}]
	 and .users == [{"user": "nobody", "uid": 65534, "processes": 2,
	   "locked": 2097152, "pinned": 4096, "smallest_soft": 65536}]'
verdict "status --root reads a saved tree, a Slurm job's process too: every field, exactly"
"$ctl" status --root "$tree" --conf "$bysvc" >"$work/s.txt"
grep -q '^ *78 nobody *job *job 42 slurm ' "$work/s.txt"
verdict "status text: the job's process shows \"job 42\" and service slurm" "$work/s.txt"
"$ctl" status --root relative/dir >/dev/null 2>&1
[ $? = 2 ]; verdict "status --root wants an absolute directory"

# saved_proc TREE PID LOGINUID CGROUP: a sleeping process of nobody's at
# 64 KiB, in the saved tree.
saved_proc() {
	local d=$1/proc/$2
	mkdir -p "$d"
	echo "$2 (saved) S 1 $2 $2 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4242 1 1" >"$d/stat"
	printf 'Name:\tsaved\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\n' >"$d/status"
	printf 'Limit Soft Hard Units\nMax locked memory         65536                65536                bytes\n' >"$d/limits"
	echo "$3" >"$d/loginuid"
	echo 4294967295 >"$d/sessionid"
	echo "0::$4" >"$d/cgroup"
}
# Each process's own cgroup is the base of its share: one in a 256 MiB
# cgroup (a container), one in none.
tree=$work/cgtree
mkdir -p "$tree/sys/fs/cgroup/box/a" "$tree/sys/fs/cgroup/free"
echo "cpu memory" >"$tree/sys/fs/cgroup/cgroup.controllers"
echo 268435456 >"$tree/sys/fs/cgroup/box/memory.max"
echo max >"$tree/sys/fs/cgroup/box/a/memory.max"
saved_proc "$tree" 81 65534 /box/a
saved_proc "$tree" 82 65534 /free
"$ctl" status --root "$tree" --json --conf "$half" >"$work/s.json" 2>"$work/s.err"
page=$(getconf PAGESIZE)
jq_check "$work/s.json" --arg from "$tree/sys/fs/cgroup/box/memory.max" --argjson page "$page" \
	'(.processes[] | select(.pid == 81) | .policy
	  | .base == 268435456 and .base_from == $from and .soft == 134217728)
	 and (.processes[] | select(.pid == 82) | .policy
	  | .base > 268435456 and .base_from == null
	    and .soft == ((.base / 2 / $page | floor) * $page))'
verdict "status: a share of \"available\" is of each process's own cgroup: 128 MiB in a 256 MiB cgroup, half of RAM outside it" "$work/s.err"
# --- Which layer set each process's limit.  A session's process: its PAM
# rule; a unit's: the file whose LimitMEMLOCK= counts, read inside the
# tree (the vendor's unit, the generator's drop-in and the rule it names,
# an admin's drop-in after it); neither: inherited.
tree=$work/layers
layers=$(policy layers 'limit = "8 MiB";
rules = (
  { uid = "65534"; limit = "16 MiB"; },
  { unit = ["postgresql@*.service", "admin.service", "masked*.service"]; limit = "1 GiB"; }
);')
units=$tree/usr/lib/systemd/system
gen=$tree/run/systemd/generator
mkdir -p "$units" "$gen/postgresql@.service.d" "$gen/admin.service.d" \
	"$tree/etc/systemd/system/admin.service.d" "$tree/run/systemd/sessions"
for u in masked maskednone maskedbare; do
	mkdir -p "$gen/$u.service.d" "$tree/etc/systemd/system/$u.service.d"
done
printf '[Service]\nExecStart=/bin/true\nLimitMEMLOCK=64M\n' >"$units/vendor.service"
printf '[Service]\nExecStart=/bin/true\n' >"$units/postgresql@.service"
printf '[Service]\nExecStart=/bin/true\n' >"$units/plain.service"
printf '[Service]\nLimitMEMLOCK=1M\n' >"$units/admin.service"
for u in postgresql@.service admin.service masked.service maskednone.service maskedbare.service; do
	printf '# Written by pam-memlock-generator from the rule at %s:4\n# (mode raise)\n[Service]\nLimitMEMLOCK=1073741824:1073741824\n' \
		"$layers" >"$gen/$u.d/50-pam-memlock.conf"
done
printf '[Service]\nLimitMEMLOCK=infinity\n' >"$tree/etc/systemd/system/admin.service.d/override.conf"
# An admin's file of the generator's drop-in's name masks it: its own
# LimitMEMLOCK= counts, or, when it sets none, the vendor's, or none.
printf '[Service]\nExecStart=/bin/true\n' >"$units/masked.service"
printf '[Service]\nExecStart=/bin/true\nLimitMEMLOCK=32M\n' >"$units/maskednone.service"
printf '[Service]\nLimitMEMLOCK=2M\n' >"$tree/etc/systemd/system/masked.service.d/50-pam-memlock.conf"
printf '[Service]\nNice=5\n' >"$tree/etc/systemd/system/maskednone.service.d/50-pam-memlock.conf"
printf '[Service]\nExecStart=/bin/true\n' >"$units/maskedbare.service"
printf '[Service]\nNice=5\n' >"$tree/etc/systemd/system/maskedbare.service.d/50-pam-memlock.conf"
saved_proc "$tree" 101 65534 /user.slice/user-65534.slice/session-5.scope
echo 5 >"$tree/proc/101/sessionid"
printf 'SERVICE=sshd\n' >"$tree/run/systemd/sessions/5"
saved_proc "$tree" 102 4294967295 /system.slice/vendor.service
saved_proc "$tree" 103 4294967295 /system.slice/system-postgresql.slice/postgresql@17-main.service
saved_proc "$tree" 104 4294967295 /system.slice/admin.service
saved_proc "$tree" 105 4294967295 /system.slice/docker-0123abcd.scope
saved_proc "$tree" 106 4294967295 /system.slice/plain.service
saved_proc "$tree" 107 4294967295 /system.slice/masked.service
saved_proc "$tree" 108 4294967295 /system.slice/maskednone.service
saved_proc "$tree" 109 4294967295 /system.slice/maskedbare.service
"$ctl" status --root "$tree" --all --json --conf "$layers" >"$work/s.json" 2>"$work/s.err"
# pid|layer|unit|from|rule|what, one a process ("-": null)
while IFS='|' read -r pid layer unit from rule name; do
	jq_check "$work/s.json" --argjson pid "$pid" --arg layer "$layer" --arg unit "$unit" \
		--arg from "$from" --arg rule "$rule" \
		'def n: if . == "-" then null else . end;
		 .processes[] | select(.pid == $pid)
		 | .layer == $layer and .layer_unit == ($unit | n)
		   and .layer_from == ($from | n) and .layer_rule == ($rule | n)'
	verdict "status: the layer of $name: $layer" "$work/s.err"
done <<EOF
101|session|-|$layers:3|-|a session's process (its PAM rule)
102|unit|vendor.service|$units/vendor.service:3|-|a unit whose vendor file sets LimitMEMLOCK=
103|unit|postgresql@17-main.service|$gen/postgresql@.service.d/50-pam-memlock.conf:4|$layers:4|a template's instance, by the generator's drop-in
104|unit|admin.service|$tree/etc/systemd/system/admin.service.d/override.conf:2|-|a unit where an admin's later drop-in wins over the generator's
105|inherited|-|-|-|a container's process (a scope)
106|inherited|-|-|-|a unit whose files set no LimitMEMLOCK=
107|unit|masked.service|$tree/etc/systemd/system/masked.service.d/50-pam-memlock.conf:2|-|a unit whose admin's file of the drop-in's name sets LimitMEMLOCK=
108|unit|maskednone.service|$units/maskednone.service:3|-|a unit whose admin's file of the drop-in's name sets none: the vendor's
109|inherited|-|-|-|a unit whose admin's file of the drop-in's name sets none, nor its other files
EOF
"$ctl" status --root "$tree" --all --conf "$layers" >"$work/s.txt"
grep -q "^ *103 .* unit postgresql@17-main.service $gen/postgresql@.service.d/50-pam-memlock.conf:4 rule $layers:4\$" "$work/s.txt" &&
	grep -q "^ *101 .* session $layers:3\$" "$work/s.txt" && grep -q '^ *105 .* inherited$' "$work/s.txt"
verdict "status text: the LAYER column names the layer, its file and the rule" "$work/s.txt"

# No process has a loginuid: the default selection finds none, and says why.
tree=$work/nologin
saved_proc "$tree" 90 4294967295 /
"$ctl" status --root "$tree" --conf "$raise8" >"$work/s.txt" 2>&1
[ $? = 0 ] && [ "$(cat "$work/s.txt")" = "no process selected: no process has a login uid: is pam_loginuid in the PAM stacks? (--all selects every process)" ]
verdict "status: where no process has a login uid, nothing is selected, and it says why" "$work/s.txt"

# --- A hostile tree: nothing outside it is read, no FIFO or device opened.
# Process 77's session file is a link to a file outside the tree; process
# 2's cgroup a link to /dev/ptmx, process 3's a FIFO, whose writer shows
# whether anything opened it; process 4 is plain.  The policy takes a share
# of "available", so that the core reads each process's cgroup too.
tree=$work/hostile
outside=$work/outside-secret
printf 'SERVICE=host-secret-token-42\n' >"$outside"
saved_proc "$tree" 77 65534 /
echo 7 >"$tree/proc/77/sessionid"
mkdir -p "$tree/run/systemd/sessions" "$tree/sys/fs/cgroup"
echo "cpu memory" >"$tree/sys/fs/cgroup/cgroup.controllers"
ln -s "$outside" "$tree/run/systemd/sessions/7"
saved_proc "$tree" 2 65534 /
ln -sf /dev/ptmx "$tree/proc/2/cgroup"
saved_proc "$tree" 3 65534 /
rm "$tree/proc/3/cgroup" && mkfifo "$tree/proc/3/cgroup"
saved_proc "$tree" 4 65534 /
for cmd in "status --all" "status --all --json" "metrics --all" "nagios --all"; do
	rm -f "$work/opened"
	(exec 3>"$tree/proc/3/cgroup"; echo opened >"$work/opened") &
	writer=$!
	timeout 30 "$ctl" $cmd --root "$tree" --conf "$half" >"$work/h.out" 2>"$work/h.err"
	rc=$?
	end "$writer"
	! grep -q host-secret-token-42 "$work/h.out" "$work/h.err" && [ ! -e "$work/opened" ] &&
		[ $rc != 124 ] &&
		grep -q "$tree/proc/2/cgroup: not as the kernel writes it (not a regular file, or not its format); process skipped$" "$work/h.err" &&
		grep -q "$tree/proc/3/cgroup: not as the kernel writes it" "$work/h.err"
	verdict "$cmd --root: a link out of the tree is not followed, a FIFO and a device are not opened, and each is named (rc $rc)" \
		"$work/h.out" "$work/h.err"
done
"$ctl" status --all --json --root "$tree" --conf "$half" >"$work/s.json" 2>/dev/null
jq_check "$work/s.json" '[.processes[].pid] == [4, 77] and (.processes[] | select(.pid == 77) | .service == null)'
verdict "status --root: the processes with odd files are skipped, the others listed; the escaping session names no service" "$work/s.json"

# --- Errors.
"$ctl" status --all nobody >/dev/null 2>"$work/err"
[ $? = 2 ]; verdict "status: --all with users is a usage error" "$work/err"
"$ctl" status pml-no-such-user >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'user "pml-no-such-user" is unknown' "$work/err"
verdict "status: an unknown user fails, and is named" "$work/err"

echo "1..$n"
