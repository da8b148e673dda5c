#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The Debian package, end to end, in fresh Debian 12 roots that mmdebstrap
# makes from this machine's apt sources, inside a private mount namespace
# on a tmpfs: everything (both roots, proc, dev) is gone when it ends.
#
#   .ci/debian-package.sh [BUILD_DIR]   BUILD_DIR: a configured tree ($PML_BUILD_DIR or .)
#
# 1. A build root (mmdebstrap --variant=buildd, lintian): the source
#    package from the make dist tarball and debian/, its build-deps from
#    debian/control (apt-get build-dep), dpkg-buildpackage -us -uc (with the
#    build-time tests), and lintian --fail-on error,warning.  A second
#    build, from a copy of the git tree as README says (dpkg-buildpackage
#    -us -uc -b), of 0.1.0-2 with a changed default memlock.conf: the
#    "newer version" for the conffile case.
# 2. An install root (mmdebstrap --variant=minbase, pamtester): install
#    with apt-get install ./libpam-memlock_*.deb, then the stacks, a real
#    session (debian/tests/session, the autopkgtest), an admin-edited
#    conffile across the upgrade, remove, purge with and without an
#    admin's drop-in, and nothing of the package left behind.
#
# Prints TAP.  Needs root (mmdebstrap's root mode, chroot).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-${PML_BUILD_DIR:-$top}}
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

if [ -z "${PML_DEB_WORK:-}" ]; then
	if ! apt-get install -y -qq --no-install-recommends mmdebstrap dpkg-dev \
		>/tmp/pml-deb-apt.log 2>&1; then
		echo "Bail out! apt-get install mmdebstrap dpkg-dev failed: $(tail -n 3 /tmp/pml-deb-apt.log)"
		exit 1
	fi
	rm -f /tmp/pml-deb-apt.log
	work=$(mktemp -d /tmp/pml-deb-XXXXXX)
	PML_DEB_WORK=$work unshare --mount --propagation private -- "$0" "$build"
	rc=$?
	[ -n "${PML_DEB_KEEP:-}" ] || rm -rf "$work"
	exit $rc
fi

. "$top/.ci/tap.sh"
work=$PML_DEB_WORK
# PML_DEB_KEEP=1 keeps the roots in $work, for a look after a failure.
[ -n "${PML_DEB_KEEP:-}" ] ||
	mount -t tmpfs -o mode=0755 pml-deb "$work" || bail "cannot mount a tmpfs on $work"
started=$(date +%s)
elapsed() { echo "# $1: $(($(date +%s) - started)) s since the start"; }

