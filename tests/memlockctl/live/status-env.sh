# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Sourced first by tests/memlockctl/live/status.sh and tests/memlockctl/live/apply.sh, memlockctl status
# and apply on real processes.
#
# The sourcing test runs again as PID 1 of a private pid and mount
# namespace with its own /proc (unshare -pf --mount-proc): status --all and
# apply see only the helpers started there, never another test's processes
# nor anyone's on the machine.  A tmpfs over /run stands in for logind's
# session files.  Helpers run as nobody: tests/lib/memlock_hold locks and pins
# memory, sleep just holds a limit.  Limits are set with prlimit before
# privileges are dropped; without CAP_SYS_RESOURCE a hard limit cannot go
# above the caller's, so every value stays at or below 8 MiB unless the
# case says.  Without root, jq or the namespaces, the test is skipped with
# the reason.
set -u
umask 022

PML_PIDNS_ROOT_WHY="policy files must be root's, and the helpers run as nobody"
. "${PML_SRCDIR:?run with make check}/tests/lib/pidns.sh" || exit 99

ctl=$PML_BUILDDIR/memlockctl
hold=$PML_BUILDDIR/tests/lib/memlock_hold
shim=$PML_BUILDDIR/tests/lib/.libs/libsyslog_file.so
cue=$PML_BUILDDIR/tests/lib/.libs/libfault_cue.so
# In a sanitizer build ASan must come first among the libraries; a preload
# goes before it.  Harmless here: the shim replaces no allocator.
asan_preload=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
work=$(mktemp -d /tmp/pml-status-XXXXXX) || exit 99
nobody_gid=$(id -g nobody)
nobody_group=$(id -gn nobody)
MiB=1048576
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

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
# in_session: memlock_hold at 8 MiB in a login session of nobody's (login
# uid 65534), whose service logind's file says is sshd; sets $insession
# and $session.
# end PID...: the helpers killed, and gone before the next case looks (a
# process still dying is one more that apply or status --all can see).
end() {
	kill "$@" 2>/dev/null
	wait "$@" 2>/dev/null
	return 0
}
in_session() {
	hold 8388608 8388608 0 0 65534
	insession=$pid
	session=$(cat "/proc/$insession/sessionid")
	printf 'UID=65534\nUSER=nobody\nSERVICE=sshd\n' >"/run/systemd/sessions/$session"
}

