#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl install NEW --conf TARGET: NEW is validated, then renamed into
# place (root-owned, 0644); on any error TARGET keeps its bytes and inode
# and no temporary file is left beside it.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
cue=$PML_BUILDDIR/tests/lib/.libs/libfault_cue.so
work=$(mktemp -d /tmp/pml-install-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP install makes root-owned files: run make check as root"
	exit 0
fi
echo "1..20"

old='limit = "8 MiB";'
fresh() { # a directory with TARGET t.conf holding $old; prints its path
	local d
	d=$(mktemp -d "$work/case-XXXXXX") && chmod 0755 "$d" &&
	printf '%s\n' "$old" >"$d/t.conf" && chmod 0644 "$d/t.conf" && echo "$d"
}
# TARGET still holds $old, in the same inode, and nothing else is there.
untouched() { # DIR INODE
	[ "$(cat "$1/t.conf")" = "$old" ] &&
	[ "$(stat -c %i "$1/t.conf")" = "$2" ] &&
	[ -z "$(find "$1" -name '.*memlockctl-*')" ]
}

# 1-2. A valid file goes in by rename: a new inode, root:root 0644 whatever
# NEW's owner and mode and the umask, and no temporary file left.
d=$(fresh)
printf 'limit = "16 MiB";\nrules = ( { user = "ci"; limit = "1 GiB"; } );\n' >"$d/new"
chmod 0600 "$d/new" && chown 65534:65534 "$d/new"
ino=$(stat -c %i "$d/t.conf")
(umask 077 && "$ctl" install "$d/new" --conf "$d/t.conf") >"$work/out" 2>"$work/err"
rc=$?
check "a valid file is installed (exit 0, one line on stdout)" \
	test $rc = 0 -a "$(cat "$work/out")" = "$d/t.conf: installed from $d/new" -a ! -s "$work/err"
check "by rename: new inode, root:root 0644, same bytes, no temporary file" \
	test "$(stat -c '%U:%G %a' "$d/t.conf")" = "root:root 644" -a \
	"$(stat -c %i "$d/t.conf")" != "$ino" -a \
	-z "$(find "$d" -name '.*memlockctl-*')" -a "$(cat "$d/t.conf")" = "$(cat "$d/new")"

# 3. An invalid file: its errors under its own name, exit 1, TARGET as it was.
d=$(fresh)
ino=$(stat -c %i "$d/t.conf")
printf 'limit = "16 Mib";\n' >"$d/new"
"$ctl" install "$d/new" --conf "$d/t.conf" >"$work/out" 2>"$work/err"
rc=$?
check "an invalid file is refused, its error named by NEW, TARGET untouched" \
	eval 'test $rc = 1 -a ! -s "$work/out" && grep -q "^$d/new:1: limit" "$work/err" &&
	grep -q "left as it was" "$work/err" && untouched "$d" "$ino"'

# 4. A zero-byte file, as the module refuses it.
d=$(fresh)
ino=$(stat -c %i "$d/t.conf")
: >"$d/new"
"$ctl" install "$d/new" --conf "$d/t.conf" >"$work/out" 2>"$work/err"
rc=$?
check "an empty file is refused (a truncated write), TARGET untouched" \
	eval 'test $rc = 1 && grep -q "^$d/new: refused: is empty" "$work/err" && untouched "$d" "$ino"'

# 5. Larger than the module reads.
d=$(fresh)
ino=$(stat -c %i "$d/t.conf")
{ printf '%s\n' "$old"; head -c 70000 /dev/zero | tr '\0' '#'; echo; } >"$d/new"
"$ctl" install "$d/new" --conf "$d/t.conf" >/dev/null 2>"$work/err"
rc=$?
check "a file over 64 KiB is refused, TARGET untouched" \
	eval 'test $rc = 1 && grep -q "larger than 64 KiB" "$work/err" && untouched "$d" "$ino"'

# 6. NEW missing, or not a regular file.
d=$(fresh)
ino=$(stat -c %i "$d/t.conf")
"$ctl" install "$d/none" --conf "$d/t.conf" >/dev/null 2>"$work/err"
rc1=$?
"$ctl" install "$d" --conf "$d/t.conf" >/dev/null 2>>"$work/err"
rc2=$?
check "NEW missing or a directory: exit 1, TARGET untouched" \
	eval 'test $rc1 = 1 -a $rc2 = 1 && untouched "$d" "$ino"'

# 7. The rename fails (TARGET is a directory): nothing left behind.
d=$(fresh)
mkdir "$d/dir.conf"
printf '%s\n' "$old" >"$d/new"
"$ctl" install "$d/new" --conf "$d/dir.conf" >/dev/null 2>"$work/err"
rc=$?
check "a failed rename leaves no temporary file" \
	eval 'test $rc = 1 -a -d "$d/dir.conf" && grep -q "cannot rename" "$work/err" &&
	test -z "$(find "$d" -name ".*memlockctl-*")"'

# 8. TARGET's directory missing.
d=$(fresh)
printf '%s\n' "$old" >"$d/new"
"$ctl" install "$d/new" --conf "$d/no/t.conf" >/dev/null 2>"$work/err"
check "a missing directory is an error" test $? = 1

# 9. A new TARGET (none there yet) is created.
d=$(fresh)
printf 'limit = "1%%";\n' >"$d/new"
"$ctl" install "$d/new" --conf "$d/fresh.conf" >/dev/null 2>&1
check "a TARGET that did not exist is created" cmp -s "$d/new" "$d/fresh.conf"

# 10. The disk fills up while writing: TARGET untouched, no temporary file.
if unshare -m true 2>/dev/null; then
	d=$(fresh)
	{ printf '%s\n' "$old"; head -c 60000 /dev/zero | tr '\0' '#'; echo; } >"$d/new"
	export -f untouched
	export old
	unshare -m -- bash -c '
		mount --make-rprivate / && mkdir -p "$1/small" &&
		mount -t tmpfs -o size=16k pml-small "$1/small" &&
		printf "%s\n" "$2" >"$1/small/t.conf" && chmod 0644 "$1/small/t.conf" &&
		ino=$(stat -c %i "$1/small/t.conf") || exit 99
		"$3" install "$1/new" --conf "$1/small/t.conf" >/dev/null 2>"$1/err"
		test $? = 1 && grep -q "cannot write" "$1/err" && untouched "$1/small" "$ino"
	' _ "$d" "$old" "$ctl"
	rc=$?
	check "a full disk: exit 1, TARGET untouched, no temporary file" test $rc = 0
else
	skip "a full disk: exit 1, TARGET untouched, no temporary file" "unshare -m not permitted"
fi

# 11. Usage: no NEW; an option of another command.
"$ctl" install >/dev/null 2>&1
rc1=$?
"$ctl" install x --json >/dev/null 2>&1
rc2=$?
check "usage errors exit 2" test $rc1 = 2 -a $rc2 = 2

# 12. Without --conf the default file is the target (dry: only the help says so).
check "the help names install" eval '"$ctl" --help | grep -q "memlockctl install NEW \[--conf FILE\]"'

# 13-16. What the module will read: the installed files of TARGET's tree,
# with NEW in TARGET's place.  A tree: memlock.conf and memlock.d/.
tree() { # a directory holding memlock.conf ($1) and an empty memlock.d
	local d
	d=$(mktemp -d "$work/tree-XXXXXX") && chmod 0755 "$d" && mkdir -m 0755 "$d/memlock.d" &&
	printf '%s\n' "$1" >"$d/memlock.conf" && chmod 0644 "$d/memlock.conf" && echo "$d"
}
nothing_new() { # DIR: no drop-in, no temporary file
	[ -z "$(find "$1/memlock.d" -mindepth 1)" ] && [ -z "$(find "$1" -name '.*memlockctl-*')" ]
}
# A drop-in valid alone, whose ceiling is below the main file's floor:
# installed, it would make the module refuse every session's policy.
d=$(tree 'floor = "1 GiB";')
printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$d/new"
"$ctl" install "$d/new" --conf "$d/memlock.d/50-site.conf" >"$work/out" 2>"$work/err"
rc=$?
check "a drop-in that breaks the installed main file is refused, nothing written" \
	eval 'test $rc = 1 -a ! -s "$work/out" && nothing_new "$d" &&
	test "$(cat "$work/err")" = "$d/memlock.conf:1: floor 1 GiB (top level, line 1) is above ceiling 512 MiB (top level, $d/new:2)
memlockctl: $d/new as $d/memlock.d/50-site.conf: invalid (1 error): $d/memlock.d/50-site.conf left as it was"'

d=$(tree 'floor = "256 MiB";')
printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$d/new"
"$ctl" install "$d/new" --conf "$d/memlock.d/50-site.conf" >/dev/null 2>"$work/err"
check "the same drop-in under a main file it fits with is installed" \
	eval 'test $? = 0 && cmp -s "$d/new" "$d/memlock.d/50-site.conf"'

# A new main file, against the drop-ins already there.
d=$(tree 'limit = "8 MiB";')
printf 'floor = "1 GiB";\n' >"$d/memlock.d/10-floor.conf" && chmod 0644 "$d/memlock.d/10-floor.conf"
printf 'limit = "1%%";\nceiling = "512 MiB";\n' >"$d/new"
ino=$(stat -c %i "$d/memlock.conf")
"$ctl" install "$d/new" --conf "$d/memlock.conf" >/dev/null 2>"$work/err"
rc=$?
check "a main file that breaks an installed drop-in is refused, the main file untouched" \
	eval 'test $rc = 1 -a "$(stat -c %i "$d/memlock.conf")" = "$ino" &&
	grep -q "^$d/memlock.d/10-floor.conf:1: floor 1 GiB" "$work/err" &&
	test -z "$(find "$d" -name ".*memlockctl-*")"'

# A name in memlock.d/ that the module never reads.
d=$(tree 'limit = "8 MiB";')
printf 'limit = "16 MiB";\n' >"$d/new"
"$ctl" install "$d/new" --conf "$d/memlock.d/50-site.conf.bak" >/dev/null 2>"$work/err"
rc=$?
check "a drop-in name the module never reads is refused, nothing written" \
	eval 'test $rc = 1 && nothing_new "$d" && grep -q "pam_memlock never reads it" "$work/err"'

# 17. A signal between mkstemp and rename (here raised on cue at the first
# fsync): held back until the temporary file is gone, so nothing is left;
# the install completes, then the signal ends the process.
d=$(fresh)
printf 'limit = "16 MiB";\n' >"$d/new"
env LD_PRELOAD="$cue" PML_CUE_FSYNC_SIGNAL=15 \
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
	"$ctl" install "$d/new" --conf "$d/t.conf" >"$work/out" 2>"$work/err"
rc=$?
check "a signal inside install leaves no temporary file, and takes effect after the rename (exit $rc)" \
	test $rc = 143 -a "$(cat "$d/t.conf")" = 'limit = "16 MiB";' -a \
	-z "$(find "$d" -name '.*memlockctl-*')"

# 18-20. NEW is looked at before it is opened for reading: a symbolic link
# (to a device node, to a FIFO) and a device node are refused unopened,
# with a "NEW: refused:" message, and TARGET is untouched.
d=$(fresh)
ino=$(stat -c %i "$d/t.conf")
mknod "$d/dev" c 1 3 && mkfifo "$d/fifo" && ln -s /dev/null "$d/to-dev" && ln -s fifo "$d/to-fifo" ||
	exit 99
failed=
while read -r new why; do
	"$ctl" install "$d/$new" --conf "$d/t.conf" >"$work/out" 2>"$work/err"
	rc=$?
	[ $rc = 1 ] && [ ! -s "$work/out" ] && [ "$(cat "$work/err")" = "$d/$new: refused: $why" ] &&
		untouched "$d" "$ino" || { failed=$new; break; }
done <<'CASES'
to-dev is a symbolic link
to-fifo is a symbolic link
dev is not a regular file
fifo is not a regular file
CASES
check "a symbolic link, a device node or a FIFO as NEW: refused by name, TARGET untouched${failed:+ (not for $failed)}" \
	test -z "$failed"

# A writer blocked opening the FIFO wakes up when anyone opens it for
# reading: it must still be blocked after install ran on a link to it.
# wait_for_partner is where the kernel holds an open of a FIFO.
bash -c 'exec 3>"$1"; : >"$2"' _ "$d/fifo" "$d/opened" &
writer=$!
for _ in $(seq 50); do
	[ "$(cat "/proc/$writer/wchan" 2>/dev/null)" = wait_for_partner ] && break
	sleep 0.1
done
if [ "$(cat "/proc/$writer/wchan" 2>/dev/null)" = wait_for_partner ]; then
	"$ctl" install "$d/to-fifo" --conf "$d/t.conf" >/dev/null 2>&1
	for _ in $(seq 10); do
		[ -e "$d/opened" ] && break
		sleep 0.1
	done
	check "install on a link to a FIFO never opens the FIFO for reading" test ! -e "$d/opened"
else
	skip "install on a link to a FIFO never opens the FIFO for reading" \
		"/proc/PID/wchan does not show a writer blocked in wait_for_partner"
fi
kill "$writer" 2>/dev/null
wait "$writer"

# A relative NEW is read from the working directory.
d=$(fresh)
printf 'limit = "16 MiB";\n' >"$d/new"
(cd "$d" && "$ctl" install new --conf "$d/t.conf") >/dev/null 2>"$work/err"
rc=$?
check "a relative NEW is read from the working directory" eval 'test $rc = 0 && cmp -s "$d/new" "$d/t.conf"'