upstream=$(sed -n 's/^AC_INIT(\[pam_memlock\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
check "debian/changelog ($version) packages configure.ac's version ($upstream)" \
	test "${version%-*}" = "$upstream"

# A root's chroot: proc, this machine's /dev, its resolv.conf (for apt).
prepare_root() {
	mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
		cp /etc/resolv.conf "$1/etc/resolv.conf"
}
# inroot ROOT COMMAND...: run COMMAND in ROOT as root, with a clean environment.
inroot() {
	local root=$1
	shift
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"
}

# --- 1. build ---------------------------------------------------------------
broot=$work/build-root
check "build root: mmdebstrap --variant=buildd --include=lintian bookworm" \
	mmdebstrap --quiet --variant=buildd --include=lintian bookworm "$broot" ||
	{ tap_end; exit 1; }
prepare_root "$broot" || bail "cannot prepare $broot"
elapsed "build root made"

src=$broot/build/pam-memlock-$upstream
mkdir -p "$broot/build"
check "source: make distdir as the .orig tarball, and debian/" sh -c '
	make -C "$1" distdir distdir="$2/pam_memlock-$3" >/dev/null &&
	tar -C "$2" -cJf "$2/pam-memlock_$3.orig.tar.xz" "pam_memlock-$3" &&
	mv "$2/pam_memlock-$3" "$4" && cp -a "$5/debian" "$4/"' \
	sh "$build" "$broot/build" "$upstream" "$src" "$top" || { tap_end; exit 1; }
check "build-deps from debian/control (apt-get build-dep)" inroot "$broot" sh -c \
	"apt-get update -qq && apt-get build-dep -y -qq /build/pam-memlock-$upstream" ||
	{ tap_end; exit 1; }
if inroot "$broot" sh -c "cd /build/pam-memlock-$upstream && dpkg-buildpackage -us -uc" \
	>"$work/build.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc: source and binary packages"
else
	not_ok "dpkg-buildpackage -us -uc: source and binary packages" \
		"$(grep -E '^(FAIL|ERROR|XPASS): ' "$work/build.log" | head -n 40)" \
		"$(tail -n 30 "$work/build.log")"
	tap_end
	exit 1
fi
p=$(awk '/^# PASS:/ { print $3 }' "$work/build.log")
f=$(awk '/^# (FAIL|ERROR|XPASS):/ { n += $3 } END { print n + 0 }' "$work/build.log")
s=$(awk '/^# SKIP:/ { print $3 }' "$work/build.log")
if [ "${p:-0}" -gt 0 ] && [ "$f" -eq 0 ]; then
	ok "the build ran its tests: $p passed, $f failed, ${s:-0} skipped"
else
	not_ok "the build ran its tests: ${p:-0} passed, $f failed, ${s:-0} skipped"
fi
elapsed "package built"

# lintian as nobody: it warns when run as root.
changes=build/pam-memlock_${version}_$arch.changes
if inroot "$broot" chroot --userspec=65534:65534 / env HOME=/tmp \
	lintian --fail-on error,warning --display-info "$changes" >"$work/lintian.log" 2>&1; then
	ok "lintian (default profile): no error, no warning"
else
	not_ok "lintian (default profile): no error, no warning"
fi
sed 's/^/# lintian: /' "$work/lintian.log"

# The newer version: 0.1.0-2 from the git tree, with another default policy.
src2=$broot/build2/src
mkdir -p "$src2"
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -x -C "$src2"
else
	cp -a "$src/." "$src2/"
fi
new_version=${version%-*}-$((${version##*-} + 1))
{
	printf 'pam-memlock (%s) unstable; urgency=medium\n\n' "$new_version"
	printf '  * CI: a newer version, with another default memlock.conf.\n\n'
	printf ' -- CI <ci@localhost>  %s\n\n' "$(date -R)"
	cat "$src2/debian/changelog"
} >"$src2/debian/changelog.new" && mv "$src2/debian/changelog.new" "$src2/debian/changelog"
echo '# (the default of a newer package version)' >>"$src2/conf/memlock.conf"
if inroot "$broot" sh -c "cd /build2/src && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b" \
	>"$work/build2.log" 2>&1; then
	ok "dpkg-buildpackage -us -uc -b in a copy of the git tree: $new_version"
else
	not_ok "dpkg-buildpackage -us -uc -b in a copy of the git tree: $new_version" \
		"$(tail -n 30 "$work/build2.log")"
fi
deb1=$broot/build/libpam-memlock_${version}_$arch.deb
deb2=$broot/build2/libpam-memlock_${new_version}_$arch.deb
elapsed "newer version built"

# --- 2. install, upgrade, remove, purge --------------------------------------
root=$work/root
check "install root: mmdebstrap --variant=minbase --include=pamtester bookworm" \
	mmdebstrap --quiet --variant=minbase --include=pamtester bookworm "$root" ||
	{ tap_end; exit 1; }
prepare_root "$root" || bail "cannot prepare $root"
inroot "$root" apt-get update -qq >/dev/null 2>&1
mkdir -p "$root/tmp/debs" "$work/before"
cp "$deb1" "$deb2" "$root/tmp/debs/" 2>/dev/null
cp "$root/etc/pam.d/common-session" "$root/etc/pam.d/common-session-noninteractive" \
	"$work/before/"
# Every path of the root but the package databases, caches, logs, /tmp,
# and the backups useradd and userdel leave (/etc/shadow- and the like).
paths() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp \
		-o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache \
		-o -path ./var/log -o -path './etc/*-' \) -prune -o -print | sort)
}
paths >"$work/before/paths"
elapsed "install root made"

stacks=/etc/pam.d/common-session
stacks_ni=/etc/pam.d/common-session-noninteractive
conf=/etc/security/memlock.conf
status() { inroot "$root" dpkg-query -W -f='${Status} ${Version}' libpam-memlock 2>/dev/null; }
listed_once() { [ "$(grep -c 'pam_memlock\.so' "$root$1")" -eq 1 ]; }

check "apt-get install ./libpam-memlock_${version}_$arch.deb" \
	inroot "$root" apt-get install -y -qq "./tmp/debs/libpam-memlock_${version}_$arch.deb"
check "installed: $version" test "$(status)" = "install ok installed $version"
check "$conf is a conffile" sh -c \
	"chroot '$root' dpkg-query -W -f='\${Conffiles}' libpam-memlock | grep -q ' $conf '"
check "pam_memlock.so is in the PAM module directory, beside pam_unix.so" sh -c '
	unix=$(chroot "$1" dpkg -L libpam-modules | grep "/pam_unix\.so$") &&
	test -f "$1${unix%/*}/pam_memlock.so"' sh "$root"
for f in $stacks $stacks_ni; do
	check "$f lists pam_memlock once, after pam_unix" sh -c '
		m=$(grep -n "pam_memlock\.so" "$1" | cut -d: -f1) &&
		u=$(grep -n "^session.*pam_unix\.so" "$1" | cut -d: -f1) &&
		[ "$(echo "$m" | wc -l)" -eq 1 ] && [ "$m" -gt "$u" ]' sh "$root$f"
done

# A real session through the installed stack: the autopkgtest itself.
cp "$top/debian/tests/session" "$root/tmp/session"
mkdir -p "$root/tmp/autopkgtest"
inroot "$root" env AUTOPKGTEST_TMP=/tmp/autopkgtest /tmp/session >"$work/session.out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
	skip "autopkgtest session" "$(cat "$work/session.out")"
else
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "autopkgtest: ${line#ok - }" ;;
		"not ok - "*) not_ok "autopkgtest: ${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$work/session.out"
	[ $rc -eq 0 ] || grep -q '^not ok' "$work/session.out" ||
		not_ok "autopkgtest session exited $rc" "$(cat "$work/session.out")"
