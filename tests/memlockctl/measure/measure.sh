#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl measure on this machine's kernel, held against a real client:
# tests/e2e/uring_rings, which opens rings with liburing's
# io_uring_queue_init(), registers a buffer and mlock()s, as an
# unprivileged uid under a lowered limit.  What measure says fits must fit,
# and a page less (or one ring more) must fail with ENOMEM.  TAP.
#
# The body runs as PID 1 of a private pid and mount namespace.  Every
# client runs as a uid of its own, drawn from measure's range (above any
# account's or container's), never used twice: io_uring charges a user,
# and a uid's closed rings are uncharged only a while later, so a second
# client of the same uid could read the first one's charge.
set -u
umask 022

PML_PIDNS_ROOT_WHY="measure and the clients run as unused uids"
. "${PML_SRCDIR:?run with make check}/tests/lib/pidns.sh" || exit 99

ctl=$PML_BUILDDIR/memlockctl
work=$(mktemp -d /tmp/pml-measure-XXXXXX) || exit 99
chmod 0755 "$work"
trap 'rm -rf "$work"' EXIT
# Where measure saves what explain and check read: this test's own.
export MEMLOCKCTL_MEASURED_DIR=$work/measured
saved=$MEMLOCKCTL_MEASURED_DIR/rings-$(uname -r)
KiB=1024
MiB=1048576
page=$(getconf PAGESIZE)
hard=$(prlimit --pid $$ --memlock --raw --noheadings --output HARD)
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

# client LIMIT RINGS ENTRIES BUFFER MLOCK: the client's one line, as a uid
# of its own each time (tests/e2e/lib.sh).
. "$PML_SRCDIR/tests/e2e/lib.sh"
echo $((0x70000000 + $(od -An -N3 -tu4 /dev/urandom) * 64)) >"$work/uid"
E2E_RINGS=$work/uring_rings
client() { e2e_uring_client "$work/uid" "$@"; }

# --- usage ------------------------------------------------------------------
usage_case() { # usage_case NAME WANT-IN-STDERR ARGS...
	local name=$1 want=$2 rc
	shift 2
	"$ctl" measure "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ $rc = 2 ] && grep -qF -- "$want" "$work/err" && [ ! -s "$work/out" ]; then
		ok "usage: $name (exit 2)"
	else
		not_ok "usage: $name: exit $rc"
		show "$work/err" "$work/out"
	fi
}
usage_case "--entries 0" '--entries "0": a number of entries from 1 to 32768' --entries 0
usage_case "--entries 32769" '--entries "32769"' --entries 32769
usage_case "--entries 8x" '--entries "8x"' --entries 8x
usage_case "--buffers 1 XB" '--buffers "1 XB"' --buffers "1 XB"
usage_case "--buffers 0" '--buffers "0": a size of at least one byte' --buffers 0
usage_case "--rings 0" '--rings "0"' --rings 0
usage_case "--rings with two ring sizes" '--rings takes one ring size' --rings 2 --entries 8 --entries 16
usage_case "an operand" 'unexpected argument "foo"' foo
usage_case "--conf is not measure's" 'measure does not take --conf' --conf /dev/null

setpriv --reuid=nobody --regid=nogroup --clear-groups "$ctl" measure >"$work/out" 2>"$work/err"
rc=$?
if [ $rc = 1 ] && grep -q 'measure needs root' "$work/err" && [ ! -s "$work/out" ]; then
	ok "as nobody: exit 1, needs root (a uid's own charges and stale ones would count)"
else
	not_ok "as nobody: exit $rc"
	show "$work/err" "$work/out"
fi

# --- the table --------------------------------------------------------------
"$ctl" measure --json >"$work/table.json" 2>"$work/err"
rc=$?
if [ $rc = 0 ] && jq -e . "$work/table.json" >/dev/null; then
	ok "measure --json: exit 0, valid JSON"
else
	not_ok "measure --json: exit $rc"
	show "$work/err" "$work/table.json"
fi
is "measure names the running kernel" "$(jq -r .kernel "$work/table.json")" "$(uname -r)"
uring=$(jq -r .io_uring "$work/table.json")
"$ctl" measure >"$work/table.txt" 2>&1
if grep -q "^Linux $(uname -r) " "$work/table.txt" && grep -q '^mlock of 1048576 bytes:' "$work/table.txt"; then
	ok "measure prints the table with the kernel's release"
