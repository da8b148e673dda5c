#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The policy examples of memlock.conf(5) are real: each literal block of
# the page is written to a file and must pass `memlockctl check`, so that
# the page cannot drift from what the module accepts.  One TAP case per
# example.  Policy files must be owned by root, so unprivileged runs skip.
set -u

src=${PML_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
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
echo "1..${#examples[@]}"

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
