#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-slurm: batch jobs through a real Slurm cluster on one host.
# Debian's munged, slurmctld and slurmd run on 127.0.0.1 in private mount,
# network, PID and UTS namespaces, with private passwd, group, hosts, PAM,
# munge and Slurm files bind-mounted over /etc there only, and their
# spool, state and logs in a mktemp directory; nothing of this machine's
# /etc changes.  The cases are tests/slurm/cases.sh, run twice:
#
#   Debian 12  this machine's own Slurm (slurm-wlm 22.05) and the module
#              and memlockctl this build made;
#   Debian 13  a Debian 13 root from .ci/root.sh (.ci/roots: trixie-slurm; the tarball
#              kept in $PML_ROOT_CACHE, default /var/cache/pml-roots, until
#              its package list changes), its Slurm (24.11), chrooted, and
#              the module and memlockctl of Debian 13's packages where
#              $PML_SLURM_DEBS/trixie has them (tests/run-all.sh gives the
#              ones .ci/debian-package.sh built), or else built in the root
#              from `make distdir` (kept there too until their sources
#              change).
#
# No cgroups: 22.05 with CgroupPlugin=cgroup/v1 and proctrack/linuxproc,
# 24.11 with CgroupPlugin=disabled; the share of a job's memory under
# task/cgroup is a case of the systemd VM (make check-vm).  Each release
# is skipped, with the reason, where a package, mmdebstrap or a namespace is
# missing.  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root_lib=$here/../../.ci/root.sh
tap_n=0

skip_release() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1: every case # SKIP $2"; }
# run_cases RELEASE TIMEOUT COMMAND...: COMMAND runs cases.sh; its TAP is
# passed on and counted.
run_cases() {
	local release=$1 limit=$2 out
	shift 2
	out=$(mktemp /tmp/pml-slurm-tap-XXXXXX)
	SLURM_RELEASE=$release SLURM_TAP_START=$tap_n timeout -k 5 "$limit" "$@" \
		>"$out" 2>"$out.err"
	echo "# $release: cases.sh exit $?"
	cat "$out"
	sed 's/^/# stderr: /' "$out.err" | tail -n 20
	tap_n=$((tap_n + $(grep -c -E '^(not )?ok ' "$out")))
	# A run cut short (a bail-out, the timeout) fails one case more.
	grep -q "^# $release: every case done" "$out" ||
		{ tap_n=$((tap_n + 1)); echo "not ok $tap_n - $release: cases.sh ran to the end"; }
	rm -f "$out" "$out.err"
}
namespaces=(unshare --mount --net --pid --uts --fork --kill-child --mount-proc
	--propagation private --)

# unrunnable: why the cases cannot run on this machine, or nothing.
unrunnable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (private mounts over /etc, slurmd as root)"
	elif [ -z "${PML_MODULE:-}" ] || [ ! -f "$PML_MODULE" ] ||
		[ ! -x "${PML_BUILDDIR:-}/memlockctl" ]; then
		echo "PML_MODULE or memlockctl is not set or missing: run through make check-slurm"
	elif readelf -d "$PML_MODULE" 2>/dev/null | grep -q 'lib\(a\|ub\)san'; then
		echo "module built with sanitizers: slurmstepd cannot load it"
	elif ! "${namespaces[@]}" true 2>/dev/null; then
		echo "unshare of mount/net/pid/uts namespaces refused here"
	elif ! prlimit --memlock=8388608:8388608 true 2>/dev/null; then
		echo "cannot start slurmd at an 8 MiB memlock limit here"
	fi
}
why=$(unrunnable)
[ -z "$why" ] || { echo "1..0 # SKIP $why"; exit 0; }

# --- Debian 12: this machine --------------------------------------------------
debian12() {
	local missing="" need work
	for need in munged:munge slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client \
		setpriv:util-linux ip:iproute2 bc:bc; do
		command -v "${need%%:*}" >/dev/null || missing="$missing ${need#*:}"
	done
	if [ -n "$missing" ]; then
		skip_release "Debian 12" "missing Debian packages:$missing"
		return
	fi
	work=$(mktemp -d /tmp/pml-slurm-XXXXXX) && chmod 0755 "$work" || return
	run_cases "Debian $(cat /etc/debian_version 2>/dev/null), $(slurmd -V)" 240 \
		"${namespaces[@]}" env SLURM_WORK="$work" SLURM_MODULE="$PML_MODULE" \
		SLURM_PAM="$PML_SRCDIR/conf/pam.d/slurm" SLURM_CGROUP=CgroupPlugin=cgroup/v1 \
		SLURM_CTL="$PML_BUILDDIR/memlockctl" \
		SLURM_RECIPE="$PML_SRCDIR/conf/examples/slurm.conf" bash "$here/cases.sh"
	rm -rf "$work"
}

