#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The Debian package, end to end, on Debian 12 ("bookworm") and 13
# ("trixie"), in fresh roots (.ci/root.sh): everything is gone when it ends.
#
#   .ci/debian-package.sh [BUILD_DIR]   BUILD_DIR: a configured tree ($PML_BUILD_DIR or .)
#
# For each release:
# 1. A build root (buildd, lintian): the source package from the make
#    distdir tree as the .orig tarball and debian/, its build-deps from
#    debian/control (apt-get build-dep), dpkg-buildpackage -us -uc (with the
#    build-time tests), and that release's lintian --fail-on error,warning.
#    The "newer version": those packages again as VERSION+1, with a
#    changed default memlock.conf (dpkg-deb, unpacked and packed again).
#    On Debian 13, the README's build from a git checkout too: from a
#    copy of the git tree, dpkg-buildpackage -us -uc -b.  On Debian 12,
#    the previous, single package (libpam-memlock with memlockctl in it:
#    debian/ of the last commit before memlockctl got its own package)
#    from the same sources, where the release upgrade to the two packages
#    starts.
# 2. An install root (minbase, pamtester): apt-get install of the package,
#    the module beside libpam's own, the stacks, memlock.d, a real session
#    (debian/tests/session, the autopkgtest), an admin-edited conffile across
#    the upgrade, remove, purge with and without an admin's drop-in, and
#    nothing of the package left behind.  Then, in the same root, the
#    README's install, enable, check and undo blocks, read out of the README.
# Then the release upgrade: Debian 12's previous, single package in a
# Debian 12 root with an edited memlock.conf and step 2 of the README
# done; the root upgraded to Debian 13 with apt-get full-upgrade, Debian
# 13's newer packages (libpam-memlock and memlockctl) served from a local
# repository beside the archive, as a dist-upgrade would take them.
#
# Prints TAP, each case named after its release.  Needs root.
# PML_DEB_DEBS=DIR takes the packages from DIR/RELEASE/*.deb instead of
# building them, for a second look at the rest; PML_DEB_KEEP=DIR keeps a
# copy of the tree's own packages built there, DIR/RELEASE/*.deb (make
# check-fleet's tests/fleet/ansible.sh takes them with PML_FLEET_DEBS=DIR).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${PML_BUILD_DIR:-$top}}
. "$top/.ci/root.sh"
root_enter "$0" "$@" || exit 1
. "$top/.ci/tap.sh"
export LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
elapsed() { echo "# $1: $(($(date +%s) - started)) s since the start"; }
# Builds as a buildd with two processors does (parallel=N): make -jN for
# the build and for its tests.
jobs=$(nproc 2>/dev/null || echo 2)
work=$ROOT_WORK

