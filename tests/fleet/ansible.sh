#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: doc/ansible/memlock-rollout.yml, the README's playbook,
# run unchanged by Debian's ansible-playbook (this machine's) through
# community.general's chroot connection against fresh Debian 12 and 13
# roots (.ci/roots: bookworm-ansible, trixie-ansible), in a private mount
# and pid namespace.  The package is not built here: this tree, configured
# for /usr and /etc, goes into each root with make install (built on this
# machine for Debian 12, inside the root for Debian 13, whose libconfig
# differs), and the play runs with memlock_install_package=false.  Then,
# for each release:
#   - the play succeeds, and its last task, memlockctl doctor, says ok for
#     every path;
#   - sshd, cron and runuser have the line right after pam_limits, and the
#     common stacks have it;
#   - a second run changes nothing (changed=0);
#   - a drop-in that the policy would refuse fails the play at validate,
#     and the file in place stays as it was.
# Skipped, with the reason, without ansible-playbook, community.general's
# chroot connection, mmdebstrap or a root.  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PML_BUILDDIR:?run through make check-fleet}" "${PML_SRCDIR:?}"
root_lib=$here/../../.ci/root.sh
playbook=$PML_SRCDIR/doc/ansible/memlock-rollout.yml
. "${PML_SRCDIR:?run with make check}/tests/tap.sh"

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

export ANSIBLE_HOME=$ROOT_WORK/ansible ANSIBLE_LOCAL_TEMP=$ROOT_WORK/ansible/tmp \
	ANSIBLE_NOCOLOR=1 ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_PYTHON_INTERPRETER=/usr/bin/python3 \
	ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_LOAD_CALLBACK_PLUGINS=0 \
	ANSIBLE_DEPRECATION_WARNINGS=0
src=$ROOT_WORK/src
"${PML_MAKE:-make}" -C "$PML_BUILDDIR" distdir distdir="$src" >/dev/null 2>&1 ||
	{ echo "Bail out! make distdir failed"; exit 1; }

# install_here ROOT MODDIR LOG: this tree, built on this machine (of the
# root's own release) for /usr and /etc, installed into ROOT.
install_here() {
	local b=$ROOT_WORK/build-here
	mkdir "$b" && (cd "$b" &&
		"$src/configure" -q --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
			--with-pammoddir="$2" &&
		"${PML_MAKE:-make}" -s -j2 &&
		"${PML_MAKE:-make}" -s install DESTDIR="$1") >"$3" 2>&1
}
# install_inside ROOT MODDIR LOG: built in ROOT with its own compiler,
# libpam and libconfig, then installed there; what make install wrote is
# kept in $PML_ROOT_CACHE until the sources change (a build in a busy
# chroot takes minutes).
install_inside() {
	local root=$1 cached
	cached=$PML_ROOT_CACHE/$(basename "$(dirname "$root")")-install-$(cd "$src" && find . -type f |
		LC_ALL=C sort | xargs cat | md5sum | cut -c1-16).tar
	if [ ! -s "$cached" ]; then
		cp -a "$src" "$root/build" &&
			root_run "$root" sh -c "cd /build && ./configure -q --prefix=/usr --sysconfdir=/etc \
				--localstatedir=/var --with-pammoddir='$2' && make -s -j2 &&
				make -s install DESTDIR=/staged" >"$3" 2>&1 &&
			tar -C "$root/staged" -cf "$cached.part" . && mv "$cached.part" "$cached" || return 1
	fi
	tar -C "$root" --keep-directory-symlink -xf "$cached" >>"$3" 2>&1
}

