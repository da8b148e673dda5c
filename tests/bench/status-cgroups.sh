#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# How status and metrics grow with distinct cgroups: a saved tree (--root)
# of N processes of nobody's, each in a cgroup of its own, and a policy
# that takes a share of "available" memory, so that every process has an
# answer of its own.  For each N given (5,000 and 50,000 unless given), the
# user CPU time of `status --all` and `metrics --all` (median of ROUNDS, 3
# unless given).  Linear: ten times the processes, about ten times the time.
# Not a test: nothing is asserted.
#
#   tests/bench/status-cgroups.sh MEMLOCKCTL [N...]
set -u
[ $# -ge 1 ] || { echo "usage: $0 MEMLOCKCTL [N...]" >&2; exit 2; }
ctl=$1
shift
counts=${*:-5000 50000}
rounds=${PML_BENCH_ROUNDS:-3}
work=$(mktemp -d /tmp/pml-bench-cgroups.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
echo 'limit = "50%"; mode = "set";' >"$work/half.conf"

# tree DIR N: processes 2..N+1, process P in cgroup /c/P.
tree() {
	mkdir -p "$1/run/systemd/sessions" "$1/sys/fs/cgroup/c"
	echo "cpu memory" >"$1/sys/fs/cgroup/cgroup.controllers"
	seq 2 $(($2 + 1)) | sed "s|^|$1/proc/|" | xargs mkdir -p
	seq 2 $(($2 + 1)) | sed "s|^|$1/sys/fs/cgroup/c/|" | xargs mkdir -p
	seq 2 $(($2 + 1)) | awk -v root="$1" '{
		d = root "/proc/" $1
		print $1 " (saved) S 1 " $1 " " $1 " 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 4242 1 1" > (d "/stat")
		printf "Name:\tsaved\nUid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\n" > (d "/status")
		printf "Limit Soft Hard Units\nMax locked memory         65536                65536                bytes\n" > (d "/limits")
		print "65534" > (d "/loginuid")
		print "4294967295" > (d "/sessionid")
		print "0::/c/" $1 > (d "/cgroup")
		close(d "/stat"); close(d "/status"); close(d "/limits")
		close(d "/loginuid"); close(d "/sessionid"); close(d "/cgroup")
	}'
}

# median_user CMD...: the median user CPU time of ROUNDS runs, in seconds.
median_user() {
	local r
	TIMEFORMAT=%U
	for r in $(seq "$rounds"); do
		{ time "$@" >/dev/null 2>&1; } 2>&1
	done | sort -n | sed -n "$(((rounds + 1) / 2))p"
}

for n in $counts; do
	rm -rf "$work/tree"
	tree "$work/tree" "$n"
	printf '%s processes in distinct cgroups: status --all user %s s, metrics --all user %s s\n' \
		"$n" \
		"$(median_user "$ctl" status --all --root "$work/tree" --conf "$work/half.conf")" \
		"$(median_user "$ctl" metrics --all --root "$work/tree" --conf "$work/half.conf")"
done
