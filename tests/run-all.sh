#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The whole test suite, as the README and CI run it, from a configured and
# built tree:
#   1. make check, built with --enable-sanitizers (ASan+UBSan) from `make
#      distdir`, so that the dist tarball is proven complete too: the unit,
#      loader and libpam tests
#   2. make check-unsanitized: from this tree's plain build, what 1 cannot
#      run in full (the end-to-end tests driving this machine's sshd, su
#      and runuser, the failed allocations, the symbol imports, the strace
#      of the read-only commands, debian/changelog's version)
#   3. .ci/debian-package.sh: the Debian package built, linted, installed,
#      upgraded, removed and purged in fresh Debian 12 and 13 roots, and
#      the upgrade from Debian 12 to 13; its packages are kept for 4, 10 and 15
#   4. make -j2 check-vm       the cases that need real root, in VMs, two
#      at a time: Debian 13 with step 3's package, systemd as PID 1,
#      busybox, and memlockctl measure with real io_uring clients (fio
#      among them) on Debian 12's and 13's kernels
#   5. make bench at a tiny size: one case, passed if it runs to the end
#   6. make distcheck (the tests that read the source tree or install):
#      one case, passed if the release tarball checks out
#   7. make check-valgrind: the libpam tests, the soak and the failed
#      allocations under memcheck
#   8. make soak-long: 100,000 sessions in one process, RSS and descriptors
#      flat; beside 9 and 10
#   9. make check-directory: real slapd and nslcd in private namespaces
#  10. make check-slurm: batch jobs through Debian's slurmctld and slurmd,
#      on Debian 12 and in a Debian 13 root (with step 3's packages)
#  11. each libFuzzer target for PML_FUZZ_SECONDS (30), two at a time: one
#      case each
#  12. .ci/port-i386.sh: make check of an i386 build, run natively
#  13. .ci/port-s390x.sh: a big-endian s390x cross build, its value,
#      decision and loader tests under qemu-user
#  14. .ci/debian13.sh: 1 and 2 again in a fresh Debian 13 root, built
#      with its own toolchain; then every golden file and step 11's fuzz
#      corpus through this build (libconfig 1.5) and the root's (1.7.3):
#      the same verdicts and messages
#  15. make check-fleet: Debian's node_exporter serving memlockctl's
#      metrics (Debian 12, and 13 in a root); doc/ansible/memlock-rollout.yml
#      run by Debian's ansible-playbook against Debian 12 and 13 roots,
#      installing the packages step 3 built; unattended-upgrades and a
#      conffile that step 2 of the README edited, in Debian 12 and 13 roots;
#      two of them at a time
# (the roots of 12 and 13 made in the background at the lowest priority,
# those of 3 from the start, the others after 3: .ci/root-bake.sh)
# and one closing line: "N passed, N failed, N skipped", every case counted,
# after the list of what failed (CI shows a log's tail: the list is there).
#
# First, as root on Debian, it installs what the suite needs
# (.ci/packages.check and .ci/packages) and configures the tree again, so
# that configure finds it: a tree built after the README's first command
# needs nothing else.  Each step says how long it took.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=${PML_BUILD_DIR:-$top}
jobs=$(nproc 2>/dev/null || echo 2)
passed=0 failed=0 skipped=0 status=0
failures=$(mktemp /tmp/pml-failures-XXXXXX)
# failure STEP WHAT: a line of the closing list of what failed.
failure() { echo "$1: $2" >>"$failures"; }
step_started=$(date +%s)
# took NAME: how long the step that just ended took.
took() {
	echo "== $1 took $(($(date +%s) - step_started)) s"
	step_started=$(date +%s)
}

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "== apt-get install .ci/packages.check .ci/packages"
	packages=$(sed 's/#.*//' "$top/.ci/packages.check" "$top/.ci/packages")
	apt_log=$(mktemp /tmp/pml-apt-XXXXXX)
	# shellcheck disable=SC2086
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$packages >"$apt_log" 2>&1; then
		# Lists older than the archive: once more after an update.
		# shellcheck disable=SC2086
		apt-get update -qq >>"$apt_log" 2>&1 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
				$packages >>"$apt_log" 2>&1 ||
			{ tail -n 20 "$apt_log" >&2; echo "== could not install the suite's packages" >&2
			  failure packages "apt-get install failed"; failed=$((failed + 1)) status=1; }
	fi
	rm -f "$apt_log"
	(cd "$build" && ./config.status --recheck >/dev/null && ./config.status >/dev/null) ||
		{ echo "== configure again failed" >&2; failure configure "config.status --recheck failed"
		  failed=$((failed + 1)) status=1; }
	took "installing and configuring"
