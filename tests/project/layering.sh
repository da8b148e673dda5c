#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The folders are the architecture: pam_memlock/core is the PAM-free core,
# pam_memlock/module the only code that may include PAM headers, and
# pam_memlock/memlockctl the command, whose rooms each model one thing
# (policy/ the policy commands, doctor/ the layers of a system, live/
# running processes, measure/ what the running kernel charges, monitor/
# their findings for monitoring systems, output/ text and JSON, replace/
# a file's new bytes in one rename, dirfd/ reading a root's files through
# directory descriptors).  A room stands on the core, on output/, replace/,
# dirfd/ and cli.h, never on a sibling room - what two rooms share belongs
# in the core, in output/, replace/ or dirfd/ - but along the edges
# siblings_of lists: policy/ asks measure/
# what a limit holds on this kernel (explain, check); monitor/ reports
# what check, doctor and status find, by calling them.  The build gives core only its own
# folder on the include path; this also catches a system PAM header, or a
# path that reaches into a sibling folder.  TAP.
set -u
src=${PML_SRCDIR:?run with make check}/pam_memlock
ctl=$src/memlockctl
n=0 status=0

# The rooms of memlockctl, and the sibling rooms each may include besides
# output/.  A room that is not listed here fails the last case.
rooms="policy doctor live measure monitor output replace dirfd"
siblings_of() {
	case $1 in
	output | replace | dirfd) echo "" ;;
	doctor | live) echo "output replace dirfd" ;;
	policy) echo "output replace measure" ;;
	monitor) echo "output replace dirfd policy doctor live" ;;
	*) echo "output replace" ;;
	esac
}

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
	grep -Hn '^[[:space:]]*#[[:space:]]*include' "$1"/*.[ch] 2>/dev/null
}
quoted() { # the name in a quoted include line, or nothing
	printf '%s\n' "$1" | sed -n 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p'
}

# Quoted includes must name a header of the same folder.
own_headers() { # own_headers DIR
	includes "$1" | while IFS= read -r line; do
		name=$(quoted "$line")
		[ -n "$name" ] || continue
		[ -f "$1/$name" ] || printf '%s\n' "$line"
	done
}

# A room's quoted includes: its own headers, the core's, cli.h (not in
# output/), and the headers of the rooms it may stand on.
room_headers() { # room_headers ROOM
	allowed=$(siblings_of "$1")
	includes "$ctl/$1" | while IFS= read -r line; do
		name=$(quoted "$line")
		[ -n "$name" ] || continue
		case $name in
		*/*)
			for r in $allowed; do
				case $name in "$r"/*) [ -f "$ctl/$name" ] && continue 2 ;; esac
			done ;;
		cli.h) [ "$1" != output ] && [ "$1" != dirfd ] && continue ;;
		*) { [ -f "$ctl/$1/$name" ] || [ -f "$src/core/$name" ]; } && continue ;;
		esac
		printf '%s\n' "$line"
	done
}

verdict "core includes no PAM header" \
	"$(includes "$src/core" | grep -E 'include[[:space:]]*[<"](security/|pam_)' || true)"
verdict "core includes only its own headers (no module or memlockctl header)" \
	"$(own_headers "$src/core")"
verdict "memlockctl includes no PAM header" \
	"$(grep -rn --include='*.[ch]' '<security/' "$ctl" || true)"
verdict "memlockctl includes no module header" \
	"$(grep -rn --include='*.[ch]' -E '"(session|args|report)\.h"' "$ctl" || true)"
verdict "the module includes no memlockctl header" \
	"$(includes "$src/module" | grep -E '"(cli|json|text|lint|[a-z]+/[a-z_]+)\.h"' || true)"
for room in $rooms; do
	case $room in
	output | replace | dirfd) on="the core alone" ;;
	*) on="the core, cli.h and $(siblings_of "$room" | sed 's|\([a-z]*\)|\1/|g')" ;;
	esac
	verdict "memlockctl/$room/ stands on $on" \
		"$(room_headers "$room")"
done
verdict "common.c and cli.h, which every room includes, include no room's header but output/'s" \
	"$(grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]*/' "$ctl/common.c" "$ctl/cli.h" |
		grep -v '"output/' || true)"
# The core's contract with the module and the generator is policy.h,
# evaluate.h and apply.h; what memlockctl alone reads or sees (a candidate
# file, a root's directory, a wider scope) goes through the second entries
# of the loader and the evaluation, over the same loader and decision.
verdict "the module and the generator include no core header made for memlockctl (policy_from.h, evaluate_from.h)" \
	"$({ includes "$src/module"; includes "$src/generator"; } |
		grep -E '"(policy|evaluate)_from\.h"' || true)"
verdict "policy.h, evaluate.h and apply.h carry no candidate, directory descriptor or scope" \
	"$(grep -Hn -E 'candidate|dir_?fd|pml_scope|pml_assume' \
		"$src"/core/policy.h "$src"/core/evaluate.h "$src"/core/apply.h |
		grep -v -E '^[^:]*:[0-9]+:[[:space:]]*(/?\*)' || true)"
# Each function they declare is there for the module, the generator or
# the core itself; pml_apply_to is the module's own pml_apply, made for
# another process (memlockctl apply), and stays beside it.
unused=
for f in $(sed -n 's/^[a-z].*[^a-z_]\(pml_[a-z0-9_]*\)(.*/\1/p' \
	"$src"/core/policy.h "$src"/core/evaluate.h "$src"/core/apply.h | sort -u); do
	[ "$f" = pml_apply_to ] && continue
	grep -h -E "(^|[^a-z0-9_])$f\(" "$src"/module/*.c "$src"/generator/*.c "$src"/core/*.c |
		grep -q -v '^[a-z]' || unused="$unused $f"
done
verdict "policy.h, evaluate.h and apply.h declare only what the module, the generator or the core calls" \
	"${unused# }"
# pml_ is the core's: memlockctl names its own code (cli_, doc_, live_,
# lint_, ...).  The build's -DPML_ paths, which it may default, are not
# its own names.
build_names=$(grep -o -- '-DPML_[A-Z_]*' "$PML_SRCDIR/Makefile.am" | sed 's/^-D//' | sort -u | tr '\n' '|')
verdict "memlockctl defines no name of the core's prefix pml_" \
	"$(grep -rHn --include='*.[ch]' -E \
		'^#[[:space:]]*(define|ifndef)[[:space:]]+PML_|^(struct|enum|union)[[:space:]]+pml_[a-z0-9_]*[[:space:]]*\{|^[a-z].*[^a-z0-9_]pml_[a-z0-9_]*\(' \
		"$ctl" | grep -v -E "(define|ifndef)[[:space:]]+(${build_names%|})([^A-Z_]|\$)" || true)"
# A root's files are read inside it, never a device: by dirfd/ alone.
verdict "doctor/ and live/ open no file by name themselves: dirfd/ reads a root's files" \
	"$(grep -Hn -E '(^|[^_a-z])(open|openat|fopen|opendir)\(|openat2|RESOLVE_' \
		"$ctl"/doctor/*.c "$ctl"/live/*.c | grep -v -E '^[^:]*:[0-9]+:[[:space:]]*(/?\*)' || true)"
unlisted=
for d in "$ctl"/*/; do
	r=$(basename "$d")
	case " $rooms " in *" $r "*) ;; *) unlisted="$unlisted $r" ;; esac
done
verdict "every folder of memlockctl is a room this test knows" "${unlisted# }"
echo "1..$n"
exit 0
