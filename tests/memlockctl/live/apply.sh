#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl apply on real processes: what it changes, what it never
# touches, and processes that end, stop or pass their pid to another
# midway.  TAP.  The namespace, the helpers and the policies are
# tests/memlockctl/live/status-env.sh; status is tests/memlockctl/live/status.sh.
. "${PML_SRCDIR:?run with make check}/tests/memlockctl/live/status-env.sh"

# --- Nothing selected: apply says why.
if grep -qv '^4294967295$' /proc/[0-9]*/loginuid 2>/dev/null; then
	skip "apply: where no process has a login uid, nothing is selected, and it says why" \
		"this test runs in a login session: its processes have a login uid"
else
	"$ctl" apply --dry-run --conf "$raise8" >"$work/a.txt" 2>&1
	[ $? = 0 ] && [ "$(head -n 1 "$work/a.txt")" = "no process selected: no process has a login uid: is pam_loginuid in the PAM stacks? (--all selects every process)" ]
	verdict "apply: where no process has a login uid, nothing is selected, and it says why" "$work/a.txt"
fi

# --- apply.
# A process in a login session of sshd, and one in none.
hold 8388608 8388608 $MiB $MiB
p1=$pid
in_session
"$ctl" apply nobody --conf "$bysvc" >"$work/a.txt" 2>&1
[ $? = 0 ] && wait_limits "$insession" "2097152 2097152"
verdict "apply: a service rule applies where logind knows the service (8 MiB set to 2 MiB)" "$work/a.txt"
[ "$(limits_of "$p1")" = "8388608 8388608" ] &&
	grep -q "^ *$p1 nobody .*skipped: the session's service is unknown" "$work/a.txt"
verdict "apply: where the service is unknown and a service rule could apply, nothing is touched" "$work/a.txt"
end "$insession" "$p1"

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
end "$s8"

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
# The process's own members are status's, written by the same code.
members='[.processes[] | {pid, user, uid, user_known, command, session, slurm_job, service, service_given}]'
"$ctl" status nobody --json --conf "$raise8" >"$work/s.json" 2>/dev/null
[ "$(jq -c "$members" "$work/a.json")" = "$(jq -c "$members" "$work/s.json")" ] &&
	jq -e '.processes | length == 1 and (.[0] | has("user_known") and has("service_given"))' "$work/a.json" >/dev/null
verdict "apply --json and status --json describe a process with the same members" "$work/a.json" "$work/s.json"
"$ctl" apply nobody --conf "$raise8" >"$work/a.txt" 2>&1
grep -q "^applied: 0 changed, 1 unchanged, 0 failed, 0 skipped$" "$work/a.txt"
verdict "apply again: nothing left to change" "$work/a.txt"
end "$low"

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
end "$low"

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
end "$mixed"

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
end "$rootsleep" "$s8"

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
end "$churn"

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
grep -q "^ *$gs nobody .* (login) .* 4 MiB/4 MiB set  *above  *inherited$" "$work/s.txt"
verdict "status text: a service --service gave is in parentheses" "$work/s.txt"
"$ctl" status --all --json --conf "$cronuser" >"$work/s.json" 2>"$work/s.err"
jq_check "$work/s.json" --argjson p "$gs" \
	'(.processes[] | select(.pid == $p) | .policy.soft == 4194304 and .verdict == "above")
	 and (.processes[] | select(.pid == 1) | .verdict == "unknown")'
verdict "status --all: a later user rule answers whatever the service; root, whom only the cron rule could change, has none" "$work/s.json"
"$ctl" status --all --service login --json --conf "$cronuser" >"$work/s.json"
jq_check "$work/s.json" '[.processes[] | .verdict] | index("unknown") == null'
verdict "status --all --service login: every process has an answer"
end "$gs"

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
	end "$u4242"
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
end "$low"

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
end "$s8"

# A child the owner stops after its report, before it exits (dry run or
# not): killed at the deadline, and the owner's other processes left
# alone, so that the run costs one wait, not one a process.  timeout(1)
# turns a hang into a failure.
for mode in "" --dry-run; do
	spawn 8388608 8388608 -- sleep 1000
	s1=$pid
	spawn 8388608 8388608 -- sleep 1000
	s2=$pid
	spawn 8388608 8388608 -- sleep 1000
	s3=$pid
	wait_limits "$s3" "8388608 8388608"
	start=$SECONDS
	timeout 30 env LD_PRELOAD="$cue" PML_CUE_STOP_AFTER_WRITE=1 ASAN_OPTIONS="$asan_preload" \
		"$ctl" apply nobody $mode --conf "$set4" >"$work/a.txt" 2>"$work/a.err"
	rc=$? took=$((SECONDS - start))
	[ $rc = 1 ] && [ $took -le 8 ] &&
		[ "$(grep -c "^ *[0-9]* nobody .*skipped: a child acting as this user earlier in the run had to be killed (stopped?): the user's other processes are left alone$" "$work/a.txt")" = 2 ] &&
		[ "$(grep -c "^ *[0-9]* nobody .*8 MiB/8 MiB -> 4 MiB/4 MiB  ${mode:+would }change" "$work/a.txt")" = 1 ] &&
		grep -q "^memlockctl: 3 processes cut short: a child acting as the owner had to be killed, or the run's 60 seconds were spent$" "$work/a.err"
	verdict "apply${mode:+ $mode}: a child stopped after its report is killed at 5 s, its owner's other processes skipped (rc $rc, $took s)" \
		"$work/a.txt" "$work/a.err"
	end "$s1" "$s2" "$s3"
done

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
end "$victim"
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
end "$newcomer"

# --- Errors.
"$ctl" apply --root / >/dev/null 2>"$work/err"
[ $? = 2 ] && grep -q "apply does not take --root" "$work/err"
verdict "apply does not take --root" "$work/err"
"$ctl" apply nobody --conf "$bad" >/dev/null 2>"$work/err"
[ $? = 1 ] && grep -q 'bad.conf:1' "$work/err"
verdict "apply: an invalid policy changes nothing and fails" "$work/err"

echo "1..$n"
