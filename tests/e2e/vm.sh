#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-vm: the cases that need CAP_SYS_RESOURCE (raising the HARD
# limit), in a virtual machine with real root.  qemu-system-x86_64 under TCG
# boots Debian's kernel (unpacked from its .deb, never installed) with a
# busybox initramfs built here; the VM mounts this machine's / read-only over
# virtio-9p under a tmpfs overlay.  Two ways to boot it (PML_VM_MODE):
#
#   busybox  the initramfs's busybox stays PID 1 and runs
#            tests/e2e/vm/guest.sh chrooted into the overlay; its TAP comes
#            back over the serial console, each line prefixed "PMLTAP ".
#   systemd  (tests/e2e/vm-systemd.sh) the initramfs switches into the
#            overlay and executes this machine's own systemd as PID 1, with
#            the files of tests/e2e/vm/systemd/ copied in (DefaultLimitMEMLOCK=64K,
#            the test unit) and the units that are slow over 9p or pointless
#            in the VM masked.  tests/e2e/vm/systemd-guest.sh runs after
#            multi-user.target; its TAP comes over a second serial port,
#            which nothing else writes to.
#   debian13 (tests/e2e/vm-debian13.sh) as systemd, but the 9p root is a
#            Debian 13 root made by mmdebstrap (PML_VM_ROOT), the kernel
#            is that root's (PML_VM_KERNEL_DEB, its .deb), and the guest's
#            files (PML_VM_PAYLOAD: the README, tests/e2e, the package)
#            go in with the initramfs as /pml; the guest script is
#            tests/e2e/vm/debian13-guest.sh.
#
# Environment: PML_MODULE, PML_SRCDIR, PML_BUILDDIR, PML_SYSCONFDIR (from
# make); PML_VM_CACHE, where the kernel is kept (default /var/cache/pml-vm);
# PML_VM_KERNEL_DEB, a kernel package to boot instead of this release's
# (tests/e2e/vm-measure.sh boots Debian 13's); PML_VM_GUEST, the script of
# tests/e2e/vm/ the busybox boot runs (default guest.sh);
# PML_VM_TIMEOUT, seconds the VM may run (default 150; 1200 for systemd: it
# runs 450 s on a core of its own, and ran 599 s on 2 cores under a load
# average of 60 to 80; 1500 for debian13: it ran 950 s under a load average
# of 15 to 50, beside the systemd boot);
# PML_VM_CPUS, the VM's processors (default 1).
set -u
PATH=$PATH:/usr/sbin:/sbin # modinfo, for a caller without the sbin dirs
. "$(dirname "$0")/lib.sh"

mode=${PML_VM_MODE:-busybox}
cache=${PML_VM_CACHE:-/var/cache/pml-vm}
case $mode in
busybox) vm_timeout=${PML_VM_TIMEOUT:-150} ;;
systemd) vm_timeout=${PML_VM_TIMEOUT:-1200} ;;
debian13) vm_timeout=${PML_VM_TIMEOUT:-1500} ;;
*) echo "PML_VM_MODE=$mode: busybox, systemd or debian13" >&2; exit 2 ;;
esac
# The VM's / and its guest script: this machine's, or Debian 13's.
vmroot=/
guest=systemd-guest.sh
if [ "$mode" = debian13 ]; then
	vmroot=$PML_VM_ROOT
	guest=debian13-guest.sh
	PML_MODULE= PML_SRCDIR=/pml PML_BUILDDIR=/pml PML_SYSCONFDIR=/etc
fi
qemu=${QEMU:-qemu-system-x86_64}
busybox=${BUSYBOX:-/bin/busybox}
# What the initramfs needs to reach the host's files; their dependencies
# are added from the modules' own "depends" field.
wanted_modules="virtio_pci 9pnet_virtio 9p overlay"

[ "$(id -u)" = 0 ] || tap_skip_all "needs root (the VM reads the host's / as root)"
if [ "$mode" != debian13 ]; then
	[ -n "${PML_MODULE:-}" ] && [ -f "$PML_MODULE" ] ||
		tap_skip_all "PML_MODULE is not set or missing: run through make check-vm"
	if readelf -d "$PML_MODULE" 2>/dev/null | grep -q 'lib\(a\|ub\)san'; then
		tap_skip_all "module built with sanitizers: login programs cannot load it"
	fi
fi
command -v "$qemu" >/dev/null || tap_skip_all "$qemu missing (Debian: qemu-system-x86)"
[ -x "$busybox" ] || tap_skip_all "$busybox missing (Debian: busybox-static)"
readelf -d "$busybox" 2>/dev/null | grep -q NEEDED &&
	tap_skip_all "$busybox is not static (Debian: busybox-static)"
