#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl against golden files, and what golden files cannot show.
#
# Each directory tests/data/cli/CASE holds:
#   args            the arguments, one per line; @DIR@ is the staged copy
#   stdout, stderr  what memlockctl must print (@DIR@ and @SEC@ stand for
#                   the staged copy and $(sysconfdir)/security)
#   status          its exit status
#   anything else   the policy files, copied to a private directory
#                   (files 0644, directories 0755) and run from there
# A case with a security/ directory has it mounted over
# $(sysconfdir)/security in a private mount namespace (unshare -m), so that
# the default path and its memlock.d/ drop-ins are what is read.
#
# PML_CLI_REGEN=1 rewrites the expected files from what memlockctl prints:
# review the diff before committing it.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
data=${PML_TESTDATA:?run with make check}/cli
srcdir=${PML_SRCDIR:?run with make check}
work=$(mktemp -d /tmp/pml-cli-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
# No measurement is saved here: check and explain read none.
export MEMLOCKCTL_MEASURED_DIR=$work/measured
. "$srcdir/tests/lib/tap.sh"
is_root=false can_mount=false
[ "$(id -u)" = 0 ] && is_root=true
NEED_ROOT="policy files must be owned by root: run make check as root"

# The default policy path, as this build was configured.
default_conf=$("$ctl" --help | sed -n 's/.*read FILE instead of \(\/.*\)$/\1/p')
secdir=$(dirname "$default_conf")
# Where $secdir is missing (under distcheck even $(sysconfdir) is), a tmpfs
# goes over its nearest existing ancestor and $secdir is made inside it.
anchor=$secdir
while [ ! -d "$anchor" ]; do
	anchor=$(dirname "$anchor")
done
if $is_root && unshare -m true 2>/dev/null; then
	can_mount=true
fi

# Whether a tmpfs over $anchor hides nothing the test needs.
anchor_is_free() {
	case $anchor in /|/etc|/usr|/var) return 1 ;; esac
	case "$work/" in "$anchor"/*) return 1 ;; esac
	case "$ctl" in "$anchor"/*) return 1 ;; esac
	return 0
}

# Copies tests/data/cli/$1 to a fresh directory; prints its path.
stage() {
	local to
	to=$(mktemp -d "$work/case-XXXXXX") || return 1
	cp -R "$data/$1/." "$to/" &&
	find "$to" -type f -exec chmod 0644 {} + &&
	find "$to" -type d -exec chmod 0755 {} + &&
	echo "$to"
}

# run DIR ARGS...: memlockctl from DIR, with DIR/security mounted over
# $(sysconfdir)/security when there is one.  Output in $work/out, $work/err.
run() {
	local dir=$1
	shift
	if [ -d "$dir/security" ]; then
		unshare -m -- bash -c '
			if [ ! -d "$2" ]; then
				mount -t tmpfs pml-test "$4" && mkdir -p "$2" || exit 99
			fi
			mount --bind "$1" "$2" && cd "$3" || exit 99
			shift 4
			exec "$@"' \
			_ "$dir/security" "$secdir" "$dir" "$anchor" "$ctl" "$@" \
			>"$work/out" 2>"$work/err"
	else
		(cd "$dir" && exec "$ctl" "$@") >"$work/out" 2>"$work/err"
	fi
}

# The golden cases.
golden() {
	local name=$1 dir status arg
	local -a args=()

	dir=$(stage "$name") || { not_ok "$name: cannot stage"; return; }
	while IFS= read -r arg; do
		args+=("${arg//@DIR@/$dir}")
	done <"$data/$name/args"
	run "$dir" "${args[@]}"
	status=$?
	# explain's "fits" line names the running kernel (tests/memlockctl/measure/measure.sh
	# checks what it says): only the line's place is golden.
	sed -i -e "s|$dir|@DIR@|g" -e "s|$secdir|@SEC@|g" \
		-e 's|^  fits:     .*|  fits:     @FITS@|' \
		"$work/out" "$work/err"
	if [ -n "${PML_CLI_REGEN:-}" ]; then
		cp "$work/out" "$data/$name/stdout"
		cp "$work/err" "$data/$name/stderr"
		echo "$status" >"$data/$name/status"
	fi
	if [ "$status" != "$(cat "$data/$name/status")" ]; then
		not_ok "$name: exit status $status, want $(cat "$data/$name/status")"
		sed 's/^/# /' "$work/err"
	elif ! diff -u "$data/$name/stdout" "$work/out" >"$work/diff" ||
	     ! diff -u "$data/$name/stderr" "$work/err" >>"$work/diff"; then
		not_ok "$name: output differs"
		sed 's/^/# /' "$work/diff"
	else
		ok "$name: $(tr '\n' ' ' <"$data/$name/args" | cut -c1-60)"
	fi
}

for path in "$data"/*/; do
	name=$(basename "$path")
	if [ -n "$(find "$path" -name '*.conf' -o -name security)" ] && ! $is_root; then
		skip "$name" "$NEED_ROOT"
	elif [ -d "$path/security" ] && ! $can_mount; then
		skip "$name" "needs root and unshare -m to mount a policy over $secdir"
	elif [ -d "$path/security" ] && [ ! -d "$secdir" ] && ! anchor_is_free; then
		skip "$name" "$secdir does not exist, and a tmpfs over $anchor would hide the system, the test or memlockctl"
	else
		golden "$name"
	fi
done

# --- Help and version: stdout, exit 0, nothing on stderr.
for args in "--help" "-h" "check --help" "explain root --help"; do
	# shellcheck disable=SC2086
	"$ctl" $args >"$work/out" 2>"$work/err"
	check "memlockctl $args prints the usage on stdout, exit 0" \
		test $? = 0 -a ! -s "$work/err" -a "$(head -c 24 "$work/out")" = "Usage: memlockctl check "
done
"$ctl" --version >"$work/out" 2>"$work/err"
check "memlockctl --version: 'memlockctl (pam_memlock) VERSION', exit 0" \
	grep -qx 'memlockctl (pam_memlock) [0-9][0-9.]*' "$work/out"

# --- JSON parsed back.
json_check() { # json_check NAME PYTHON-ASSERTIONS (on d) < JSON
	if "${PML_PYTHON:-python3}" -c 'import json, sys
d = json.loads(sys.stdin.buffer.read().decode("utf-8", "strict"))
'"$2" 2>"$work/pyerr"; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/# /' "$work/pyerr"
	fi
}
if ! command -v "${PML_PYTHON:-python3}" >/dev/null; then
	for t in "explain --json" "explain --json share" "explain --json names" "show --json"; do
		skip "$t parses back" "python3 is not installed"
	done
elif ! $is_root; then
	for t in "explain --json" "explain --json share" "explain --json names" "show --json"; do
		skip "$t parses back" "$NEED_ROOT"
	done
else
	dir=$(stage explain-rule)
	"$ctl" explain root --service sshd --conf "$dir/memlock.conf" --json >"$work/json"
	json_check <"$work/json" \
		"explain --json: soft, hard, mode, rule and origins" '
assert d["user"] == "root" and d["service"] == "sshd", d
assert d["soft"] == 1048576 and d["hard"] == "unlimited", d
assert d["mode"] == "set" and d["mode_origin"]["line"] == 5, d
assert d["mode_origin"]["level"] == "rule", d
assert d["rule"]["line"] == 5 and d["rule"]["file"].endswith("/memlock.conf"), d
assert d["files"] == [d["rule"]["file"]], d
assert d["soft_lowered_to_hard"] is False
s, h = d["soft_detail"], d["hard_detail"]
assert s["setting"] == "soft" and s["value"] == "1 MiB" and s["human"] == "1 MiB", s
assert h["setting"] == "hard" and h["value"] == "unlimited" and h["bytes"] == "unlimited", h
assert s["share"] is None and h["share"] is None
assert d["user_known"] is True
'
	dir=$(stage explain-builtin)
	printf 'limit = "0.01%%";\nceiling = "6 MiB";\nrules = ( { user = "root"; soft = "100%%"; } );\n' >"$dir/memlock.conf"
	"$ctl" explain root --conf "$dir/memlock.conf" --json >"$work/json"
	json_check <"$work/json" \
		"explain --json share: the arithmetic matches RAM, page and ceiling" '
ram, page = d["machine"]["ram"], d["machine"]["page_size"]
h = d["hard_detail"]["share"]
exact = ram * 10 // 100000
assert h["percent"] == "0.01%" and h["ram"] == ram and h["exact"] == exact, h
assert h["page_rounded"] == exact - exact % page, h
want = min(max(h["page_rounded"], page), 6 << 20)
assert d["hard"] == want == d["hard_detail"]["bytes"], d
assert h["floor"] == page and h["floor_origin"] is None, h
assert h["ceiling"] == 6 << 20 and h["ceiling_origin"]["level"] == "top level", h
assert h["clamp"] == ("none" if want == h["page_rounded"] else "floor" if want == page else "ceiling"), h
s = d["soft_detail"]["share"]
assert s["percent"] == "100%" and s["exact"] == ram and s["clamp"] == "ceiling", s
assert d["soft_detail"]["origin"]["level"] == "rule", d
assert d["soft_lowered_to_hard"] == (6 << 20 > want) and d["soft"] == want, d
'
	dir=$(stage explain-rule)
	"$ctl" explain $'pml\x01"\\\x1b[31m\xff\xc3\xa9\xed\xa0\x80\xf4\x90\x80\x80' \
		--service $'tab\there' --conf "$dir/memlock.conf" --json >"$work/json"
	json_check <"$work/json" \
		"explain --json names: any byte escapes to valid JSON (controls, quotes, non-UTF-8)" '
assert d["user"] == "pml\x01\"\\\x1b[31m\xff\u00e9\xed\xa0\x80\xf4\x90\x80\x80", repr(d["user"])
assert d["service"] == "tab\there", repr(d["service"])
assert d["user_known"] is False
assert d["soft"] == 8 << 20 and d["rule"] is None
'
	dir=$(stage show-simple)
	"$ctl" show --conf "$dir/memlock.conf" --json >"$work/json"
	json_check <"$work/json" \
		"show --json: files, top level with origins and defaults, rules" '
assert d["main_file_present"] is True and d["files"] == [d["main_file"]], d
t = d["top"]
assert t["limit"]["value"] == "1%" and t["limit"]["bytes"] is None, t
assert t["limit"]["origin"]["line"] == 1, t
assert t["soft"]["value"] == "1048577" and t["soft"]["bytes"] == 1048577, t
assert t["hard"] == {"value": None, "bytes": None, "origin": None}, t
assert t["floor"]["value"] == "2 MiB" and t["floor"]["bytes"] == 2 << 20, t
assert t["ceiling"]["value"] == "1.5 GiB" and t["ceiling"]["bytes"] == 3 << 29, t
assert t["mode"]["value"] == "set" and "bytes" not in t["mode"], t
(r,) = d["rules"]
assert r["origin"]["line"] == 7, r
assert r["match"] == {"user": ["root", "a\"b", "tab\there"], "group": ["adm"],
                      "uid": ["0", "100-200", "0-50", "60000-"], "service": ["sshd"]}, r
s = r["settings"]
assert list(s) == ["limit", "soft", "hard", "floor", "ceiling", "mode"], s
assert s["soft"]["bytes"] == "unlimited" and s["soft"]["value"] == "unlimited", s
assert s["limit"]["value"] == "12.5%" and s["floor"]["value"] == "page", s
assert s["ceiling"]["bytes"] == 65536 and s["mode"]["value"] == "raise", s
assert all(v["origin"]["line"] in (9, 10) for v in s.values()), s
'
fi

# --- What golden files cannot show.
if $is_root; then
	dir=$(stage check-ok)
	chmod 0664 "$dir/memlock.conf"
	"$ctl" check --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
	check "check --conf: a group-writable candidate is validated, with a note that the module would refuse it" \
		test $? = 0 -a "$(head -n1 "$work/out")" = \
		"$dir/memlock.conf: note: writable by group or others: pam_memlock would refuse it; install it with mode 0644"

	# A candidate owned by someone else, as CI or configuration management
	# writes it before it is installed: validated, with a note.
	dir=$(stage check-ok)
	chown 65534:65534 "$dir/memlock.conf"
	"$ctl" check --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
	check "check --conf: a candidate not owned by root is validated, with a note" \
		test $? = 0 -a "$(head -n1 "$work/out")" = \
		"$dir/memlock.conf: note: owned by uid 65534: pam_memlock reads only files that root owns; install it as root, mode 0644 (memlockctl install)" -a \
		"$(tail -n1 "$work/out")" = "$dir/memlock.conf: OK (1 file, 2 rules)"

	# Unprivileged, a policy only root may read: that is not the module
	# refusing it.
	dir=$(stage check-ok)
	chmod 0600 "$dir/memlock.conf"
	chmod 0755 "$work" "$dir"
	if command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$ctl" check --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
		check "check unprivileged, a 0600 policy: says this user cannot read it, not that the module would refuse it" \
			test $? = 1 -a "$(tail -n1 "$work/err")" = \
			"memlockctl: $dir/memlock.conf: uid 65534 cannot read it; pam_memlock runs as root and can: run memlockctl check as root"
	else
		skip "check unprivileged, a 0600 policy" "setpriv is not installed"
	fi

	dir=$(stage check-ok)
	ln -s memlock.conf "$dir/link.conf"
	"$ctl" check --conf "$dir/link.conf" >"$work/out" 2>"$work/err"
	check "check: a symlinked policy is refused, exit 1" \
		test $? = 1 -a "$(head -n1 "$work/err")" = "$dir/link.conf: refused: is a symbolic link"

	dir=$(stage check-ok)
	"$ctl" show --conf "$dir/memlock.conf" >/dev/full 2>"$work/err"
	check "show: a write error fails, exit 1" \
		test $? = 1 -a "$(cat "$work/err")" = "memlockctl: cannot write the output: No space left on device"

	# show and explain read a candidate as check does: whatever its owner
	# and mode, with check's notes on standard error (standard output
	# stays a policy file, or JSON).
	dir=$(stage check-ok)
	chown 65534:65534 "$dir/memlock.conf"
	chmod 0666 "$dir/memlock.conf"
	notes="$dir/memlock.conf: note: owned by uid 65534: pam_memlock reads only files that root owns; install it as root, mode 0644 (memlockctl install)
$dir/memlock.conf: note: writable by group or others: pam_memlock would refuse it; install it with mode 0644"
	"$ctl" show --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
	check "show --conf: a candidate not owned by root is shown, with check's notes on stderr" \
		test $? = 0 -a "$(cat "$work/err")" = "$notes" -a \
		"$(grep -c '^{ user = "root"; limit = "4 MiB"; },$\|^  { user = "root"; limit = "4 MiB"; },$' "$work/out")" = 1 -a \
		"$(grep -c note "$work/out")" = 0
	"$ctl" explain root --service sshd --conf "$dir/memlock.conf" --json >"$work/out" 2>"$work/err"
	check "explain --conf: a candidate not owned by root is explained, with check's notes on stderr" \
		test $? = 0 -a "$(cat "$work/err")" = "$notes" -a \
		"$("${PML_PYTHON:-python3}" -c 'import json,sys; print(json.load(sys.stdin)["soft"])' <"$work/out" 2>&1)" = 4194304
	if command -v setpriv >/dev/null; then
		chmod 0755 "$work" "$dir"
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$ctl" explain root --service sshd --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
		check "explain --conf as the candidate's own non-root owner (a CI job)" \
			test $? = 0 -a "$(sed -n 's/^soft: *//p' "$work/out")" = "4194304 bytes (4 MiB)"
	else
		skip "explain --conf as the candidate's own non-root owner" "setpriv is not installed"
	fi

	# The README's validate hook, on hosts with and without the groups the
	# site's drop-in names, and a ceiling that decides on large hosts: the
	# same files, the same verdict everywhere; what this host lacks is a
	# host warning.  /etc/group and the policy directory are bind-mounted
	# in a private mount namespace.
	hook_ok=$can_mount
	[ ! -d "$secdir" ] && ! anchor_is_free && hook_ok=false
	if $hook_ok; then
		dir=$(stage check-ok)
		mkdir -m 0755 "$dir/security" "$dir/security/memlock.d"
		install -m 0644 "$srcdir/conf/memlock.conf" "$dir/security/memlock.conf"
		printf 'rules = (\n  { group = "pml-dev"; limit = "1%%"; ceiling = "8 MiB"; },\n  { group = "pml-rdma"; limit = "unlimited"; }\n);\n' >"$dir/site.conf"
		grep -v '^pml-' /etc/group >"$dir/group-without"
		{ cat "$dir/group-without"; printf 'pml-dev:x:4242:\npml-rdma:x:4243:\n'; } >"$dir/group-with"
		hook() { # hook GROUP-FILE [OPTION]: the hook's status; output in $work/out, err
			unshare -m -- bash -c '
				if [ ! -d "$2" ]; then
					mount -t tmpfs pml-test "$4" && mkdir -p "$2" || exit 99
				fi
				mount --bind "$1" "$2" && mount --bind "$3" /etc/group || exit 99
				shift 4
				exec "$@"' \
				_ "$dir/security" "$secdir" "$1" "$anchor" "$ctl" check ${2:---strict} \
				--conf "$dir/site.conf" --as memlock.d/50-site.conf >"$work/out" 2>"$work/err"
		}
		hook "$dir/group-with"
		check "validate hook: passes on a host with the groups the policy names" \
			test $? = 0 -a "$(grep -c 'group "pml-' "$work/err")" = 0 -a \
			"$(sed 's/, [0-9] host warning//' "$work/out")" = "$dir/site.conf as $secdir/memlock.d/50-site.conf: OK (2 files, 2 rules)"
		hook "$dir/group-without"
		check "validate hook: passes on a host without them, each named as a host warning" \
			test $? = 0 -a "$(grep -c '^'"$dir"'/site.conf:[23]: host warning: group "pml-[a-z]*" does not exist on this machine$' "$work/err")" = 2
		hook "$dir/group-without" --strict-host
		check "validate hook with --strict-host: fails on a host without them" \
			test $? = 1 -a "$(tail -n1 "$work/err" | sed 's/[0-9]* host warnings/N host warnings/')" = \
			"memlockctl: $dir/site.conf as $secdir/memlock.d/50-site.conf: N host warnings, and --strict-host makes them fail"
	else
		for t in "validate hook: with the groups" "validate hook: without them" \
			 "validate hook with --strict-host"; do
			skip "$t" "needs root and unshare -m to mount a group file and a policy over $secdir"
		done
	fi

	# Unprivileged: it only reads, and a 0644 root-owned file is readable.
	dir=$(stage check-ok)
	chmod 0755 "$work"
	if command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$ctl" check --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
		check "check works unprivileged (uid 65534)" \
			test $? = 0 -a "$(cat "$work/out")" = "$dir/memlock.conf: OK (1 file, 2 rules)"
		setpriv --reuid=65534 --regid=65534 --clear-groups -- \
			"$ctl" explain root --service sshd --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
		check "explain works unprivileged (uid 65534)" \
			test $? = 0 -a "$(sed -n 's/^soft: *//p' "$work/out")" = "4194304 bytes (4 MiB)"
	else
		skip "check works unprivileged" "setpriv is not installed"
		skip "explain works unprivileged" "setpriv is not installed"
	fi

	# The shipped example rules, uncommented, are in an order that does
	# what it seems to say: check finds no rule that a broader one follows.
	dir=$(stage check-ok)
	sed -n -e 's/^#\(rules = (\)$/\1/p' -e 's/^#\(  {.*\)$/\1/p' -e 's/^#\();\)$/\1/p' \
		"$srcdir/conf/memlock.conf" >"$dir/memlock.conf"
	"$ctl" check --conf "$dir/memlock.conf" >"$work/out" 2>"$work/err"
	check "check: the shipped example rules are in an order that does what they say" \
		test $? = 0 -a "$(grep -c '^  {' "$dir/memlock.conf")" = 4 -a \
		"$(grep -c 'broader rule\|never decides' "$work/err")" = 0

	# A file name with a newline, an escape and a non-UTF-8 byte: explain's
	# text and check's messages print it escaped, one line each.
	hostile=$work/$'ev\nil\x1b[2J\xff'
	mkdir -m 0755 "$hostile"
	printf 'rules = ( { user = "root"; limit = "1 MiB"; } );\n' >"$hostile/memlock.conf"
	chmod 0644 "$hostile/memlock.conf"
	shown="$work/ev\\x0ail\\x1b[2J\\xff/memlock.conf"
	"$ctl" explain root --conf "$hostile/memlock.conf" >"$work/out" 2>"$work/err"
	check "explain: a hostile file name is escaped in the text output" \
		test $? = 0 -a "$(sed -n 's/^decided by: //p' "$work/out")" = "rule $shown:1" -a \
		"$(LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f-\xff]' "$work/out")" = 0
	printf 'limit = "1 MiB" junk;\n' >"$hostile/memlock.conf"
	"$ctl" check --conf "$hostile/memlock.conf" >"$work/out" 2>"$work/err"
	check "check: a hostile file name is escaped in FILE:LINE messages" \
		test $? = 1 -a "$(head -n1 "$work/err" | cut -d: -f1-2)" = "$shown:1" -a \
		"$(LC_ALL=C grep -c $'[\x01-\x09\x0b-\x1f\x7f-\xff]' "$work/err")" = 0

	# It never changes a limit: no setrlimit/prlimit64 that sets MEMLOCK.
	if command -v strace >/dev/null && strace -f -o /dev/null true 2>/dev/null; then
		dir=$(stage explain-rule)
		ASAN_OPTIONS=detect_leaks=0 strace -f -o "$work/trace" -e trace=setrlimit,prlimit64 \
			"$ctl" explain root --service sshd --conf "$dir/memlock.conf" >"$work/out" 2>&1
		status=$?
		# Its measuring children lower their own limits (prlimit64 of
		# pid 0); explain itself sets none, and no one sets another's.
		main=$(awk '{ print $1; exit }' "$work/trace")
		check "explain never sets RLIMIT_MEMLOCK (strace)" \
			test $status = 0 -a -s "$work/out" -a \
			"$(grep -E '(setrlimit|prlimit64)\(.*RLIMIT_MEMLOCK, \{' "$work/trace" |
				grep -cE "^$main |prlimit64\([1-9]")" = 0
		# The cgroup files are read only for a share of "available".
		cgroup_reads() { # cgroup_reads POLICY: how many cgroup files explain opens
			printf '%s\n' "$1" >"$dir/memlock.conf"
			ASAN_OPTIONS=detect_leaks=0 strace -f -o "$work/trace" -e trace=open,openat,access \
				"$ctl" explain root --conf "$dir/memlock.conf" >/dev/null 2>&1
			grep -cE '"(/proc/self/cgroup|/sys/fs/cgroup)' "$work/trace"
		}
		check "explain reads no cgroup file for a fixed size (strace)" \
			test "$(cgroup_reads 'limit = "8 MiB";')" = 0
		check "explain reads no cgroup file for share_of = \"ram\" (strace)" \
			test "$(cgroup_reads 'limit = "1%"; share_of = "ram";')" = 0
		check "explain reads the cgroup files for a share of \"available\" (strace)" \
			test "$(cgroup_reads 'limit = "1%";')" -gt 0
	else
		for t in "explain never sets RLIMIT_MEMLOCK" "no cgroup file for a fixed size" \
			 "no cgroup file for share_of ram" "cgroup files for available"; do
			skip "$t (strace)" "strace is not installed or cannot trace here"
		done
	fi

	# explain's base of "available" is the user's slice, not the cgroup
	# explain itself runs in: a fake cgroup tree (a tmpfs over
	# /sys/fs/cgroup, in a private mount namespace) puts 100 MiB on this
	# process's own cgroups and 256 MiB on user-0.slice.
	own=$(awk -F: '($1 == 0 && $3 != "/") || $2 ~ /(^|,)memory(,|$)/ && $3 != "/"' /proc/self/cgroup)
	if ! $can_mount; then
		skip "explain: the base of a share is the user's slice, not explain's own cgroup" \
			"needs root and unshare -m"
	elif [ -z "$own" ]; then
		skip "explain: the base of a share is the user's slice, not explain's own cgroup" \
			"this process sits in the root cgroup: its cgroup and the user's slice cannot be told apart"
	else
		dir=$(stage check-ok)
		printf 'limit = "50%%"; mode = "set";\n' >"$dir/memlock.conf"
		unshare -m -- bash -c '
			mount --make-rprivate / && mount -t tmpfs pml-cg /sys/fs/cgroup &&
			cd /sys/fs/cgroup || exit 99
			echo "cpu memory" >cgroup.controllers
			mkdir -p memory user.slice/user-0.slice
			echo 9223372036854771712 >memory/memory.limit_in_bytes
			echo max >user.slice/memory.max
			echo 268435456 >user.slice/user-0.slice/memory.max
			while IFS=: read -r id controllers path; do
				case $id:$controllers in
				0:) mkdir -p "./$path" && echo 104857600 >"./$path/memory.max" ;;
				*) mkdir -p "memory/$path" &&
					echo 104857600 >"memory/$path/memory.limit_in_bytes" ;;
				esac
			done <<<"$1"
			"$2" explain root --conf "$3" --json >"$4.json" &&
			exec "$2" explain root --conf "$3"' \
			_ "$own" "$ctl" "$dir/memlock.conf" "$work/out" >"$work/out" 2>"$work/err"
		status=$?
		check "explain: the base of a share is the user's slice, not explain's own cgroup" \
			test $status = 0 -a \
			"$(grep -c '"base": 268435456,' "$work/out.json")" = 2 -a \
			"$(grep -c '"base_scope": "user_slice",' "$work/out.json")" = 2 -a \
			"$(grep -c '^  base:     268435456 bytes (256 MiB), /sys/fs/cgroup/user.slice/user-0.slice/memory.max$' "$work/out")" = 2 -a \
			"$(grep -c "^            from the user's slice, user-0.slice, and the cgroups above it" "$work/out")" = 2
		[ $status = 0 ] || sed 's/^/# /' "$work/err"
	fi
else
	for t in "show --conf: candidate not owned by root" "explain --conf: candidate not owned by root" \
		 "explain --conf as a non-root owner" "validate hook: with the groups" \
		 "validate hook: without them" "validate hook with --strict-host" \
		 "check: group-writable" "check: candidate owner" "check: unreadable as a user" \
		 "check: symlink" "show: write error" \
		 "check unprivileged" "explain unprivileged" "check: shipped example order" \
		 "explain: hostile file name" \
		 "check: hostile file name" "explain never sets" "no cgroup file for a fixed size" \
		 "no cgroup file for share_of ram" "cgroup files for available" \
		 "explain: base from the user's slice"; do
		skip "$t" "$NEED_ROOT"
	done
fi

# --- The man page is clean roff.
if command -v mandoc >/dev/null; then
	out=$(mandoc -Tlint -W warning "$srcdir/man/memlockctl.8" 2>&1)
	check "man/memlockctl.8 passes mandoc -Tlint -W warning" test -z "$out"
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
else
	skip "man/memlockctl.8 passes mandoc -Tlint" "mandoc is not installed"
fi

echo "1..$n"