upstream=$(sed -n 's/^AC_INIT(\[pam_memlock\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$top/debian/changelog")
# debian/ of the previous, single package: the parent of the commit that
# gave memlockctl its package (HEAD, before that commit).
single_commit=$(git -C "$top" log --format=%H -S'Package: memlockctl' -- debian/control 2>/dev/null |
	tail -n 1)
single_commit=$(git -C "$top" rev-parse "${single_commit:-HEAD}${single_commit:+^}" 2>/dev/null)
single_version=$(git -C "$top" show "${single_commit:-none}:debian/changelog" 2>/dev/null |
	sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p')
new_version=${version%-*}-$((${version##*-} + 1))
arch=$(dpkg --print-architecture)
stacks="/etc/pam.d/common-session /etc/pam.d/common-session-noninteractive"
conf=/etc/security/memlock.conf

# --- 1. build ----------------------------------------------------------------
# newer_version BROOT RELEASE: $work/debs/RELEASE's packages of $version
# again as $new_version, libpam-memlock's memlock.conf with a line more:
# what an upgrade to a newer package with another default meets.  Unpacked
# and packed again by the release's dpkg-deb: the same files and maintainer
# scripts, which is what the upgrade cases are about.  (md5sums lists no
# conffile, so it stays right.)
newer_version() {
	local broot=$1 rel=$2 pkg
	for pkg in libpam-memlock memlockctl; do
		rm -rf "$broot/newer" &&
			cp "$work/debs/$rel/${pkg}_${version}_$arch.deb" "$broot/old.deb" &&
			root_run "$broot" dpkg-deb -R /old.deb /newer &&
			sed -i "s/^Version: .*/Version: $new_version/" "$broot/newer/DEBIAN/control" || return 1
		if [ "$pkg" = libpam-memlock ]; then
			echo '# (the default of a newer package version)' >>"$broot/newer$conf" || return 1
		fi
		root_run "$broot" dpkg-deb --root-owner-group -b /newer /new.deb >/dev/null &&
			mv "$broot/new.deb" "$work/debs/$rel/${pkg}_${new_version}_$arch.deb" || return 1
	done
	rm -rf "$broot/newer" "$broot/old.deb"
}

# package_build RELEASE: the source and binary packages of $version, built
# in $work/RELEASE-build/build; its binary packages and those of
# $new_version in $work/debs/RELEASE.
package_build() {
	local rel=$1 broot=$work/$1-build src src2 changes
	check "$rel: build root (buildd, lintian)" root_named "$broot" "$rel-build" ||
		return 1
	src=$broot/build/pam-memlock-$upstream
	mkdir -p "$broot/build"
	check "$rel: source: make distdir as the .orig tarball, and debian/" sh -c '
		make -C "$1" distdir distdir="$2/pam_memlock-$3" >/dev/null &&
		tar -C "$2" -cJf "$2/pam-memlock_$3.orig.tar.xz" "pam_memlock-$3" &&
		mv "$2/pam_memlock-$3" "$4" && cp -a "$5/debian" "$4/"' \
		sh "$build" "$broot/build" "$upstream" "$src" "$top" || return 1
	check "$rel: build-deps from debian/control (apt-get build-dep)" root_run "$broot" sh -c \
		"apt-get build-dep -y -qq /build/pam-memlock-$upstream" || return 1
	if root_run "$broot" sh -c "cd /build/pam-memlock-$upstream && DEB_BUILD_OPTIONS=parallel=$jobs dpkg-buildpackage -us -uc" \
		>"$work/$rel-build.log" 2>&1; then
		ok "$rel: dpkg-buildpackage -us -uc: source and binary packages"
	else
		not_ok "$rel: dpkg-buildpackage -us -uc: source and binary packages" \
			"$(grep -E '^(FAIL|ERROR|XPASS): ' "$work/$rel-build.log" | head -n 40)" \
			"$(tail -n 30 "$work/$rel-build.log")"
		return 1
	fi
	local p f s
	p=$(awk '/^# PASS:/ { print $3 }' "$work/$rel-build.log")
	f=$(awk '/^# (FAIL|ERROR|XPASS):/ { n += $3 } END { print n + 0 }' "$work/$rel-build.log")
	s=$(awk '/^# SKIP:/ { print $3 }' "$work/$rel-build.log")
	if [ "${p:-0}" -gt 0 ] && [ "$f" -eq 0 ]; then
		ok "$rel: the build ran its tests: $p passed, $f failed, ${s:-0} skipped"
	else
		not_ok "$rel: the build ran its tests: ${p:-0} passed, $f failed, ${s:-0} skipped"
	fi
	grep -E ':[0-9]+:[0-9]+: (warning|error): ' "$work/$rel-build.log" | sed "s/^/# $rel: compiler: /"

	# lintian as nobody: it warns when run as root.
	changes=build/pam-memlock_${version}_$arch.changes
	echo "# $rel: $(root_run "$broot" lintian --version)"
	if root_run "$broot" chroot --userspec=65534:65534 / env HOME=/tmp \
		lintian --fail-on error,warning --display-info "$changes" >"$work/$rel-lintian.log" 2>&1; then
		ok "$rel: lintian (default profile): no error, no warning"
	else
		not_ok "$rel: lintian (default profile): no error, no warning"
	fi
	sed "s/^/# $rel: lintian: /" "$work/$rel-lintian.log"

	mkdir -p "$work/debs/$rel"
	cp "$broot/build/libpam-memlock_${version}_$arch.deb" "$broot/build/memlockctl_${version}_$arch.deb" \
		"$work/debs/$rel/"
	check "$rel: the newer version, $new_version, with another default memlock.conf" \
		newer_version "$broot" "$rel"

	# The README's build, from a git checkout.  It differs from the build
	# above only in its files, not by release: made once, on Debian 13.
	if [ "$rel" = trixie ]; then
		src2=$broot/build2/src
		mkdir -p "$src2"
		if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
			(cd "$top" && git ls-files -z --cached --others --exclude-standard |
				tar --null -T - -cf -) | tar -x -C "$src2"
		else
			cp -a "$src/." "$src2/"
		fi
		if root_run "$broot" sh -c "cd /build2/src && DEB_BUILD_OPTIONS='nocheck parallel=$jobs' dpkg-buildpackage -us -uc -b" \
			>"$work/$rel-build2.log" 2>&1; then
			ok "$rel: the README's dpkg-buildpackage -us -uc -b in a copy of the git tree"
		else
			not_ok "$rel: the README's dpkg-buildpackage -us -uc -b in a copy of the git tree" \
				"$(tail -n 30 "$work/$rel-build2.log")"
		fi
	fi

	# The tree's own version only: not the newer copy, nor the previous one.
	if [ -n "${PML_DEB_KEEP:-}" ]; then
		mkdir -p "$PML_DEB_KEEP/$rel" &&
			cp "$work/debs/$rel/"*_"${version}_$arch.deb" "$PML_DEB_KEEP/$rel/"
	fi
	# The previous, single package: these sources, its own debian/.  Only
	# the release upgrade installs it, from Debian 12: built there alone.
	[ "$rel" = bookworm ] || return 0
	if [ -z "$single_version" ]; then
		not_ok "$rel: the previous, single package: no commit with it in $top"
		return 0
	fi
	mkdir -p "$broot/build0/src"
	cp -a "$src/." "$broot/build0/src/" && rm -rf "$broot/build0/src/debian" &&
		git -C "$top" archive "$single_commit" debian | tar -x -C "$broot/build0/src"
	if root_run "$broot" sh -c "cd /build0/src && DEB_BUILD_OPTIONS='nocheck parallel=$jobs' dpkg-buildpackage -us -uc -b" \
		>"$work/$rel-build0.log" 2>&1 &&
		cp "$broot/build0/libpam-memlock_${single_version}_$arch.deb" "$work/debs/$rel/"; then
		ok "$rel: the previous, single package: $single_version (debian/ of ${single_commit:0:12})"
	else
		not_ok "$rel: the previous, single package: $single_version (debian/ of ${single_commit:0:12})" \
			"$(tail -n 30 "$work/$rel-build0.log")"
	fi
}

# --- 2. install, upgrade, remove, purge ----------------------------------------
status() { root_run "$root" dpkg-query -W -f='${Status} ${Version}' "${1:-libpam-memlock}" 2>/dev/null; }
# The PAM module directory of the root's libpam: where its pam_unix.so is.
moddir() { root_run "$root" dpkg -L libpam-modules | sed -n 's|/pam_unix\.so$||p'; }
# Every path of the root but the package databases, caches, logs, /tmp,
# and the backups useradd and userdel leave (/etc/shadow- and the like).
paths() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./sys -o -path ./tmp \
		-o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache \
		-o -path ./var/log -o -path './etc/*-' \) -prune -o -print | sort)
}
install_root() { # RELEASE: $root, an install root with the debs in /tmp/debs
	root=$work/$1-root
	check "$1: install root (minbase, pamtester)" root_named "$root" "$1-install" ||
		return 1
	mkdir -p "$root/tmp/debs" && cp "$work/debs/$1/"*.deb "$root/tmp/debs/"
}
stacks_list_once() { # RELEASE
	local f
	for f in $stacks; do
		check "$1: $f lists pam_memlock once, after pam_unix" sh -c '
			m=$(grep -n "pam_memlock\.so" "$1" | cut -d: -f1) &&
			u=$(grep -n "^session.*pam_unix\.so" "$1" | cut -d: -f1) &&
			[ "$(echo "$m" | wc -l)" -eq 1 ] && [ "$m" -gt "$u" ]' sh "$root$f"
	done
}

# shellcheck disable=SC2086 # $deb1 and $deb2 name both packages
package_lifecycle() {
	local rel=$1 deb1="/tmp/debs/libpam-memlock_${version}_$arch.deb /tmp/debs/memlockctl_${version}_$arch.deb"
	local deb2="/tmp/debs/libpam-memlock_${new_version}_$arch.deb /tmp/debs/memlockctl_${new_version}_$arch.deb"
	local f line rc
	install_root "$rel" || return 1
	mkdir -p "$work/$rel-before"
	for f in $stacks; do cp "$root$f" "$work/$rel-before/"; done
	paths >"$work/$rel-before/paths"

	check "$rel: apt-get install ./libpam-memlock_${version}_$arch.deb ./memlockctl_${version}_$arch.deb" \
		root_run "$root" apt-get install -y -qq $deb1
	check "$rel: installed: $version" test "$(status)" = "install ok installed $version"
	check "$rel: memlockctl installed: $version" \
		test "$(status memlockctl)" = "install ok installed $version"
	check "$rel: libpam-memlock recommends memlockctl; memlockctl has /usr/sbin/memlockctl and its units" sh -c "
		chroot '$root' dpkg-query -W -f='\${Recommends}' libpam-memlock | grep -qw memlockctl &&
		chroot '$root' dpkg -L memlockctl >'$root/tmp/ctl.list' &&
		grep -qx /usr/sbin/memlockctl '$root/tmp/ctl.list' &&
		grep -q '/memlockctl\.8\.gz\$' '$root/tmp/ctl.list' &&
		grep -q '/memlock-metrics\.timer\$' '$root/tmp/ctl.list' &&
		! chroot '$root' dpkg -L libpam-memlock | grep -q -e memlockctl -e memlock-metrics"
	check "$rel: $conf is a conffile" sh -c \
		"chroot '$root' dpkg-query -W -f='\${Conffiles}' libpam-memlock | grep -q ' $conf '"
	check "$rel: pam_memlock.so is in libpam's module directory, beside pam_unix.so ($(moddir))" \
		test -f "$root$(moddir)/pam_memlock.so"
	stacks_list_once "$rel"
	check "$rel: /etc/security/memlock.d is there, empty" sh -c \
		"[ -d '$root/etc/security/memlock.d' ] && [ -z \"\$(ls -A '$root/etc/security/memlock.d')\" ]"
	printf 'rules = ( { user = "nobody"; limit = "1 MiB"; } );\n' >"$root/tmp/site.conf"
	check "$rel: memlockctl install site.conf --conf /etc/security/memlock.d/50-site.conf" \
		root_run "$root" memlockctl install /tmp/site.conf --conf /etc/security/memlock.d/50-site.conf
	rm -f "$root/etc/security/memlock.d/50-site.conf"

	# A real session through the installed stack: the autopkgtest itself.
	cp "$top/debian/tests/session" "$root/tmp/session"
	mkdir -p "$root/tmp/autopkgtest"
	root_run "$root" env AUTOPKGTEST_TMP=/tmp/autopkgtest /tmp/session >"$work/session.out" 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		skip "$rel: autopkgtest session" "$(cat "$work/session.out")"
	else
		while IFS= read -r line; do
			case $line in
			"ok - "*) ok "$rel: autopkgtest: ${line#ok - }" ;;
			"not ok - "*) not_ok "$rel: autopkgtest: ${line#not ok - }" ;;
			"#"*) echo "$line" ;;
			esac
		done <"$work/session.out"
		[ $rc -eq 0 ] || grep -q '^not ok' "$work/session.out" ||
			not_ok "$rel: autopkgtest session exited $rc" "$(cat "$work/session.out")"
	fi

	# An admin edits the policy; the newer version keeps the edit and puts its
	# own default beside it (dpkg's conffile handling, --force-confold as an
	# unattended upgrade answers).
	printf '# site policy\nlimit = "16 MiB";\n' >"$root$conf"
	check "$rel: memlockctl explain reads the edited policy (16 MiB)" sh -c \
		"chroot '$root' memlockctl explain root | grep -q '^soft: *16777216 bytes'"
	check "$rel: apt-get install ./libpam-memlock_${new_version}_$arch.deb ./memlockctl_${new_version}_$arch.deb (upgrade, --force-confold)" \
		root_run "$root" apt-get install -y -qq -o Dpkg::Options::=--force-confdef \
		-o Dpkg::Options::=--force-confold $deb2
	check "$rel: upgraded: $new_version" test "$(status)" = "install ok installed $new_version"
	check "$rel: the edited $conf survived the upgrade" grep -qx 'limit = "16 MiB";' "$root$conf"
	check "$rel: the new default is beside it as memlock.conf.dpkg-dist" \
		grep -q 'the default of a newer package version' "$root$conf.dpkg-dist"
	stacks_list_once "$rel"

	# Remove: out of the stacks, the files gone, the edited conffile kept.
	check "$rel: apt-get remove libpam-memlock" root_run "$root" apt-get remove -y -qq libpam-memlock
	check "$rel: removed, config files kept" \
		test "$(status)" = "deinstall ok config-files $new_version"
	check "$rel: no PAM stack lists pam_memlock after remove" sh -c \
		"! grep -rq pam_memlock '$root/etc/pam.d'"
	check "$rel: the module and the profile are gone" sh -c \
		"! find '$root/usr' '$root/lib' -name 'pam_memlock.so' -o -path '*/pam-configs/memlock' | grep -q ."
	check "$rel: memlockctl stays, installed, and runs" sh -c \
		"[ \"\$(chroot '$root' dpkg-query -W -f='\${Status}' memlockctl)\" = 'install ok installed' ] &&
		chroot '$root' memlockctl --version"
	check "$rel: the edited $conf stays after remove" grep -qx 'limit = "16 MiB";' "$root$conf"

	# Purge with an admin's drop-in: the conffile goes, the drop-in stays.
	mkdir -p "$root/etc/security/memlock.d"
	echo 'limit = "4 MiB";' >"$root/etc/security/memlock.d/site.conf"
	check "$rel: dpkg --purge libpam-memlock (memlock.d holds an admin's file)" \
		root_run "$root" dpkg --purge libpam-memlock
	check "$rel: purged: $conf and its .dpkg-dist are gone" sh -c \
		"[ ! -e '$root$conf' ] && [ ! -e '$root$conf.dpkg-dist' ]"
	check "$rel: purged: the admin's memlock.d/site.conf stays" \
		test -f "$root/etc/security/memlock.d/site.conf"
	for f in $stacks; do
		check "$rel: purged: $f is as before the install" cmp "$work/$rel-before/${f##*/}" "$root$f"
	done

	# Step 2 of the README is the admin's edit of other packages' files:
	# remove leaves the line where it is, names the file on stderr, and the
	# README's undo gives the file back as it was.
	# And a Slurm node's /etc/pam.d/slurm, the package's example.
	cp -p "$root/etc/pam.d/runuser" "$work/$rel-runuser"
	check "$rel: apt-get install again, the README's step 2 line in runuser, examples/pam.d/slurm as /etc/pam.d/slurm" \
		root_run "$root" sh -c "apt-get install -y -qq $deb2 && sed -i \
			'/^session[[:space:]]\\+required[[:space:]]\\+pam_limits\\.so/a session    optional   pam_memlock.so' \
			/etc/pam.d/runuser && grep -q pam_memlock.so /etc/pam.d/runuser &&
			cp /usr/share/doc/libpam-memlock/examples/pam.d/slurm /etc/pam.d/slurm"
	# apt may run dpkg on a pty: its lines can end in CR.
	root_run "$root" apt-get remove -y -qq libpam-memlock 2>&1 | tr -d '\r' >"$work/$rel-remove.out"
	check "$rel: apt-get remove names /etc/pam.d/runuser and slurm, which still have the line, and only them" \
		sh -c "cat '$work/$rel-remove.out' && grep -qx '  /etc/pam.d/runuser' '$work/$rel-remove.out' &&
			grep -qx '  /etc/pam.d/slurm' '$work/$rel-remove.out' &&
			[ \$(grep -c '^  /etc/pam.d/' '$work/$rel-remove.out') = 2 ] &&
			grep -q pam_memlock '$root/etc/pam.d/runuser'"
	# The module is gone; memlockctl, left behind, names each stack that
	# still loads it.
	root_run "$root" memlockctl doctor >"$work/$rel-doctor-gone" 2>&1
	root_run "$root" memlockctl doctor --service slurm >>"$work/$rel-doctor-gone" 2>&1
	check "$rel: after remove, memlockctl doctor names runuser's and slurm's lines that load the missing module" \
		sh -c "cat '$work/$rel-doctor-gone' | sed 's/^/# /' &&
			grep -q '/etc/pam.d/runuser:[0-9]* names it, .*PAM unable to dlopen' '$work/$rel-doctor-gone' &&
			grep -q '/etc/pam.d/slurm:[0-9]* names it, .*PAM unable to dlopen' '$work/$rel-doctor-gone'"
	rm -f "$root/etc/pam.d/slurm"
	awk '/^    # Undo Debian step 2:/ { on = 1 } on && /^$/ { exit } on { sub(/^    /, ""); print }' \
		"$top/README" >"$work/undo-step2"
	check "$rel: the README's undo of step 2 gives runuser back as it was" \
		sh -c "[ -s '$work/undo-step2' ] &&
			chroot '$root' sh -e <'$work/undo-step2' &&
			cmp '$work/$rel-runuser' '$root/etc/pam.d/runuser'"

	# Install again and purge with an empty memlock.d: nothing is left.
	rm -f "$root/etc/security/memlock.d/site.conf"
	# --autoremove: libconfig came in with the package, and goes with it.
	# A measurement saved as `memlockctl measure` saves it: purge takes it.
	check "$rel: apt-get install, a saved measurement, then apt-get purge --autoremove, with memlock.d empty" \
		root_run "$root" sh -c "apt-get install -y -qq $deb2 &&
			mkdir -p /var/lib/pam_memlock &&
			touch /var/lib/pam_memlock/rings-\$(uname -r) &&
			apt-get purge --autoremove -y -qq libpam-memlock memlockctl"
	check "$rel: purged: the empty memlock.d is gone" test ! -e "$root/etc/security/memlock.d"
	paths >"$work/$rel-after-paths"
	if diff "$work/$rel-before/paths" "$work/$rel-after-paths" >"$work/$rel-paths.diff"; then
		ok "$rel: purged: no path in the root that was not there before the install"
	else
		not_ok "$rel: purged: no path in the root that was not there before the install" \
			"$(head -n 20 "$work/$rel-paths.diff")"
	fi
	check "$rel: purged: dpkg knows nothing of libpam-memlock nor memlockctl" sh -c \
		"! chroot '$root' dpkg-query -W -f='\${Status}' libpam-memlock memlockctl 2>/dev/null | grep -q ."
}

