#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl status and apply on real processes.  TAP.
#
# The body runs as PID 1 of a private pid and mount namespace with its own
# /proc (unshare -pf --mount-proc): status --all and apply see only the
# helpers started here, never another test's processes nor anyone's on
# the machine.  A tmpfs over /run stands in for logind's session files.
# Helpers run as nobody: tests/memlock_hold locks and pins memory, sleep
# just holds a limit.  Limits are set with prlimit before privileges are
# dropped; without CAP_SYS_RESOURCE a hard limit cannot go above the
# caller's, so every value stays at or below 8 MiB unless the case says.
set -u
umask 022

if [ -z "${PML_STATUS_INNER:-}" ]; then
	: "${PML_BUILDDIR:?run with make check}"
	if [ "$(id -u)" != 0 ]; then
		echo "1..0 # SKIP needs root: policy files must be root's, and the helpers run as nobody"
		exit 0
	fi
	if ! command -v jq >/dev/null; then
		echo "1..0 # SKIP jq is not installed: it reads the JSON back"
		exit 0
	fi
	if ! unshare -pf --mount-proc true 2>/dev/null; then
		echo "1..0 # SKIP no private pid and mount namespace here (unshare -pf --mount-proc)"
		exit 0
	fi
	exec env PML_STATUS_INNER=1 unshare -pf --mount-proc "$0" "$@"
fi

ctl=$PML_BUILDDIR/memlockctl
hold=$PML_BUILDDIR/tests/memlock_hold
shim=$PML_BUILDDIR/tests/.libs/libsyslog_file.so
cue=$PML_BUILDDIR/tests/.libs/libfault_cue.so
# In a sanitizer build ASan must come first among the libraries; a preload
# goes before it.  Harmless here: the shim replaces no allocator.
asan_preload=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
work=$(mktemp -d /tmp/pml-status-XXXXXX) || exit 99
nobody_gid=$(id -g nobody)
nobody_group=$(id -gn nobody)
MiB=1048576
. "${PML_SRCDIR:?run with make check}/tests/tap.sh"

