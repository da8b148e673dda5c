#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The commands that only read (check, explain, show, doctor) read files
# and nothing more, even as root, where they could do more: under
# strace -f, none starts a process, switches a uid or sets up an io_uring
# ring.  A fleet's validate hook runs check on every host.  TAP.
set -u
ctl=${PML_BUILDDIR:?run with make check}/memlockctl
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root: only root could fork tries as other uids"
	exit 0
fi
if [ "${PML_SANITIZERS:-no}" = yes ]; then
	echo "1..0 # SKIP LeakSanitizer's own thread (a clone at exit) would count, and it fails under ptrace"
	exit 0
fi
if ! command -v strace >/dev/null || ! strace -f -o /dev/null true 2>/dev/null; then
	echo "1..0 # SKIP strace is missing or cannot trace here"
	exit 0
fi
work=$(mktemp -d /tmp/pml-readonly-XXXXXX) || exit 99
chmod 0755 "$work"
trap 'rm -rf "$work"' EXIT
# A saved measurement that gives check's ring warning: read, not made.
export MEMLOCKCTL_MEASURED_DIR=$work/measured
mkdir -m 0755 "$MEMLOCKCTL_MEASURED_DIR"
printf '# memlockctl measure, Linux %s\nkernel %s\nio_uring enabled\npage %s\nsmall_ring 8192\nring_4096 413696\n' \
	"$(uname -r)" "$(uname -r)" "$(getconf PAGESIZE)" >"$MEMLOCKCTL_MEASURED_DIR/rings-$(uname -r)"
printf 'limit = "8 MiB";\n' >"$work/default.conf"
cat >"$work/shares.conf" <<'CONF'
limit = "64 KiB";
rules = (
	{ group = "root"; limit = "25%"; ceiling = "64 GiB"; },
	{ service = "sshd"; limit = "10%"; share_of = "available"; mode = "set"; },
	{ user = "root"; soft = "1%"; hard = "unlimited"; }
);
CONF
chmod 0644 "$work/"*.conf

# The system calls that would mean more than reading.
forbidden='clone|clone3|fork|vfork|setuid|setresuid|setreuid|setgid|setresgid|io_uring_setup|execve'

# traced NAME ARGS...: the command's system calls name none of them (the
# first execve is strace starting it).
traced() {
	local name=$1 calls
	shift
	strace -f -qq -o "$work/trace" "$ctl" "$@" >"$work/out" 2>"$work/err"
	calls=$(sed -n '2,$p' "$work/trace" | grep -oE "^[0-9]+ +($forbidden)\(" | sort | uniq -c)
	if [ -s "$work/trace" ] && [ -z "$calls" ] && [ "$(grep -c execve "$work/trace")" = 1 ]; then
		ok "$name: reads files, nothing more"
	else
		not_ok "$name: made calls a read-only command must not" "$calls"
		show "$work/err"
	fi
}

traced "check, the built-in default" check
for policy in default shares; do
	conf=$work/$policy.conf
	traced "check --conf ($policy)" check --conf "$conf"
	traced "check --strict-host --conf ($policy)" check --strict-host --conf "$conf"
	traced "explain root --conf ($policy)" explain root --conf "$conf"
	traced "explain root --service sshd --json --conf ($policy)" explain root --service sshd --json --conf "$conf"
	traced "show --conf ($policy)" show --conf "$conf"
	traced "show --json --conf ($policy)" show --json --conf "$conf"
	traced "doctor --conf ($policy)" doctor --conf "$conf"
	traced "doctor root --service sshd --json --conf ($policy)" doctor root --service sshd --json --conf "$conf"
done
# The saved ring figure was read: the 64 KiB top-level limit is below it.
"$ctl" check --conf "$work/shares.conf" >"$work/out" 2>"$work/err"
if grep -q "shares.conf:1: host warning: a soft limit of 64 KiB cannot hold one io_uring ring of 4096 entries on Linux $(uname -r), which needs 404 KiB" "$work/err"; then
	ok "check gives the ring warning from the saved measurement"
else
	not_ok "check did not read the saved measurement"
	show "$work/err"
fi
echo "1..$n"
