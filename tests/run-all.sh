#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The whole test suite, as the README and CI run it, from a configured and
# built tree:
#   1. make check              the unit, loader and libpam tests
#   2. make check-vm           the cases that need real root, in a VM
#   3. the same as 1 under ASan+UBSan, built from `make distdir` so that the dist
#      tarball is proven complete too
#   4. make bench at a tiny size: one case, passed if it runs to the end
#   5. make distcheck: one case, passed if the release tarball checks out
#   6. make check-valgrind: the libpam tests, the soak and the failed
#      allocations under memcheck
#   7. make soak-long: 100,000 sessions in one process, RSS and descriptors flat
#   8. make check-directory: real slapd and nslcd in private namespaces
#   8a. make check-slurm: batch jobs through Debian's slurmctld and slurmd,
#      on Debian 12 and in a Debian 13 root
#   9. each libFuzzer target for PML_FUZZ_SECONDS (60): one case each
#  10. .ci/port-i386.sh: make check of an i386 build, run natively
#  11. .ci/port-s390x.sh: a big-endian s390x cross build, its value,
#      decision and loader tests under qemu-user
#  12. .ci/debian-package.sh: the Debian package built, linted, installed,
#      upgraded, removed and purged in fresh Debian 12 roots
# and one closing line: "N passed, N failed, N skipped", every case counted.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${PML_BUILD_DIR:-$top}
jobs=$(nproc 2>/dev/null || echo 2)
passed=0 failed=0 skipped=0 status=0

# Adds the counts of the test-suite.log summary in directory $2 (named $1),
# or of the summary file $3 there.
tally() {
	local name=$1 log=$2/${3:-test-suite.log} p f s x
	if [ ! -f "$log" ]; then
		echo "== $name: no test-suite.log: the run did not happen" >&2
		failed=$((failed + 1))
		return
	fi
	p=$(awk '/^# PASS:/ { print $3 }' "$log")
	f=$(awk '/^# (FAIL|ERROR|XPASS):/ { n += $3 } END { print n + 0 }' "$log")
	s=$(awk '/^# SKIP:/ { print $3 }' "$log")
	echo "== $name: ${p:-0} passed, ${f:-0} failed, ${s:-0} skipped"
	# TAP "# TODO" cases that fail: known gaps, in none of the counts.
	x=$(awk '/^# XFAIL:/ { print $3 }' "$log")
	[ "${x:-0}" -eq 0 ] || echo "== $name: $x known gap(s) reported as TODO (XFAIL), not counted"
	passed=$((passed + ${p:-0})) failed=$((failed + ${f:-0})) skipped=$((skipped + ${s:-0}))
}

echo "== make check"
make -C "$build" -j"$jobs" check || status=1
tally "make check" "$build"

echo "== make check-vm (real root in a TCG virtual machine)"
make -C "$build" check-vm || status=1
tally "check-vm" "$build/tests/e2e"

echo "== make check with --enable-sanitizers (ASan+UBSan, no recovery)"
san=$(mktemp -d /tmp/pml-sanitizers-XXXXXX)
if make -C "$build" distdir distdir="$san/src" >/dev/null &&
   mkdir "$san/build" && cd "$san/build" &&
   "$san/src/configure" --enable-sanitizers -q &&
   make -j"$jobs" >/dev/null; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		make -j"$jobs" check || status=1
	tally "sanitizers" "$san/build"
else
	echo "== sanitizer build failed" >&2
	failed=$((failed + 1)) status=1
fi
cd "$top" && rm -rf "$san"

# The benchmark is not a timed test: it is built and run once at a tiny size
# to keep it working, and counts as one case that passes if it completes.
echo "== make bench BENCH_FLAGS=--quick (no times asserted)"
if make -C "$build" bench BENCH_FLAGS=--quick; then
	echo "== bench: 1 passed"
	passed=$((passed + 1))
else
	echo "== bench: did not complete" >&2
	failed=$((failed + 1)) status=1
fi

