#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The policy examples of memlock.conf(5) are real: each literal block of
# the page is written to a file and must pass `memlockctl check`, so that
# the page cannot drift from what the module accepts.  So are the commands
# that memlockctl(8)'s EXAMPLES show a user ("$ ") running on a candidate
# (--conf): they must work for a user who is not root and owns the file,
# as its CANDIDATES section says.  One TAP case per example.  Policy files
# must be owned by root, so unprivileged runs skip.
set -u

src=${PML_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${PML_BUILDDIR:-$src}
page=$src/man/memlock.conf.5
memlockctl=$build/memlockctl

scratch=$(mktemp -d /tmp/pml-man-examples-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
# Every .Bd -literal ... .Ed block to its own file, 1.conf, 2.conf, ...
awk -v dir="$scratch" '
	/^\.Bd -literal/ { inside = 1; n++; print NR > (dir "/" n ".line"); next }
	/^\.Ed/ { inside = 0; next }
	inside { print > (dir "/" n ".conf") }' "$page"
chmod 644 "$scratch"/*.conf 2>/dev/null

examples=("$scratch"/*.conf)
[ -e "${examples[0]}" ] || { echo "1..0 # SKIP no examples in $page"; exit 0; }
# memlockctl(8)'s user commands on a candidate, one per line.
sed -n '/^\.Sh EXAMPLES/,/^\.Sh SEE/p' "$src/man/memlockctl.8" |
	sed -n 's/^\$ \(memlockctl \(check\|show\|explain\) .*--conf .*\)$/\1/p' >"$scratch/user-commands"
echo "1..$((${#examples[@]} + $(wc -l <"$scratch/user-commands")))"

skip=
if [ ! -x "$memlockctl" ]; then
	skip="memlockctl is not built"
elif [ "$(id -u)" -ne 0 ]; then
	skip="policy files must be owned by root: run as root"
fi

for n in $(seq 1 ${#examples[@]}); do
	example=$scratch/$n.conf
	name="memlock.conf(5) example $n (line $(cat "$scratch/$n.line")) passes memlockctl check"
	if [ -n "$skip" ]; then
		echo "ok $n - $name # SKIP $skip"
		continue
	fi
	if out=$("$memlockctl" check --conf "$example" 2>&1); then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		sed 's/^/# /' "$example"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

# Each as uid 65534, in a directory of its own where it owns the candidate
# (mode 0600: no one else may read it), the first example above.
[ -z "$skip" ] && ! command -v setpriv >/dev/null && skip="setpriv is not installed"
while IFS= read -r command; do
	n=$((n + 1))
	name="memlockctl(8): \"$command\" works for the candidate's owner, not root"
	if [ -n "$skip" ]; then
		echo "ok $n - $name # SKIP $skip"
		continue
	fi
	dir=$(mktemp -d "$scratch/user-XXXXXX")
	candidate=$(printf '%s\n' "$command" | sed -n 's/.*--conf \([^ ]*\).*/\1/p')
	cp "$scratch/1.conf" "$dir/$candidate"
	chmod 0755 "$scratch" "$dir" && chmod 0600 "$dir/$candidate" &&
		chown -R 65534:65534 "$dir"
	# shellcheck disable=SC2086 # the command's words, as the page has them
	if out=$(cd "$dir" && setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$memlockctl" ${command#memlockctl } 2>&1); then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done <"$scratch/user-commands"
