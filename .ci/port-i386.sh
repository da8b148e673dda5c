#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# i386 (32-bit x86): the whole `make check` of an i386 build, run natively
# on this amd64 machine.  Multiarch: the i386 libpam, libconfig, check,
# PAM modules (the tests' pam_permit/pam_deny) and nss_wrapper come from
# Debian as :i386 packages; the compiler is the native gcc with -m32 and
# its lib32gcc-N-dev (N is gcc's major version: 12 on Debian 12, 14 on
# 13).  (gcc-multilib is not used: Debian lets it not coexist with the
# s390x cross compiler of .ci/port-s390x.sh.)
#
#   .ci/port-i386.sh [BUILD_DIR]     BUILD_DIR: a configured tree ($PML_BUILD_DIR or .)
#
# The source is `make distdir` of BUILD_DIR, built out of tree in a scratch
# directory that is removed afterwards.  Prints TAP: one case per test case
# of make check, each named "i386: ...", and a few of its own.
#
# Left out: the end-to-end tests (tests/e2e, make's E2E_TESTS): they drive
# this machine's own sshd, su and runuser, which are amd64 programs and
# cannot load an i386 pam_memlock.so.
#
# A kernel without IA32 emulation (CONFIG_IA32_EMULATION off, or booted
# with ia32_emulation=0) answers the exec of any i386 program with ENOEXEC
# ("Exec format error", a shell's status 126), whatever the root's
# release.  A three-instruction static program, assembled by the native
# toolchain, asks the kernel first.  Where it cannot run, the value,
# decision, loader, unit and session tests run under qemu-user's i386
# emulator instead, as .ci/port-s390x.sh runs its own; the others are
# skipped with the reason: those that start another i386 program
# (memlockctl, or themselves again) and the shell suites, which all run
# memlockctl, because qemu-user follows no exec without binfmt_misc and
# registering a handler would change this machine's kernel; the long ones
# because they are many times slower emulated.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${PML_BUILD_DIR:-$top}}
. "$top/.ci/tap.sh"
work=$(mktemp -d /tmp/pml-i386-XXXXXX)
trap 'rm -rf "$work" "$tap_log"' EXIT
jobs=$(nproc 2>/dev/null || echo 2)
packages="lib32gcc-$(gcc -dumpversion | cut -d. -f1)-dev libc6-dev:i386 libpam0g-dev:i386 libpam-modules:i386
	libconfig-dev:i386 check:i386 libnss-wrapper:i386"

export DEBIAN_FRONTEND=noninteractive
if ! dpkg --print-foreign-architectures | grep -qx i386; then
	dpkg --add-architecture i386 && apt-get update -qq >"$tap_log" 2>&1 ||
		bail "dpkg --add-architecture i386 / apt-get update failed: $(tail -n 3 "$tap_log")"
fi
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $packages >"$tap_log" 2>&1; then
	apt-get update -qq >/dev/null 2>&1
	# shellcheck disable=SC2086
	check "i386 build dependencies installed" \
		apt-get install -y -qq --no-install-recommends $packages || { tap_end; exit 1; }
else
	ok "i386 build dependencies installed"
fi

# exit(0) through the 32-bit system call gate.
printf '.globl _start\n_start:\n\tmovl $1, %%eax\n\txorl %%ebx, %%ebx\n\tint $0x80\n' \
	>"$work/exit0.S"
gcc -m32 -nostdlib -static -o "$work/exit0" "$work/exit0.S" >"$tap_log" 2>&1 ||
	bail "cannot assemble the i386 probe: $(tail -n 3 "$tap_log")"
emulator=
if ! "$work/exit0" 2>/dev/null; then
	why="this kernel runs no i386 program (exec: Exec format error; no IA32 emulation)"
	apt-get install -y -qq --no-install-recommends qemu-user-static >"$tap_log" 2>&1
	emulator=$(command -v qemu-i386 || command -v qemu-i386-static) ||
		bail "$why, and qemu-user's qemu-i386 is missing: $(tail -n 3 "$tap_log")"
	ok "$why: the test programs run under $emulator"
fi

check "make distdir" make -C "$build" distdir distdir="$work/src" || { tap_end; exit 1; }
mkdir "$work/build" && cd "$work/build" || bail "cannot make $work/build"
check "configure CC='gcc -m32' --host=i686-linux-gnu" \
	"$work/src/configure" CC="gcc -m32" --host=i686-linux-gnu \
	PKG_CONFIG_LIBDIR=/usr/lib/i386-linux-gnu/pkgconfig:/usr/share/pkgconfig ||
	{ tap_end; exit 1; }
check "make (i386)" make -j"$jobs" || { tap_end; exit 1; }
# ELF class 1 (32-bit), machine 3 (EM_386), little-endian.
check "pam_memlock.so and memlockctl are ELF32 i386" sh -c '
	for f in .libs/pam_memlock.so memlockctl; do
		[ "$(od -An -tx1 -j4 -N1 $f | tr -d " ")" = 01 ] &&
		[ "$(od -An -tx1 -j18 -N2 $f | tr -d " ")" = "0300" ] || exit 1
	done'
if [ -z "$emulator" ]; then
	make -j"$jobs" check E2E_TESTS= >"$work/check.log" 2>&1
else
	# The suite's own list of tests, less what starts another i386 program.
	# shellcheck disable=SC2016
	all=$(printf 'pml-tests: ; @echo $(TESTS)\n' | make -s -f Makefile -f - pml-tests E2E_TESTS=)
	# Under emulation, what 32 bits can break, as the s390x step runs its
	# own: values, memory shares, decisions, the loader and its reads,
	# unit rules, lint, and sessions through the i386 libpam.  The rest
	# (soaks, threads, failed allocations, doctor, status, measure: each
	# many times slower under qemu-user) runs where the kernel runs i386.
	emulated='' started='' shell='' native=''
	for t in $all; do
		case $t in
		*.sh) shell="$shell $t" ;;
		tests/module/test_nss) started="$started $t" ;;	# re-executes itself
		tests/memlockctl/policy/test_memlockctl_pam | tests/module/test_races)
			started="$started $t" ;;	# run memlockctl
		tests/core/test_size | tests/core/test_memory | tests/core/test_decide | \
			tests/core/test_policy | tests/core/test_safe_read | tests/core/test_units | \
			tests/memlockctl/policy/test_lint | tests/module/test_pam | \
			tests/module/test_rules | tests/module/test_dropins)
			emulated="$emulated $t" ;;
		*) native="$native $t" ;;
		esac
	done
	for t in $started; do
		skip "i386: $t" "$why, and it starts an i386 program itself"
	done
	for t in $shell; do
		skip "i386: $t" "$why: a shell suite (the native step runs each; most start the i386 memlockctl, which cannot start here)"
	done
	for t in $native; do
		skip "i386: $t" "$why: under qemu-user only the value, decision, loader, unit and session tests run"
	done
	# shellcheck disable=SC2086
	make -j"$jobs" $emulated >"$work/check.log" 2>&1 &&
		CK_TIMEOUT_MULTIPLIER=10 make -j"$jobs" check-TESTS TESTS="$emulated" \
			LOG_COMPILER="$emulator" >"$work/check.log" 2>&1
fi
from_automake "i386: " <"$work/check.log"
grep -q '^# TOTAL:' "$work/check.log" ||
	not_ok "i386 make check ran to its summary" "$(tail -n 20 "$work/check.log")"
tap_end
