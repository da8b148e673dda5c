#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# One version: configure.ac's AC_INIT is the fact, and memlockctl
# --version, NEWS's newest heading and debian/changelog's upstream
# version say the same.  TAP.
set -u
src=${PML_SRCDIR:?run with make check}
ctl=${PML_BUILDDIR:?run with make check}/memlockctl
n=0
is() { # description, got, want
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		echo "#   got:  '$2'"
		echo "#   want: '$3'"
	fi
}
echo "1..3"
version=$(sed -n 's/^AC_INIT(\[pam_memlock\], \[\([^]]*\)\].*/\1/p' "$src/configure.ac")
is "memlockctl --version says configure.ac's $version" \
	"$("$ctl" --version)" "memlockctl (pam_memlock) $version"
is "NEWS's newest heading is $version" \
	"$(grep -m 1 -E '^[0-9]+\.[0-9]+\.[0-9]+' "$src/NEWS" | cut -d' ' -f1)" "$version"
if [ -f "$src/debian/changelog" ]; then
	is "debian/changelog packages $version" \
		"$(sed -n '1s/^[^(]*(\([^)-]*\)-[^)]*).*/\1/p' "$src/debian/changelog")" "$version"
else
	n=$((n + 1))
	echo "ok $n - debian/changelog packages $version # SKIP no debian/ here (the dist tarball has none)"
fi
