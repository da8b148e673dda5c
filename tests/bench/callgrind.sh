#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Profiles one service of the benchmark with callgrind: N sessions of it
# (after one warm-up session that is not counted), then the functions that
# cost the most, inclusive and exclusive.
#
#   tests/bench/callgrind.sh BUILDDIR SERVICE [N] [RULES]
#
# SERVICE is MODULE-POLICY: MODULE one of permit, memlock, limits, ref;
# POLICY one of one, users, groups.  Run as root after `make bench` built
# the programs.  The callgrind output file is kept and its name printed.
set -eu
build=${1:?usage: callgrind.sh BUILDDIR SERVICE [N] [RULES]}
service=${2:?usage: callgrind.sh BUILDDIR SERVICE [N] [RULES]}
n=${3:-20}
rules=${4:-1000}
build=$(cd "$build" && pwd)
bench=$build/tests/bench/bench

dir=$("$bench" setup --memlock "$build/.libs/pam_memlock.so" \
	--ref "$build/tests/bench/.libs/ref_libconfig.so" --rules "$rules")
out=$dir/callgrind.$service.out
BENCH_DIR=$dir NSS_WRAPPER_PASSWD=$dir/passwd NSS_WRAPPER_GROUP=$dir/group \
LD_PRELOAD=libnss_wrapper.so \
	valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out" \
	"$build/tests/bench/loop" "$service" "$n" 2>/dev/null
total=$(sed -n 's/^\(summary\|totals\): *//p' "$out" | head -n 1)
echo "$service: $total instructions in $n sessions ($((total / n)) per session)"
echo "== inclusive"
callgrind_annotate --inclusive=yes "$out" 2>/dev/null | sed -n '/^Ir/,$p' | head -n 40
echo "== exclusive"
callgrind_annotate "$out" 2>/dev/null | sed -n '/^Ir/,$p' | head -n 40
echo "callgrind output: $out"