cleanup() {
	# Only what this namespace started; it all ends with PID 1 anyway.
	jobs -p | xargs -r kill 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# Logind's session files, here only.
mount -t tmpfs pml-status-run /run && mkdir -p /run/systemd/sessions || exit 99

policy() { # policy NAME TEXT: a root-owned policy file; prints its path
	printf '%s\n' "$2" >"$work/$1.conf" && chmod 0644 "$work/$1.conf"
	echo "$work/$1.conf"
}
raise8=$(policy raise8 'limit = "8 MiB";')
raise16=$(policy raise16 'limit = "16 MiB";')
set4=$(policy set4 'limit = "4 MiB"; mode = "set";')
bysvc=$(policy bysvc 'limit = "8 MiB";
rules = ( { service = "sshd"; limit = "2 MiB"; mode = "set"; } );')
bad=$(policy bad 'limit = 8;')
# A rule on nobody's group, for one service: the group lookup must see it
# for a session whose service is unknown, too.
grpsvc=$(policy grpsvc "limit = \"4 MiB\"; mode = \"set\";
rules = ( { group = \"$nobody_group\"; service = \"sshd\"; limit = \"8 MiB\"; mode = \"set\"; } );")
# A service rule first, then a rule on the user that outranks it.
cronuser=$(policy cronuser 'limit = "8 MiB";
rules = ( { service = "cron"; limit = "16 MiB"; },
          { user = "nobody"; limit = "4 MiB"; mode = "set"; } );')
# A user name that is a number: never uid 4242.
numname=$(policy numname 'limit = "8 MiB";
rules = ( { user = "4242"; limit = "1 MiB"; mode = "set"; } );')
half=$(policy half 'limit = "50%"; mode = "set";')
cap_sys_resource() {
	[ $(( 0x$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) = 1 ]
}

# spawn SOFT HARD [LOGINUID] -- COMMAND...: COMMAND as nobody under those
# limits (and that loginuid, which gives it a session id); sets $pid, and
# $spawn_out to the file of its output.
spawns=0
spawn() {
	local soft=$1 hard=$2 loginuid=
	shift 2
	if [ "$1" != -- ]; then loginuid=$1; shift; fi
	shift
	spawns=$((spawns + 1))
	spawn_out=$work/out.$spawns
	(
		if [ -n "$loginuid" ]; then echo "$loginuid" >/proc/self/loginuid || exit 1; fi
		exec prlimit --memlock="$soft:$hard" \
			setpriv --reuid=nobody --regid="$nobody_gid" --clear-groups "$@"
	) >"$spawn_out" 2>&1 &
	pid=$!
	# Until it runs COMMAND, it is this shell's (root's) subshell.
	local i want
	want=$(basename "$1")
	for i in $(seq 100); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${want:0:15}" ] && return 0
		sleep 0.05
	done
	echo "Bail out! $* did not start as nobody"
	exit 1
}
# hold SOFT HARD LOCK PIN [LOGINUID]: memlock_hold; waits for its line,
# sets $pid and $said.
hold() {
	local i
	spawn "$1" "$2" ${5:+"$5"} -- "$hold" "$3" "$4"
	for i in $(seq 100); do
		if [ -s "$spawn_out" ]; then
			said=$(head -1 "$spawn_out")
			return 0
		fi
		sleep 0.1
	done
	said=timeout
}
limits_of() { # "SOFT HARD" of RLIMIT_MEMLOCK of process $1, as /proc says
	sed -n 's/^Max locked memory  *\([^ ]*\)  *\([^ ]*\).*/\1 \2/p' "/proc/$1/limits"
}
wait_limits() { # wait until process $1 has limits $2 (at most a second)
	local i
	for i in $(seq 10); do
		[ "$(limits_of "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	return 1
}
jq_check() { # jq_check FILE FILTER [ARGS...]: jq -e, showing the file on failure
	local file=$1
	shift
	# jq 1.6 -e exits 0 on empty input: a command that printed nothing
	# must not pass.
	[ -s "$file" ] && jq -e "$@" "$file" >/dev/null || { show "$file"; return 1; }
}

# --- Nothing selected: apply says why.
if grep -qv '^4294967295$' /proc/[0-9]*/loginuid 2>/dev/null; then
	skip "apply: where no process has a login uid, nothing is selected, and it says why" \
		"this test runs in a login session: its processes have a login uid"
else
	"$ctl" apply --dry-run --conf "$raise8" >"$work/a.txt" 2>&1
	[ $? = 0 ] && [ "$(head -n 1 "$work/a.txt")" = "no process selected: no process has a login uid: is pam_loginuid in the PAM stacks? (--all selects every process)" ]
	verdict "apply: where no process has a login uid, nothing is selected, and it says why" "$work/a.txt"
fi

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
grep -q "^ *$p1 nobody  *memlock_hold .* 8 MiB/8 MiB raise  *ok$" "$work/s.txt" &&
	grep -q '^nobody  *2 ' "$work/s.txt" &&
	grep -q 'charges io_uring registered buffers and RDMA pins to the user' "$work/s.txt"
verdict "status text: a row per process, the user's totals, and the per-user charge" "$work/s.txt"
# Sorted by locked+pinned, descending: the helpers before a bare sleep.
spawn 65536 8388608 -- sleep 1000
low=$pid
wait_limits "$low" "65536 8388608"
"$ctl" status nobody --conf "$raise8" >"$work/s.txt"
[ $? = 1 ]; verdict "status exits 1 when a process is below the policy"
[ "$(grep ' nobody ' "$work/s.txt" | tail -1 | awk '{print $1, $NF}')" = "$low below" ]
verdict "status text: the process below the policy says so, and comes last" "$work/s.txt"
"$ctl" status nobody --json --conf "$set4" >"$work/s.json"
jq_check "$work/s.json" --argjson p "$p1" \
	'.processes[] | select(.pid == $p) | .verdict == "above" and .policy.mode == "set"'
verdict "status: higher than a set policy is above"
kill "$low"

# --- logind's service, and the default selection (a loginuid).
hold 8388608 8388608 0 0 65534
insession=$pid
session=$(cat "/proc/$insession/sessionid")
printf 'UID=65534\nUSER=nobody\nSERVICE=sshd\n' >"/run/systemd/sessions/$session"
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

# --- apply.
"$ctl" apply nobody --conf "$bysvc" >"$work/a.txt" 2>&1
[ $? = 0 ] && wait_limits "$insession" "2097152 2097152"
verdict "apply: a service rule applies where logind knows the service (8 MiB set to 2 MiB)" "$work/a.txt"
[ "$(limits_of "$p1")" = "8388608 8388608" ] &&
	grep -q "^ *$p1 nobody .*skipped: the session's service is unknown" "$work/a.txt"
verdict "apply: where the service is unknown and a service rule could apply, nothing is touched" "$work/a.txt"
kill "$insession" "$p1" "$p2"

spawn 8388608 8388608 -- sleep 1000
s8=$pid
wait_limits "$s8" "8388608 8388608"
: >"$work/syslog"
"$ctl" apply nobody --dry-run --conf "$set4" >"$work/a.txt" 2>&1
[ $? = 0 ] && grep -q "^ *$s8 nobody  *sleep  *8 MiB/8 MiB -> 4 MiB/4 MiB  would change$" "$work/a.txt" &&
	[ "$(limits_of "$s8")" = "8388608 8388608" ]
verdict "apply --dry-run prints old -> new and changes nothing" "$work/a.txt"

env LD_PRELOAD="$shim" PML_SYSLOG_FILE="$work/syslog" ASAN_OPTIONS="$asan_preload" \
	"$ctl" apply nobody --conf "$set4" >"$work/a.txt" 2>&1
[ $? = 0 ] && [ "$(limits_of "$s8")" = "4194304 4194304" ] &&
	grep -q "^ *$s8 nobody  *sleep  *8 MiB/8 MiB -> 4 MiB/4 MiB  changed$" "$work/a.txt"
verdict "apply in set mode lowers a running process from 8 MiB to 4 MiB" "$work/a.txt"
[ "$(wc -l <"$work/syslog")" = 1 ] &&
	grep -q '^<85> apply by uid 0: 1 process changed, 0 unchanged, 0 failed, 0 skipped$' "$work/syslog"
verdict "apply logs one line per run, with the count of processes changed" "$work/syslog"
: >"$work/syslog"
env LD_PRELOAD="$shim" PML_SYSLOG_FILE="$work/syslog" ASAN_OPTIONS="$asan_preload" \
	"$ctl" apply nobody --dry-run --conf "$set4" >/dev/null 2>&1
[ ! -s "$work/syslog" ]; verdict "apply --dry-run logs nothing" "$work/syslog"
kill "$s8"

spawn 65536 8388608 -- sleep 1000
low=$pid
wait_limits "$low" "65536 8388608"
"$ctl" apply nobody --json --conf "$raise8" >"$work/a.json" 2>"$work/a.err"
[ $? = 0 ] && [ "$(limits_of "$low")" = "8388608 8388608" ]
verdict "apply in raise mode raises soft from 64 KiB up to the 8 MiB hard limit" "$work/a.json" "$work/a.err"
jq_check "$work/a.json" --argjson p "$low" \
	'.dry_run == false and .changed == 1 and .failed == 0
	 and (.processes[] | select(.pid == $p)
	      | .before.soft == 65536 and .wanted.soft == 8388608
	        and .after == {"soft": 8388608, "hard": 8388608}
	        and .result == "changed" and .mode == "raise")'
verdict "apply --json parses, with before, wanted and after"
"$ctl" apply nobody --conf "$raise8" >"$work/a.txt" 2>&1
grep -q "^applied: 0 changed, 1 unchanged, 0 failed, 0 skipped$" "$work/a.txt"
verdict "apply again: nothing left to change" "$work/a.txt"
kill "$low"

# A hard raise needs CAP_SYS_RESOURCE.  Without it (this machine), the
# module's fallback: soft up to the hard limit, and a warning.  With it (a
# VM with real root), both sides reach the policy.
spawn 65536 8388608 -- sleep 1000
low=$pid
wait_limits "$low" "65536 8388608"
"$ctl" apply nobody --conf "$raise16" >"$work/a.txt" 2>"$work/a.err"
rc=$?
if [ $(( 0x$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) = 1 ]; then
	[ $rc = 0 ] && [ "$(limits_of "$low")" = "16777216 16777216" ]
	verdict "apply raises a running 64 KiB process to the policy's 16 MiB (CAP_SYS_RESOURCE)" \
		"$work/a.txt" "$work/a.err"
else
	[ $rc = 0 ] && [ "$(limits_of "$low")" = "8388608 8388608" ] &&
		grep -q "process $low: raising the hard limit to 16 MiB needs CAP_SYS_RESOURCE; soft went to 8 MiB" "$work/a.err" &&
		grep -q "^ *$low nobody .*64 KiB/8 MiB -> 8 MiB/8 MiB  changed (soft only" "$work/a.txt"
	verdict "apply: a refused hard raise takes soft up to the hard limit, with a warning" \
		"$work/a.txt" "$work/a.err"
fi
kill "$low"

# A process only its owner could change, whose effective uid is another's:
# without CAP_SYS_RESOURCE nobody may change it, and apply says so.
(exec prlimit --memlock=8388608:8388608 setpriv --ruid=nobody --euid=1 \
	--regid="$nobody_gid" --clear-groups sleep 1000) &
mixed=$!
while [ "$(cat "/proc/$mixed/comm")" != sleep ]; do sleep 0.05; done
"$ctl" apply nobody --conf "$set4" >"$work/a.txt" 2>&1
rc=$?
if [ $(( 0x$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) = 1 ]; then
	skip "apply exits 1 when a change fails, and says why" \
		"with CAP_SYS_RESOURCE every change here succeeds"
else
	[ $rc = 1 ] && [ "$(limits_of "$mixed")" = "8388608 8388608" ] &&
		grep -q "^ *$mixed nobody  *sleep  *failed: Operation not permitted$" "$work/a.txt" &&
		grep -q "^applied: 0 changed, 0 unchanged, 1 failed, 0 skipped$" "$work/a.txt"
	verdict "apply exits 1 when a change fails, and says why" "$work/a.txt"
fi
kill "$mixed"

# --- Who is never touched: root's processes unless root is named, PID 1.
prlimit --memlock=8388608:8388608 sleep 1000 &
rootsleep=$!
while [ "$(cat "/proc/$rootsleep/comm")" != sleep ]; do sleep 0.05; done
spawn 8388608 8388608 -- sleep 1000
s8=$pid
wait_limits "$s8" "8388608 8388608" && wait_limits "$rootsleep" "8388608 8388608"
"$ctl" apply --all --conf "$set4" >"$work/a.txt" 2>&1
[ $? = 0 ] && [ "$(limits_of "$s8")" = "4194304 4194304" ] &&
	[ "$(limits_of "$rootsleep")" = "8388608 8388608" ] &&
	grep -q "^ *$rootsleep root .*skipped: root's, and root is not named" "$work/a.txt"
verdict "apply --all changes nobody's processes and leaves root's alone" "$work/a.txt"
"$ctl" apply root --conf "$set4" >"$work/a.txt" 2>&1
[ $? = 0 ] && [ "$(limits_of "$rootsleep")" = "4194304 4194304" ] &&
	[ "$(limits_of 1)" = "8388608 8388608" ] &&
	grep -q "^ *1 root .*skipped: PID 1$" "$work/a.txt" &&
	grep -q "skipped: memlockctl itself$" "$work/a.txt"
verdict "apply root changes root's processes, but never PID 1 nor itself" "$work/a.txt"
kill "$rootsleep" "$s8"

# --- Processes that end while status and apply run: skipped, no error.
spawn 8388608 8388608 -- sh -c 'while :; do /bin/true & /bin/true; wait; done'
churn=$pid
: >"$work/err"
fails=0
for i in $(seq 30); do
	"$ctl" status nobody --conf "$raise8" >/dev/null 2>>"$work/err" || fails=$((fails + 1))
	"$ctl" status --all --json --conf "$raise8" >"$work/s.json" 2>>"$work/err" || fails=$((fails + 1))
	[ -s "$work/s.json" ] && jq -e . "$work/s.json" >/dev/null || fails=$((fails + 1))
	"$ctl" apply nobody --conf "$raise8" >/dev/null 2>>"$work/err" || fails=$((fails + 1))
done
[ $fails = 0 ] && [ ! -s "$work/err" ]
verdict "processes that end midway are skipped without an error (30 runs of each; $fails failed)" "$work/err"
kill "$churn"

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
[ $? = 1 ] && jq_check "$work/s.json" \
	'.processes == [{"pid": 77, "user": "nobody", "uid": 65534, "user_known": true,
	   "command": "saved (x)", "session": 9, "slurm_job": null, "service": "login",
	   "service_given": false, "soft": 65536, "hard": 65536, "locked": 2097152, "pinned": 4096,
	   "policy": {"base": null, "base_from": null, "soft": 8388608, "hard": 8388608,
	              "mode": "raise", "rule": null},
	   "verdict": "below"},
	  {"pid": 78, "user": "nobody", "uid": 65534, "user_known": true,
	   "command": "job", "session": null, "slurm_job": 42, "service": "slurm",
	   "service_given": false, "soft": 65536, "hard": 65536, "locked": 0, "pinned": 0,
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
# No process has a loginuid: the default selection finds none, and says why.
tree=$work/nologin
saved_proc "$tree" 90 4294967295 /
"$ctl" status --root "$tree" --conf "$raise8" >"$work/s.txt" 2>&1
[ $? = 0 ] && [ "$(cat "$work/s.txt")" = "no process selected: no process has a login uid: is pam_loginuid in the PAM stacks? (--all selects every process)" ]
verdict "status: where no process has a login uid, nothing is selected, and it says why" "$work/s.txt"

# --- Rules a session's service decides, where logind names none.
spawn 8388608 8388608 -- sleep 1000
gs=$pid
wait_limits "$gs" "8388608 8388608"
"$ctl" apply nobody --conf "$grpsvc" >"$work/a.txt" 2>&1
[ "$(limits_of "$gs")" = "8388608 8388608" ] &&
	grep -q "^ *$gs nobody .*skipped: the session's service is unknown" "$work/a.txt"
verdict "apply: a rule with a group and a service key could apply: no session of unknown service is lowered" "$work/a.txt"
"$ctl" status nobody --json --conf "$grpsvc" >"$work/s.json" 2>"$work/s.err"
jq_check "$work/s.json" --argjson p "$gs" \
	'.processes[] | select(.pid == $p) | .verdict == "unknown" and .policy == null' &&
	grep -q "1 process without an answer: logind names no service for the session, and a rule with a service key could apply; --service NAME answers as if it were NAME" "$work/s.err"
verdict "status: the same process has no answer, and a note says what would give one" "$work/s.err"
"$ctl" apply nobody --service sshd --conf "$grpsvc" >"$work/a.txt" 2>&1
[ $? = 0 ] && [ "$(limits_of "$gs")" = "8388608 8388608" ] &&
	grep -q "^ *$gs nobody .*8 MiB/8 MiB -> 8 MiB/8 MiB  unchanged$" "$work/a.txt"
verdict "apply --service sshd: the group and service rule answers, 8 MiB stays" "$work/a.txt"
"$ctl" status nobody --service login --json --conf "$grpsvc" >"$work/s.json"
jq_check "$work/s.json" --argjson p "$gs" \
	'.processes[] | select(.pid == $p) | .service == "login" and .service_given
	 and .policy.soft == 4194304 and .policy.mode == "set" and .verdict == "above"'
verdict "status --service login: answered as login, and marked as given"
"$ctl" status nobody --service login --conf "$grpsvc" >"$work/s.txt"
grep -q "^ *$gs nobody .* (login) .* 4 MiB/4 MiB set  *above$" "$work/s.txt"
verdict "status text: a service --service gave is in parentheses" "$work/s.txt"
"$ctl" status --all --json --conf "$cronuser" >"$work/s.json" 2>"$work/s.err"
jq_check "$work/s.json" --argjson p "$gs" \
	'(.processes[] | select(.pid == $p) | .policy.soft == 4194304 and .verdict == "above")
	 and (.processes[] | select(.pid == 1) | .verdict == "unknown")'
verdict "status --all: a later user rule answers whatever the service; root, whom only the cron rule could change, has none" "$work/s.json"
"$ctl" status --all --service login --json --conf "$cronuser" >"$work/s.json"
jq_check "$work/s.json" '[.processes[] | .verdict] | index("unknown") == null'
verdict "status --all --service login: every process has an answer"
kill "$gs"

# --- A uid without a name is not the user named like its number.
if getent passwd 4242 >/dev/null; then
	skip "apply: a process of uid 4242, which has no name, is not user \"4242\"" "uid 4242 has a passwd entry here"
	skip "status: uid 4242 shows as a number, not known, with the top level's answer" "uid 4242 has a passwd entry here"
else
	(exec prlimit --memlock=8388608:8388608 setpriv --reuid=4242 --regid=4242 \
		--clear-groups sleep 1000) &
	u4242=$!
	while [ "$(cat "/proc/$u4242/comm")" != sleep ]; do sleep 0.05; done
	"$ctl" apply --all --conf "$numname" >"$work/a.txt" 2>&1
	[ $? = 0 ] && [ "$(limits_of "$u4242")" = "8388608 8388608" ]
	verdict "apply: a process of uid 4242, which has no name, is not user \"4242\"" "$work/a.txt"
	"$ctl" status --all --json --conf "$numname" >"$work/s.json"
	jq_check "$work/s.json" --argjson p "$u4242" \
		'.processes[] | select(.pid == $p) | .user == "4242" and .user_known == false
		 and .policy.soft == 8388608 and .policy.rule == null'
	verdict "status: uid 4242 shows as a number, not known, with the top level's answer"
	kill "$u4242"
fi

# --- Nothing changed is "unchanged", even where the plan wanted more.
spawn 65536 65536 -- sleep 1000
low=$pid
wait_limits "$low" "65536 65536"
"$ctl" apply nobody --conf "$raise8" >"$work/a.txt" 2>"$work/a.err"
if cap_sys_resource; then
	skip "apply: a hard raise refused with soft already at hard is unchanged, not changed" \
		"with CAP_SYS_RESOURCE the hard raise succeeds"
else
	grep -q "^ *$low nobody .*64 KiB/64 KiB -> 64 KiB/64 KiB  unchanged (raising hard needs CAP_SYS_RESOURCE)$" "$work/a.txt" &&
		grep -q "^applied: 0 changed, 1 unchanged, 0 failed, 0 skipped$" "$work/a.txt"
	verdict "apply: a hard raise refused with soft already at hard is unchanged, not changed" "$work/a.txt"
fi
kill "$low"

# --- A child acting as the owner, stopped by the owner: a bounded wait.
spawn 8388608 8388608 -- sleep 1000
s8=$pid
wait_limits "$s8" "8388608 8388608"
start=$SECONDS
timeout 60 env LD_PRELOAD="$cue" PML_CUE_STOP_UNPRIVILEGED=1 ASAN_OPTIONS="$asan_preload" \
	"$ctl" apply nobody --conf "$set4" >"$work/a.txt" 2>&1
rc=$?
[ $rc = 1 ] && [ "$(limits_of "$s8")" = "8388608 8388608" ] &&
	grep -q "^ *$s8 nobody .*failed: the child acting as the process's owner did not answer in time (stopped?), and was killed$" "$work/a.txt"
verdict "apply: a stopped child is given up after a bounded wait, and the process reported failed (rc $rc, $((SECONDS - start)) s)" "$work/a.txt"
kill "$s8"

# --- A pid that passes to a root process during apply.
spawn 8388608 8388608 -- sleep 1000
victim=$pid
wait_limits "$victim" "8388608 8388608"
# The cue may fire in a child that runs as nobody: its files go where
# nobody may reach and write.
chmod 0711 "$work" && mkdir -m 1777 "$work/cue"
env LD_PRELOAD="$cue" PML_CUE_PRLIMIT_PID="$victim" PML_CUE_HOLD="$work/cue/hold" \
	ASAN_OPTIONS="$asan_preload" "$ctl" apply nobody --conf "$set4" >"$work/a.txt" 2>&1 &
applying=$!
for i in $(seq 200); do [ -e "$work/cue/hold.ready" ] && break; sleep 0.05; done
kill "$victim"
wait "$victim" 2>/dev/null
echo $((victim - 1)) >/proc/sys/kernel/ns_last_pid
prlimit --memlock=8388608:8388608 sleep 1000 &
newcomer=$!
: >"$work/cue/hold.go"
wait "$applying"
if [ "$newcomer" != "$victim" ]; then
	skip "apply: a pid that passed to a root process midway: that process is untouched" \
		"the pid did not pass to the new process (ns_last_pid)"
else
	[ -e "$work/cue/hold.ready" ] && wait_limits "$newcomer" "8388608 8388608" &&
		[ "$(limits_of "$newcomer")" = "8388608 8388608" ] &&
		! grep -q "^ *$victim " "$work/a.txt" &&
		grep -q "^applied: 0 changed, 0 unchanged, 0 failed, 0 skipped$" "$work/a.txt"
	verdict "apply: a pid that passed to a root process midway: that process is untouched" "$work/a.txt"
fi
kill "$newcomer"

# --- Errors.
"$ctl" status --all nobody >/dev/null 2>"$work/err"
[ $? = 2 ]; verdict "status: --all with users is a usage error" "$work/err"
"$ctl" apply --root / >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "apply does not take --root" "$work/err"
verdict "apply does not take --root" "$work/err"
"$ctl" status pml-no-such-user >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'user "pml-no-such-user" is unknown' "$work/err"
verdict "status: an unknown user fails, and is named" "$work/err"
"$ctl" apply nobody --conf "$bad" >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'bad.conf:1' "$work/err"
verdict "apply: an invalid policy changes nothing and fails" "$work/err"

echo "1..$n"
