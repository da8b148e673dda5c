#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# s390x (64-bit, big-endian): a cross build with Debian's s390x cross
# compiler, and the unit tests of values (test_size), the decision
# (test_decide) and the loader (test_policy) run under qemu-user, plus
# memlockctl check on the shipped policy.
#
#   .ci/port-s390x.sh [BUILD_DIR]    BUILD_DIR: a configured tree ($PML_BUILD_DIR or .)
#
# The s390x libpam, libconfig and check come from Debian too, but as a
# sysroot that mmdebstrap unpacks (--variant=extract: nothing of it runs)
# into a scratch directory, not as :s390x packages on this machine:
# multiarch needs the same version of every Multi-Arch: same library for
# both architectures, and a mirror that carries the amd64 security updates
# but not the s390x ones (as this machine's does) cannot give that.  The
# sysroot is private to the run and removed afterwards, with the build.
#
# Prints TAP: a few cases of its own, then one per test case, named
# "s390x: ...".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${PML_BUILD_DIR:-$top}}
. "$top/.ci/tap.sh"
work=$(mktemp -d /tmp/pml-s390x-XXXXXX)
trap 'rm -rf "$work" "$tap_log"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
sysroot=$work/sysroot
tests="tests/core/test_size tests/core/test_decide tests/core/test_policy"

export DEBIAN_FRONTEND=noninteractive
check "cross compiler, qemu-user and mmdebstrap installed" \
	apt-get install -y -qq --no-install-recommends crossbuild-essential-s390x \
	qemu-user-static mmdebstrap || { tap_end; exit 1; }
qemu=$(command -v qemu-s390x || command -v qemu-s390x-static) ||
	bail "no qemu-s390x"

# The sysroot of this machine's own release, which its cross compiler is
# made for (Debian 12 or 13).
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
if mmdebstrap --variant=extract --architectures=s390x \
	--include=libc6-dev,libpam0g-dev,libconfig-dev,check "$release" "$sysroot" \
	>"$tap_log" 2>&1; then
	ok "s390x sysroot of $release (mmdebstrap --variant=extract)"
elif grep -q '404 *Not Found' "$tap_log"; then	# (apt says so without --quiet)
	# The mirror, not the build: as on this workplace's Debian 13 roots,
	# whose mirror lacks the s390x files of trixie's current libc6.
	skip "the s390x cross build and its tests" \
		"the mirror has not every s390x package of $release: $(grep -m1 -o '[^/]*_s390x\.deb  *404' "$tap_log")"
	tap_end
	exit 0
else
	not_ok "s390x sysroot of $release (mmdebstrap --variant=extract)" "$(tail -n 20 "$tap_log")"
	tap_end
	exit 1
fi
# Debian's development symlinks are absolute (libpam.so -> /lib/...): from
# outside the sysroot they dangle, and the linker would quietly take
# libpam.a instead.  Point them into the sysroot.
find "$sysroot/usr/lib" -type l -lname '/*' | while IFS= read -r link; do
	ln -sfn "$sysroot$(readlink "$link")" "$link"
done

check "make distdir" make -C "$build" distdir distdir="$work/src" || { tap_end; exit 1; }
mkdir "$work/build" && cd "$work/build" || bail "cannot make $work/build"
check "configure --host=s390x-linux-gnu --with-sysroot" \
	"$work/src/configure" --host=s390x-linux-gnu --with-sysroot="$sysroot" \
	CC="s390x-linux-gnu-gcc --sysroot=$sysroot" \
	PKG_CONFIG_LIBDIR="$sysroot/usr/lib/s390x-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig" \
	PKG_CONFIG_SYSROOT_DIR="$sysroot" || { tap_end; exit 1; }
check "make: module and memlockctl (s390x)" make -j"$jobs" || { tap_end; exit 1; }
# ELF class 2 (64-bit), data 2 (big-endian), machine 22 (EM_S390, MSB).
check "pam_memlock.so and memlockctl are ELF64 big-endian S/390" sh -c '
	for f in .libs/pam_memlock.so memlockctl; do
		[ "$(od -An -tx1 -j4 -N2 $f | tr -d " ")" = 0202 ] &&
		[ "$(od -An -tx1 -j18 -N2 $f | tr -d " ")" = "0016" ] || exit 1
	done'
check "the module links libpam.so.0 dynamically" sh -c \
	's390x-linux-gnu-readelf -d .libs/pam_memlock.so | grep -q "NEEDED.*libpam\.so\.0"'
# shellcheck disable=SC2086
check "make: the test programs (s390x)" make -j"$jobs" $tests || { tap_end; exit 1; }
# test_size's German-locale case: the locale files are in the byte order of
# the machine that reads them.
mkdir -p tests/locale
localedef --big-endian -i de_DE -f UTF-8 tests/locale/de_DE.UTF-8 >/dev/null 2>&1 ||
	rm -rf tests/locale/de_DE.UTF-8
check "memlockctl check on the shipped policy, under qemu" \
	"$qemu" -L "$sysroot" ./memlockctl check --conf "$work/src/conf/memlock.conf"
# Through automake's TAP driver with qemu as LOG_COMPILER.  check's 4 s
# per case is too short for the whole-range round trip under emulation.
CK_TIMEOUT_MULTIPLIER=10 make -j"$jobs" check-TESTS TESTS="$tests" \
	LOG_COMPILER="$qemu -L $sysroot" >"$work/check.log" 2>&1
from_automake "s390x: " <"$work/check.log"
grep -q '^# TOTAL:' "$work/check.log" ||
	not_ok "s390x tests ran to their summary" "$(tail -n 20 "$work/check.log")"
tap_end
