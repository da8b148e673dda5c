#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-vm, third boot: Debian 13 ("trixie") as a new server runs it.
# Its kernel, its systemd as PID 1 and every login program come from a
# Debian 13 root that mmdebstrap makes once into the cache; the module
# comes as the libpam-memlock package, built here in a Debian 13 build root
# from the make dist tarball and debian/ (as .ci/debian-package.sh builds
# it for Debian 12), and is installed in the VM with apt.  The VM then
# runs tests/e2e/vm/debian13-guest.sh (the README's Debian steps, every
# login path, doctor against each).  The root is the VM's / over
# virtio-9p, read-only under a tmpfs overlay: the cached root is never
# written once made.
#
# Cache (PML_VM_CACHE, default /var/cache/pml-vm), in trixie/:
#   root-HASH/   the VM's root, HASH of its package list: a new list makes
#                a new root (and the old one goes)
#   build-HASH/  the build root with debian/control's build-deps, HASH of
#                that file and the list
#   linux-image-*.deb  the root's kernel package, downloaded, not installed
# Nothing is installed on this machine; both roots are made and used in
# private mount namespaces.
set -u
PATH=$PATH:/usr/sbin:/sbin
. "$(dirname "$0")/lib.sh"

cache=${PML_VM_CACHE:-/var/cache/pml-vm}/trixie
suite=trixie
# What the cases need: the login programs (login is util-linux's on 13),
# logind and dbus for pam_systemd and the user manager, the user's bus for
# systemd-run --user (dbus-user-session: libpam-systemd recommends it, so a
# server has it), python3 for the pty login and doctor's JSON, liburing and
# libconfig for the probe and the package (no network in the VM: apt
# installs the .deb from what is there); postgresql, whose postinst makes
# the 17/main cluster, for the generator's cases
# (tests/e2e/vm/postgres-case.sh) against Debian's postgresql@.service.
vm_packages=systemd,systemd-sysv,dbus,dbus-user-session,libpam-systemd,openssh-server,openssh-client,sudo,cron,util-linux,login,passwd,python3,liburing2,libconfig11,postgresql
build_packages=liburing-dev

[ "$(id -u)" = 0 ] || tap_skip_all "needs root (mmdebstrap's root mode, chroot, the VM)"
[ -n "${PML_BUILDDIR:-}" ] && [ -n "${PML_SRCDIR:-}" ] ||
	tap_skip_all "PML_BUILDDIR or PML_SRCDIR is not set: run through make check-vm"
for tool in mmdebstrap unshare sha256sum; do
	command -v $tool >/dev/null || tap_skip_all "$tool missing (Debian: $tool)"
done

work=$(mktemp -d /tmp/pml-vm13-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
note() { echo "$1: $(($(date +%s) - start)) s" >>"$work/notes"; }

# cached_root NAME HASH MMDEBSTRAP-ARGS...: the path of $cache/NAME-HASH,
# made with mmdebstrap first if missing (into a temporary name, renamed
# when complete: a run killed half way leaves no root that looks made).
cached_root() {
	local name=$1 hash=$2 dir tmp
	shift 2
	dir=$cache/$name-$hash
	if [ ! -d "$dir" ]; then
		tmp=$(mktemp -d "$cache/.$name-XXXXXX") || return 1
		if ! mmdebstrap --quiet "$@" "$suite" "$tmp" >"$work/$name.log" 2>&1; then
			rm -rf "$tmp"
			return 1
		fi
		rm -rf "$cache/$name"-*
		mv "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$dir"
}
hash_of() { printf '%s\n' "$@" | cat - "${files[@]}" | sha256sum | cut -c1-16; }

mkdir -p "$cache" || tap_skip_all "cannot create $cache"
# The kernel: the package that linux-image-amd64 depends on, downloaded
# inside the root while apt's lists are there, and moved out to the cache.
kernel_hook='pkg=$(chroot "$1" apt-cache depends linux-image-amd64 |
	awk "/Depends: linux-image-[0-9]/ { print \$2; exit }") &&
	chroot "$1" sh -c "cd /tmp && apt-get download $pkg" &&
	mv "$1"/tmp/linux-image-*.deb "$PML_VM_KCACHE"/'
export PML_VM_KCACHE=$cache
files=()
root=$(cached_root root "$(hash_of "$vm_packages" "$kernel_hook")" \
	--variant=minbase --include="$vm_packages" --customize-hook="$kernel_hook") ||
	tap_skip_all "mmdebstrap $suite failed: $(tail -n 3 "$work/root.log" 2>/dev/null)"
