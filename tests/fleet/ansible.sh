#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: doc/ansible/memlock-rollout.yml and memlock-undo.yml,
# the playbooks the package ships in its examples, run unchanged by
# Debian's ansible-playbook (this machine's) through community.general's
# chroot connection against fresh Debian 12 and 13 roots (.ci/roots:
# bookworm-fleet, trixie-fleet), in a private mount and pid namespace.
# The packages, libpam-memlock and memlockctl built for each release,
# come from a local apt repository in the root (a file: repository made
# with apt-ftparchive), as a fleet's own repository serves them: from
# $PML_FLEET_DEBS/RELEASE/*.deb (.ci/debian-package.sh's PML_DEB_KEEP), or
# built here once with dpkg-buildpackage in the release's build root and
# kept in $PML_ROOT_CACHE until the sources change.  The root is a Slurm
# node (the inventory's group memlock_slurm) with a slurm.conf and
# Debian's slurmd.service.  Then, for each release:
#   - the play installs both packages from the repository and succeeds;
#     its last task, memlockctl doctor, says ok for every path;
#   - step 2 changed exactly one line in each file the release needs
#     (sshd, cron and runuser on Debian 12; runuser only on 13), and left
#     the others byte for byte as they were; the common stacks have the
#     module; /etc/pam.d/slurm is the package's example, and slurm.conf
#     has UsePAM=1 and PropagateResourceLimitsExcept=MEMLOCK;
#   - a second run changes nothing (changed=0);
#   - a drop-in that the policy would refuse fails the play at validate,
#     and the file in place stays as it was;
#   - when doctor finds a path not ok, the play fails with the verdicts,
#     fixes and summary as lines of their own, not as one JSON string;
#   - the undo refuses to remove the packages while another stack names
#     the module, and says which;
#   - the undo leaves /etc/pam.d/sshd, cron and runuser byte for byte as
#     before the play and as dpkg recorded the packages' conffiles, the
#     slurm stack gone and slurm.conf as it was, both packages purged; a
#     second undo changes nothing.
# tests/fleet/ansible.sh RELEASE... runs only those (bookworm, trixie).
# Skipped, with the reason, without ansible-playbook, community.general's
# chroot connection, mmdebstrap or a root.  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PML_BUILDDIR:?run through make check-fleet}" "${PML_SRCDIR:?}"
root_lib=$here/../../.ci/root.sh
playbook=$PML_SRCDIR/doc/ansible/memlock-rollout.yml
undo=$PML_SRCDIR/doc/ansible/memlock-undo.yml
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

unrunnable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (chroot, a root made by mmdebstrap)"
	elif ! command -v ansible-playbook >/dev/null; then
		echo "ansible-playbook is not installed (Debian package ansible)"
	elif ! ansible-doc -t connection community.general.chroot >/dev/null 2>&1; then
		echo "community.general's chroot connection is missing (Debian package ansible)"
	elif [ ! -f "$root_lib" ]; then
		echo "$root_lib is missing (a dist tree has no .ci)"
	elif [ ! -d "$PML_SRCDIR/debian" ]; then
		echo "$PML_SRCDIR/debian is missing (a dist tree has no debian/ to build the packages with)"
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
"${PML_MAKE:-make}" -C "$PML_BUILDDIR" distdir distdir="$src" >/dev/null 2>&1 &&
	cp -a "$PML_SRCDIR/debian" "$src/" ||
	{ echo "Bail out! make distdir failed"; exit 1; }

# debs RELEASE DIR LOG: the release's libpam-memlock and memlockctl .debs
# into DIR: from $PML_FLEET_DEBS/RELEASE where they are, or built (without the build-time tests,
# which .ci/debian-package.sh runs) in the release's build root, once per
# source tree.
debs() {
	local rel=$1 dir=$2 cached broot
	mkdir -p "$dir"
	if compgen -G "${PML_FLEET_DEBS:-/nonexistent}/$rel/memlockctl_*.deb" >/dev/null; then
		cp "$PML_FLEET_DEBS/$rel"/libpam-memlock_*.deb "$PML_FLEET_DEBS/$rel"/memlockctl_*.deb "$dir/" \
			>"$3" 2>&1
		return
	fi
	cached=$PML_ROOT_CACHE/$rel-fleet-debs-$(cd "$src" && find . -type f | LC_ALL=C sort |
		xargs cat | md5sum | cut -c1-16).tar
	if [ ! -s "$cached" ]; then
		broot=$ROOT_WORK/$rel-build
		root_named "$broot" "$rel-build" >"$3" 2>&1 &&
			cp -a "$src" "$broot/build" &&
			root_run "$broot" sh -c 'cd /build && apt-get build-dep -y -qq . &&
				DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b' >>"$3" 2>&1 &&
			tar -C "$broot" -cf "$cached.part" libpam-memlock_"$version"_"$arch".deb \
				memlockctl_"$version"_"$arch".deb && mv "$cached.part" "$cached" || return 1
	fi
	tar -C "$dir" -xf "$cached"
}
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$src/debian/changelog")
arch=$(dpkg --print-architecture)