else
	not_ok "measure's table"
	show "$work/table.txt"
fi
show "$work/table.txt"

if [ "$uring" != enabled ]; then
	is "io_uring unusable here: the table says why and has no ring rows" \
		"$(jq -r '.rings | length' "$work/table.json")" 0
	skip "real clients against the table" "io_uring is $uring here (kernel.io_uring_disabled=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo n/a))"
	echo "1..$n"
	exit 0
fi
is "io_uring enabled: one row per ring size, 8 to 32768" \
	"$(jq -c '[.rings[].entries]' "$work/table.json")" \
	"[8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768]"

if [ ! -x "$PML_BUILDDIR/tests/e2e/uring_rings" ]; then
	skip "real clients against the table" "tests/e2e/uring_rings was not built (liburing-dev missing?)"
	echo "1..$n"
	exit 0
fi
cp "$PML_BUILDDIR/tests/e2e/uring_rings" "$work/uring_rings"
chmod 0755 "$work/uring_rings"

need() { jq -r "$1" "$work/table.json"; }
ring=$(need '.rings[] | select(.entries == 4096) | .mmap.needed')
small=$(need '.rings[] | select(.entries == 8) | .mmap.needed')
buffer=$(need '.registered_buffers.aligned.needed')
unaligned=$(need '.registered_buffers.unaligned.needed')
locked=$(need '.mlock.aligned.needed')
echo "# measured: 4096-entry ring $ring, 8-entry ring $small, 1 MiB buffer beside it $buffer ($unaligned unaligned), mlock 1 MiB $locked (bytes)"
is "measure saved its 8- and 4096-entry rings for explain and check, keyed by the release" \
	"$(stat -c '%U %a' "$saved") $(grep -v '^#' "$saved" | tr '\n' ' ')" \
	"root 644 kernel $(uname -r) io_uring enabled page $page small_ring $small ring_4096 $ring "

# --- rings: as many as fit, then one more -------------------------------------
if [ "$ring" -gt 0 ]; then
	fit=$((hard / ring))
	is "$fit rings of 4096 entries fit in the hard limit ($((hard / KiB)) KiB): they open" \
		"$(client "$hard" $fit 4096 0 0)" "ok"
	is "one more ring than measure says fits: ENOMEM" \
		"$(client "$hard" $((fit + 1)) 4096 0 0)" "ring $((fit + 1)): ENOMEM"
	is "3 rings at exactly 3 x $((ring / KiB)) KiB: they open" \
		"$(client $((3 * ring)) 3 4096 0 0)" "ok"
	is "3 rings a page below that: the third fails with ENOMEM" \
		"$(client $((3 * ring - page)) 3 4096 0 0)" "ring 3: ENOMEM"
	# liburing 2.5 and later leave out the index array where the kernel
	# can (6.6 and later): measure's figure is then an upper bound.
	is "$fit rings as liburing's io_uring_queue_init() makes them fit too" \
		"$(client "$hard" --liburing $fit 4096 0 0)" "ok"
else
	is "rings cost nothing here: 64 rings of 4096 entries open at 64 KiB" \
		"$(client 65536 64 4096 0 0)" "ok"
fi

# --- who is exempt ---------------------------------------------------------------
is "root, with CAP_IPC_LOCK: 20 rings, a 1 MiB buffer and 1 MiB locked at 64 KiB" \
	"$(prlimit --memlock=65536:65536 "$work/uring_rings" 20 4096 $MiB $MiB 2>&1)" "ok"
if ! unshare --user --map-root-user true 2>/dev/null; then
	# As in .ci/debian13.sh's root: CLONE_NEWUSER is refused in a chroot.
	skip "root in a user namespace has CAP_IPC_LOCK there only: not exempt" \
		"no user namespace can be made here ($(unshare --user --map-root-user true 2>&1 | head -n 1))"
elif [ "$ring" -gt 65536 ]; then
	is "root in a user namespace has CAP_IPC_LOCK there only: not exempt" \
		"$(unshare --user --map-root-user prlimit --memlock=65536:65536 "$work/uring_rings" 1 4096 0 0 2>&1)" \
		"ring 1: ENOMEM"
