#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The folders are the architecture: pam_memlock/core is the PAM-free core,
# pam_memlock/module the only code that may include PAM headers, and
# pam_memlock/memlockctl the command.  The build already gives core only
# its own folder on the include path; this also catches a system PAM
# header, or a path that reaches into a sibling folder.  TAP.
set -u
src=${PML_SRCDIR:?run with make check}/pam_memlock
n=0 status=0

# verdict NAME OFFENDING-LINES
verdict() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		printf '%s\n' "$2" | sed 's/^/# /'
		status=1
	fi
}

includes() { # includes DIR: every #include line of its sources, FILE:LINE: text
	grep -Hn '^[[:space:]]*#[[:space:]]*include' "$1"/*.[ch]
}

# Quoted includes must name a header of the same folder.
own_headers() { # own_headers DIR
	includes "$1" | while IFS= read -r line; do
		name=$(printf '%s\n' "$line" | sed -n 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p')
		[ -n "$name" ] || continue
		[ -f "$1/$name" ] || printf '%s\n' "$line"
	done
}

verdict "core includes no PAM header" \
	"$(includes "$src/core" | grep -E 'include[[:space:]]*[<"](security/|pam_)' || true)"
verdict "core includes only its own headers (no module or memlockctl header)" \
	"$(own_headers "$src/core")"
verdict "memlockctl includes no PAM header" \
	"$(includes "$src/memlockctl" | grep -E '<security/' || true)"
verdict "memlockctl includes no module header" \
	"$(includes "$src/memlockctl" | grep -E '"(session|args|report)\.h"' || true)"
verdict "the module includes no memlockctl header" \
	"$(includes "$src/module" | grep -E '"(cli|json|text|lint)\.h"' || true)"
echo "1..$n"
exit 0
