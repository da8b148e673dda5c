#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl check --strict-host[=KINDS]: which host warnings fail the
# check.  names: a user, group or service this host lacks; bounds: a floor
# or ceiling that decides over a share of this host's memory; other: the
# rest (here a share-sized soft limit above the hard one).  Each policy
# gives one host warning of its kind, on any host with more than 64 MiB of
# RAM and without a group "hcp".  TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
work=$(mktemp -d /tmp/pml-check-host-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if getent group hcp >/dev/null; then
	echo "1..0 # SKIP this host has a group \"hcp\", the typo the test needs"
	exit 0
fi
printf '%s\n' 'limit = "8 MiB";' 'rules = ( { group = "hcp"; limit = "16 MiB"; } );' >"$work/names.conf"
printf '%s\n' 'limit = "100%";' 'ceiling = "64 MiB";' >"$work/bounds.conf"
printf '%s\n' 'soft = "100%";' 'hard = "64 MiB";' >"$work/other.conf"

# The warning each policy gives, and that it is its only one.
for kind in names bounds other; do
	"$ctl" check --conf "$work/$kind.conf" >"$work/out" 2>"$work/err"
	rc=$?
	check "$kind.conf: valid, one host warning" \
		eval 'test $rc = 0 && grep -q ", 1 host warning (" "$work/out" && test "$(wc -l <"$work/err")" = 1'
done

# EXIT POLICY ARGS: ARGS "-" for none.
while read -r want policy args; do
	[ "$args" = - ] && args=
	# shellcheck disable=SC2086 # ARGS: a list of words
	"$ctl" check --conf "$work/$policy.conf" $args >"$work/out" 2>"$work/err"
	rc=$?
	case $want in
	1) grep -q "1 host warning, and --strict-host makes them fail" "$work/err" || rc="$rc, no message" ;;
	2) grep -q "^memlockctl: --strict-host: KINDS are names, bounds and other" "$work/err" ||
		grep -q '^memlockctl: unexpected argument' "$work/err" || rc="$rc, no usage message" ;;
	esac
	is "check $policy.conf $args" "$rc" "$want"
done <<'CASES'
0 names -
0 names --strict
1 names --strict-host
1 names --strict-host=names
0 names --strict-host=bounds,other
1 bounds --strict-host
0 bounds --strict-host=names
1 bounds --strict-host=bounds
1 bounds --strict-host=names,bounds
0 other --strict-host=names,bounds
1 other --strict-host=other
1 other --strict-host=bounds,names,other
2 names --strict-host=nam
2 names --strict-host=
2 names --strict-host=names,
2 names --strict-host names
CASES
echo "1..$n"
