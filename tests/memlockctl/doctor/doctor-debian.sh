#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor against Debian's own files, of the release this runs
# on (Debian 12 or 13): the packages are fetched with apt-get download
# (cached per release in PML_DOCTOR_CACHE, /var/cache/pml-doctor by
# default, reused when present), unpacked into a root laid out as that
# release lays out a machine (merged /usr: /lib a symlink to usr/lib), the
# module put beside libpam's own, common-* generated there by the real
# pam-auth-update with pam_memlock's profile, and doctor run with --root.
# Nothing of this machine is written: pam-auth-update runs in a private
# mount namespace with a scratch debconf.  Prints TAP; skips, with the
# reason, where the registry cannot be reached.
set -u

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
src=${PML_SRCDIR:?run with make check}
release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-unknown}")
cache=${PML_DOCTOR_CACHE:-/var/cache/pml-doctor}/$release
packages="openssh-server login util-linux sudo cron systemd libpam-runtime
	libpam0g libpam-modules libpam-modules-bin libpam-systemd gdm3 lightdm xrdp
	libpam-gnome-keyring"
cases=18
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

skip_rest() {
	while [ "$n" -lt "$cases" ]; do
		n=$((n + 1))
		echo "ok $n - doctor on Debian's files $n # SKIP $1"
	done
	exit 0
}

echo "1..$cases"
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
	skip_rest "apt-get and dpkg-deb are not installed (not Debian)"
[ "$(id -u)" = 0 ] || skip_rest "the policy must be owned by root: run as root"
command -v pam-auth-update >/dev/null ||
	skip_rest "pam-auth-update is not installed"
unshare -m --propagation private true 2>/dev/null ||
	skip_rest "unshare -m is not permitted here"

# doctor looks for modules in /lib/TRIPLET/security with the triplet of
# its build: the packages are those of that architecture (an i386 build
# checks an i386 root).
triplet=${PML_MULTIARCH:-x86_64-linux-gnu}
case $triplet in
x86_64-linux-gnu) arch=amd64 ;;
i386-linux-gnu) arch=i386 ;;
aarch64-linux-gnu) arch=arm64 ;;
s390x-linux-gnu) arch=s390x ;;
*) skip_rest "no Debian architecture known for the build's triplet $triplet" ;;
esac

# 1. Fetch what the cache lacks.
mkdir -p "$cache" || skip_rest "cannot create $cache"
missing=
for p in $packages; do
	ls "$cache/${p}_"*"_$arch.deb" "$cache/${p}_"*_all.deb >/dev/null 2>&1 ||
		missing="$missing $p:$arch"
done
if [ -n "$missing" ]; then
	(cd "$cache" && apt-get download $missing) >"$cache/download.log" 2>&1 ||
		skip_rest "apt-get download failed (no registry?): $(tail -1 "$cache/download.log")"
fi
ok "the packages are in $cache"

scratch=$(mktemp -d /tmp/pml-doctor-deb-XXXXXX) || exit 99
# PML_DOCTOR_KEEP=1 keeps the root (for benchmarks: see the README).
[ -n "${PML_DOCTOR_KEEP:-}" ] && echo "# root kept in $scratch/root" ||
	trap 'rm -rf "$scratch"' EXIT
root=$scratch/root
mkdir -p "$root"

# 2. Unpack every package into the root, as dpkg would leave it on a
# merged-/usr machine, which both releases are: the symlinks their
# installers make, kept when a package ships files under /lib.
for d in bin sbin lib lib64; do
	mkdir -p "$root/usr/$d" && ln -s "usr/$d" "$root/$d"
