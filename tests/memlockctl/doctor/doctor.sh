#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor on hand-written roots: tests/data/doctor/root holds one
# PAM service per case (the name says which), a policy, limits files and a
# systemd unit with a drop-in.  It is copied to a private directory (the
# policy must be root's and writable by nobody else), two generated cases
# are added (a 1,000-line stack, garbage bytes), and doctor runs with --root.
# Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
data=${PML_TESTDATA:?run with make check}/doctor
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

work=$(mktemp -d /tmp/pml-doctor-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
root=$work/root
cp -R "$data/root" "$root" &&
find "$root" -type f -exec chmod 0644 {} + &&
find "$root" -type d -exec chmod 0755 {} + || exit 99

# A 1,000-line stack, and a file of garbage bytes that a service includes
# (in the service's own file libpam would make the garbage an auth line).
{
	for i in $(seq 999); do echo "session optional pam_permit.so"; done
	echo "session optional pam_memlock.so"
} >"$root/etc/pam.d/thousand"
printf 'session optional pam_memlock.so\n\001\033[31m\377\376 garbage\000more\n' \
	>"$root/etc/pam.d/garbage-block"
echo "session include garbage-block" >"$root/etc/pam.d/garbage"

# doctor ARGS...: output in $work/out, $work/err, status in $status.
doctor() {
	timeout 20 "$ctl" doctor --root "$root" --conf /etc/security/memlock.conf "$@" \
		>"$work/out" 2>"$work/err"
	status=$?
}

# field SERVICE EXPR: a Python expression over path p of the last JSON.
field() {
	"${PML_PYTHON:-python3}" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
p = [x for x in doc["paths"] if x["service"] == sys.argv[2]][0]
print(eval(sys.argv[3]))' "$work/out" "$1" "$2" 2>&1
}

# expect NAME SERVICE EXPR WANT
expect() {
	local got
	got=$(field "$2" "$3")
	if [ "$got" = "$4" ]; then ok "$1"; else not_ok "$1" "want: $4" "got:  $got"; fi
}

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy files must be owned by root: run make check as root"
	exit 0
fi
echo "1..28"

doctor --json --service ok-after-limits --service missing --service sshd \
	--service error-module --service dash-module --service jump-over-limits \
	--service substack-jump --service include-jump --service include-missing \
	--service loop-a --service dry-run --service bad-policy --service thousand \
	--service garbage --service no-such-service
[ "$status" = 1 ] && ok "exit 1 when a path is not ok" ||
	not_ok "exit 1 when a path is not ok" "status $status" "$(cat "$work/err")"

expect "ok: pam_limits before the module" ok-after-limits 'p["verdict"]' ok
expect "ok: the predicted values are the policy's" ok-after-limits '(p["soft"], p["hard"])' "(8388608, 8388608)"
expect "missing: the fix goes right after pam_limits" missing 'p["verdict"], p["fix"]' \
	"('missing', 'add \"session optional pam_memlock.so\" to /etc/pam.d/missing, right after line 2 (pam_limits)')"
expect "overridden: pam_limits after the module, named at file:line" sshd 'p["verdict"], p["fix"]' \
	"('overridden', 'add \"session optional pam_memlock.so\" to /etc/pam.d/sshd, right after line 2 (pam_limits)')"
expect "the start is the unit's drop-in" sshd '(p["unit"], p["steps"][0]["file"], p["steps"][0]["line"], p["steps"][0]["soft"], p["steps"][0]["hard"])' \
	"('ssh.service', '/etc/systemd/system/ssh.service.d/10-memlock.conf', 2, 1048576, 2097152)"
expect "without a user, a line that names users is reported as such" sshd 'p["depends_on_user"]' True
expect "error: a module that is not found, at file:line" error-module '(p["verdict"], p["problem"]["file"], p["problem"]["line"])' \
	"('error', '/etc/pam.d/error-module', 2)"
expect "a missing module with the - prefix is no error" dash-module 'p["verdict"]' ok
expect "a success=1 jump passes over pam_limits" jump-over-limits '(p["verdict"], [s["effect"][:13] for s in p["steps"] if s["module"] == "pam_limits"])' \
	"('ok', ['does not run:'])"
expect "a jump cannot leave its substack" substack-jump 'p["verdict"]' error
expect "the same jump through include skips the module" include-jump 'p["verdict"]' missing
expect "a missing include is an error at its line" include-missing '(p["verdict"], p["problem"]["file"], p["problem"]["line"])' \
	"('error', '/etc/pam.d/include-missing', 1)"
expect "an include loop is an error (libpam 1.6: 16 nested includes)" loop-a '(p["verdict"], "16 nested" in p["problem"]["message"])' "('error', True)"
expect "a dry_run module does not count" dry-run '(p["verdict"], p["fix"])' \
	"('missing', 'remove dry_run from /etc/pam.d/dry-run line 1')"
expect "an invalid policy is an error at the policy's line" bad-policy '(p["verdict"], p["problem"]["file"], p["problem"]["line"])' \
	"('error', '/etc/security/broken.conf', 2)"
expect "a 1,000-line stack" thousand '(p["verdict"], p["steps"][-1]["line"])' "('ok', 1000)"
expect "garbage bytes are an error at their line" garbage '(p["verdict"], p["problem"]["file"], p["problem"]["line"])' "('error', '/etc/pam.d/garbage-block', 2)"
expect "a service without a file falls back to other" no-such-service '(p["file"], p["verdict"])' \
	"('/etc/pam.d/other', 'missing')"

# Text: one block per path, escaped.
doctor --service garbage --service sshd
if grep -q $'\033' "$work/out" || ! grep -q '^sshd: overridden$' "$work/out" ||
   ! grep -q '^  fix:    add "session optional pam_memlock.so" to /etc/pam.d/sshd, right after line 2 (pam_limits)$' "$work/out"; then
	not_ok "text output: verdict, fix, and no raw control bytes" "$(cat -v "$work/out")"
else
	ok "text output: verdict, fix, and no raw control bytes"
fi

# limits.d precedence for a user: nobody's own soft line beats "*", the
# later "*" in limits.d replaces limits.conf's hard.
doctor --json nobody --service sshd
expect "limits.d precedence for a user" sshd '(p["soft"], p["hard"])' "(2097152, 4194304)"

# The default set: every service with a session stack, not common-session.
doctor --json
got=$("${PML_PYTHON:-python3}" -c 'import json,sys; print(" ".join(p["service"] for p in json.load(open(sys.argv[1]))["paths"]))' "$work/out")
case " $got " in
*" common-session "*) not_ok "the default set leaves building blocks out" "$got" ;;
*" sshd "*" thousand "*) ok "the default set leaves building blocks out" ;;
*) not_ok "the default set leaves building blocks out" "$got" ;;
esac