fi
elapsed "installed and session tested"

# An admin edits the policy; the newer version keeps the edit and puts its
# own default beside it (dpkg's conffile handling, --force-confold as an
# unattended upgrade answers).
printf '# site policy\nlimit = "16 MiB";\n' >"$root$conf"
check "memlockctl explain reads the edited policy (16 MiB)" sh -c \
	"chroot '$root' memlockctl explain root | grep -q '^soft: *16777216 bytes'"
check "apt-get install ./libpam-memlock_${new_version}_$arch.deb (upgrade, --force-confold)" \
	inroot "$root" apt-get install -y -qq -o Dpkg::Options::=--force-confdef \
	-o Dpkg::Options::=--force-confold "./tmp/debs/libpam-memlock_${new_version}_$arch.deb"
check "upgraded: $new_version" test "$(status)" = "install ok installed $new_version"
check "the edited $conf survived the upgrade" \
	grep -qx 'limit = "16 MiB";' "$root$conf"
check "the new default is beside it as memlock.conf.dpkg-dist" \
	grep -q 'the default of a newer package version' "$root$conf.dpkg-dist"
check "the stacks still list pam_memlock once" sh -c \
	"[ \$(grep -c 'pam_memlock\.so' '$root$stacks') -eq 1 ] &&
	 [ \$(grep -c 'pam_memlock\.so' '$root$stacks_ni') -eq 1 ]"

# Remove: out of the stacks, the files gone, the edited conffile kept.
check "apt-get remove libpam-memlock" inroot "$root" apt-get remove -y -qq libpam-memlock
check "removed, config files kept" test "$(status)" = "deinstall ok config-files $new_version"
check "no PAM stack lists pam_memlock after remove" sh -c \
	"! grep -rq pam_memlock '$root/etc/pam.d'"
check "the module, memlockctl and the profile are gone" sh -c \
	"! find '$root/lib' '$root/usr' -name 'pam_memlock.so' -o -name memlockctl \
	   -o -path '*/pam-configs/memlock' | grep -q ."
check "the edited $conf stays after remove" \
	grep -qx 'limit = "16 MiB";' "$root$conf"

# Purge with an admin's drop-in: the conffile goes, the drop-in stays.
mkdir -p "$root/etc/security/memlock.d"
echo 'limit = "4 MiB";' >"$root/etc/security/memlock.d/site.conf"
check "dpkg --purge libpam-memlock (memlock.d holds an admin's file)" \
	inroot "$root" dpkg --purge libpam-memlock
check "purged: $conf and its .dpkg-dist are gone" sh -c \
	"[ ! -e '$root$conf' ] && [ ! -e '$root$conf.dpkg-dist' ]"
check "purged: the admin's memlock.d/site.conf stays" \
	test -f "$root/etc/security/memlock.d/site.conf"
for f in $stacks $stacks_ni; do
	check "purged: $f is as before the install" cmp "$work/before/${f##*/}" "$root$f"
done

# Install again and purge with an empty memlock.d: nothing is left.
rm -f "$root/etc/security/memlock.d/site.conf"
# --autoremove: libconfig9 came in with the package, and goes with it.
check "apt-get install, then apt-get purge --autoremove, with memlock.d empty" sh -c "
	chroot '$root' apt-get install -y -qq /tmp/debs/libpam-memlock_${new_version}_$arch.deb &&
	chroot '$root' apt-get purge --autoremove -y -qq libpam-memlock"
check "purged: the empty memlock.d is gone" test ! -e "$root/etc/security/memlock.d"
check "purged: the stacks are as before the install" sh -c \
	"cmp '$work/before/common-session' '$root$stacks' &&
	 cmp '$work/before/common-session-noninteractive' '$root$stacks_ni'"
paths >"$work/after-paths"
if diff "$work/before/paths" "$work/after-paths" >"$work/paths.diff"; then
	ok "purged: no path in the root that was not there before the install"
else
	not_ok "purged: no path in the root that was not there before the install" \
		"$(head -n 20 "$work/paths.diff")"
fi
check "purged: dpkg knows nothing of libpam-memlock" sh -c \
	"! chroot '$root' dpkg-query -W -f='\${Status}' libpam-memlock 2>/dev/null | grep -q ."
elapsed "done"
tap_end
