#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The suite on Debian 13 ("trixie"), whatever release this machine runs:
# in a fresh trixie root (.ci/root.sh) with .ci/packages.build and
# .ci/packages.check, the `make distdir` tree of BUILD_DIR, that is the
# dist tarball's contents, built with trixie's own toolchain (gcc 14,
# libconfig 1.7, Linux-PAM 1.7):
#   1. configure and make, with no compiler warning (-Wall -Wextra and the
#      rest of AM_CFLAGS);
#   2. make check, built with --enable-sanitizers (ASan+UBSan, no
#      recovery): every case of the suite on trixie's toolchain;
#   3. in the plain build, the tests the sanitizer build cannot run (the
#      end-to-end tests driving trixie's own sshd, su and runuser, which
#      cannot load a sanitized module; the failed allocations, the symbol
#      imports and the strace of read-only commands), every case counted:
#      the rest would only repeat step 2 without the sanitizers;
#   4. one policy language on libconfig 1.5 and 1.7.3: this machine's build
#      and the root's, file by file (.ci/libconfig-compare.sh), when this
#      machine's libconfig is another version.
#
#   .ci/debian13.sh [BUILD_DIR]     BUILD_DIR: a configured tree ($PML_BUILD_DIR or .)
#
# Prints TAP, each case of a run named "trixie: ..." or "trixie
# sanitizers: ...".  Needs root.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${PML_BUILD_DIR:-$top}}
. "$top/.ci/root.sh"
root_enter "$0" "$@" || exit 1
. "$top/.ci/tap.sh"
. "$top/.ci/libconfig-compare.sh"
export LC_ALL=C.UTF-8
release=trixie
jobs=$(nproc 2>/dev/null || echo 2)

# What the plain build runs: make check-unsanitized, what make check under
# the sanitizers cannot run in full (each says why in its SKIP line).  A
# suite that must hold on Debian 13 too and cannot under the sanitizers
# adds itself to UNSANITIZED_TESTS (tests/local.mk), and its packages to
# .ci/packages.check.

# check's 4 s a case is short beside other builds on 2 cores (test_size's
# whole-range round trips ran out of it): more, as debian/rules gives it.
ck_timeout=CK_TIMEOUT_MULTIPLIER=10

# Known gaps on Debian 13, each a failure that a change in progress fixes:
# a line each, "TEXT|REASON".  A FAIL whose line holds TEXT is reported as
# "not ok ... # TODO REASON" (tests/run-all.sh reports it, uncounted).
# Delete the line with the fix.
known=()

started=$(date +%s)
elapsed() { echo "# $1: $(($(date +%s) - started)) s since the start"; }

root=$ROOT_WORK/$release
check "root: Debian 13 ($release) with .ci/packages.build and .ci/packages.check" \
	root_named "$root" trixie-check || { tap_end; exit 1; }
check "the root runs Debian 13" grep -qx 'VERSION_ID="13"' "$root/etc/os-release"
echo "# toolchain: gcc $(root_run "$root" gcc -dumpfullversion)," \
	"libconfig $(root_run "$root" pkg-config --modversion libconfig)," \
	"Linux-PAM $(root_run "$root" dpkg-query -W -f='${Version}' libpam0g)"
elapsed "root made"

check "make distdir into the root" make -C "$build" distdir distdir="$root/src" ||
	{ tap_end; exit 1; }

# known_gaps < make-check-output: each FAIL that `known` names as an XFAIL
# with its TODO, for from_automake.
known_gaps() {
	local line gap
	while IFS= read -r line; do
		for gap in "${known[@]}"; do
			case $line in
			FAIL:*"${gap%%|*}"*) line="X$line # TODO ${gap#*|}" ;;
			esac
		done
		printf '%s\n' "$line"
	done
}

# build_in DIR [CONFIGURE-ARG...]: configure and make in /DIR of the root;
# the log is $root/DIR.log.
build_in() {
	local dir=$1
	shift
	mkdir -p "$root/$dir"
	root_run "$root" sh -c 'cd "$1" && shift && /src/configure -q "$@" && make -j"$0"' \
		"$jobs" "/$dir" "$@" >"$root/$dir.log" 2>&1
}

plain_built=false
if build_in plain; then
	plain_built=true
	ok "configure and make with trixie's gcc"
	warnings=$(grep -E ':[0-9]+:[0-9]+: (warning|error): ' "$root/plain.log")
	if [ -z "$warnings" ]; then
		ok "no compiler warning"
	else
		not_ok "no compiler warning" "$warnings"
	fi
	root_run "$root" env "$ck_timeout" make -C /plain -j"$jobs" check-unsanitized \
		>"$root/plain-check.log" 2>&1
	from_automake "$release: " < <(known_gaps <"$root/plain-check.log")
	grep -q '^# TOTAL:' "$root/plain/test-suite.log" 2>/dev/null ||
		not_ok "$release: make check ran to its summary" "$(tail -n 20 "$root/plain-check.log")"
else
	not_ok "configure and make with trixie's gcc" "$(tail -n 30 "$root/plain.log")"
fi
elapsed "the plain build and its tests done"

if build_in sanitizers --enable-sanitizers; then
	root_run "$root" env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1 "$ck_timeout" \
		make -C /sanitizers -j"$jobs" check >"$root/sanitizers-check.log" 2>&1
	from_automake "$release sanitizers: " < <(known_gaps <"$root/sanitizers-check.log")
	grep -q '^# TOTAL:' "$root/sanitizers/test-suite.log" 2>/dev/null ||
		not_ok "$release sanitizers: make check ran to its summary" \
			"$(tail -n 20 "$root/sanitizers-check.log")"
else
	not_ok "configure --enable-sanitizers and make with trixie's gcc" \
		"$(tail -n 30 "$root/sanitizers.log")"
fi
elapsed "sanitizers done"

if $plain_built; then
	libconfig_compare "$root" /plain
else
	skip "libconfig 1.5 and 1.7.3 compared" "the build in the root failed"
fi
elapsed "done"
tap_end
