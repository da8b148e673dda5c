#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The Debian pam-auth-update profile (conf/pam-configs/memlock), run through
# the real pam-auth-update.  Every run happens in a private mount namespace
# in which /etc/pam.d, /usr/share/pam-configs, /var/lib/pam and
# /var/cache/debconf are scratch directories bound over the real ones, so
# the machine's own PAM stack and debconf database are never written; the
# last case checks that.  Prints TAP.
set -u

src=${PML_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
profile=$src/conf/pam-configs/memlock
cases=9
. "$src/tests/lib/tap.sh"

skip_rest() {
	while [ "$n" -lt "$cases" ]; do
		n=$((n + 1))
		echo "ok $n - pam-auth-update case $n # SKIP $1"
	done
	exit 0
}

echo "1..$cases"

# 1. The profile itself, read the way pam-auth-update reads it: "Field: value"
# lines, continuation lines indented.  Its parser has no comment syntax (a
# "#" line would be glued to the field before it, or warned about), so the
# file must have none.
profile_is_well_formed() {
	local bad
	bad=$(awk '
		/^#/ { print "comment line " NR; next }
		/^[^ \t][^:]*:/ { field = $0; sub(/:.*/, "", field); seen[field] = 1
			value = $0; sub(/^[^:]*:[ \t]*/, "", value); v[field] = value; next }
		/^[ \t]+[^ \t]/ { if (field == "Session") session = session $0; next }
		/^$/ { next }
		{ print "unexpected line " NR ": " $0 }
		END {
			if (v["Default"] != "yes") print "Default is not yes"
			if (v["Session-Type"] != "Additional") print "Session-Type is not Additional"
			if (v["Priority"] !~ /^-?[0-9]+$/) print "Priority is not a number"
			if (!seen["Name"] || v["Name"] == "") print "no Name"
			if (seen["Session-Interactive-Only"]) print "interactive only: noninteractive sessions would miss it"
			gsub(/[ \t]+/, " ", session); sub(/^ /, "", session)
			if (session != "optional pam_memlock.so") print "Session is \"" session "\""
		}' "$profile")
	[ -z "$bad" ] && return 0
	echo "$bad" | sed 's/^/# /'
	return 1
}
check "the profile has the fields pam-auth-update needs and no comments" \
	profile_is_well_formed

command -v pam-auth-update >/dev/null 2>&1 ||
	skip_rest "pam-auth-update is not installed (not Debian or Ubuntu)"
[ -f /usr/share/pam/common-session ] ||
	skip_rest "no pristine templates in /usr/share/pam"
for dir in /etc/pam.d /usr/share/pam-configs /var/lib/pam /var/cache/debconf; do
	[ -d "$dir" ] || skip_rest "$dir is missing"
done
unshare -m --propagation private true 2>/dev/null ||
	skip_rest "unshare -m is not permitted here"

scratch=$(mktemp -d /tmp/pml-pam-auth-update-XXXXXX)
trap 'rm -rf "$scratch"' EXIT
machine_sums() {
	find /etc/pam.d /var/lib/pam /var/cache/debconf -maxdepth 1 -type f \
		-exec md5sum {} + 2>/dev/null | sort
}
machine_before=$(machine_sums)

# A fresh root: the pristine common-* templates, this machine's profiles
# plus ours, no saved state and an empty debconf database.
new_root() {
	root=$scratch/$1
	mkdir -p "$root/pam.d" "$root/configs" "$root/lib" "$root/debconf"
	cp /usr/share/pam/common-auth /usr/share/pam/common-account \
		/usr/share/pam/common-password /usr/share/pam/common-session \
		/usr/share/pam/common-session-noninteractive "$root/pam.d/"
	cp /usr/share/pam-configs/* "$root/configs/" 2>/dev/null
	rm -f "$root/configs/memlock"
}

# pam-auth-update ARGS... with $root bound over the real directories.
sandboxed() {
	unshare -m --propagation private sh -c '
		root=$1; shift
		mount --bind "$root/pam.d" /etc/pam.d &&
		mount --bind "$root/configs" /usr/share/pam-configs &&
		mount --bind "$root/lib" /var/lib/pam &&
		mount --bind "$root/debconf" /var/cache/debconf &&
		DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
			pam-auth-update "$@" </dev/null' sh "$root" "$@" \
		>"$root/log" 2>&1
}

# The line number of the first stack line (not a comment) naming MODULE.
line_of() {
	awk -v m="$2" '!/^[ \t]*#/ && index($0, m) { print NR; exit }' "$1"
}

# pam_memlock is in FILE, and is the last line of the managed
# "Additional" block, after pam_limits wherever that stands before it.
memlock_is_last() {
	local file=$1 mine limits last
	mine=$(line_of "$file" pam_memlock.so)
	last=$(awk '/^# end of pam-auth-update config/ { exit }
		/^[a-z-]+[ \t]/ { n = NR } END { print n }' "$file")
	limits=$(line_of "$file" pam_limits.so)
	if [ -z "$mine" ]; then
		echo "# $file: no pam_memlock line"
		return 1
	fi
	if [ "$mine" != "$last" ]; then
		echo "# $file: pam_memlock is line $mine, the block ends at $last"
		return 1
	fi
	if [ -n "$limits" ] && [ "$limits" -gt "$mine" ]; then
		echo "# $file: pam_limits (line $limits) comes after pam_memlock"
		return 1
	fi
	return 0
}
both_have_memlock_last() {
	memlock_is_last "$root/pam.d/common-session" &&
		memlock_is_last "$root/pam.d/common-session-noninteractive"
}
show_log_on_failure() {
	"$@" && return 0
	sed 's/^/# /' "$root/log" 2>/dev/null
	return 1
}

# 2. A package install on a configured machine: the stack is set up
# without the profile, then the profile arrives and the postinst runs
# `pam-auth-update --package`.  Default: yes enables it.
new_root upgrade
sandboxed --force && cp "$profile" "$root/configs/memlock" &&
	sandboxed --package
check "installing the profile adds pam_memlock last in both session stacks" \
	show_log_on_failure both_have_memlock_last

# 3. The README's way: pam-auth-update --enable memlock.
new_root enable
sandboxed --force && cp "$profile" "$root/configs/memlock" &&
	sandboxed --enable memlock
check "pam-auth-update --enable memlock adds it to both session stacks" \
	show_log_on_failure both_have_memlock_last

# 4. --disable takes it out again and leaves the rest of the stack alone.
disabled() {
	local f rest_before rest_after
	for f in common-session common-session-noninteractive; do
		grep -q pam_memlock.so "$root/pam.d/$f" && return 1
		rest_before=$(grep -v pam_memlock.so "$scratch/enabled-$f")
		rest_after=$(cat "$root/pam.d/$f")
		[ "$rest_before" = "$rest_after" ] || return 1
	done
	return 0
}
cp "$root/pam.d/common-session" "$scratch/enabled-common-session"
cp "$root/pam.d/common-session-noninteractive" \
	"$scratch/enabled-common-session-noninteractive"
sandboxed --disable memlock
check "pam-auth-update --disable memlock removes only its line" \
	show_log_on_failure disabled

# 4b. Default: yes means any package's later pam-auth-update run enables a
# profile nobody chose yet (case 2); one the admin disabled stays disabled
# when another package's postinst runs it.
sandboxed --package
check "a later pam-auth-update --package (another package) keeps it disabled" \
	show_log_on_failure disabled

# 5. pam_limits as a profile of its own.  Debian ships none (pam_limits is
# listed in login, su, sshd and cron directly), but one at any priority of
# 0 or more, whatever its name, must end up before pam_memlock.
new_root limits-profile
printf '%s\n' 'Name: Resource limits from limits.conf' 'Default: yes' \
	'Priority: 0' 'Session-Type: Additional' 'Session:' \
	'	required	pam_limits.so' >"$root/configs/limits"
cp "$profile" "$root/configs/memlock"
sandboxed --force
check "a pam_limits profile of priority 0 comes before pam_memlock" \
	show_log_on_failure both_have_memlock_last

# 6. pam_limits added by hand above the managed block (where the file's own
# header tells the administrator to put local modules) stays above.
new_root limits-local
sandboxed --force
for f in common-session common-session-noninteractive; do
	sed -i '0,/^# here are the per-package modules/s//session\trequired\tpam_limits.so\n&/' \
		"$root/pam.d/$f"
done
cp "$profile" "$root/configs/memlock"
sandboxed --package
check "a local pam_limits line above the block stays before pam_memlock" \
	show_log_on_failure both_have_memlock_last

# 7. What the module line looks like once written out.
written_line() {
	grep -qx 'session[[:space:]]\{1,\}optional[[:space:]]\{1,\}pam_memlock\.so[[:space:]]*' \
		"$root/pam.d/common-session"
}
check "the written line is exactly 'session optional pam_memlock.so'" \
	show_log_on_failure written_line

# 8. None of it reached the machine.
machine_after=$(machine_sums)
if [ "$machine_before" = "$machine_after" ]; then
	ok "the machine's /etc/pam.d, /var/lib/pam and debconf are untouched"
else
	not_ok "the machine's /etc/pam.d, /var/lib/pam and debconf are untouched" \
		"$(diff <(echo "$machine_before") <(echo "$machine_after"))"
fi
