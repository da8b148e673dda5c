# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by the shell tests for their TAP cases, counted in $n.  The plan
# stays each test's own: "1..N" first where the count is known, "1..$n"
# last where it is not.
#   ok NAME
#   not_ok NAME [DETAIL...]    each line of each DETAIL as a "# " comment
#   skip NAME REASON           a case that did not run, and why
#   CONDITION; verdict NAME [FILE...]
#                              ok when CONDITION held, else not_ok with
#                              the last 40 lines of each FILE; returns
#                              CONDITION's status
#   check NAME COMMAND...      ok when COMMAND succeeds
#   is NAME GOT WANT           ok when GOT is WANT, else both shown
#   show FILE...               the files as comments
n=0

show() { sed 's/^/# /' "$@"; }
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	local line
	n=$((n + 1))
	echo "not ok $n - $1"
	shift
	for line in "$@"; do printf "%s\n" "$line" | sed "s/^/# /"; done
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
verdict() {
	local rc=$? name=$1 file
	shift
	if [ $rc = 0 ]; then
		ok "$name"
		return 0
	fi
	not_ok "$name"
	for file in "$@"; do tail -n 40 "$file" | sed "s/^/# /"; done
	return $rc
}
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}
is() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "  got:  '$2'" "  want: '$3'"; fi
}
