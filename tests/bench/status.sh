#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# How long memlockctl status --all takes over many processes: N sleeping
# processes (5,000 unless given) in a private pid namespace with its own
# /proc, so that the count is exact and nothing else on the machine is
# listed; status runs ROUNDS times (11 unless given), and the median, the
# fastest and the slowest wall-clock times are printed, with CPU time.
# As root (unshare).  Not a test: nothing is asserted.
#
#   tests/bench/status.sh MEMLOCKCTL [N [ROUNDS]]
set -u
if [ -z "${PML_BENCH_INNER:-}" ]; then
	[ $# -ge 1 ] || { echo "usage: $0 MEMLOCKCTL [N [ROUNDS]]" >&2; exit 2; }
	exec env PML_BENCH_INNER=1 unshare -pf --mount-proc "$0" "$@"
fi
ctl=$1 count=${2:-5000} rounds=${3:-11}
for i in $(seq "$count"); do sleep 100000 & done
while [ "$(ls -d /proc/[0-9]* | wc -l)" -lt "$count" ]; do sleep 0.2; done
echo "processes: $(ls -d /proc/[0-9]* | wc -l)"
"$ctl" status --all >/dev/null	# warm the caches
TIMEFORMAT='%R %U %S'
for r in $(seq "$rounds"); do
	{ time "$ctl" status --all >/dev/null; } 2>&1
done >"/tmp/pml-bench-status.$$"
# Wall-clock times, then CPU times, each sorted; the median is the middle.
wall=$(awk '{ print $1 * 1000 }' "/tmp/pml-bench-status.$$" | sort -n)
cpu=$(awk '{ print ($2 + $3) * 1000 }' "/tmp/pml-bench-status.$$" | sort -n)
rm -f "/tmp/pml-bench-status.$$"
mid=$(( (rounds + 1) / 2 ))
printf 'status --all, %s processes, %s rounds: median %s ms [%s..%s], CPU (user+sys) median %s ms\n' \
	"$count" "$rounds" "$(sed -n "${mid}p" <<<"$wall")" "$(head -1 <<<"$wall")" \
	"$(tail -1 <<<"$wall")" "$(sed -n "${mid}p" <<<"$cpu")"
kill $(jobs -p) 2>/dev/null