else
	is "root in a user namespace has CAP_IPC_LOCK there only: not exempt" \
		"$(unshare --user --map-root-user prlimit --memlock=65536:65536 "$work/uring_rings" 1 8 $MiB 0 2>&1)" \
		"buffer: ENOMEM"
fi

# --- registered buffers and mlock, exact to the page --------------------------
is "1 MiB buffer beside an 8-entry ring at $((buffer / KiB)) KiB: registers" \
	"$(client "$buffer" 1 8 $MiB 0)" "ok"
is "a page below: ENOMEM" "$(client $((buffer - page)) 1 8 $MiB 0)" "buffer: ENOMEM"
if [ "$buffer" -gt 0 ] && [ "$unaligned" -gt "$buffer" ]; then
	ok "an unaligned buffer costs more ($((unaligned / KiB)) KiB against $((buffer / KiB)) KiB)"
else
	not_ok "an unaligned 1 MiB buffer: $unaligned against $buffer bytes aligned"
fi
is "mlock of 1 MiB at $((locked / KiB)) KiB: locks" "$(client "$locked" 0 0 0 $MiB)" "ok"
is "a page below: ENOMEM" "$(client $((locked - page)) 0 0 0 $MiB)" "mlock: ENOMEM"

# --- a workload -----------------------------------------------------------------
"$ctl" measure --rings 3 --entries 4096 --buffers 1MiB --json >"$work/w.json" 2>"$work/err"
rc=$?
share=$((buffer - small))
if [ $rc = 0 ] && [ "$(jq -r .workload.verified "$work/w.json")" = true ] &&
	[ "$(jq -r .workload.needed "$work/w.json")" = $((3 * ring + share)) ]; then
	ok "--rings 3 --entries 4096 --buffers 1MiB: 3 rings and the buffer's share, tried whole"
else
	not_ok "--rings 3 --entries 4096 --buffers 1MiB: exit $rc, want $((3 * ring + share)) bytes, verified"
	show "$work/w.json" "$work/err"
fi
is "a client of that workload at that limit: runs" \
	"$(client $((3 * ring + share)) 3 4096 $MiB 0)" "ok"
is "a page below: the buffer, registered last, fails with ENOMEM" \
	"$(client $((3 * ring + share - page)) 3 4096 $MiB 0)" "buffer: ENOMEM"
# PostgreSQL 18's io_uring: a ring for each of 1000 processes (pam_memlock(8)).
ring64=$(need '.rings[] | select(.entries == 64) | .mmap.needed')
is "--rings 1000 --entries 64: 1000 rings of 64 entries, tried whole" \
	"$("$ctl" measure --rings 1000 --entries 64 --json | jq -c '.workload | [.needed, .verified]')" \
	"[$((1000 * ring64)),true]"
"$ctl" measure --rings 100000 --entries 32768 >"$work/out" 2>&1
rc=$?
if [ $rc = 0 ] && grep -q '^Not tried whole: ' "$work/out"; then
	ok "a workload above the hard limit: summed, and said not tried whole"
else
	not_ok "a workload above the hard limit: exit $rc"
	show "$work/out"
fi

# --- explain and check read what measure saved ----------------------------------
mkdir -m 0755 "$work/policy"
printf 'limit = "1 MiB";\n' >"$work/policy/fits.conf"
printf 'limit = "256 KiB";\n' >"$work/policy/small.conf"
chmod 0644 "$work/policy/"*.conf
"$ctl" explain nobody --conf "$work/policy/fits.conf" --json >"$work/explain.json" 2>"$work/err"
if [ "$ring" -gt 0 ]; then
	want="{\"rings\":$((MiB / ring)),\"buffer_bytes\":$((MiB - small))}"
else
	want="{\"rings\":null,\"buffer_bytes\":$MiB}"
fi
is "explain --json: what 1 MiB holds here, from the measurements" \
	"$(jq -c '.soft_fits | {rings, buffer_bytes}' "$work/explain.json")" "$want"
"$ctl" explain nobody --conf "$work/policy/fits.conf" >"$work/explain.txt" 2>&1
if [ "$ring" -gt 0 ]; then
	want="  fits:     $((MiB / ring)) io_uring rings of 4096 entries ($((ring / KiB)) KiB each), or $(((MiB - small) / KiB)) KiB of registered buffers beside one 8-entry ring, on Linux $(uname -r) (measured; for all of the user's processes together)"
