#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# What a newcomer sees: the README's two Quick start commands, exactly as
# the README writes them (read from it, not copied here), on a fresh
# minimal machine of each release.  Per release: a root with only
# ca-certificates, git and sudo (mmdebstrap minbase, .ci/root.sh), a fresh
# tmpfs on its /tmp and /run as a booted machine has, a git clone
# of this repository's HEAD in /root/pam_memlock, and there, as root with a
# clean environment, `bash -c COMMAND` for each command in turn.  Nothing
# of this machine is visible in the root but the kernel's /proc, /dev and
# /sys.  A green CI on a machine that ran the suite before proves nothing
# of a new one: this does.
#
#   .ci/fresh.sh [RELEASE...]       bookworm and trixie by default
#
# Not part of tests/run-all.sh: it runs the whole suite once more per
# release.  Prints TAP: per release, a case per command, and the second
# command's closing line as the case of its own that passes with 0 failed.
# PML_FRESH_COMMANDS=1 runs the first command only.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/.ci/root.sh"
root_enter "$0" "$@" || exit 1
. "$top/.ci/tap.sh"
[ $# -gt 0 ] || set -- bookworm trixie

# The Quick start section's commands: its indented lines, in order.
mapfile -t commands < <(awk '
	/^Quick start$/ { on = 1 }
	on && /^-+$/ && prev != "Quick start" { exit }
	on && /^    [^ ]/ { sub(/^    /, ""); print }
	{ prev = $0 }' "$top/README")
[ "${#commands[@]}" -eq 2 ] ||
	bail "the README's Quick start has ${#commands[@]} commands, not 2: ${commands[*]}"
want=${PML_FRESH_COMMANDS:-2}
logs=$(mktemp -d /tmp/pml-fresh-XXXXXX) || bail "mktemp failed"

started=$(date +%s)
for rel in "$@"; do
	root=$ROOT_WORK/$rel
	check "$rel: a fresh root with only ca-certificates, git and sudo" \
		root_make "$root" "$rel" minbase ca-certificates git sudo || continue
	check "$rel: a tmpfs on /tmp and /run" sh -c \
		'mount -t tmpfs -o mode=1777 tmpfs "$1/tmp" && mount -t tmpfs -o mode=0755 tmpfs "$1/run"' \
		sh "$root" || continue
	check "$rel: git clone of this repository's HEAD" \
		git clone -q --no-hardlinks "$top" "$root/root/pam_memlock" || continue
	for i in $(seq 1 "$want"); do
		cmd=${commands[$((i - 1))]}
		log=$logs/$rel-$i.log
		t=$(date +%s)
		root_run "$root" bash -c "cd /root/pam_memlock && $cmd" >"$log" 2>&1
		rc=$?
		echo "# $rel: command $i took $(($(date +%s) - t)) s"
		if [ $rc -eq 0 ]; then
			ok "$rel: command $i exits 0: $cmd"
		else
			not_ok "$rel: command $i exits 0 (it exited $rc): $cmd" "$(tail -n 30 "$log")"
		fi
		[ "$i" -eq 2 ] || continue
		grep '^== ' "$log" | sed "s/^/# $rel: /"
		last=$(tail -n 1 "$log")
		if [[ $last =~ ^[0-9]+\ passed,\ 0\ failed,\ [0-9]+\ skipped$ ]]; then
			ok "$rel: command 2 closes with $last"
		else
			not_ok "$rel: command 2 closes with N passed, 0 failed, N skipped" "last line: $last"
		fi
	done
	echo "# $rel: what the commands printed is in $logs"
	# The next release's root needs the room; never rm through a mount.
	umount -R "$root" && rm -rf "$root"
done
echo "# fresh.sh took $(($(date +%s) - started)) s"
tap_end