kdeb=$(ls "$cache"/linux-image-*-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
[ -n "$kdeb" ] || tap_skip_all "no Debian 13 kernel package in $cache"
note "the Debian 13 root"

payload=$work/payload
mkdir -p "$payload/tests"
# package_from_tree: the package and the probe into $payload, built for
# Debian 13 in a build root of its own (buildd, the build-deps of
# debian/control and liburing), both kept in the cache.
package_from_tree() {
	files=("$PML_SRCDIR/debian/control")
	broot=$(cached_root build "$(hash_of "$build_packages")" --variant=buildd \
		--include="$build_packages" \
		--customize-hook='mkdir -p "$1/tmp/pml"' \
		--customize-hook="copy-in $PML_SRCDIR/debian /tmp/pml" \
		--customize-hook='chroot "$1" apt-get build-dep -y -q -P nocheck /tmp/pml' \
		--customize-hook='rm -rf "$1/tmp/pml"') ||
		tap_skip_all "mmdebstrap --variant=buildd $suite failed: $(tail -n 3 "$work/build.log" 2>/dev/null)"
	note "the Debian 13 build root"

	# The package, built for Debian 13.
	upstream=$(sed -n 's/^AC_INIT(\[pam_memlock\], \[\([^]]*\)\].*/\1/p' "$PML_SRCDIR/configure.ac")
	make -C "$PML_BUILDDIR" distdir distdir="$work/pam_memlock-$upstream" >"$work/dist.log" 2>&1 ||
		tap_skip_all "make distdir failed: $(tail -n 3 "$work/dist.log")"
	# build_package: in a private mount namespace, the build root under an
	# overlay whose changes go to $work; dpkg-buildpackage -b without the
	# build-time tests (the suite runs them; this boot tests the installed
	# package), and the io_uring probe against Debian 13's liburing.
	build_package() {
		local top=$work/overlay src=/build/pam-memlock-$upstream
		mkdir -p "$top/upper" "$top/work" "$top/root" &&
			mount -t overlay -o "lowerdir=$broot,upperdir=$top/upper,workdir=$top/work" \
				pml-build "$top/root" &&
			mount -t proc proc "$top/root/proc" && mount --rbind /dev "$top/root/dev" &&
			mkdir -p "$top/root/build" &&
			cp -a "$work/pam_memlock-$upstream" "$top/root$src" &&
			cp -a "$PML_SRCDIR/debian" "$top/root$src/" &&
			env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
				DEB_BUILD_OPTIONS=nocheck DEB_BUILD_PROFILES=nocheck chroot "$top/root" sh -c \
				"cd $src && dpkg-buildpackage -us -uc -b &&
				 gcc -O2 -Wall -o /build/pml_uring_probe tests/e2e/uring_probe.c -luring" &&
			cp "$top"/root/build/libpam-memlock_*.deb "$top"/root/build/memlockctl_*.deb \
				"$top/root/build/pml_uring_probe" "$payload/"
	}
	export -f build_package
	export work broot upstream payload PML_SRCDIR
	# The same sources in the same build root build the same package: kept in
	# $cache/deb-HASH, HASH of the dist tree (less tests/, which a build without
	# its tests does not read, but for the probe's source), debian/ and the
	# build root's name.
	tree_hash() {
		(cd "$work" && find "pam_memlock-$upstream" -type f \( ! -path '*/tests/*' -o \
			-name uring_probe.c \) -print0 | sort -z | xargs -0 sha256sum
		 cd "$PML_SRCDIR" && find debian -type f -print0 | sort -z | xargs -0 sha256sum
		 echo "$broot") | sha256sum | cut -c1-16
	}
	debs=$cache/deb-$(tree_hash)
	if [ -d "$debs" ]; then
		cp "$debs"/* "$payload/"
		note "the package, built before for the same sources"
	else
		unshare --mount --propagation private bash -c build_package >"$work/deb.log" 2>&1 ||
			tap_skip_all "the Debian 13 package did not build: $(tail -n 5 "$work/deb.log" | tr '\n' ' ')"
		rm -rf "$cache"/deb-* && mkdir -p "$debs" && cp "$payload"/* "$debs/"
		note "the package built"
	fi
}

# PML_VM_DEBS=DIR: the package as .ci/debian-package.sh built it for
# Debian 13 from this tree (tests/run-all.sh hands it on): no build root,
# no second build; the probe is then this build's, which runs on Debian
# 13's libc and liburing as it does on 12's.
if [ -n "${PML_VM_DEBS:-}" ]; then
	cp "$PML_VM_DEBS"/libpam-memlock_*.deb "$PML_VM_DEBS"/memlockctl_*.deb "$payload/" &&
		cp "$PML_BUILDDIR/tests/e2e/uring_probe" "$payload/pml_uring_probe" ||
		tap_skip_all "no Debian 13 package in PML_VM_DEBS=$PML_VM_DEBS, or no tests/e2e/uring_probe"
	note "the package, from PML_VM_DEBS"
else
	package_from_tree
fi

# What the guest reads: the README (its Debian steps), the e2e scripts.
cp "$PML_SRCDIR/README" "$payload/" && cp -a "$PML_SRCDIR/tests/e2e" "$payload/tests/" &&
	mv "$payload/pml_uring_probe" "$payload/tests/e2e/uring_probe" ||
	tap_skip_all "cannot copy the guest's files"
sed 's/^/# /' "$work/notes"
PML_VM_MODE=debian13 PML_VM_ROOT=$root PML_VM_KERNEL_DEB=$kdeb PML_VM_PAYLOAD=$payload \
	bash "$(dirname "$0")/vm.sh" "$@"