done
unpacked=true
for deb in "$cache"/*_"$arch".deb "$cache"/*_all.deb; do
	dpkg-deb --fsys-tarfile "$deb" | tar -x --keep-directory-symlink -C "$root" ||
		unpacked=false
done
if $unpacked && [ -f "$root/etc/pam.d/sshd" ] && [ -f "$root/usr/share/pam/common-session" ]; then
	ok "the packages unpack into a root"
else
	not_ok "the packages unpack into a root"
	skip_rest "no root to check"
fi

# 3. What the postinsts do that matters here: libpam-runtime's copies the
# common-* templates and writes the stacks with pam-auth-update --package
# --force (what the postinst runs on a fresh install); our package adds its
# profile and the module and runs it again, the admin installs the policy.
cp "$root"/usr/share/pam/common-auth "$root"/usr/share/pam/common-account \
	"$root"/usr/share/pam/common-password "$root"/usr/share/pam/common-session \
	"$root"/usr/share/pam/common-session-noninteractive "$root/etc/pam.d/"
install -m 0644 "$src/conf/memlock.conf" -D "$root/etc/security/memlock.conf"
# The module beside libpam's own pam_unix.so: /lib/<triplet>/security on
# Debian 12, /usr/lib/<triplet>/security on 13.
# (The newest libpam-modules of the cache, which an update may have left
# holding two.)
pam_modules=$(ls "$cache"/libpam-modules_*_"$arch".deb | sort -V | tail -n 1)
moddir=$(dpkg-deb -c "$pam_modules" | awk '/\/pam_unix\.so$/ { print $NF }')
install -m 0644 /dev/null "$root/${moddir%/*}/pam_memlock.so"
mkdir -p "$scratch/debconf" "$root/var/lib/pam"
pam_auth_update() {
	unshare -m --propagation private sh -c '
		mount --bind "$1" /var/cache/debconf &&
		DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
			pam-auth-update --root "$2" --package --force </dev/null' sh "$scratch/debconf" "$root" \
		>>"$scratch/pam-auth-update.log" 2>&1
}
# First the stacks as they are without our profile, then the profile put
# where the package puts it, not yet enabled.
pam_auth_update
cp "$src/conf/pam-configs/memlock" "$root/usr/share/pam-configs/memlock"
# The profile shipped but not enabled: the paths common-session covers get
# pam-auth-update, and only sshd and cron (pam_limits after it) and runuser
# an edit of their own.
"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	>"$scratch/before.json" 2>"$scratch/before.err"
got=$("${PML_PYTHON:-python3}" -c '
import json, sys
paths = {p["service"]: p for p in json.load(open(sys.argv[1]))["paths"]}
tool = lambda s: paths[s]["fix"].startswith("run `pam-auth-update --enable memlock`")
print(" ".join(s for s in ("login", "su", "sudo", "sudo-i", "systemd-user") if tool(s)), "/",
      " ".join(s for s in ("sshd", "cron", "runuser") if paths[s]["fix"].startswith("add ")))' \
	"$scratch/before.json" 2>&1)
want="login su sudo sudo-i systemd-user / sshd cron runuser"
if [ "$got" = "$want" ]; then
	ok "profile not enabled: pam-auth-update --enable for the paths common-session covers, edits for the rest"
else
	not_ok "profile not enabled: pam-auth-update --enable for the paths common-session covers, edits for the rest" \
		"want: $want" "got:  $got"
fi
pam_auth_update
# The postinst then drops the copies --force keeps.
rm -f "$root"/etc/pam.d/*.pam-old
if grep -q pam_memlock "$root/etc/pam.d/common-session" &&
   grep -q pam_memlock "$root/etc/pam.d/common-session-noninteractive"; then
	ok "pam-auth-update puts pam_memlock in both common-session stacks"
else
	not_ok "pam-auth-update puts pam_memlock in both common-session stacks" \
		"$(cat "$scratch/pam-auth-update.log")"
fi

# The line number of the first stack line (not a comment) naming MODULE.
line_of() {
	awk -v m="$2" '!/^[ \t]*#/ && index($0, m) { print NR; exit }' "$root$1"
}

"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	>"$scratch/all.json" 2>"$scratch/all.err"
status=$?

# verdict_of SERVICE: the verdict doctor gave SERVICE, from the JSON.
verdict_of() {
	"${PML_PYTHON:-python3}" -c '
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["paths"]:
    if p["service"] == sys.argv[2]:
        print(p["verdict"], p["fix"] or "")
        break
else:
    print("absent")' "$scratch/all.json" "$1"
}

# 4-5. sshd and cron: Debian runs pam_limits after common-session there.
# Debian 12's Linux-PAM (1.5) starts it from PID 1's limits, so it
# overrides the policy; from 1.7.0 (Debian 13) it leaves a limit that no
# limits.conf line names alone unless given set_all (libpam-modules'
# NEWS.Debian), and the policy stands.
pam_version=$(dpkg-deb -f "$pam_modules" Version)
for svc in sshd cron; do
	line=$(line_of /etc/pam.d/$svc pam_limits.so)
	if dpkg --compare-versions "$pam_version" lt 1.7.0; then
		desc="$svc is overridden by pam_limits at /etc/pam.d/$svc:$line, with the fix"
		want="overridden add \"session optional pam_memlock.so\" to /etc/pam.d/$svc, right after line $line (pam_limits)"
	else
		desc="$svc is ok: Linux-PAM $pam_version's pam_limits at line $line leaves the limit"
		want="ok "
	fi
	got=$(verdict_of $svc)
	if [ "$got" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "want: $want" "got:  $got"
	fi
done

# 6-10. The stacks where common-session comes after pam_limits.
for svc in login su sudo sudo-i systemd-user; do
	got=$(verdict_of $svc)
	if [ "$got" = "ok " ]; then
		ok "$svc is ok with the module from pam-auth-update"
	else
		not_ok "$svc is ok with the module from pam-auth-update" "got: $got"
	fi
done

# 11. runuser has no common-session at all, and doctor says so.
got=$(verdict_of runuser)
line=$(line_of /etc/pam.d/runuser pam_limits.so)
want="missing add \"session optional pam_memlock.so\" to /etc/pam.d/runuser, right after line $line (pam_limits): this stack includes none of common-session, common-session-noninteractive, so the line there does not reach it"
if [ "$got" = "$want" ]; then
	ok "runuser is missing the module, with the fix"
else
	not_ok "runuser is missing the module, with the fix" "want: $want" "got:  $got"
fi

# 12. Some path is not ok, so doctor exits 1.
if [ "$status" = 1 ]; then
	ok "doctor exits 1 when a path is not ok"
else
	not_ok "doctor exits 1 when a path is not ok" "status $status" "$(cat "$scratch/all.err")"
fi

# 13. The admin's fix for sshd and cron: the line after pam_limits.
for svc in sshd cron; do
	line=$(line_of /etc/pam.d/$svc pam_limits.so)
	sed -i "${line}a session optional pam_memlock.so" "$root/etc/pam.d/$svc"
done
"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	--service sshd --service cron >"$scratch/all.json" 2>&1
status=$?
if [ "$(verdict_of sshd)" = "ok " ] && [ "$(verdict_of cron)" = "ok " ] && [ "$status" = 0 ]; then
	ok "after the fix sshd and cron are ok, and doctor exits 0"
else
	not_ok "after the fix sshd and cron are ok, and doctor exits 0" \
		"sshd: $(verdict_of sshd)" "cron: $(verdict_of cron)" "status $status"
fi

# 14. Which pam_limits doctor models, told by the root's libpam (the root
# has no dpkg status: its packages are unpacked, not installed).
if dpkg --compare-versions "$pam_version" lt 1.7.0; then
	want=debian-pid1
else
	want=debian
fi
got=$("${PML_PYTHON:-python3}" -c 'import json, sys; print(json.load(open(sys.argv[1]))["models"]["pam_limits"])' \
	"$scratch/all.json" 2>&1)
if [ "$got" = "$want" ]; then
	ok "doctor models Linux-PAM $pam_version's pam_limits as \"$want\""
else
	not_ok "doctor models Linux-PAM $pam_version's pam_limits as \"$want\"" "got: $got"
fi

# 15. Speed: the whole of Debian's pam.d, 20 runs (the number is for the
# log, not a pass mark: timing tests fail on busy machines).
start=$(date +%s%N)
for i in $(seq 20); do
	"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf >/dev/null 2>&1
done
end=$(date +%s%N)
ok "the full Debian pam.d took $(( (end - start) / 20000000 )) ms a run (20 runs)"

# 17. The display managers' stacks list pam_limits before common-session,
# where pam-auth-update put the line.  A greeter's stack is ok where it
# includes common-session too (gdm's, in Debian 12), else a greeter.
"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	>"$scratch/all.json" 2>"$scratch/all.err"
# greeter_want SERVICE: what a greeter's stack should get, from its file.
greeter_want() {
	if grep -q '^@include[[:space:]]\+common-session' "$root/etc/pam.d/$1"; then
		echo "ok "
	else
		echo "greeter "
	fi
}
got=
for svc in gdm-password gdm-autologin lightdm lightdm-autologin xrdp-sesman; do
	[ "$(verdict_of $svc)" = "ok " ] || got="$got $svc: $(verdict_of $svc);"
done
for svc in gdm-launch-environment lightdm-greeter; do
	[ "$(verdict_of $svc)" = "$(greeter_want $svc)" ] || got="$got $svc: $(verdict_of $svc);"
done
if [ -z "$got" ]; then
	ok "gdm's, lightdm's and xrdp's stacks are ok with the module from pam-auth-update, the greeters as their stacks say"
else
	not_ok "gdm's, lightdm's and xrdp's stacks are ok with the module from pam-auth-update, the greeters as their stacks say" "$got"
fi

# 18. A greeter asks for nothing: doctor exits 0 for it alone, and lightdm's
# has no common-session in Debian 12.
"$ctl" doctor --root "$root" --conf /etc/security/memlock.conf --json \
	--service lightdm-greeter >"$scratch/all.json" 2>"$scratch/all.err"
status=$?
want=$(greeter_want lightdm-greeter)
if [ "$(verdict_of lightdm-greeter)" = "$want" ] && [ "$status" = 0 ]; then
	ok "lightdm-greeter is \"${want% }\", with no fix, and doctor exits 0"
else
	not_ok "lightdm-greeter is \"${want% }\", with no fix, and doctor exits 0" \
		"got: $(verdict_of lightdm-greeter)" "status $status"
fi