fi

# The Debian roots of the later steps (.ci/roots): each made once, in the
# background, at the lowest priority.  Unpacking a root keeps a processor
# busy for about half a minute, and the steps beside it are busy too: at
# nice 19 the bake takes the processors only when a step leaves one idle
# (waiting on the mirror, a build's serial parts).  A step that needs a
# root before it is made waits for it, and the bake then has the
# processors to itself.  The package step's roots are baked from the
# start; the others once it has ended, in the idle time of the steps
# before theirs (the VMs, distcheck, valgrind, the daemons' waits).
PML_ROOT_CACHE=$(mktemp -d /tmp/pml-roots-XXXXXX)
export PML_ROOT_CACHE
bake_log=$(mktemp /tmp/pml-root-bake-XXXXXX)
bake_pid=
# bake [NAME...]: bakes those roots of .ci/roots, or all that are not made.
bake() {
	[ "$(id -u)" = 0 ] && command -v mmdebstrap >/dev/null || return 0
	[ -z "$bake_pid" ] || wait "$bake_pid"
	nice -n 19 "$top/.ci/root-bake.sh" "$@" >>"$bake_log" 2>&1 &
	bake_pid=$!
}
bake bookworm-build bookworm-install trixie-build trixie-install
debs=$(mktemp -d /tmp/pml-debs-XXXXXX)
trap 'rm -rf "$PML_ROOT_CACHE" "$bake_log" "$failures" "$debs" ${soak_out:+"$soak_out"}' EXIT

# Adds the counts of the test-suite.log summary in directory $2 (named $1),
# or of the summary file $3 there.
tally() {
	local name=$1 log=$2/${3:-test-suite.log} p f s x
	if [ ! -f "$log" ]; then
		echo "== $name: no test-suite.log: the run did not happen" >&2
		failure "$name" "no $log: the run did not happen"
		failed=$((failed + 1))
		return
	fi
	p=$(awk '/^# PASS:/ { print $3 }' "$log")
	f=$(awk '/^# (FAIL|ERROR|XPASS):/ { n += $3 } END { print n + 0 }' "$log")
	s=$(awk '/^# SKIP:/ { print $3 }' "$log")
	# Each failed case's own line (the TAP driver's), once.
	grep -E '^(FAIL|ERROR|XPASS): ' "$log" | sort -u |
		while IFS= read -r line; do failure "$name" "$line"; done
	echo "== $name: ${p:-0} passed, ${f:-0} failed, ${s:-0} skipped"
	# TAP "# TODO" cases that fail: known gaps, in none of the counts.
	x=$(awk '/^# XFAIL:/ { print $3 }' "$log")
	[ "${x:-0}" -eq 0 ] || echo "== $name: $x known gap(s) reported as TODO (XFAIL), not counted"
	passed=$((passed + ${p:-0})) failed=$((failed + ${f:-0})) skipped=$((skipped + ${s:-0}))
}

