# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Shared pieces of the end-to-end tests (sourced, not run).
#
# Every case runs in its own private mount, network and PID namespace:
# private copies of /etc/passwd, /etc/group and /etc/shadow (the machine's
# own plus a test user "pmltest", uid 4242, with the supplementary group
# "pmlgrp") and a private PAM file are bind-mounted over the real ones, which
# are never written.  The PID namespace ends every process a case started
# (sshd included) when the case ends, however it ends.
#
# A test script sources this file, defines its case functions, calls
# e2e_dispatch "$@" (which runs one case when the script re-runs itself
# inside the namespaces), then runs its cases from the outside with
# e2e_run_case and reports TAP.

E2E_USER=pmltest
E2E_UID=4242
E2E_GROUP=pmlgrp
E2E_TIMEOUT=${E2E_TIMEOUT:-60}
# The limits every session starts from: 64 KiB soft, as on kernels before
# 5.16, and the 8 MiB hard limit this machine allows at most.
E2E_START_MEMLOCK=65536:8388608

e2e_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# --- TAP -----------------------------------------------------------------
tap_n=0
tap_plan() { echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - $1"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
tap_skip_all() { echo "1..0 # SKIP $1"; exit 0; }
tap_diag() { sed 's/^/# /' "$@"; }

# tap_is NAME GOT WANT: one case comparing two strings.
tap_is() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_not_ok "$1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
		e2e_show_logs
	fi
}

# --- Preconditions shared by every script ----------------------------------
# Prints why the e2e tests cannot run here, or nothing.
e2e_unrunnable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (private mounts over /etc)"
	elif [ -z "${PML_MODULE:-}" ] || [ ! -f "$PML_MODULE" ]; then
		echo "PML_MODULE is not set or missing: run through make check"
	elif readelf -d "$PML_MODULE" 2>/dev/null | grep -q 'lib\(a\|ub\)san'; then
		echo "module built with sanitizers: login programs cannot load it"
	elif ! command -v unshare >/dev/null || ! command -v prlimit >/dev/null; then
		echo "util-linux unshare/prlimit missing"
	elif ! prlimit --memlock="$E2E_START_MEMLOCK" true 2>/dev/null; then
		echo "cannot start sessions from memlock $E2E_START_MEMLOCK (hard limit below 8 MiB here?)"
	elif ! unshare --mount --net --pid --fork --kill-child --mount-proc \
		--propagation private true 2>/dev/null; then
		echo "unshare of mount/net/pid namespaces refused here"
	elif getent passwd "$E2E_USER" >/dev/null || getent passwd "$E2E_UID" >/dev/null; then
		echo "user $E2E_USER or uid $E2E_UID already exists on this machine"
	fi
}

# --- Outside: fixtures and running one case -------------------------------
# Makes the private directory (root-owned, 0755 so that the test user can
# reach its home and the probe) and the private passwd/group/shadow.
e2e_prepare() {
	E2E_TMP=$(mktemp -d /tmp/pml-e2e-XXXXXX) || exit 1
	chmod 0755 "$E2E_TMP"
	trap "${E2E_KEEP:+:} rm -rf \"$E2E_TMP\"" EXIT
	trap 'exit 1' INT TERM
	mkdir -m 0755 "$E2E_TMP/etc" "$E2E_TMP/home"
	chown "$E2E_UID:$E2E_UID" "$E2E_TMP/home"
	cat /etc/passwd "$e2e_dir/fixtures/passwd" |
		sed "s|@HOME@|$E2E_TMP/home|" >"$E2E_TMP/etc/passwd"
	cat /etc/group "$e2e_dir/fixtures/group" >"$E2E_TMP/etc/group"
	{ cat /etc/shadow; cat "$e2e_dir/fixtures/shadow"; } >"$E2E_TMP/etc/shadow"
	chmod 0644 "$E2E_TMP/etc/passwd" "$E2E_TMP/etc/group"
	chmod 0640 "$E2E_TMP/etc/shadow"
	export E2E_TMP PML_MODULE
}

