#!/usr/bin/env bash
# make check-vm: the cases that need CAP_SYS_RESOURCE (raising the HARD
# limit), in a virtual machine with real root.  qemu-system-x86_64 under TCG
# boots Debian's kernel (unpacked from its .deb, never installed) with a
# busybox initramfs built here; the VM mounts this machine's / read-only over
# virtio-9p under a tmpfs overlay and runs tests/e2e/vm/guest.sh, whose TAP
# comes back over the serial console and is printed here.
#
# Environment: PML_MODULE, PML_SRCDIR, PML_BUILDDIR (from make);
# PML_VM_CACHE, where the kernel is kept (default /var/cache/pml-vm);
# PML_VM_TIMEOUT, seconds the VM may run (default 150).
set -u
PATH=$PATH:/usr/sbin:/sbin # modinfo, for a caller without the sbin dirs
. "$(dirname "$0")/lib.sh"

cache=${PML_VM_CACHE:-/var/cache/pml-vm}
vm_timeout=${PML_VM_TIMEOUT:-150}
qemu=${QEMU:-qemu-system-x86_64}
busybox=${BUSYBOX:-/bin/busybox}
# What the initramfs needs to reach the host's files; their dependencies
# are added from the modules' own "depends" field.
wanted_modules="virtio_pci 9pnet_virtio 9p overlay"

[ "$(id -u)" = 0 ] || tap_skip_all "needs root (the VM reads the host's / as root)"
[ -n "${PML_MODULE:-}" ] && [ -f "$PML_MODULE" ] ||
	tap_skip_all "PML_MODULE is not set or missing: run through make check-vm"
if readelf -d "$PML_MODULE" 2>/dev/null | grep -q 'lib\(a\|ub\)san'; then
	tap_skip_all "module built with sanitizers: login programs cannot load it"
fi
command -v "$qemu" >/dev/null || tap_skip_all "$qemu missing (Debian: qemu-system-x86)"
[ -x "$busybox" ] || tap_skip_all "$busybox missing (Debian: busybox-static)"
readelf -d "$busybox" 2>/dev/null | grep -q NEEDED &&
	tap_skip_all "$busybox is not static (Debian: busybox-static)"
for tool in cpio gzip modinfo dpkg-deb; do
	command -v $tool >/dev/null || tap_skip_all "$tool missing"
done

# --- The kernel: Debian's package, unpacked into the cache ----------------
# Sets kroot to the directory holding boot/vmlinuz-* and lib/modules/*, or
# why to the reason there is none.
fetch_kernel() {
	local deb pkg
	mkdir -p "$cache" || { why="cannot create $cache"; return 1; }
	deb=$(ls "$cache"/linux-image-*-amd64_*.deb 2>/dev/null | sort -V | tail -n 1)
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
		rm -rf "$kroot" && mkdir -p "$kroot" &&
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$kroot" --wildcards \
			'./boot/vmlinuz-*' './lib/modules/*/modules.builtin' \
			'./lib/modules/*/kernel/drivers/virtio/*' \
			'./lib/modules/*/kernel/net/9p/*' './lib/modules/*/kernel/fs/9p/*' \
			'./lib/modules/*/kernel/fs/netfs/*' './lib/modules/*/kernel/fs/fscache/*' \
			'./lib/modules/*/kernel/fs/overlayfs/*' || { why="cannot unpack $deb"; return 1; }
		touch "$kroot/.unpacked"
	fi
}

# module_order KVERDIR NAME...: the .ko paths (relative to KVERDIR) to load,
# dependencies first, built-in ones left out.
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
		path=$(cd "$dir" && find kernel -name "$name.ko" -o -name "${name//_/-}.ko" | head -n 1)
		[ -n "$path" ] || { echo "module $name not unpacked" >&2; return 1; }
		for dep in $(modinfo -F depends "$dir/$path" | tr ',' ' '); do
			module_order "$dir" "$dep" || return 1
		done
		echo "$path"
	done
}

fetch_kernel || tap_skip_all "no Debian kernel for the VM: $why"
vmlinuz=$(ls "$kroot"/boot/vmlinuz-* 2>/dev/null | head -n 1)
kver=${vmlinuz##*/vmlinuz-}
kdir=$kroot/lib/modules/$kver
[ -f "$vmlinuz" ] && [ -d "$kdir" ] || tap_skip_all "kernel unpacked without vmlinuz or modules"

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
	cp "$kdir/$path" "$ird/modules/"
	echo "${path##*/}" >>"$ird/modules/order"
done
{
	printf 'PML_MODULE=%q\nPML_SRCDIR=%q\nPML_BUILDDIR=%q\n' \
		"$PML_MODULE" "$PML_SRCDIR" "$PML_BUILDDIR"
	echo 'export PML_MODULE PML_SRCDIR PML_BUILDDIR'
} >"$ird/pml-env"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz" ||
	tap_skip_all "cannot build the initramfs"

# --- Boot -----------------------------------------------------------------
serial=$work/serial.log
start=$(date +%s)
timeout -k 10 "$vm_timeout" "$qemu" -accel tcg -m 1024 -smp 1 -no-reboot \
	-nodefaults -display none -monitor none -serial "file:$serial" \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1 rdinit=/init" \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	</dev/null >"$work/qemu.log" 2>&1
qemu_status=$?
elapsed=$(($(date +%s) - start))

tr -d '\r' <"$serial" | sed -n 's/^PMLTAP //p' >"$work/tap"
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