# --- 2b. the README's blocks, as written ------------------------------------
# readme_block MARKER: the README's indented block whose first line is
# "# MARKER", up to the first blank line, without its indentation.
readme_block() {
	awk -v m="    # $1" 'index($0, m) == 1 { on = 1 } on && /^$/ { exit }
		on { sub(/^    /, ""); print }' "$top/README"
}

# readme_blocks RELEASE: in the root package_lifecycle left as it found it,
# the README's install, enable, check and undo blocks, each read out of the
# README and run as written (sh -e, in a directory holding the package
# alone); then every stack is as before the install.
readme_blocks() {
	local rel=$1 name marker f
	local stacks2="$stacks /etc/pam.d/runuser"
	[ -d "$root/etc/pam.d" ] || return 1
	mkdir -p "$work/$rel-readme" "$root/tmp/readme" &&
		cp "$work/debs/$rel/libpam-memlock_${version}_$arch.deb" \
			"$work/debs/$rel/memlockctl_${version}_$arch.deb" "$root/tmp/readme/" || return 1
	for f in $stacks2; do cp "$root$f" "$work/$rel-readme/"; done
	for name in install:"Install the package:" step1:"Debian step 1:" \
		step2:"Debian step 2:" check:"Check:" undo:"Undo Debian step 2:" \
		remove:"Remove the package:"; do
		marker=${name#*:}
		readme_block "$marker" >"$root/tmp/readme/${name%%:*}.sh"
		check "$rel: the README has its \"# $marker\" block" test -s "$root/tmp/readme/${name%%:*}.sh" ||
			return 1
		check "$rel: the README's \"# $marker\" block runs" \
			root_run "$root" sh -ec "cd /tmp/readme && . ./${name%%:*}.sh"
		case ${name%%:*} in
		step2)
			check "$rel: after the README's steps, runuser and the common stacks list pam_memlock" \
				sh -c 'for f; do grep -q "^session.*pam_memlock\.so" "$f" || exit 1; done' \
				sh "$root/etc/pam.d/runuser" $(for f in $stacks; do echo "$root$f"; done)
			;;
		remove)
			for f in $stacks2; do
				check "$rel: after the README's undo and removal, $f is as before the install" \
					cmp "$work/$rel-readme/${f##*/}" "$root$f"
			done
			check "$rel: after the README's undo and removal, no stack names pam_memlock" \
				sh -c "! grep -rqs pam_memlock '$root/etc/pam.d'"
			;;
		esac
	done
	rm -rf "$root/tmp/readme"
}

