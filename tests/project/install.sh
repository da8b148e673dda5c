#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make install into a DESTDIR: the module lands in the PAM module directory
# without its libtool archive, the shipped policy is installed when absent
# (with an empty memlock.d beside it), an edited policy is never
# overwritten on upgrade, and uninstall removes only what is still the
# shipped file.
set -u
build=${PML_BUILDDIR:?run with make check}
make=${PML_MAKE:-make}
dest=$(mktemp -d /tmp/pml-install-XXXXXX)
trap 'rm -rf "$dest"' EXIT
n=0
check() { # description, command...
	n=$((n + 1)); desc=$1; shift
	if "$@" >/dev/null 2>&1; then echo "ok $n - $desc"; else echo "not ok $n - $desc"; fi
}
echo "1..16"
$make -s -C "$build" install DESTDIR="$dest" >/dev/null 2>&1
# Automake writes these as ${prefix}-style shell expansions: evaluate in order.
for var in prefix exec_prefix libdir sysconfdir pammoddir datarootdir PACKAGE_TARNAME docdir \
	sbindir systemdsystemunitdir; do
	eval "$var=\"$(sed -n "s/^$var = //p" "$build/Makefile")\""
done
conf=$dest$sysconfdir/security/memlock.conf
check "module installed in $pammoddir" test -f "$dest$pammoddir/pam_memlock.so"
check "no libtool archive beside it" test ! -e "$dest$pammoddir/pam_memlock.la"
check "shipped policy installed" cmp "${PML_SRCDIR:?}/conf/memlock.conf" "$conf"
check "memlock.d installed beside it, empty" test -d "${conf%/*}/memlock.d"
check "the example /etc/pam.d/slurm installed as documentation, not in pam.d" sh -c \
	'cmp "$1/conf/pam.d/slurm" "$2$3/examples/pam.d/slurm" && test ! -e "$2/etc/pam.d/slurm"' \
	sh "$PML_SRCDIR" "$dest" "$docdir"
check "the policy recipes and their index installed as documentation" sh -c \
	'for f in "$1"/conf/examples/*.conf; do cmp "$f" "$2$3/examples/${f##*/}" || exit 1; done &&
		cmp "$1/doc/recipes" "$2$3/recipes"' sh "$PML_SRCDIR" "$dest" "$docdir"
units=$dest$systemdsystemunitdir
check "memlock-metrics.service runs this build's memlockctl into node_exporter's directory" \
	grep -qx "ExecStart=$sbindir/memlockctl metrics --output /var/lib/prometheus/node-exporter/memlock.prom" \
	"$units/memlock-metrics.service"
check "memlock-metrics.timer installed beside it, and nothing enabled" sh -c \
	'test -f "$1/memlock-metrics.timer" && test -z "$(find "$2" -name "*.wants")"' sh "$units" "$dest"
echo 'limit = "16 MiB";' > "$conf"
$make -s -C "$build" install DESTDIR="$dest" >/dev/null 2>&1
check "an edited policy survives reinstall" grep -qx 'limit = "16 MiB";' "$conf"
check "the new default goes beside it as .dist" cmp "$PML_SRCDIR/conf/memlock.conf" "$conf.dist"
$make -s -C "$build" uninstall DESTDIR="$dest" >/dev/null 2>&1
check "uninstall keeps the edited policy" test -f "$conf"
check "uninstall removes the module" test ! -e "$dest$pammoddir/pam_memlock.so"
check "uninstall removes the empty memlock.d" test ! -e "${conf%/*}/memlock.d"
check "uninstall removes the units" sh -c \
	'test ! -e "$1/memlock-metrics.service" && test ! -e "$1/memlock-metrics.timer"' sh "$units"

# Uninstalling while a stack still names the module: a warning that names
# the stack; nothing is warned about when no stack names it.
$make -s -C "$build" install DESTDIR="$dest" >/dev/null 2>&1
mkdir -p "$dest/etc/pam.d"
printf 'session optional pam_memlock.so\n' >"$dest/etc/pam.d/common-session"
printf '# session optional pam_memlock.so\nsession required pam_unix.so\n' >"$dest/etc/pam.d/other"
$make -s -C "$build" uninstall DESTDIR="$dest" >/dev/null 2>"$dest/err"
check "uninstall warns about a stack that still names the module" \
	grep -qx "  $dest/etc/pam.d/common-session" "$dest/err"
$make -s -C "$build" install DESTDIR="$dest" >/dev/null 2>&1
rm "$dest/etc/pam.d/common-session"
$make -s -C "$build" uninstall DESTDIR="$dest" >/dev/null 2>"$dest/err"
check "no warning when no stack names it (a commented line does not)" \
	test -z "$(grep pam_memlock "$dest/err")"
