#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The module's dynamic symbol table holds exactly the two session entry
# points: nothing internal leaks into sshd's or login's namespace.
set -u
module=${PML_MODULE:?run with make check}
echo "1..2"
exports=$(nm -D --defined-only "$module" | awk '$2 == "T" || $2 == "D" || $2 == "B" || $2 == "W" { print $3 }' | sort | tr '\n' ' ')
if [ "$exports" = "pam_sm_close_session pam_sm_open_session " ]; then
	echo "ok 1 - exports only pam_sm_open_session and pam_sm_close_session"
else
	echo "not ok 1 - exports only the entry points; it exports: $exports"
fi
if [ "${PML_SANITIZERS:-no}" = yes ]; then
	echo "ok 2 - imports only libc, libpam and libconfig symbols # SKIP the sanitizer runtime supplies unversioned libc symbols"
	exit 0
fi
undefined=$(nm -D --undefined-only "$module" | awk '{ print $2 }' | grep -v -e '^_' -e '@GLIBC' -e '^pam_' -e '^config_' | tr '\n' ' ')
if [ -z "$undefined" ]; then
	echo "ok 2 - imports only libc, libpam and libconfig symbols"
else
	echo "not ok 2 - unexpected imports: $undefined"
fi
