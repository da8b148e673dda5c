#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The cases of tests/e2e/vm-measure.sh, run by the VM's init as root with
# every capability (PML_VM_GUEST=measure-guest.sh) on the kernel it boots:
# memlockctl measure's table, held against real clients - tests/e2e/
# uring_rings (liburing) as fresh unprivileged uids, and fio with fixed
# buffers in a PAM session.  Prints TAP; measure's JSON goes along as
# comments ("# measure-json: ..."), for the README's table.
if [ ! -e /.pml-vm-guest ] || [ "$(cat /proc/1/comm 2>/dev/null)" != init ]; then
	echo "measure-guest.sh runs only inside the check-vm VM" >&2
	exit 1
fi
. /.pml-vm-guest
. "$PML_SRCDIR/tests/e2e/lib.sh"
E2E_CASE=/tmp/pml-vm-logs
mkdir -p "$E2E_CASE"
KiB=1024
MiB=1048576
page=$(getconf PAGESIZE)
ctl=$PML_BUILDDIR/memlockctl
rings=$PML_BUILDDIR/tests/e2e/uring_rings
# Root may raise its hard limit here: measure searches up to 64 MiB.
prlimit --pid $$ --memlock=$((64 * MiB)):$((64 * MiB))

tap_plan 11

"$ctl" measure --json >"$E2E_CASE/table.json" 2>"$E2E_CASE/err"
rc=$?
tr -d '\n ' <"$E2E_CASE/table.json" | sed 's/^/# measure-json: /'
echo
"$ctl" measure 2>&1 | tap_diag
if [ $rc = 0 ] && [ "$(jq -r .kernel "$E2E_CASE/table.json")" = "$(uname -r)" ]; then
	tap_ok "measure on $(uname -r): exit 0, the running kernel named"
else
	tap_not_ok "measure on $(uname -r): exit $rc"
	tap_diag "$E2E_CASE/err"
fi
need() { jq -r "$1" "$E2E_CASE/table.json"; }
uring=$(need .io_uring)
if [ "$uring" != enabled ] || [ ! -x "$rings" ]; then
	for i in $(seq 2 11); do
		tap_skip "real clients" "io_uring is $uring, or tests/e2e/uring_rings was not built"
	done
	exit 0
fi

# client LIMIT RINGS ENTRIES BUFFER MLOCK: tests/e2e/uring_rings as a uid of
# its own each time (tests/e2e/lib.sh).
echo 1879048192 >"$E2E_CASE/uid"
E2E_RINGS=$rings
client() { e2e_uring_client "$E2E_CASE/uid" "$@"; }

ring=$(need '.rings[] | select(.entries == 4096) | .mmap.needed')
big=$(need '.rings[] | select(.entries == 32768) | .mmap.needed')
buffer=$(need '.registered_buffers.aligned.needed')
locked=$(need '.mlock.aligned.needed')
if [ "$ring" = 0 ] && [ "$big" = 0 ]; then
	tap_is "measure: rings cost nothing here; 64 rings of 4096 entries open at 64 KiB" \
		"$(client 65536 64 4096 0 0)" "ok"
	tap_is "and 16 rings of 32768 entries at 64 KiB" "$(client 65536 16 32768 0 0)" "ok"
	tap_is "and one of 8 at a limit of 0" "$(client 0 1 8 0 0)" "ok"
else
	fit=$((8 * MiB / ring))
	tap_is "$fit rings of 4096 entries (what fits in 8 MiB) open at 8 MiB" \
		"$(client $((8 * MiB)) $fit 4096 0 0)" "ok"
	tap_is "one more fails with ENOMEM" \
		"$(client $((8 * MiB)) $((fit + 1)) 4096 0 0)" "ring $((fit + 1)): ENOMEM"
	tap_is "3 rings a page below 3 x $((ring / KiB)) KiB: the third fails" \
		"$(client $((3 * ring - page)) 3 4096 0 0)" "ring 3: ENOMEM"
fi
tap_is "1 MiB buffer beside an 8-entry ring at $((buffer / KiB)) KiB: registers" \
	"$(client "$buffer" 1 8 $MiB 0)" "ok"
tap_is "a page below: ENOMEM" "$(client $((buffer - page)) 1 8 $MiB 0)" "buffer: ENOMEM"
tap_is "mlock of 1 MiB at $((locked / KiB)) KiB" "$(client "$locked" 0 0 0 $MiB)" "ok"
tap_is "a page below: ENOMEM" "$(client $((locked - page)) 0 0 0 $MiB)" "mlock: ENOMEM"

# --- fio, fixed buffers: a 16 MiB pool (32 x 512 KiB), above 8 MiB -----------
# The test user, and runuser -l through a PAM stack with the module.
sed "s|@HOME@|/home/$E2E_USER|" "$e2e_dir/fixtures/passwd" >>/etc/passwd
cat "$e2e_dir/fixtures/group" >>/etc/group
cat "$e2e_dir/fixtures/shadow" >>/etc/shadow
mkdir -p "/home/$E2E_USER" /etc/security/pml-vm && chown "$E2E_UID:$E2E_UID" "/home/$E2E_USER"
fio_run="fio --name=fixed --ioengine=io_uring --fixedbufs --iodepth=32 --bs=512k --size=32M --rw=write --filename=/home/$E2E_USER/fio.dat --output-format=terse >/dev/null 2>&1; echo fio=\$?"
fio_session() { # fio_session START POLICY
	local conf=/etc/security/pml-vm/memlock.conf service
	printf '%s\n' "$2" >"$conf"
	chmod 0644 "$conf"
	for service in runuser runuser-l; do
		printf '%s\n' "auth sufficient pam_rootok.so" "account required pam_permit.so" \
			"session required pam_permit.so" \
			"session optional $PML_MODULE conf=$conf" >"/etc/pam.d/$service"
	done
	prlimit --memlock="$1" runuser -l "$E2E_USER" -c "ulimit -l; $fio_run" </dev/null 2>/dev/null |
		tr '\n' ' ' | sed 's/ *$//'
}
if ! command -v fio >/dev/null; then
	for i in 1 2 3; do tap_skip "fio --fixedbufs" "fio is not installed (Debian: fio)"; done
else
	tap_is "fio, 16 MiB of fixed buffers, session from 64 KiB with a 64 KiB policy: fails" \
		"$(fio_session 65536:65536 'limit = "64 KiB"; mode = "set";')" "64 fio=1"
	tap_is "the same with the shipped 8 MiB policy: fails" \
		"$(fio_session 65536:65536 "$(cat "$PML_SRCDIR/conf/memlock.conf")")" "8192 fio=1"
	tap_is "a session given 32 MiB by the policy: fio runs" \
		"$(fio_session 65536:65536 'limit = "32 MiB";')" "32768 fio=0"
fi
