#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-directory: tests/directory/test_directory against a real directory.
#
# Runs itself again in new mount and network namespaces (unshare -m -n),
# brings up loopback, and there:
#   - generates 20,000 users and 5,000 groups (gen-ldif.py) and loads them
#     with slapadd into an mdb database in a private directory;
#   - starts Debian's slapd on ldap://127.0.0.1/ (this namespace's
#     loopback: nothing outside can reach it) with a private slapd.conf;
#   - mounts a tmpfs over /run (nslcd's socket is /run/nslcd/socket) and
#     binds a private nsswitch.conf and nslcd.conf over /etc's, in this
#     namespace only: the machine's files are never written or read by
#     the sessions;
#   - starts nslcd, checks that getent sees a directory user, and runs
#     tests/directory/test_directory, whose TAP is this script's output.
# Skips, with the reason, where slapd or nslcd is missing or cannot start.
set -u

srcdir=${PML_SRCDIR:?run with make check-directory}
builddir=${PML_BUILDDIR:?run with make check-directory}
here=$srcdir/tests/directory

# nslcd gives up on an unreachable or silent server after these; the
# sessions are held to their sum plus 1 s (test_directory.c).
TIMELIMIT=2		# the longest wait for a search result
BIND_TIMELIMIT=2	# the longest wait to connect and bind
RECONNECT_SLEEP=1	# after a failed connection, before the next try
RECONNECT_RETRY=2	# then failing at once until this has passed
NSS_BOUND=$((TIMELIMIT + BIND_TIMELIMIT))

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

if [ -z "${PML_DIRECTORY_INSIDE:-}" ]; then
	[ "$(id -u)" = 0 ] || skip_all "needs root (namespaces, bind mounts, slapd)"
	for bin in /usr/sbin/slapd /usr/sbin/slapadd /usr/sbin/nslcd /usr/bin/getent; do
		[ -x "$bin" ] || skip_all "$bin is missing (apt-get install slapd nslcd libnss-ldapd)"
	done
	libnss=$(ldconfig -p 2>/dev/null | awk '/libnss_ldap\.so\.2/ { print $NF; exit }')
	[ -n "$libnss" ] || skip_all "libnss_ldap.so.2 (libnss-ldapd) is missing"
	command -v "${PML_PYTHON:-python3}" >/dev/null || skip_all "python3 is missing (gen-ldif.py)"
	[ -f /etc/ldap/schema/nis.schema ] || skip_all "slapd's schema files are missing"
	unshare -m -n true 2>/dev/null || skip_all "unshare -m -n is not permitted here"
	PML_DIRECTORY_INSIDE=1 exec unshare -m -n -- "$0" "$@"
	skip_all "cannot run unshare"
fi

work=$(mktemp -d /tmp/pml-directory-XXXXXX) || skip_all "mktemp failed"
slapd_pid= nslcd_pid=
cleanup() {
	[ -n "$nslcd_pid" ] && kill "$nslcd_pid" 2>/dev/null
	if [ -f "$work/slapd.pid" ]; then
		kill -CONT "$(cat "$work/slapd.pid")" 2>/dev/null
		kill "$(cat "$work/slapd.pid")" 2>/dev/null
	fi
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT

fail_setup() {
	echo "# $1" >&2
	[ -f "$2" ] && sed 's/^/# /' "$2" >&2
	skip_all "$1"
}

mount --make-rprivate / || fail_setup "mount --make-rprivate / failed"
ip link set lo up 2>/dev/null || fail_setup "cannot bring up lo in the new network namespace"

mkdir -p "$work/db" "$work/run"
cat >"$work/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile $work/slapd.pid
argsfile $work/slapd.args
sizelimit unlimited
database mdb
maxsize 1073741824
suffix "dc=pml,dc=test"
rootdn "cn=admin,dc=pml,dc=test"
rootpw pml-test-only
directory $work/db
index objectClass eq
index uid,uidNumber,gidNumber,memberUid,cn eq
EOF
t0=$(date +%s.%N)
"${PML_PYTHON:-python3}" "$here/gen-ldif.py" >"$work/data.ldif" || fail_setup "gen-ldif.py failed"
/usr/sbin/slapadd -q -f "$work/slapd.conf" -l "$work/data.ldif" >"$work/slapadd.log" 2>&1 ||
	fail_setup "slapadd could not load the directory" "$work/slapadd.log"
rm -f "$work/data.ldif"
t1=$(date +%s.%N)
echo "# loaded 20,000 users and 5,001 groups in $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s" >&2

# slapd in the foreground (-d 0), so that it writes its pid and stays ours.
cat >"$work/start-slapd" <<EOF
#!/bin/bash
rm -f "$work/slapd.pid"
# setsid: check kills each test's process group when the test ends, and
# test_directory restarts slapd from inside a test.
setsid /usr/sbin/slapd -f "$work/slapd.conf" -h ldap://127.0.0.1:389/ -d 0 >>"$work/slapd.log" 2>&1 &
i=0
while [ \$i -lt 100 ]; do
	[ -s "$work/slapd.pid" ] && exec 3<>/dev/tcp/127.0.0.1/389 2>/dev/null && exit 0
	sleep 0.1
	i=\$((i + 1))
done
echo "slapd did not start" >&2
exit 1
EOF
chmod 0755 "$work/start-slapd"
"$work/start-slapd" || fail_setup "slapd could not start" "$work/slapd.log"

cat >"$work/nsswitch.conf" <<EOF
passwd: files ldap
group: files ldap
shadow: files
EOF
cat >"$work/nslcd.conf" <<EOF
uri ldap://127.0.0.1/
base dc=pml,dc=test
timelimit $TIMELIMIT
bind_timelimit $BIND_TIMELIMIT
reconnect_sleeptime $RECONNECT_SLEEP
reconnect_retrytime $RECONNECT_RETRY
EOF
chmod 0600 "$work/nslcd.conf"
mount -t tmpfs -o mode=0755 pml-run /run && mkdir -p /run/nslcd &&
	mount --bind "$work/nsswitch.conf" /etc/nsswitch.conf &&
	mount --bind "$work/nslcd.conf" /etc/nslcd.conf ||
	fail_setup "cannot mount the private /run, nsswitch.conf or nslcd.conf"

/usr/sbin/nslcd -n >"$work/nslcd.log" 2>&1 &
nslcd_pid=$!
for _ in $(seq 50); do
	[ -S /run/nslcd/socket ] && break
	sleep 0.1
done
[ -S /run/nslcd/socket ] || fail_setup "nslcd did not start" "$work/nslcd.log"
getent passwd pmlu00001 >/dev/null ||
	fail_setup "getent passwd pmlu00001 finds nothing through nslcd" "$work/nslcd.log"

PML_SLAPD_PIDFILE=$work/slapd.pid PML_SLAPD_START=$work/start-slapd \
	PML_NSS_BOUND=$NSS_BOUND "$builddir/tests/directory/test_directory"
