#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The dist tarball carries libtool's m4 files however fast autoreconf runs.
# A clean tree (configure.ac, Makefile.am and its fragments, .autom4te.cfg,
# empty m4/ and build-aux/) goes through the real autoreconf -fi, with
# every aclocal run made to look no newer than autom4te's first cached
# trace: what a fast machine does by chance, here every time
# (.autom4te.cfg says why that matters).  TAP.
set -u
src=${PML_SRCDIR:?run with make check}
echo "1..2"
for tool in autoreconf aclocal automake libtoolize; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "ok 1 - autoreconf -fi of a clean tree # SKIP $tool is not installed"
		echo "ok 2 - Makefile.in distributes every m4/*.m4 # SKIP $tool is not installed"
		exit 0
	fi
done
tmp=$(mktemp -d /tmp/pml-autoreconf-XXXXXX) || exit 99
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/tree" "$tmp/tree/m4" "$tmp/tree/build-aux"
cp "$src/configure.ac" "$src/Makefile.am" "$src/.autom4te.cfg" "$tmp/tree/" || exit 99
# ... and the fragments Makefile.am includes, where it includes them.
for f in $(sed -n 's|^include \$(srcdir)/||p' "$src/Makefile.am"); do
	mkdir -p "$tmp/tree/${f%/*}" && cp "$src/$f" "$tmp/tree/$f" || exit 99
done

# aclocal, then aclocal.m4 back to the time of the first cached trace: as
# if the whole of autoreconf ran within one second.
cat >"$tmp/aclocal" <<'EOS'
#!/bin/sh
aclocal "$@" || exit
first=$(ls -tr autom4te.cache/traces.* autom4te.cache/output.* 2>/dev/null | head -n 1)
[ -z "$first" ] || touch -r "$first" aclocal.m4
EOS
chmod +x "$tmp/aclocal"

if (cd "$tmp/tree" && ACLOCAL="$tmp/aclocal" autoreconf -fi) >"$tmp/log" 2>&1; then
	echo "ok 1 - autoreconf -fi of a clean tree, aclocal.m4 no newer than the cached traces"
else
	echo "not ok 1 - autoreconf -fi of a clean tree, aclocal.m4 no newer than the cached traces"
	sed 's/^/# /' "$tmp/log"
fi

# What make dist takes from aclocal's side: am__aclocal_m4_deps.
deps=$(awk '/^am__aclocal_m4_deps = / { on = 1 } on { print; if (!/\\$/) exit }' \
	"$tmp/tree/Makefile.in")
missing=
for f in "$tmp"/tree/m4/*.m4; do
	[ -e "$f" ] || { missing="no m4/*.m4 at all (libtoolize copied none)"; break; }
	case $deps in
	*"/m4/${f##*/}"*) ;;
	*) missing="$missing m4/${f##*/}" ;;
	esac
done
if [ -z "$missing" ]; then
	echo "ok 2 - Makefile.in distributes every m4/*.m4 ($(cd "$tmp/tree/m4" && echo *.m4))"
else
	echo "not ok 2 - Makefile.in distributes every m4/*.m4"
	echo "# missing:$missing"
	printf '%s\n' "$deps" | sed 's/^/# /'
fi