for tool in cpio gzip xz modinfo dpkg-deb; do
	command -v $tool >/dev/null || tap_skip_all "$tool missing"
done
if [ "$mode" = systemd ]; then
	# What the guest boots and logs in with, all of it this machine's own.
	missing=
	for need in /lib/systemd/systemd:systemd /usr/bin/dbus-daemon:dbus \
		/lib/x86_64-linux-gnu/security/pam_systemd.so:libpam-systemd \
		/usr/sbin/sshd:openssh-server /usr/bin/ssh:openssh-client \
		/usr/sbin/cron:cron /usr/bin/sudo:sudo /bin/login:login \
		/usr/sbin/runuser:util-linux /usr/sbin/pam-auth-update:libpam-runtime \
		/usr/bin/python3:python3; do
		[ -e "${need%%:*}" ] || missing="$missing ${need#*:}"
	done
	[ -z "$missing" ] || tap_skip_all "the systemd VM needs Debian packages:$missing"
	# Its cases hold Debian 12's stacks and pam_limits; on another release
	# this machine's own root would be measured against them.  Debian 13
	# has a boot of its own (vm-debian13.sh).
	release=$(. /etc/os-release 2>/dev/null && echo "${ID:-}-${VERSION_ID:-}")
	[ "$release" = debian-12 ] ||
		tap_skip_all "this boot is of Debian 12's own root and this machine runs $release (vm-debian13.sh boots Debian 13)"
	[ -n "${PML_SYSCONFDIR:-}" ] ||
		tap_skip_all "PML_SYSCONFDIR is not set: run through make check-vm"
fi

# --- The kernel: Debian's package, unpacked into the cache ----------------
# Sets kroot to the directory holding boot/vmlinuz-* and lib/modules/* (or
# usr/lib/modules/*, as Debian 13 ships them), or why to the reason there is
# none.  PML_VM_KERNEL_DEB names the package instead.
fetch_kernel() {
	local deb=${PML_VM_KERNEL_DEB:-} pkg
	mkdir -p "$cache" || { why="cannot create $cache"; return 1; }
	[ -n "$deb" ] || deb=$(ls "$cache"/linux-image-*-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
	if [ -z "$deb" ]; then
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
			awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
		[ -n "$pkg" ] || { why="no linux-image-amd64 in apt's lists (apt-get update?)"; return 1; }
		(cd "$cache" && apt-get download "$pkg" >/dev/null 2>&1)
		deb=$(ls "$cache"/"$pkg"_*.deb 2>/dev/null | tail -n 1)
		[ -n "$deb" ] || { why="apt-get download $pkg failed"; return 1; }
	fi
	kroot=${deb%.deb}
	if [ ! -e "$kroot/.unpacked" ]; then
		# The files named, those of them that the package has: Debian
		# 13's has its modules under /usr, xz-compressed, and no fscache
		# folder; its tree is made to look like Debian 12's.
		local members
		members=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | grep -E \
			'^\./boot/vmlinuz-|^\./(usr/)?lib/modules/[^/]+/(modules\.builtin$|kernel/(drivers/virtio|net/9p|fs/9p|fs/netfs|fs/fscache|fs/overlayfs)/.)')
		rm -rf "$kroot" && mkdir -p "$kroot" &&
		# shellcheck disable=SC2086 # one member a word
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kroot" $members ||
			{ why="cannot unpack $deb"; return 1; }
		[ ! -d "$kroot/usr/lib/modules" ] || ln -s usr/lib "$kroot/lib"
		find "$kroot/" -name '*.ko.xz' -exec xz -d {} + ||
			{ why="cannot decompress the modules of $deb"; return 1; }
		touch "$kroot/.unpacked"
	fi
}

# module_order KVERDIR NAME...: the .ko (or, from Debian 13 on, .ko.xz)
# paths relative to KVERDIR to load, dependencies first, built-in ones left
# out.
module_order() {
	local dir=$1 name path dep
	shift
	for name in "$@"; do
		name=${name//-/_}
		case " $seen " in *" $name "*) continue ;; esac
		seen="$seen $name"
		if grep -q "/${name}\.ko$" "$dir/modules.builtin" 2>/dev/null ||
			grep -q "/${name//_/-}\.ko$" "$dir/modules.builtin" 2>/dev/null; then
			continue
		fi
		path=$(cd "$dir" && find kernel -name "$name.ko" -o -name "${name//_/-}.ko" \
			-o -name "$name.ko.xz" -o -name "${name//_/-}.ko.xz" | head -n 1)
		[ -n "$path" ] || { echo "module $name not unpacked" >&2; return 1; }
		for dep in $(modinfo -F depends "$dir/$path" | tr ',' ' '); do
			module_order "$dir" "$dep" || return 1
		done
		echo "$path"
	done
}