# conffile_intact ROOT FILE: FILE is as its package shipped it (the md5sum
# dpkg recorded for the conffile).
conffile_intact() {
	local pkg sum
	pkg=$(root_run "$1" dpkg -S "$2" | cut -d: -f1) &&
		sum=$(root_run "$1" dpkg-query -W -f='${Conffiles}\n' "$pkg" |
			awk -v f="$2" '$1 == f { print $2 }') &&
		[ -n "$sum" ] && [ "$(md5sum <"$1$2" | cut -d' ' -f1)" = "$sum" ]
}
# one_line_added BEFORE AFTER: AFTER is BEFORE with one line more, step 2's,
# right after pam_limits.
one_line_added() {
	[ "$(diff "$1" "$2" | grep '^[<>]')" = '> session    optional   pam_memlock.so' ] &&
		awk 'prev ~ /^session[ \t]+required[ \t]+pam_limits\.so/ &&
			$0 ~ /^session[ \t]+optional[ \t]+pam_memlock\.so/ { found = 1 }
			{ prev = $0 } END { exit !found }' "$2"
}

# converge RELEASE CODENAME: the cases against a fresh root of .ci/roots'
# CODENAME-fleet, the packages from a repository in it.
converge() {
	local rel=$1 w=$ROOT_WORK/$2 root=$ROOT_WORK/$2/root f edited
	mkdir -p "$w"
	if ! root_named "$root" "$2-fleet" 2>"$w/root.err"; then
		skip "$rel: every case" "no $rel root: $(tail -n 1 "$w/root.err")"
		return
	fi
	rel="$rel ($(cat "$root/etc/debian_version"))"
	case $2 in
	bookworm) edited="sshd cron runuser" ;;
	*) edited="runuser" ;;
	esac

	if ! debs "$2" "$root/srv/pml-repo" "$w/debs.log"; then
		not_ok "$rel: libpam-memlock and memlockctl $version built for $2" "$(tail -n 40 "$w/debs.log")"
		return
	fi
	root_run "$root" sh -c 'cd /srv/pml-repo && apt-ftparchive packages . >Packages &&
		apt-ftparchive release . >Release &&
		echo "deb [trusted=yes] file:/srv/pml-repo ./" >/etc/apt/sources.list.d/pml.list &&
		apt-get update -qq' >"$w/repo.log" 2>&1 &&
		root_run "$root" apt-cache policy libpam-memlock memlockctl >>"$w/repo.log" 2>&1 &&
		[ "$(grep -c "file:/srv/pml-repo" "$w/repo.log")" -ge 2 ]
	verdict "$rel: a file: repository in the root (apt-ftparchive) serves libpam-memlock and memlockctl $version" \
		"$w/repo.log" || return

	mkdir -p "$w/before"
	for f in sshd cron runuser; do
		cp -p "$root/etc/pam.d/$f" "$w/before/$f"
		conffile_intact "$root" "/etc/pam.d/$f"
		verdict "$rel: before: /etc/pam.d/$f is as its package shipped it (dpkg's md5sum)"
	done
	# A Slurm node: its slurm.conf, and Debian's slurmd.service (doctor reads
	# its LimitMEMLOCK).
	mkdir -p "$root/etc/slurm" "$root/lib/systemd/system"
	printf 'ClusterName=fleet\nSlurmctldHost=localhost\nProctrackType=proctrack/linuxproc\n' \
		>"$root/etc/slurm/slurm.conf"
	cp -p "$root/etc/slurm/slurm.conf" "$w/before/slurm.conf"
	printf '[Service]\nType=simple\nExecStart=/usr/sbin/slurmd -D\nLimitMEMLOCK=infinity\n' \
		>"$root/lib/systemd/system/slurmd.service"
	printf '[memlock_slurm]\n%s\n' "$root" >"$w/hosts"

	# play PLAYBOOK LOG SITE-CONF [ARG...]: the playbook against the root.
	play() {
		local book=$1 log=$2 site=$3
		shift 3
		ansible-playbook -c community.general.chroot -i "$w/hosts" "$book" \
			-e memlock_site_conf="$site" "$@" >"$log" 2>&1
	}
	# recap LOG CHANGED FAILED: the play's one host changed CHANGED tasks
	# and failed FAILED.
	recap() {
		grep -Eq "^$root +: ok=[0-9]+ +changed=$2 +unreachable=0 +failed=$3 " "$1"
	}

	printf '%s\n' '# the site: 16 MiB for everyone, Slurm jobs too' 'limit = "16 MiB";' \
		'rules = ( { service = "slurm"; limit = "16 MiB"; mode = "set"; } );' >"$w/site.conf"
	play "$playbook" "$w/run1.log" "$w/site.conf" && recap "$w/run1.log" '[1-9][0-9]*' 0 &&
		cmp -s "$w/site.conf" "$root/etc/security/memlock.d/50-site.conf"
	verdict "$rel: the play converges the root: drop-in in place, every task ok" "$w/run1.log"
	root_run "$root" dpkg-query -W -f='${Package} ${Version} ${Status}\n' libpam-memlock memlockctl \
		>"$w/installed" 2>&1
	[ "$(grep -c " $version install ok installed$" "$w/installed")" = 2 ]
	verdict "$rel: both packages installed from the repository: $version" "$w/installed"

	root_run "$root" memlockctl doctor >"$w/doctor" 2>&1 &&
		[ "$(grep -Ec '^(sshd|cron|runuser|slurm): ok$' "$w/doctor")" = 4 ] &&
		! grep -Eq '^[^ ]+: (missing|overridden|error)' "$w/doctor"
	verdict "$rel: memlockctl doctor in the root: ok for every path, sshd, cron, runuser and slurm among them" \
		"$w/doctor"

	for f in sshd cron runuser; do
		case " $edited " in
		*" $f "*)
			one_line_added "$w/before/$f" "$root/etc/pam.d/$f"
			verdict "$rel: step 2 added one line to /etc/pam.d/$f, right after pam_limits, and changed nothing else" \
				"$root/etc/pam.d/$f"
			;;
		*)
			cmp "$w/before/$f" "$root/etc/pam.d/$f"
			verdict "$rel: step 2 left /etc/pam.d/$f as it was (not needed on this release)" \
				"$root/etc/pam.d/$f"
			;;
		esac
	done
	grep -q pam_memlock "$root/etc/pam.d/common-session" &&
		grep -q pam_memlock "$root/etc/pam.d/common-session-noninteractive"
	verdict "$rel: step 1: common-session and common-session-noninteractive have the module" \
		"$root/etc/pam.d/common-session"
	cmp "$root/usr/share/doc/libpam-memlock/examples/pam.d/slurm" "$root/etc/pam.d/slurm" &&
		[ "$(diff "$w/before/slurm.conf" "$root/etc/slurm/slurm.conf" | grep '^[<>]')" = \
			"$(printf '> UsePAM=1\n> PropagateResourceLimitsExcept=MEMLOCK')" ]
	verdict "$rel: Slurm node: /etc/pam.d/slurm is the package's example; slurm.conf got UsePAM=1 and PropagateResourceLimitsExcept=MEMLOCK" \
		"$root/etc/slurm/slurm.conf"
	for f in memlock-rollout.yml memlock-undo.yml; do
		cmp "$PML_SRCDIR/doc/ansible/$f" "$root/usr/share/doc/libpam-memlock/examples/ansible/$f"
		verdict "$rel: the package ships $f in /usr/share/doc/libpam-memlock/examples/ansible"
	done

	play "$playbook" "$w/run2.log" "$w/site.conf" && recap "$w/run2.log" 0 0
	verdict "$rel: a second run changes nothing (changed=0)" "$w/run2.log"

	# Valid alone, refused with the policy it joins: a ceiling below the
	# floor an earlier drop-in set.
	printf 'floor = "1 GiB";\n' >"$root/etc/security/memlock.d/40-floor.conf"
	printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$w/bad.conf"
	cp -p "$root/etc/security/memlock.d/50-site.conf" "$w/before.conf"
	! play "$playbook" "$w/run3.log" "$w/bad.conf" && recap "$w/run3.log" '[0-9]+' 1 &&
		grep -q 'failed to validate' "$w/run3.log" &&
		cmp -s "$w/before.conf" "$root/etc/security/memlock.d/50-site.conf"
	verdict "$rel: a drop-in the policy would refuse fails validate; the file in place stays" \
		"$w/run3.log"
	rm -f "$root/etc/security/memlock.d/40-floor.conf"

	# runuser without step 2: doctor says missing, and the play shows it
	# line by line.
	cp -p "$root/etc/pam.d/runuser" "$w/runuser.done"
	cp -p "$w/before/runuser" "$root/etc/pam.d/runuser"
	! play "$playbook" "$w/run4.log" "$w/site.conf" -e '{"memlock_after_limits": []}' &&
		recap "$w/run4.log" '[0-9]+' 1 &&
		grep -Eq '^ +"runuser: missing",?$' "$w/run4.log" &&
		grep -Eq '^ +"  fix: .*/etc/pam\.d/runuser' "$w/run4.log" &&
		grep -Eq '^ +"summary: [^"]* missing[^"]*",?$' "$w/run4.log" &&
		grep -Eq '"msg": "memlockctl doctor exited 1: summary: [^"]*missing' "$w/run4.log" &&
		! grep -q '"stdout": "' "$w/run4.log"
	verdict "$rel: doctor not ok: the play fails with its verdict, fix and summary, a line each" \
		"$w/run4.log"
	cp -p "$w/runuser.done" "$root/etc/pam.d/runuser"

	# A stack of the site's own that names the module: the undo stops
	# before the packages go, and names it.
	printf 'session    optional   pam_memlock.so\n' >"$root/etc/pam.d/site-app"
	! play "$undo" "$w/undo0.log" "$w/site.conf" && recap "$w/undo0.log" '[0-9]+' 1 &&
		grep -q 'these stacks still name pam_memlock.so, which is about to be removed: /etc/pam.d/site-app;' \
			"$w/undo0.log" &&
		[ "$(root_run "$root" dpkg-query -W -f='${Status}' libpam-memlock)" = 'install ok installed' ]
	verdict "$rel: the undo stops while another stack names the module, names it, keeps the packages" \
		"$w/undo0.log"
	rm -f "$root/etc/pam.d/site-app"

	play "$undo" "$w/undo1.log" "$w/site.conf" && recap "$w/undo1.log" '[1-9][0-9]*' 0
	verdict "$rel: the undo runs" "$w/undo1.log"
	for f in sshd cron runuser; do
		cmp "$w/before/$f" "$root/etc/pam.d/$f" && conffile_intact "$root" "/etc/pam.d/$f"
		verdict "$rel: after the undo, /etc/pam.d/$f is byte for byte as before and as its package shipped it" \
			"$root/etc/pam.d/$f"
	done
	[ ! -e "$root/etc/pam.d/slurm" ] && cmp "$w/before/slurm.conf" "$root/etc/slurm/slurm.conf"
	verdict "$rel: after the undo, /etc/pam.d/slurm is gone and slurm.conf is as it was" \
		"$root/etc/slurm/slurm.conf"
	! root_run "$root" dpkg-query -W -f='${Status}\n' libpam-memlock memlockctl 2>/dev/null |
		grep -v '^unknown ok not-installed$' | grep -q . &&
		! grep -rqs pam_memlock "$root/etc/pam.d" && [ ! -e "$root/etc/security/memlock.d" ]
	verdict "$rel: after the undo, both packages are purged, no stack names the module, memlock.d is gone"
	play "$undo" "$w/undo2.log" "$w/site.conf" && recap "$w/undo2.log" 0 0
	verdict "$rel: a second undo changes nothing (changed=0)" "$w/undo2.log"
}

# Arguments: the releases to run, both by default.
[ $# -gt 0 ] || set -- bookworm trixie
for rel; do
	case $rel in
	bookworm) converge "Debian 12" bookworm ;;
	trixie) converge "Debian 13" trixie ;;
	*) echo "Bail out! unknown release $rel (bookworm, trixie)"; exit 1 ;;
	esac
done
echo "1..$n"