# systemd-user: the user manager's DefaultLimitMEMLOCK= is the last layer,
# but the manager (the user, no CAP_SYS_RESOURCE) cannot raise its hard
# limit; above it, its services keep the session's limit (check-vm measures
# 256 MiB for services under a DefaultLimitMEMLOCK=1G), below it, they get
# it.  Generated after the default set above, which it would join.
cp "$root/etc/pam.d/ok-after-limits" "$root/etc/pam.d/systemd-user"
mkdir -p "$root/etc/systemd"
printf '[Manager]\nDefaultLimitMEMLOCK=1G\n' >"$root/etc/systemd/user.conf"
doctor --json --service systemd-user
expect "user.conf above the session's hard limit: no override, the session's values" systemd-user \
	'(p["verdict"], p["soft"], p["hard"])' "('ok', 8388608, 8388608)"
printf '[Manager]\nDefaultLimitMEMLOCK=64K\n' >"$root/etc/systemd/user.conf"
doctor --json --service systemd-user
expect "user.conf below the session's: overridden, its value" systemd-user \
	'(p["verdict"], p["soft"], p["hard"], p["fix"][:40])' \
	"('overridden', 65536, 65536, 'remove DefaultLimitMEMLOCK= from /etc/sy')"
rm -f "$root/etc/pam.d/systemd-user" "$root/etc/systemd/user.conf"

# systemd-run0: run0's transient run-u<N>.service has no unit file; it
# starts from the manager's DefaultLimitMEMLOCK (measured in the Debian 13
# VM), or from a drop-in for the run- prefix.
cp "$root/etc/pam.d/ok-after-limits" "$root/etc/pam.d/systemd-run0"
printf '[Manager]\nDefaultLimitMEMLOCK=64K\n' >"$root/etc/systemd/system.conf"
doctor --json --service systemd-run0
expect "systemd-run0 starts from the manager's default: run-.service, 64 KiB" systemd-run0 \
	'(p["unit"], p["steps"][0]["soft"], "manager default" in p["steps"][0]["effect"])' \
	"('run-.service', 65536, True)"
mkdir -p "$root/etc/systemd/system/run-.service.d"
printf '[Service]\nLimitMEMLOCK=1M\n' >"$root/etc/systemd/system/run-.service.d/memlock.conf"
doctor --json --service systemd-run0
expect "systemd-run0: a run-.service.d drop-in wins over the manager's default" systemd-run0 \
	'(p["steps"][0]["soft"], p["steps"][0]["line"])' "(1048576, 2)"
rm -rf "$root/etc/pam.d/systemd-run0" "$root/etc/systemd/system.conf" \
	"$root/etc/systemd/system/run-.service.d"

# Usage errors exit 2.
"$ctl" doctor --root relative >/dev/null 2>&1
s1=$?
"$ctl" doctor --bogus >/dev/null 2>&1
s2=$?
"$ctl" explain alice --root /x >/dev/null 2>&1
s3=$?
if [ "$s1$s2$s3" = 222 ]; then ok "usage errors exit 2"; else not_ok "usage errors exit 2" "$s1 $s2 $s3"; fi

# Read-only: nothing under the root changed.
if (cd "$data/root" && find . -type f ! -exec cmp -s {} "$root/{}" \; -print | grep -q .); then
	not_ok "doctor wrote nothing under the root"
else
	ok "doctor wrote nothing under the root"
fi