# make -j2 check-vm boots two VMs at once, each fetching the same kernel:
# one fetches and unpacks it while the other waits.
mkdir -p "$cache" || tap_skip_all "cannot create $cache"
{ flock 9 && fetch_kernel; } 9>"$cache/.kernel.lock" ||
	tap_skip_all "no Debian kernel for the VM: $why"
vmlinuz=$(ls "$kroot"/boot/vmlinuz-* 2>/dev/null | head -n 1)
kver=${vmlinuz##*/vmlinuz-}
kdir=$kroot/lib/modules/$kver
[ -d "$kdir" ] || kdir=$kroot/usr/lib/modules/$kver
[ -f "$vmlinuz" ] && [ -d "$kdir" ] || tap_skip_all "kernel unpacked without vmlinuz or modules"

# seed_systemd DIR: the files the systemd boot adds to the overlay, in DIR
# as they go under /: the manager drop-in, the test unit, the masks, and
# what the generator needs at boot (seed_generator).
# Masked: the units in tests/e2e/vm/systemd/masked, every unit the VM's root
# enables itself except ssh and cron (a database server, say, would slow the
# boot and prove nothing), and every generator (fstab's would wait for the
# disks of this machine's /etc/fstab; the test wants none of them).
seed_systemd() {
	local seed=$1 sys=$1/etc/systemd/system link unit gen r=${vmroot%/}
	mkdir -p "$sys/multi-user.target.wants" "$seed/etc/systemd/system.conf.d" \
		"$seed/etc/systemd/system-generators" || return 1
	cp "$e2e_dir/vm/systemd/pml-vm.conf" "$seed/etc/systemd/system.conf.d/" || return 1
	sed "s|@GUEST@|$PML_SRCDIR/tests/e2e/vm/$guest|g" "$e2e_dir/vm/systemd/pml-vm-guest.service.in" \
		>"$sys/pml-vm-guest.service" || return 1
	ln -s ../pml-vm-guest.service "$sys/multi-user.target.wants/pml-vm-guest.service"
	{
		sed 's/#.*//' "$e2e_dir/vm/systemd/masked"
		for link in "$r"/etc/systemd/system/*.wants/*; do
			[ -e "$link" ] || [ -L "$link" ] || continue
			unit=${link##*/}
			case $unit in ssh.service | cron.service) ;; *) echo "$unit" ;; esac
		done
	} | sort -u | while read -r unit; do
		[ -n "$unit" ] && ln -sfn /dev/null "$sys/$unit"
	done
	for gen in "$r"/lib/systemd/system-generators/* "$r"/usr/lib/systemd/system-generators/* \
		"$r"/etc/systemd/system-generators/*; do
		[ -e "$gen" ] || continue
		ln -sfn /dev/null "$seed/etc/systemd/system-generators/${gen##*/}"
	done
	seed_generator "$seed"
}

