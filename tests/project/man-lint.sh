#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Every man page in man/ (sections 5 and 8), through mandoc's linter at
# warning level: a page passes when mandoc prints nothing and exits 0.
# One TAP case per page; all skipped, with the reason, without mandoc.
set -u

src=${PML_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
shopt -s nullglob
pages=("$src"/man/*.5 "$src"/man/*.8)

if [ ${#pages[@]} -eq 0 ]; then
	echo "1..0 # SKIP no man pages in $src/man"
	exit 0
fi
echo "1..${#pages[@]}"

mandoc=$(command -v mandoc)
n=0
for page in "${pages[@]}"; do
	n=$((n + 1))
	name=${page##*/}
	if [ -z "$mandoc" ]; then
		echo "ok $n - $name # SKIP mandoc is not installed"
		continue
	fi
	out=$("$mandoc" -Tlint -W warning "$page" 2>&1)
	rc=$?
	if [ $rc -eq 0 ] && [ -z "$out" ]; then
		echo "ok $n - $name is lint-clean"
	else
		echo "not ok $n - $name is lint-clean (mandoc exit $rc)"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
