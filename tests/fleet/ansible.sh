#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: doc/ansible/memlock-rollout.yml, the README's playbook,
# run unchanged by Debian's ansible-playbook through community.general's
# chroot connection against a fresh Debian 12 root (.ci/roots names it
# bookworm-ansible), in a private mount and pid namespace.
# The package is not built here: this tree, configured for /usr and /etc,
# goes into the root with make install, and the play runs with
# memlock_install_package=false.  Then:
#   - the play succeeds, and its last task, memlockctl doctor, says ok for
#     every path;
#   - sshd, cron and runuser have the line right after pam_limits;
#   - a second run changes nothing (changed=0);
#   - a drop-in that the policy would refuse fails the play at validate,
#     and the file in place stays as it was.
# Skipped, with the reason, without ansible-playbook, community.general's
# chroot connection, mmdebstrap or a root.  Prints TAP.
#
# Debian 13 is not run: its libconfig differs, so this tree would have to
# be built inside the root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PML_BUILDDIR:?run through make check-fleet}" "${PML_SRCDIR:?}"
root_lib=$here/../../.ci/root.sh
playbook=$PML_SRCDIR/doc/ansible/memlock-rollout.yml
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; [ $# -lt 2 ] || tail -n 40 "$2" | sed 's/^/# /'; }
# CONDITION; verdict NAME [FILE]: one TAP line from the condition's status.
verdict() {
	# shellcheck disable=SC2181
	if [ $? = 0 ]; then ok "$1"; else not_ok "$@"; fi
}

unrunnable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (chroot, a root made by mmdebstrap)"
	elif ! command -v ansible-playbook >/dev/null; then
		echo "ansible-playbook is not installed (Debian package ansible)"
	elif ! ansible-doc -t connection community.general.chroot >/dev/null 2>&1; then
		echo "community.general's chroot connection is missing (Debian package ansible)"
	elif [ ! -f "$root_lib" ]; then
		echo "$root_lib is missing (a dist tree has no .ci)"
	fi
}
why=$(unrunnable)
[ -z "$why" ] || { echo "1..0 # SKIP $why"; exit 0; }

# shellcheck source=../../.ci/root.sh
. "$root_lib"
: "${PML_ROOT_CACHE:=/var/cache/pml-roots}"
export PML_ROOT_CACHE
mkdir -p "$PML_ROOT_CACHE"
root_enter "$0" "$@"

w=$ROOT_WORK
root=$w/bookworm
if ! root_named "$root" bookworm-ansible 2>"$w/root.err"; then
	echo "1..0 # SKIP no Debian 12 root: $(tail -n 1 "$w/root.err")"
	exit 0
fi
multiarch=$(root_run "$root" dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	gcc -print-multiarch)

# This tree as Debian 12 lays it out: built from make distdir (the tree may
# be configured in place), installed into the root.
if "${PML_MAKE:-make}" -C "$PML_BUILDDIR" distdir distdir="$w/src" >"$w/build.log" 2>&1 &&
	mkdir "$w/build" && (cd "$w/build" &&
		"$w/src/configure" -q --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
			--with-pammoddir="/lib/$multiarch/security" &&
		"${PML_MAKE:-make}" -s -j2 &&
		"${PML_MAKE:-make}" -s install DESTDIR="$root") >>"$w/build.log" 2>&1; then
	ok "this tree built for /usr and /etc, installed into the Debian 12 root"
else
	not_ok "this tree built for /usr and /etc, installed into the Debian 12 root" "$w/build.log"
	echo "1..$n"
	exit 1
fi

export ANSIBLE_HOME=$w/ansible ANSIBLE_LOCAL_TEMP=$w/ansible/tmp ANSIBLE_NOCOLOR=1 \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
	ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_LOAD_CALLBACK_PLUGINS=0
# play LOG SITE-CONF: the playbook against the root, its output in LOG.
play() {
	ansible-playbook -c community.general.chroot -i "$root," "$playbook" \
		-e memlock_install_package=false -e memlock_site_conf="$2" >"$1" 2>&1
}
# recap LOG CHANGED FAILED: the play's one host changed CHANGED tasks and
# failed FAILED.
recap() {
	grep -Eq "^$root +: ok=[0-9]+ +changed=$2 +unreachable=0 +failed=$3 " "$1"
}

printf '# the site: 16 MiB for everyone\nlimit = "16 MiB";\n' >"$w/site.conf"
play "$w/run1.log" "$w/site.conf" && recap "$w/run1.log" '[1-9][0-9]*' 0 &&
	cmp -s "$w/site.conf" "$root/etc/security/memlock.d/50-site.conf"
verdict "the play converges the root: drop-in in place, every task ok" "$w/run1.log"

root_run "$root" memlockctl doctor >"$w/doctor" 2>&1 &&
	[ "$(grep -Ec '^(sshd|cron|runuser): ok$' "$w/doctor")" = 3 ] &&
	! grep -Eq '^[^ ]+: (missing|overridden|error)' "$w/doctor"
verdict "memlockctl doctor in the root: ok for every path, sshd, cron and runuser among them" \
	"$w/doctor"

for f in sshd cron runuser; do
	awk 'prev ~ /^session[ \t]+required[ \t]+pam_limits\.so/ &&
		$0 ~ /^session[ \t]+optional[ \t]+pam_memlock\.so/ { found = 1 }
		{ prev = $0 } END { exit !found }' "$root/etc/pam.d/$f"
	verdict "/etc/pam.d/$f: pam_memlock.so right after pam_limits.so" "$root/etc/pam.d/$f"
done
grep -q pam_memlock "$root/etc/pam.d/common-session" &&
	grep -q pam_memlock "$root/etc/pam.d/common-session-noninteractive"
verdict "step 1: common-session and common-session-noninteractive have the module" \
	"$root/etc/pam.d/common-session"

play "$w/run2.log" "$w/site.conf" && recap "$w/run2.log" 0 0
verdict "a second run changes nothing (changed=0)" "$w/run2.log"

# Valid alone, refused with the policy it joins: a ceiling below the floor
# an earlier drop-in set.
printf 'floor = "1 GiB";\n' >"$root/etc/security/memlock.d/40-floor.conf"
printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$w/bad.conf"
cp -p "$root/etc/security/memlock.d/50-site.conf" "$w/before.conf"
! play "$w/run3.log" "$w/bad.conf" && recap "$w/run3.log" '[0-9]+' 1 &&
	grep -q 'failed to validate' "$w/run3.log" &&
	cmp -s "$w/before.conf" "$root/etc/security/memlock.d/50-site.conf"
verdict "a drop-in the policy would refuse fails validate; the file in place stays" "$w/run3.log"
echo "1..$n"