# e2e_run_case NAME FUNCTION ARGS...: runs FUNCTION inside fresh namespaces
# with a timeout; its stdout goes to $E2E_CASE/out, stderr to $E2E_CASE/err,
# its exit status to $E2E_STATUS.
e2e_run_case() {
	local name=$1
	shift
	E2E_CASE=$E2E_TMP/case-$name
	mkdir -m 0755 "$E2E_CASE"
	export E2E_CASE
	timeout -k 5 "$E2E_TIMEOUT" unshare --mount --net --pid --fork --kill-child \
		--mount-proc --propagation private -- \
		"$BASH" "$E2E_SCRIPT" --inside "$@" </dev/null >"$E2E_CASE/out" 2>"$E2E_CASE/err"
	E2E_STATUS=$?
}

# The case's output lines joined by spaces.
e2e_output() { tr '\n' ' ' <"$E2E_CASE/out" | sed 's/ *$//'; }

e2e_show_logs() {
	local f
	for f in "$E2E_CASE"/out "$E2E_CASE"/err "$E2E_CASE"/*.log; do
		[ -s "$f" ] || continue
		echo "# --- ${f##*/}"
		tap_diag "$f" | tail -n 30
	done
}

# --- Inside: the namespace's own view ---------------------------------------
e2e_dispatch() {
	[ "${1:-}" = --inside ] || return 0
	shift
	set -u
	e2e_ns_setup || exit 90
	"$@"
	exit $?
}

e2e_ns_setup() {
	ip link set lo up 2>/dev/null || true
	# sshd needs /run/sshd: a private /run, so the real one is not touched.
	mount -t tmpfs -o mode=0755 pml-e2e-run /run &&
	mkdir -m 0755 /run/sshd &&
	mount --bind "$E2E_TMP/etc/passwd" /etc/passwd &&
	mount --bind "$E2E_TMP/etc/group" /etc/group &&
	mount --bind "$E2E_TMP/etc/shadow" /etc/shadow
}

# e2e_policy TEXT: the case's policy file, root-owned 0644 in a root-owned
# 0755 directory (the module trusts nothing else).  Prints its path.
e2e_policy() {
	mkdir -p -m 0755 "$E2E_CASE/policy"
	printf '%s\n' "$1" >"$E2E_CASE/policy/memlock.conf"
	chmod 0644 "$E2E_CASE/policy/memlock.conf"
	echo "$E2E_CASE/policy/memlock.conf"
}

# e2e_pam SERVICE: reads a PAM file on stdin and mounts it over
# /etc/pam.d/SERVICE for this namespace only.
e2e_pam() {
	cat >"$E2E_CASE/pam-$1"
	chmod 0644 "$E2E_CASE/pam-$1"
	[ -e "/etc/pam.d/$1" ] || { echo "/etc/pam.d/$1 is missing" >&2; return 1; }
	mount --bind "$E2E_CASE/pam-$1" "/etc/pam.d/$1"
}

# The expected limit in bytes for a share of RAM given in thousandths of a
# percent, the way the module computes it: RAM (sysinfo, which
# _SC_PHYS_PAGES reads too) times the share, rounded down to a page.
e2e_share_bytes() {
	local pages page bytes
	pages=$(getconf _PHYS_PAGES) page=$(getconf PAGESIZE)
	bytes=$((pages * page * $1 / 100000))
	echo $((bytes - bytes % page))
}

# A shell command printing the memlock limits in bytes, soft then hard:
# finer than `ulimit -l`, which rounds to KiB.
E2E_SHOW_BYTES='prlimit --pid $$ --memlock --raw --noheadings --output SOFT,HARD'

# e2e_uring_client COUNTER LIMIT RINGS ENTRIES BUFFER MLOCK: one line from
# tests/e2e/uring_rings (at $E2E_RINGS) under a memlock limit of LIMIT
# bytes, as a uid of its own: the next after the one in the file COUNTER.
# io_uring charges a user, and a uid's closed rings are uncharged only a
# while later, so a second client of one uid could read the first's charge.
# The counter is a file because each client runs in a $(...) subshell.
e2e_uring_client() {
	local counter=$1 limit=$2 uid
	shift 2
	uid=$(($(cat "$counter") + 1))
	echo $uid >"$counter"
	prlimit --memlock="$limit:$limit" setpriv --reuid=$uid --regid=$uid \
		--clear-groups "$E2E_RINGS" "$@" 2>&1
}
