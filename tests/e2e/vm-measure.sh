#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-vm-measure: memlockctl measure and its real clients
# (tests/e2e/vm/measure-guest.sh) on the kernels of Debian 12 (6.1) and
# Debian 13 (6.12), each booted by tests/e2e/vm.sh with the busybox init.
# Debian 13's kernel package is fetched once with apt-get download from a
# private apt state (lists and cache under PML_VM_CACHE; the machine's own
# apt state is not touched), from the mirror this machine's apt uses.
# One TAP stream: the two boots' cases, numbered on.
set -u
. "$(dirname "$0")/lib.sh"
cache=${PML_VM_CACHE:-/var/cache/pml-vm}

[ "$(id -u)" = 0 ] || tap_skip_all "needs root (the VM reads the host's / as root)"

# trixie_kernel: prints the path of Debian 13's kernel package, fetching it
# once; prints nothing when it cannot.
trixie_kernel() {
	local d=$cache/apt-trixie mirror pkg deb
	local -a apt
	deb=$(ls "$d"/linux-image-*-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
	[ -z "$deb" ] || { echo "$deb"; return; }
	mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list 2>/dev/null)
	[ -n "$mirror" ] || return
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" || return
	echo "deb $mirror trixie main" >"$d/sources.list"
	apt=(-o "Dir::Etc::SourceList=$d/sources.list" -o "Dir::Etc::SourceParts=$d/none"
		-o "Dir::State::Lists=$d/lists" -o "Dir::Cache=$d/cache"
		-o Dir::State::status=/dev/null -o APT::Architecture=amd64)
	apt-get "${apt[@]}" update -qq >/dev/null 2>&1 || return
	pkg=$(apt-cache "${apt[@]}" depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || return
	(cd "$d" && apt-get "${apt[@]}" download "$pkg" >/dev/null 2>&1)
	ls "$d/${pkg}"_*.deb 2>/dev/null | tail -n 1
}

total=0
out=$(mktemp /tmp/pml-vm-measure-XXXXXX) || exit 1
trap 'rm -f "$out"' EXIT
# boot NAME DEB: one boot's TAP, renumbered after the cases before it.
boot() {
	local name=$1 deb=$2
	PML_VM_GUEST=measure-guest.sh PML_VM_KERNEL_DEB=$deb PML_VM_MODE=busybox \
		"$BASH" "$e2e_dir/vm.sh" >"$out" 2>&1
	awk -v base="$total" -v name="$name" '
		/^1\.\.0 # SKIP/ { sub(/^1\.\.0 # SKIP /, ""); printf "ok %d - %s # SKIP %s\n", base + 1, name, $0; n = 1; next }
		/^1\.\./ { next }
		/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " base + n " -"); sub(/- -/, "-"); sub(/ - /, " - " name ": "); print; next }
		{ print }
		END { print "# " name ": " n " cases" }' "$out"
	total=$((total + $(grep -cE '^(not )?ok [0-9]+|^1\.\.0 # SKIP' "$out")))
}

deb13=$(trixie_kernel)
{
	boot "Debian 12 kernel" ""
	if [ -n "$deb13" ]; then
		boot "Debian 13 kernel" "$deb13"
	else
		total=$((total + 1))
		echo "ok $total - Debian 13 kernel # SKIP cannot fetch Debian 13's kernel package"
	fi
	echo "1..$total"
}