# Steps that print TAP of their own (.ci/*.sh): every case counted, a
# "# SKIP" one as skipped; a "not ok ... # TODO" one is a known gap,
# reported and not counted, and an "ok ... # TODO" one, a gap that has
# closed, counts as failed until its TODO goes.  A step that printed no
# case, or bailed out, counts as one failure.
tap_tally() {
	local name=$1 tap=$2 p f s x xp
	p=$(grep -c '^ok ' "$tap" | tr -d ' ')
	s=$(grep -c '^ok .*# SKIP' "$tap" | tr -d ' ')
	xp=$(grep -c '^ok .*# TODO' "$tap" | tr -d ' ')
	x=$(grep -c '^not ok .*# TODO' "$tap" | tr -d ' ')
	f=$(grep -c -e '^not ok ' -e '^Bail out!' "$tap" | tr -d ' ')
	p=$((p - s - xp)) f=$((f - x + xp))
	[ $((p + f + s + x)) -eq 0 ] && { f=1; failure "$name" "printed no case"; }
	grep -e '^not ok ' -e '^Bail out!' -e '^ok .*# TODO' "$tap" | grep -v '^not ok .*# TODO' |
		while IFS= read -r line; do failure "$name" "$line"; done
	echo "== $name: $p passed, $f failed, $s skipped"
	[ "$x" -eq 0 ] || echo "== $name: $x known gap(s) reported as TODO, not counted"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
run_tap_step() { # name, script
	local name=$1 script=$2 tap
	tap=$(mktemp /tmp/pml-step-tap-XXXXXX)
	PML_BUILD_DIR=$build "$top/$script" "$build" | tee "$tap" || status=1
	tap_tally "$name" "$tap"
	took "$name"
	rm -f "$tap"
}

echo "== make check, built with --enable-sanitizers (ASan+UBSan, no recovery) from make distdir"
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
	failure sanitizers "the build failed"
	failed=$((failed + 1)) status=1
fi
cd "$top" && rm -rf "$san"
took "sanitizers"

# What step 1 cannot run in full (UNSANITIZED_TESTS in tests/local.mk),
# from this tree's plain build: the rest of make check would only repeat
# step 1 without the sanitizers.
echo "== make check-unsanitized (what the sanitizers cannot run, from the plain build)"
make -C "$build" -j"$jobs" check-unsanitized || status=1
tally "make check-unsanitized" "$build"
took "make check-unsanitized"

# The packages, built first: the Debian 13 VM of the next step boots with
# them, and make check-fleet installs them.
echo "== Debian package: build, lintian, install, upgrade, remove, purge on Debian 12 and 13, and 12 to 13 (.ci/debian-package.sh)"
PML_DEB_KEEP=$debs run_tap_step "debian package" .ci/debian-package.sh
bake

# Each TCG VM keeps one processor busy: two boot at a time.
echo "== make -j2 check-vm (real root in TCG virtual machines: Debian 13, systemd, busybox, measure)"
vm_debs=
ls "$debs"/trixie/memlockctl_*.deb >/dev/null 2>&1 && vm_debs=$debs/trixie
PML_VM_DEBS=$vm_debs make -C "$build" -j2 check-vm || status=1
tally "check-vm" "$build/tests/e2e"
took "check-vm"

# The benchmark is not a timed test: it is built and run once at a tiny size
# to keep it working, and counts as one case that passes if it completes.
echo "== make bench BENCH_FLAGS=--quick (no times asserted)"
if make -C "$build" bench BENCH_FLAGS=--quick; then
	echo "== bench: 1 passed"
	passed=$((passed + 1))
else
	echo "== bench: did not complete" >&2
	failure bench "did not complete"
	failed=$((failed + 1)) status=1
fi
took "bench"

# The release tarball: distcheck builds it out of tree from a read-only
# source, runs tests, installs, uninstalls and finds nothing left behind.
# One case; its long output goes to a log, shown when it fails.  Step 1
# already runs the whole make check on the dist tree: here only the tests
# that read the source tree or install, which a read-only srcdir can
# break, run again; and of the test programs, only theirs are built (step
# 1 built every one from the dist tree).
distcheck_tests="tests/project/install.sh tests/project/version.sh tests/project/man-lint.sh tests/project/layering.sh
	tests/module/exports.sh tests/core/test_policy tests/memlockctl/memlockctl.sh"
distcheck_programs=$(printf '%s\n' $distcheck_tests | grep -v '\.sh$')
echo "== make distcheck (the tarball builds, passes $(echo $distcheck_tests | wc -w) tests from a read-only source, uninstalls clean)"
dist_log=$(mktemp /tmp/pml-distcheck-XXXXXX)
if make -C "$build" -j"$jobs" distcheck TESTS="$(echo $distcheck_tests)" \
	check_PROGRAMS="$(echo $distcheck_programs)" >"$dist_log" 2>&1; then
	echo "== distcheck: 1 passed"
	passed=$((passed + 1))
	rm -f "$dist_log"
else
	tail -n 40 "$dist_log" >&2
	echo "== distcheck: failed (whole log: $dist_log)" >&2
	failure distcheck "failed: $(grep -m1 -E 'Error|FAIL' "$dist_log")"
	failed=$((failed + 1)) status=1
fi
took "distcheck"

echo "== make check-valgrind (libpam tests, the 1,000-session soak and failed allocations under memcheck)"
make -C "$build" -j"$jobs" check-valgrind || status=1
tally "check-valgrind" "$build" test-suite-valgrind.log
took "check-valgrind"

# The soak is one process on one processor, and the directory's and
# Slurm's daemons mostly wait: the soak runs beside them, its output
# shown when it ends.
echo "== make soak-long (100,000 sessions in one process: RSS and descriptors flat), beside the next two steps"
soak_out=$(mktemp /tmp/pml-soak-XXXXXX)
make -C "$build" soak-long >"$soak_out" 2>&1 &
soak_pid=$!

echo "== make check-directory (real slapd and nslcd in private namespaces; slapd killed and stopped)"
make -C "$build" check-directory || status=1
tally "check-directory" "$build" test-suite-directory.log
took "check-directory"

echo "== make check-slurm (Slurm batch jobs through a real slurmctld and slurmd: Debian 12, and 13 in a root)"
PML_SLURM_DEBS=$debs make -C "$build" check-slurm || status=1
tally "check-slurm" "$build/tests/slurm"
took "check-slurm"

wait "$soak_pid" || status=1
echo "== make soak-long, which ran beside them:"
cat "$soak_out"
rm -f "$soak_out"
tally "soak-long" "$build" test-suite-soak.log
took "soak-long (after them)"


# Each fuzz target runs for a fixed time from a private clang build and
# counts as one case: passed when nothing crashed, leaked or aborted.
fuzz_seconds=${PML_FUZZ_SECONDS:-30}
echo "== fuzz: each libFuzzer target for $fuzz_seconds s (tests/fuzz/run.sh)"
# From `make distdir`: a tree configured in place cannot host another build.
fuzz_tap=$(mktemp /tmp/pml-fuzz-tap-XXXXXX)
fuzz_src=$(mktemp -d /tmp/pml-fuzz-src-XXXXXX)
# The corpus is kept for step 14, which runs it through both libconfigs.
fuzz_corpus=$(mktemp -d /tmp/pml-fuzz-corpus-XXXXXX)
if make -C "$build" distdir distdir="$fuzz_src/src" >/dev/null; then
	PML_FUZZ_CORPUS=$fuzz_corpus "$fuzz_src/src/tests/fuzz/run.sh" "$fuzz_seconds" |
		tee "$fuzz_tap" || status=1
else
	echo "Bail out! make distdir failed" | tee "$fuzz_tap"
fi
rm -rf "$fuzz_src"
p=$(grep -c '^ok ' "$fuzz_tap") f=$(grep -c -e '^not ok ' -e '^Bail out!' "$fuzz_tap")
[ $((p + f)) -eq 0 ] && f=1
grep -e '^not ok ' -e '^Bail out!' "$fuzz_tap" | while IFS= read -r line; do failure fuzz "$line"; done
echo "== fuzz: $p passed, $f failed, 0 skipped"
passed=$((passed + p)) failed=$((failed + f))
rm -f "$fuzz_tap"
took "fuzz"

echo "== i386: make check of a 32-bit build (.ci/port-i386.sh)"
run_tap_step i386 .ci/port-i386.sh

echo "== s390x: big-endian cross build, tests under qemu-user (.ci/port-s390x.sh)"
run_tap_step s390x .ci/port-s390x.sh

echo "== Debian 13: make check under the sanitizers, the end-to-end tests, libconfig 1.7.3 against 1.5 in a fresh trixie root (.ci/debian13.sh)"
export PML_FUZZ_CORPUS=$fuzz_corpus
run_tap_step "debian 13" .ci/debian13.sh
unset PML_FUZZ_CORPUS
rm -rf "$fuzz_corpus"

# The fleet's playbook installs the packages that step 3 built.
echo "== make check-fleet (Debian's node_exporter scrapes memlockctl metrics on Debian 12 and 13; the Ansible playbook converges Debian 12 and 13 roots; unattended-upgrades holds back a conffile that the README's step 2 edited)"
PML_FLEET_DEBS=$debs make -C "$build" -j"$jobs" check-fleet || status=1
tally "check-fleet" "$build/tests/fleet"
took "check-fleet"

[ -z "$bake_pid" ] || { wait "$bake_pid"; sed 's/^/== /' "$bake_log"; }
if [ -s "$failures" ]; then
	echo "== what failed ($(wc -l <"$failures") lines; the first 40):"
	head -n 40 "$failures" | sed 's/^/==   /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
