#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Bakes the roots of .ci/roots (all, or the NAMEs given) into
# $PML_ROOT_CACHE, in order: tests/run-all.sh runs it in the background
# while its first steps run.  A root that fails here is made again by the
# step that asks for it, which then says why.
#
#   .ci/root-bake.sh [NAME...]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/.ci/root.sh"
root_enter "$0" "$@" || exit 1
# The names, one a word.
# shellcheck disable=SC2046
[ $# -gt 0 ] || set -- $(sed 's/#.*//' "$top/.ci/roots" | awk 'NF { print $1 }')
bake_started=$(date +%s)
for name in "$@"; do
	started=$(date +%s)
	if root_bake "$name"; then
		echo "root-bake: $name ready in $(($(date +%s) - started)) s" \
			"(made, or already in the cache), $(($(date +%s) - bake_started)) s after the bake started"
	else
		echo "root-bake: $name failed" >&2
	fi
done