# seed_generator DIR: what the guests' first cases (postgres_boot_cases in
# tests/e2e/vm/postgres-case.sh) need for the generator to act at boot,
# not only at a daemon-reload: the generator itself, a policy with one unit
# rule, and the PostgreSQL cluster's instance enabled, so that the boot
# starts it under the drop-in the generator wrote at early boot.  The
# Debian 12 boot's generator is this build's, where systemd-guest.sh
# installs it later; the Debian 13 boot's is the one in the package, at
# its packaged path (the guest's apt-get install replaces it: dpkg
# overwrites a file no package owns).  The policy is where that generator
# reads it; the guest removes it after those cases, before anything else.
seed_generator() {
	local seed=$1 sys=$1/etc/systemd/system r=${vmroot%/} policy cluster deb member template
	case $mode in
	systemd)
		rm -f "$seed/etc/systemd/system-generators/pam-memlock-generator"
		install -m 0755 "$PML_BUILDDIR/pam-memlock-generator" \
			"$seed/etc/systemd/system-generators/" || return 1
		policy=$PML_SYSCONFDIR/security/memlock.conf cluster=15-main
		;;
	debian13)
		for deb in "$PML_VM_PAYLOAD"/*.deb; do
			member=$(dpkg-deb -c "$deb" | awk '$6 ~ /\/system-generators\/pam-memlock-generator$/ { print $6 }')
			[ -n "$member" ] && break
		done
		[ -n "$member" ] || { echo "no package in $PML_VM_PAYLOAD ships the generator" >&2; return 1; }
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$seed" "$member" || return 1
		policy=/etc/security/memlock.conf cluster=17-main
		;;
	esac
	mkdir -p "$seed${policy%/*}" &&
		printf '%s\n' "# check-vm's boot policy (tests/e2e/vm.sh), removed by the guest" \
			'rules = (' '  { unit = "postgresql@*.service"; limit = "2%"; mode = "set"; }' \
			');' >"$seed$policy" && chmod 0644 "$seed$policy" || return 1
	for template in "$r"/lib/systemd/system/postgresql@.service \
		"$r"/usr/lib/systemd/system/postgresql@.service; do
		[ -e "$template" ] && [ -e "$r/etc/postgresql/${cluster%-main}/main/postgresql.conf" ] ||
			continue
		rm -f "$sys/postgresql@$cluster.service"
		ln -s "${template#"$r"}" "$sys/multi-user.target.wants/postgresql@$cluster.service"
		break
	done
	return 0
}

# --- The initramfs ------------------------------------------------------------
work=$(mktemp -d /tmp/pml-vm-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
ird=$work/initramfs
mkdir -p "$ird/bin" "$ird/proc" "$ird/sys" "$ird/dev" "$ird/modules"
cp "$busybox" "$ird/bin/busybox"
cp "$e2e_dir/vm/init" "$ird/init"
chmod 0755 "$ird/init"
seen=
order=$(module_order "$kdir" $wanted_modules) || tap_skip_all "cannot work out the modules to load"
for path in $order; do
	name=${path##*/}
	name=${name%.xz}
	case $path in
	*.xz) xz -dc "$kdir/$path" >"$ird/modules/$name" ;;
	*) cp "$kdir/$path" "$ird/modules/" ;;
	esac || tap_skip_all "cannot copy $path into the initramfs"
	echo "$name" >>"$ird/modules/order"
done
{
	printf 'PML_MODULE=%q\nPML_SRCDIR=%q\nPML_BUILDDIR=%q\nPML_SYSCONFDIR=%q\nPML_VM_GUEST=%q\n' \
		"$PML_MODULE" "$PML_SRCDIR" "$PML_BUILDDIR" "${PML_SYSCONFDIR:-}" \
		"${PML_VM_GUEST:-guest.sh}"
	echo 'export PML_MODULE PML_SRCDIR PML_BUILDDIR PML_SYSCONFDIR PML_VM_GUEST'
} >"$ird/pml-env"
# no_timer_check: on a loaded host TCG's timer can miss the kernel's IO-APIC
# check, which then panics (seen here at a load average of 90).
append="console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check rdinit=/init"
serials="-serial file:$work/serial.log"
if [ "$mode" != busybox ]; then
	seed_systemd "$ird/seed" || tap_skip_all "cannot prepare the systemd boot's files"
	if [ "$mode" = debian13 ]; then
		cp -a "$PML_VM_PAYLOAD" "$ird/seed/pml" || tap_skip_all "cannot copy the guest's files"
	fi
	append="$append pml.init=systemd systemd.show_status=error systemd.log_color=0"
	serials="$serials -serial file:$work/tap.log"
fi
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz" ||
	tap_skip_all "cannot build the initramfs"

# --- Boot -----------------------------------------------------------------
serial=$work/serial.log
: >"$work/tap.log"
start=$(date +%s)
# $serials is split on purpose: one or two -serial options.
# shellcheck disable=SC2086
timeout -k 10 "$vm_timeout" "$qemu" -accel tcg -m 1024 -smp "${PML_VM_CPUS:-1}" -no-reboot \
	-nodefaults -display none -monitor none $serials \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" -append "$append" \
	-virtfs local,path="$vmroot",mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	</dev/null >"$work/qemu.log" 2>&1
qemu_status=$?
elapsed=$(($(date +%s) - start))

cat "$serial" "$work/tap.log" | tr -d '\r' | sed -n 's/^PMLTAP //p' >"$work/tap"
if grep -q '^1\.\.[0-9]' "$work/tap" && ! grep -q '^Bail out!' "$work/tap"; then
	cat "$work/tap"
	echo "# VM ($kver, TCG) ran ${elapsed}s, qemu exit $qemu_status"
	# A VM killed half way must not pass: the driver counts the missing
	# cases against the plan.
else
	echo "1..1"
	echo "not ok 1 - the VM ran the guest script (qemu exit $qemu_status after ${elapsed}s)"
	tap_diag "$work/qemu.log"
	tr -d '\r' <"$serial" | tail -n 40 | tap_diag
fi
