#!/usr/bin/env bash
# The whole test suite, as the README and CI run it, from a configured and
# built tree:
#   1. make check              the unit, loader and libpam tests
#   2. the same under ASan+UBSan, built from `make distdir` so that the dist
#      tarball is proven complete too
# and one closing line: "N passed, N failed, N skipped", every case counted.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${PML_BUILD_DIR:-$top}
jobs=$(nproc 2>/dev/null || echo 2)
passed=0 failed=0 skipped=0 status=0

# Adds the counts of the test-suite.log summary in directory $2 (named $1).
tally() {
	local name=$1 log=$2/test-suite.log p f s
	if [ ! -f "$log" ]; then
		echo "== $name: no test-suite.log: the run did not happen" >&2
		failed=$((failed + 1))
		return
	fi
	p=$(awk '/^# PASS:/ { print $3 }' "$log")
	f=$(awk '/^# (FAIL|ERROR|XPASS):/ { n += $3 } END { print n + 0 }' "$log")
	s=$(awk '/^# SKIP:/ { print $3 }' "$log")
	echo "== $name: ${p:-0} passed, ${f:-0} failed, ${s:-0} skipped"
	passed=$((passed + ${p:-0})) failed=$((failed + ${f:-0})) skipped=$((skipped + ${s:-0}))
}

echo "== make check"
make -C "$build" -j"$jobs" check || status=1
tally "make check" "$build"

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

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