else
	want="  fits:     any number of io_uring rings (Linux $(uname -r) charges them to no limit), and 1024 KiB of registered buffers beside one 8-entry ring (measured; for all of the user's processes together)"
fi
is "explain: the soft limit's line says what it fits" "$(grep '^  fits:' "$work/explain.txt")" "$want"
# They only read what measure saved: with nothing saved, or with a file
# that is not root's alone or not measure's, the line says how to measure.
fits_without() { # fits_without NAME WANT-IN-STDERR: explain's fits line and stderr
	"$ctl" explain nobody --conf "$work/policy/fits.conf" >"$work/out" 2>"$work/err"
	if [ "$(grep '^  fits:' "$work/out")" = "  fits:     not measured for Linux $(uname -r): \`memlockctl measure\` (as root) measures and saves it" ] &&
		{ [ -z "$2" ] && [ ! -s "$work/err" ] || grep -qF -- "$2" "$work/err"; }; then
		ok "explain, $1: not measured, run measure"
	else
		not_ok "explain, $1"
		show "$work/out" "$work/err"
	fi
}
cp -p "$saved" "$work/saved"
MEMLOCKCTL_MEASURED_DIR=$work/none fits_without "nothing saved" ""
chown nobody "$saved"
fits_without "a saved file root does not own" "$saved: ignored: not owned by root"
chown root "$saved"
chmod 0666 "$saved"
fits_without "a saved file others may write" "$saved: ignored: writable by group or others"
chmod 0644 "$saved"
sed -i 's/^kernel .*/kernel 1.0.0-other/' "$saved"
fits_without "a file of another kernel under this one's name" "$saved: ignored: not a measurement of this kernel"
cp -p "$work/saved" "$saved"
sed -i 's/^ring_4096 .*/ring_4096 lots/' "$saved"
fits_without "a malformed file" "$saved: ignored: not a measurement of this kernel"
cp -p "$work/saved" "$saved"
sed -i '/^page /d' "$saved"
fits_without "a file without its page size" "$saved: ignored: not a measurement of this kernel"
rm "$saved" && ln -s "$work/saved" "$saved"
fits_without "a symbolic link" "$saved: ignored: a symbolic link"
rm "$saved" && cp -p "$work/saved" "$saved"
"$ctl" check --conf "$work/policy/small.conf" >"$work/out" 2>"$work/err"
rc=$?
if [ "$ring" -gt $((256 * KiB)) ]; then
	is "check: a 256 KiB limit cannot hold a 4096-entry ring here: one warning at its line" \
		"$rc $(cat "$work/err")" \
		"0 $work/policy/small.conf:1: host warning: a soft limit of 256 KiB cannot hold one io_uring ring of 4096 entries on Linux $(uname -r), which needs $((ring / KiB)) KiB (memlockctl measure): io_uring_queue_init fails with ENOMEM"
	# It rests on this host's kernel: --strict-host fails on it, not
	# --strict, which a fleet's validate hook uses.
	"$ctl" check --strict --conf "$work/policy/small.conf" >/dev/null 2>&1
	is "check --strict passes it: a host warning" "$?" 0
	"$ctl" check --strict-host --conf "$work/policy/small.conf" >/dev/null 2>&1
	is "check --strict-host fails on it" "$?" 1
else
	is "check: rings fit in 256 KiB here, nothing to say" "$rc $(cat "$work/err")" "0 "
	skip "check --strict on a limit below one ring" "a 4096-entry ring fits in 256 KiB on this kernel"
	skip "check --strict-host on a limit below one ring" "a 4096-entry ring fits in 256 KiB on this kernel"
fi
"$ctl" check --conf "$work/policy/fits.conf" >"$work/out" 2>"$work/err"
is "check: 1 MiB holds a ring: quiet" "$? $(cat "$work/err")" "0 "

# --- no stale charge is read ------------------------------------------------------
# Right after the hundreds of tries above, with their rings still being
# uncharged: a run that reused a uid would read more.
again=$("$ctl" measure --json --entries 8 --entries 4096 | jq -c '[.rings[].mmap.needed, .registered_buffers.aligned.needed, .mlock.aligned.needed]')
is "a second run right after the first reads the same numbers" "$again" \
	"[$small,$ring,$buffer,$locked]"

echo "1..$n"
