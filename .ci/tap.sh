# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Sourced by the .ci/*.sh steps that tests/run-all.sh counts: TAP output,
# one line per case, the plan ("1..N") printed at the end.
#   ok DESC | not_ok DESC [DETAIL...] | skip DESC REASON
#   check DESC COMMAND... (ok when COMMAND succeeds; its output is kept
#   in $tap_log and shown as diagnostics when it fails)
#   from_automake PREFIX < make-check-output: one case per PASS/FAIL/...
#   line of automake's test harness; an XFAIL (a known gap, which TAP
#   marks "# TODO") stays "not ok ... # TODO", which tests/run-all.sh
#   reports and does not count
#   bail REASON: "Bail out!" and exit 1
#   tap_end: the plan; exit status 1 if any case failed
tap_n=0 tap_failed=0
tap_log=$(mktemp /tmp/pml-tap-XXXXXX)
trap 'rm -f "$tap_log"' EXIT

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
not_ok() {
	tap_n=$((tap_n + 1)) tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	shift
	local line
	for line in "$@"; do printf '%s\n' "$line" | sed 's/^/# /'; done
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
check() {
	local desc=$1
	shift
	if "$@" >"$tap_log" 2>&1; then
		ok "$desc"
	else
		not_ok "$desc" "command: $*" "$(tail -n 20 "$tap_log")"
	fi
}
from_automake() {
	local prefix=$1 kind rest
	while IFS= read -r line; do
		case $line in
		PASS:*) kind=ok ;;
		XFAIL:*) kind=todo ;;
		SKIP:*) kind=skip ;;
		FAIL:* | XPASS:* | ERROR:*) kind=not_ok ;;
		*) continue ;;
		esac
		rest=${line#*: }
		case $kind in
		ok) ok "$prefix$rest" ;;
		todo) tap_n=$((tap_n + 1)); echo "not ok $tap_n - $prefix$rest" ;;
		not_ok) not_ok "$prefix$rest" ;;
		skip)
			case $rest in
			*"# SKIP"*) tap_n=$((tap_n + 1)); echo "ok $tap_n - $prefix$rest" ;;
			*) skip "$prefix$rest" "skipped" ;;
			esac ;;
		esac
	done
}
bail() {
	echo "Bail out! $*"
	exit 1
}
tap_end() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
}