# --- 3. the release upgrade ---------------------------------------------------
# session_soft: the soft memlock limit (KiB) that a session through
# common-session gets in $root, from 64 KiB soft and 8 MiB hard.
session_soft() {
	printf '#!/bin/sh\nulimit -S -l >/tmp/pml-soft\n' >"$root/tmp/show-soft"
	chmod 0755 "$root/tmp/show-soft"
	printf '%s\n' 'auth required pam_permit.so' 'account required pam_permit.so' \
		'@include common-session' \
		'session optional pam_exec.so type=open_session /tmp/show-soft' \
		>"$root/etc/pam.d/pml-upgrade"
	rm -f "$root/tmp/pml-soft"
	root_run "$root" prlimit --memlock=65536:8388608 pamtester pml-upgrade root \
		open_session close_session >/dev/null 2>&1
	cat "$root/tmp/pml-soft" 2>/dev/null
	rm -f "$root/etc/pam.d/pml-upgrade"
}

release_upgrade() {
	local to="bookworm to trixie" deb1=/tmp/debs/libpam-memlock_${single_version}_$arch.deb
	local old new
	install_root bookworm || return 1
	check "$to: Debian 12's previous, single package ($single_version, with memlockctl) installed" \
		root_run "$root" apt-get install -y -qq "$deb1" || return 1
	old=$(moddir)/pam_memlock.so
	printf '# site policy\nlimit = "16 MiB";\n' >"$root$conf"
	# Step 2 of the README, in the one of its stacks that this root has.
	sed -i '/^session[[:space:]]\+required[[:space:]]\+pam_limits\.so/a session    optional   pam_memlock.so' \
		"$root/etc/pam.d/runuser"
	check "$to: before: a session gets the policy (soft above 64 KiB)" \
		test "$(session_soft)" -gt 64
	# Debian 13's archive, and beside it a repository with Debian 13's
	# newer package, as an admin's own repository would serve it.
	mkdir -p "$root/srv/pml-repo"
	cp "$work/debs/trixie/libpam-memlock_${new_version}_$arch.deb" \
		"$work/debs/trixie/memlockctl_${new_version}_$arch.deb" "$root/srv/pml-repo/"
	(cd "$root/srv/pml-repo" && dpkg-scanpackages . >Packages 2>/dev/null)
	echo 'deb [trusted=yes] file:/srv/pml-repo ./' >"$root/etc/apt/sources.list.d/pml.list"
	sed -i 's/\bbookworm\b/trixie/g' "$root/etc/apt/sources.list"
	check "$to: apt-get update && apt-get full-upgrade (--force-confold)" \
		root_run "$root" sh -c 'apt-get update -qq && apt-get full-upgrade -y -qq \
			-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold' || return 1
	check "$to: the root runs Debian 13" grep -qx 'VERSION_ID="13"' "$root/etc/os-release"
	check "$to: upgraded: $new_version" test "$(status)" = "install ok installed $new_version"
	check "$to: memlockctl came in with it (libpam-memlock recommends it): $new_version" \
		test "$(status memlockctl)" = "install ok installed $new_version"
	check "$to: /usr/sbin/memlockctl is memlockctl's now, and runs" sh -c \
		"chroot '$root' dpkg -S /usr/sbin/memlockctl | grep -qx 'memlockctl: /usr/sbin/memlockctl' &&
		chroot '$root' memlockctl --version"
	check "$to: the edited $conf survived" grep -qx 'limit = "16 MiB";' "$root$conf"
	stacks_list_once "$to"
	check "$to: step 2's line in /etc/pam.d/runuser survived" \
		grep -q '^session.*pam_memlock\.so' "$root/etc/pam.d/runuser"
	new=$(moddir)/pam_memlock.so
	check "$to: the module is in Debian 13's libpam directory, $new" test -f "$root$new"
	check "$to: dpkg has it there, and nothing of the package in ${old%/*}" sh -c '
		chroot "$1" dpkg -L libpam-memlock >"$1/tmp/list" &&
		grep -qx "$2" "$1/tmp/list" && { [ "$2" = "$3" ] || ! grep -q "^${3%/*}/" "$1/tmp/list"; } &&
		{ [ "$2" = "$3" ] || ! chroot "$1" dpkg -S "$3"; }' sh "$root" "$new" "$old"
	check "$to: after: a session gets the policy (soft above 64 KiB)" \
		test "$(session_soft)" -gt 64
}

# get_debs RELEASE: its packages in $work/debs/RELEASE, built or taken
# from $PML_DEB_DEBS.
get_debs() {
	if [ -n "${PML_DEB_DEBS:-}" ]; then
		mkdir -p "$work/debs/$1" && cp "$PML_DEB_DEBS/$1/"*.deb "$work/debs/$1/"
	else
		package_build "$1"
	fi
}

for rel in bookworm trixie; do
	if get_debs "$rel"; then
		elapsed "$rel: packages built"
		package_lifecycle "$rel"
		readme_blocks "$rel"
		elapsed "$rel: installed, upgraded, removed, purged; the README's blocks"
	else
		built_all=no
	fi
done
if [ "${built_all:-yes}" = yes ]; then
	release_upgrade
	elapsed "release upgrade"
else
	not_ok "bookworm to trixie: a package is missing" "see the build cases above"
fi
tap_end