# --- Debian 13: a root of its own ---------------------------------------------
# sources_sum DIR PATH...: a digest of the files the core, PATHs and the
# build files under DIR are made of, to name what is built from them.
sources_sum() {
	local dir=$1
	shift
	(cd "$dir" && find pam_memlock/core "$@" configure.ac Makefile.am -type f |
		LC_ALL=C sort | xargs cat | md5sum | cut -c1-16)
}
# debian13_build: $module and $ctl, the module and memlockctl as Debian 13
# builds them from the dist tree in $root, against its own libpam and
# libconfig; kept beside the root's tarball until what they are built from
# changes (configure and make take minutes in a busy chroot).
debian13_build() {
	local targets=
	if ! "${PML_MAKE:-make}" -C "$PML_BUILDDIR" distdir distdir="$root$src" >/dev/null; then
		tap_n=$((tap_n + 1))
		echo "not ok $tap_n - Debian 13: make distdir for the Debian 13 build"
		return 1
	fi
	module=$PML_ROOT_CACHE/trixie-pam_memlock-$(sources_sum "$root$src" pam_memlock/module).so
	ctl=$PML_ROOT_CACHE/trixie-memlockctl-$(sources_sum "$root$src" pam_memlock/memlockctl)
	[ -s "$module" ] || targets=pam_memlock.la
	[ -s "$ctl" ] || targets="$targets memlockctl"
	if [ -n "$targets" ]; then
		if ! root_run "$root" sh -c "cd $src && ./configure -q && make -s -j2 $targets" \
			>"$ROOT_WORK/build.log" 2>&1; then
			tap_n=$((tap_n + 1))
			echo "not ok $tap_n - Debian 13: $targets build in the Debian 13 root"
			tail -n 20 "$ROOT_WORK/build.log" | sed 's/^/# /'
			return 1
		fi
		[ -s "$module" ] ||
			{ cp "$root$src/.libs/pam_memlock.so" "$module.new" && mv "$module.new" "$module"; }
		[ -s "$ctl" ] || { cp "$root$src/memlockctl" "$ctl.new" && mv "$ctl.new" "$ctl"; }
	fi
}
debian13() {
	local root=$ROOT_WORK/trixie src=/build/pam_memlock t0 module ctl lib_deb ctl_deb
	t0=$(date +%s)
	# Slurm and munge, ip and the module's build: the trixie-slurm line of
	# .ci/roots, which tests/run-all.sh makes in the background.
	if ! root_named "$root" trixie-slurm 2>"$ROOT_WORK/trixie.err"; then
		skip_release "Debian 13" "no Debian 13 root: $(tail -n 1 "$ROOT_WORK/trixie.err")"
		return
	fi
	echo "# Debian 13 root ready $(($(date +%s) - t0)) s after the start"
	mkdir -p "$root/build" "$root/pml" && mkdir -m 0755 "$root/work" || return
	lib_deb=$(compgen -G "${PML_SLURM_DEBS:-/nonexistent}/trixie/libpam-memlock_*.deb" | head -n 1)
	ctl_deb=$(compgen -G "${PML_SLURM_DEBS:-/nonexistent}/trixie/memlockctl_*.deb" | head -n 1)
	if [ -n "$lib_deb" ] && [ -n "$ctl_deb" ]; then
		# The module as Debian 13's package builds it, as an admin
		# installs it: the .debs of .ci/debian-package.sh.
		if ! { mkdir -p "$ROOT_WORK/debs" && dpkg-deb -x "$lib_deb" "$ROOT_WORK/debs" &&
			dpkg-deb -x "$ctl_deb" "$ROOT_WORK/debs"; }; then
			tap_n=$((tap_n + 1))
			echo "not ok $tap_n - Debian 13: unpack the packages of $PML_SLURM_DEBS/trixie"
			return
		fi
		module=$(find "$ROOT_WORK/debs" -name pam_memlock.so) ctl=$ROOT_WORK/debs/usr/sbin/memlockctl
	else
		debian13_build || return
	fi
	cp "$module" "$root/pml/pam_memlock.so" && cp "$ctl" "$root/pml/memlockctl"
	echo "# the module and memlockctl ready in the Debian 13 root $(($(date +%s) - t0)) s after the start"
	cp "$here/cases.sh" "$PML_SRCDIR/conf/pam.d/slurm" "$root/pml/" &&
		cp "$PML_SRCDIR/conf/examples/slurm.conf" "$root/pml/recipe-slurm.conf"
	run_cases "Debian $(cat "$root/etc/debian_version"), $(root_run "$root" slurmd -V)" 240 \
		"${namespaces[@]}" bash -c 'mount -t proc proc "$1/proc" &&
			exec chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
			SLURM_RELEASE="$SLURM_RELEASE" SLURM_TAP_START="$SLURM_TAP_START" \
			SLURM_WORK=/work SLURM_MODULE=/pml/pam_memlock.so \
			SLURM_PAM=/pml/slurm SLURM_CGROUP=CgroupPlugin=disabled \
			SLURM_CTL=/pml/memlockctl SLURM_RECIPE=/pml/recipe-slurm.conf bash /pml/cases.sh' \
		sh "$root"
}

# The Debian 13 root, in the private mount namespace root.sh makes: from
# here on this script runs in it.
if [ -n "${PML_SLURM_ONLY_12:-}" ]; then
	why13="PML_SLURM_ONLY_12 is set"
elif [ ! -f "$root_lib" ]; then
	why13="$root_lib is missing (a dist tree has no .ci)"
else
	why13=
	# shellcheck source=../../.ci/root.sh
	. "$root_lib"
	: "${PML_ROOT_CACHE:=/var/cache/pml-roots}"
	export PML_ROOT_CACHE
	mkdir -p "$PML_ROOT_CACHE"
	root_enter "$0" "$@"
fi
debian12
if [ -n "$why13" ]; then
	skip_release "Debian 13" "$why13"
else
	debian13
fi
echo "1..$tap_n"
