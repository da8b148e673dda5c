#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Runs each libFuzzer target for a fixed time, seeded from tests/data, and
# prints TAP: one case per target, "ok" when it ran its time without a
# crash, a leak, undefined behaviour or a broken invariant (abort).
#
#   tests/fuzz/run.sh [SECONDS]          60 s per target unless given
#
# Without PML_FUZZ_BIN (a directory holding the fuzz_* programs,
# as `make fuzz` sets it) it configures a private clang build of this
# source tree (CC=clang --enable-fuzzing) and builds the targets first.
#
# Longer runs: keep the corpus between runs and use both cores, e.g.
#   PML_FUZZ_CORPUS=$HOME/pml-corpus tests/fuzz/run.sh 3600
# or run one target by hand from a fuzzing build:
#   tests/fuzz/fuzz_policy -dict=SRC/tests/fuzz/policy.dict -jobs=4 CORPUS_DIR SEED_DIR
# A crash leaves its input in the work directory (see the "not ok" line);
# replay it with `tests/fuzz/fuzz_policy FILE`.
set -uo pipefail

seconds=${1:-${PML_FUZZ_SECONDS:-60}}
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/pml-fuzz-XXXXXX)
corpus=${PML_FUZZ_CORPUS:-$work/corpus}
bin=${PML_FUZZ_BIN:-}
jobs=2

bail() {
	echo "Bail out! $*"
	exit 1
}

if [ -z "$bin" ]; then
	command -v clang >/dev/null || bail "clang is not installed"
	[ -x "$src/configure" ] || bail "run autoreconf -fi in $src first"
	[ ! -f "$src/config.status" ] ||
		bail "$src is configured in place; run this from a copy (make distdir), as tests/run-all.sh does"
	mkdir "$work/build" && cd "$work/build" || bail "cannot make $work/build"
	"$src/configure" -q CC=clang --enable-fuzzing >"$work/configure.log" 2>&1 ||
		bail "configure CC=clang --enable-fuzzing failed: see $work/configure.log"
	make -j"$jobs" tests/fuzz/fuzz_value tests/fuzz/fuzz_policy tests/fuzz/fuzz_syntax \
		>"$work/build.log" 2>&1 || bail "build failed: see $work/build.log"
	bin=$work/build/tests/fuzz
	cd "$src" || exit 1
fi

# Seeds: every golden policy file for the policy target; every quoted
# value in them, one per file, for the value target.
seeds=$work/seeds
mkdir -p "$seeds/policy" "$seeds/value" "$corpus/policy" "$corpus/value" \
	"$corpus/syntax"
n=0
for f in "$src"/tests/data/good/*.conf "$src"/tests/data/bad/*.conf \
	 "$src"/conf/memlock.conf; do
	[ -f "$f" ] && cp "$f" "$seeds/policy/$((n += 1)).conf"
done
grep -aoh '"[^"]*"' "$seeds"/policy/*.conf | sort -u | {
	i=0
	while IFS= read -r quoted; do
		i=$((i + 1))
		v=${quoted#\"}
		printf '%s' "${v%\"}" >"$seeds/value/$i"
	done
}

# fuzz_one N TARGET: runs TARGET for its time; its TAP line (and a failure's
# excerpt) goes to $work/N.tap.
fuzz_one() {
	local t=$1 target=$2 kind=${2#fuzz_} seed dict='' log rc runs units crash
	seed=$seeds/$kind
	[ "$kind" = value ] || dict=-dict=$src/tests/fuzz/policy.dict
	[ "$kind" = syntax ] && seed=$seeds/policy
	log=$work/$target.log
	mkdir -p "$work/artifacts-$kind"
	"$bin/$target" $dict -max_total_time="$seconds" -timeout=10 \
		-max_len=4096 -print_final_stats=1 \
		-artifact_prefix="$work/artifacts-$kind/" \
		"$corpus/$kind" "$seed" >"$log" 2>&1
	rc=$?
	runs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log")
	units=$(ls "$corpus/$kind" | wc -l)
	crash=$(ls "$work/artifacts-$kind" | head -n 1)
	if [ "$rc" -eq 0 ] && [ -z "$crash" ]; then
		echo "ok $t - $target: ${runs:-?} executions in $seconds s, corpus $units inputs" >"$work/$t.tap"
		return
	fi
	{
		echo "not ok $t - $target: exit $rc after ${runs:-?} executions; input $work/artifacts-$kind/$crash; log $log"
		grep -a -m 20 -E 'ERROR|SUMMARY|runtime error|==[0-9]+==' "$log" | sed 's/^/# /'
	} >"$work/$t.tap"
}

# A libFuzzer process keeps one processor busy: $jobs targets at a time,
# each for its whole time.
echo "1..3"
t=0
for target in fuzz_value fuzz_policy fuzz_syntax; do
	t=$((t + 1))
	[ "$(jobs -pr | wc -l)" -lt "$jobs" ] || wait -n
	fuzz_one "$t" "$target" &
done
wait
cat "$work"/[123].tap
status=0
grep -q '^not ok' "$work"/[123].tap && status=1
# Keep the work directory when something failed, to replay the input.
[ "$status" -eq 0 ] && rm -rf "$work"
exit "$status"