# converge RELEASE ROOT-NAME INSTALLER: the cases against a fresh root of
# .ci/roots' ROOT-NAME, with this tree put there by INSTALLER.
converge() {
	local rel=$1 w=$ROOT_WORK/$2 root=$ROOT_WORK/$2/root moddir
	mkdir -p "$w"
	if ! root_named "$root" "$2" 2>"$w/root.err"; then
		skip "$rel: every case" "no $rel root: $(tail -n 1 "$w/root.err")"
		return
	fi
	rel="$rel ($(cat "$root/etc/debian_version"))"
	# Where the root's libpam reads modules: beside its pam_unix.so.
	moddir=$(root_run "$root" dpkg -L libpam-modules | sed -n 's|/pam_unix\.so$||p')
	if ! "$3" "$root" "$moddir" "$w/build.log"; then
		not_ok "$rel: this tree built for /usr and /etc, installed into the root" "$(tail -n 40 "$w/build.log")"
		return
	fi
	ok "$rel: this tree built for /usr and /etc, installed into the root ($moddir)"

	# play LOG SITE-CONF: the playbook against the root, its output in LOG.
	play() {
		ansible-playbook -c community.general.chroot -i "$root," "$playbook" \
			-e memlock_install_package=false -e memlock_site_conf="$2" >"$1" 2>&1
	}
	# recap LOG CHANGED FAILED: the play's one host changed CHANGED tasks
	# and failed FAILED.
	recap() {
		grep -Eq "^$root +: ok=[0-9]+ +changed=$2 +unreachable=0 +failed=$3 " "$1"
	}

	printf '# the site: 16 MiB for everyone\nlimit = "16 MiB";\n' >"$w/site.conf"
	play "$w/run1.log" "$w/site.conf" && recap "$w/run1.log" '[1-9][0-9]*' 0 &&
		cmp -s "$w/site.conf" "$root/etc/security/memlock.d/50-site.conf"
	verdict "$rel: the play converges the root: drop-in in place, every task ok" "$w/run1.log"

	root_run "$root" memlockctl doctor >"$w/doctor" 2>&1 &&
		[ "$(grep -Ec '^(sshd|cron|runuser): ok$' "$w/doctor")" = 3 ] &&
		! grep -Eq '^[^ ]+: (missing|overridden|error)' "$w/doctor"
	verdict "$rel: memlockctl doctor in the root: ok for every path, sshd, cron and runuser among them" \
		"$w/doctor"

	for f in sshd cron runuser; do
		awk 'prev ~ /^session[ \t]+required[ \t]+pam_limits\.so/ &&
			$0 ~ /^session[ \t]+optional[ \t]+pam_memlock\.so/ { found = 1 }
			{ prev = $0 } END { exit !found }' "$root/etc/pam.d/$f"
		verdict "$rel: /etc/pam.d/$f: pam_memlock.so right after pam_limits.so" "$root/etc/pam.d/$f"
	done
	grep -q pam_memlock "$root/etc/pam.d/common-session" &&
		grep -q pam_memlock "$root/etc/pam.d/common-session-noninteractive"
	verdict "$rel: step 1: common-session and common-session-noninteractive have the module" \
		"$root/etc/pam.d/common-session"

	play "$w/run2.log" "$w/site.conf" && recap "$w/run2.log" 0 0
	verdict "$rel: a second run changes nothing (changed=0)" "$w/run2.log"

	# Valid alone, refused with the policy it joins: a ceiling below the
	# floor an earlier drop-in set.
	printf 'floor = "1 GiB";\n' >"$root/etc/security/memlock.d/40-floor.conf"
	printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$w/bad.conf"
	cp -p "$root/etc/security/memlock.d/50-site.conf" "$w/before.conf"
	! play "$w/run3.log" "$w/bad.conf" && recap "$w/run3.log" '[0-9]+' 1 &&
		grep -q 'failed to validate' "$w/run3.log" &&
		cmp -s "$w/before.conf" "$root/etc/security/memlock.d/50-site.conf"
	verdict "$rel: a drop-in the policy would refuse fails validate; the file in place stays" \
		"$w/run3.log"
}

# Built here for the release this machine runs; in the root for the other
# (a build for Debian 13's glibc does not run on Debian 12).
this=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
installer() { if [ "$1" = "$this" ]; then echo install_here; else echo install_inside; fi; }
converge "Debian 12" bookworm-ansible "$(installer bookworm)"
converge "Debian 13" trixie-ansible "$(installer trixie)"
echo "1..$n"
