# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# Debian roots of a given release, used as chroots: sourced by the steps
# that build, install or test something on a Debian release this machine
# may not run.  Everything happens in a private mount and pid namespace,
# with the roots on a tmpfs: when the script ends, its roots, their mounts
# and every process started in them are gone, and this machine's own
# files are never written.
#
#   root_enter "$0" "$@"
#       The first thing a script does: runs the script again in a private
#       mount and pid namespace, and exits with its status.  In that run
#       root_enter returns, with $ROOT_WORK an empty tmpfs to make roots in.
#       Installs mmdebstrap on this machine where it is missing.
#   root_make DIR RELEASE VARIANT [PACKAGE...]
#       Makes DIR (under $ROOT_WORK) a root of Debian RELEASE ("bookworm",
#       "trixie") in mmdebstrap's VARIANT ("minbase", "buildd", ...) with
#       PACKAGEs installed, and apt's package lists kept, so that apt-get
#       install works at once.  Then prepares it as a chroot: a mount point
#       of its own, /proc (this namespace's), /dev and /sys from this
#       machine, its resolv.conf, a localhost line in /etc/hosts, and a
#       policy-rc.d that lets no package start a daemon.  Returns 1, with
#       mmdebstrap's last lines on stderr, when it fails.
#       Each RELEASE, VARIANT and set of PACKAGEs is made once and kept as a
#       tarball in $PML_ROOT_CACHE; DIR is always a fresh copy of it, to
#       change at will.  tests/run-all.sh sets PML_ROOT_CACHE for all its
#       steps, so a CI run makes each root once; without it the cache lasts
#       as long as the script.  Ask for the same PACKAGEs as another step
#       to share its root.
#   root_named DIR NAME
#       root_make with the release, variant and packages that .ci/roots
#       gives NAME: the roots tests/run-all.sh bakes in the background.
#   root_bake NAME...
#       Only puts the roots .ci/roots names into $PML_ROOT_CACHE, one after
#       the other, for a later root_named to copy (.ci/root-bake.sh); one
#       that a step has made meanwhile is left as it is.
#   root_run DIR COMMAND [ARG...]
#       COMMAND as root in DIR, with a clean environment: PATH, HOME=/root,
#       LC_ALL=C.UTF-8, DEBIAN_FRONTEND=noninteractive (more with
#       `root_run DIR env NAME=VALUE ... COMMAND`).
#
# PML_ROOT_KEEP=1 keeps the roots on disk, and says where, for a
# look after a failure.  Needs root (chroot, mount, mmdebstrap's root mode).

root_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

root_enter() {
	local work rc
	if [ -n "${PML_ROOT_NS:-}" ]; then
		ROOT_WORK=$PML_ROOT_NS/roots
		: "${PML_ROOT_CACHE:=$PML_ROOT_NS/cache}"
		export PML_ROOT_CACHE
		unset PML_ROOT_NS
		mkdir -p "$ROOT_WORK" "$PML_ROOT_CACHE" || return 1
		[ -n "${PML_ROOT_KEEP:-}" ] && return 0
		mount -t tmpfs -o mode=0755 pml-roots "$ROOT_WORK"
		return
	fi
	if ! command -v mmdebstrap >/dev/null; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			mmdebstrap >&2 || { echo "root_enter: cannot install mmdebstrap" >&2; exit 1; }
	fi
	work=$(mktemp -d /tmp/pml-root-XXXXXX) || exit 1
	PML_ROOT_NS=$work unshare --mount --pid --fork --kill-child --mount-proc \
		--propagation private -- "$BASH" "$@"
	rc=$?
	if [ -n "${PML_ROOT_KEEP:-}" ]; then
		echo "# roots kept in $work/roots" >&2
	else
		rm -rf "$work"
	fi
	exit $rc
}

root_make() {
	local dir=$1 release=$2 variant=$3 key tarball
	shift 3
	key=$(printf '%s\n' "$@" | sort -u | sha256sum | cut -c1-16)
	tarball=$PML_ROOT_CACHE/$release-$variant-$key.tar
	mkdir -p "$dir" || return 1
	# One maker per tarball, should two steps ask at once.
	(
		flock 9
		[ -f "$tarball" ] && exit 0
		root_mmdebstrap "$dir" "$release" "$variant" "$@" &&
			tar --numeric-owner --xattrs --xattrs-include='*' -C "$dir" \
				-cf "$tarball.part" . &&
			mv "$tarball.part" "$tarball" && touch "$dir/.made"
	) 9>"$tarball.lock" || return 1
	# root_bake wants the tarball only: no copy of a root another step made.
	if [ -n "${root_bake_only:-}" ]; then
		rm -rf "${dir:?}"
		return 0
	fi
	if [ -e "$dir/.made" ]; then
		rm -f "$dir/.made"
	else
		tar --numeric-owner --xattrs --xattrs-include='*' -C "$dir" -xf "$tarball" ||
			return 1
	fi
	root_prepare "$dir"
}

# mmdebstrap straight onto the tmpfs, where dpkg's fsyncs cost nothing.
root_mmdebstrap() {
	local dir=$1 release=$2 variant=$3 log=$1.mmdebstrap.log include
	shift 3
	include=$(printf '%s,' "$@")
	if ! mmdebstrap --verbose --variant="$variant" --skip=cleanup/apt/lists \
		${include:+--include="${include%,}"} "$release" "$dir" >"$log" 2>&1; then
		echo "mmdebstrap --variant=$variant $release failed:" >&2
		tail -n 15 "$log" >&2
		return 1
	fi
}

# The root is a mount point of its own, as / is: in the chroot, unshare
# --propagation and anything else that changes / then work.
root_prepare() {
	local dir=$1
	mount --bind "$dir" "$dir" &&
		mount -t proc proc "$dir/proc" &&
		mount --rbind /dev "$dir/dev" &&
		mount --rbind /sys "$dir/sys" || return 1
	rm -f "$dir/etc/resolv.conf"
	cp /etc/resolv.conf "$dir/etc/resolv.conf" || return 1
	grep -qs '^127\.0\.0\.1[[:space:]].*localhost' "$dir/etc/hosts" ||
		echo '127.0.0.1 localhost' >>"$dir/etc/hosts"
	printf '#!/bin/sh\n# root.sh: no daemon starts in this chroot\nexit 101\n' \
		>"$dir/usr/sbin/policy-rc.d" && chmod 0755 "$dir/usr/sbin/policy-rc.d"
}

# The line of .ci/roots for NAME: release, variant, packages, each @FILE
# replaced by the packages of that list.
root_spec() {
	local word
	# shellcheck disable=SC2046
	set -- $(sed 's/#.*//' "$root_top/.ci/roots" | awk -v n="$1" '$1 == n { $1 = ""; print }')
	[ $# -ge 2 ] || return 1
	for word in "$@"; do
		case $word in
		@*) sed 's/#.*//' "$root_top/${word#@}" ;;
		*) echo "$word" ;;
		esac
	done
}

root_named() {
	local spec
	spec=$(root_spec "$2") || { echo "root_named: no root \"$2\" in .ci/roots" >&2; return 1; }
	# shellcheck disable=SC2086
	root_make "$1" $spec
}

root_bake() {
	local name root_bake_only=1
	for name in "$@"; do
		root_named "$ROOT_WORK/$name" "$name" || return 1
	done
}

root_run() {
	local dir=$1
	shift
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		chroot "$dir" "$@"
}