# The release tarball: distcheck builds it out of tree from a read-only
# source, runs its tests, installs, uninstalls and finds nothing left
# behind.  One case; its long output goes to a log, shown when it fails.
echo "== make distcheck (the tarball builds, passes its tests, uninstalls clean)"
dist_log=$(mktemp /tmp/pml-distcheck-XXXXXX)
if make -C "$build" -j"$jobs" distcheck >"$dist_log" 2>&1; then
	echo "== distcheck: 1 passed"
	passed=$((passed + 1))
	rm -f "$dist_log"
else
	tail -n 40 "$dist_log" >&2
	echo "== distcheck: failed (whole log: $dist_log)" >&2
	failed=$((failed + 1)) status=1
fi

echo "== make check-valgrind (libpam tests, the 1,000-session soak and failed allocations under memcheck)"
make -C "$build" check-valgrind || status=1
tally "check-valgrind" "$build" test-suite-valgrind.log

echo "== make soak-long (100,000 sessions in one process: RSS and descriptors flat)"
make -C "$build" soak-long || status=1
tally "soak-long" "$build" test-suite-soak.log

echo "== make check-directory (real slapd and nslcd in private namespaces; slapd killed and stopped)"
make -C "$build" check-directory || status=1
tally "check-directory" "$build" test-suite-directory.log

echo "== make check-slurm (Slurm batch jobs through a real slurmctld and slurmd: Debian 12, and 13 in a root)"
make -C "$build" check-slurm || status=1
tally "check-slurm" "$build/tests/slurm"

# Each fuzz target runs for a fixed time from a private clang build and
# counts as one case: passed when nothing crashed, leaked or aborted.
fuzz_seconds=${PML_FUZZ_SECONDS:-60}
echo "== fuzz: each libFuzzer target for $fuzz_seconds s (tests/fuzz/run.sh)"
# From `make distdir`: a tree configured in place cannot host another build.
fuzz_tap=$(mktemp /tmp/pml-fuzz-tap-XXXXXX)
fuzz_src=$(mktemp -d /tmp/pml-fuzz-src-XXXXXX)
if make -C "$build" distdir distdir="$fuzz_src/src" >/dev/null; then
	"$fuzz_src/src/tests/fuzz/run.sh" "$fuzz_seconds" | tee "$fuzz_tap" || status=1
else
	echo "Bail out! make distdir failed" | tee "$fuzz_tap"
fi
rm -rf "$fuzz_src"
p=$(grep -c '^ok ' "$fuzz_tap") f=$(grep -c -e '^not ok ' -e '^Bail out!' "$fuzz_tap")
[ $((p + f)) -eq 0 ] && f=1
echo "== fuzz: $p passed, $f failed, 0 skipped"
passed=$((passed + p)) failed=$((failed + f))
rm -f "$fuzz_tap"

# Steps that print TAP of their own (.ci/*.sh): every case counted, a
# "# SKIP" one as skipped; a step that printed no case, or bailed out,
# counts as one failure.
tap_tally() {
	local name=$1 tap=$2 p f s
	p=$(grep -c '^ok ' "$tap" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$tap" | tr -d ' ')
	f=$(grep -c -e '^not ok ' -e '^Bail out!' "$tap" | tr -d ' ')
	p=$((p - s))
	[ $((p + f + s)) -eq 0 ] && f=1
	echo "== $name: $p passed, $f failed, $s skipped"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
run_tap_step() { # name, script
	local name=$1 script=$2 tap start
	tap=$(mktemp /tmp/pml-step-tap-XXXXXX)
	start=$(date +%s)
	PML_BUILD_DIR=$build "$top/$script" "$build" | tee "$tap" || status=1
	echo "== $name took $(($(date +%s) - start)) s"
	tap_tally "$name" "$tap"
	rm -f "$tap"
}

echo "== i386: make check of a 32-bit build (.ci/port-i386.sh)"
run_tap_step i386 .ci/port-i386.sh

echo "== s390x: big-endian cross build, tests under qemu-user (.ci/port-s390x.sh)"
run_tap_step s390x .ci/port-s390x.sh

echo "== Debian package: build, lintian, install, upgrade, remove, purge in fresh roots (.ci/debian-package.sh)"
run_tap_step "debian package" .ci/debian-package.sh

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
