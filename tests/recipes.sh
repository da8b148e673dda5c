#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The recipes in conf/examples, held to their own text.  Each recipe is a
# policy file whose comments say what it gives whom, as lines
#
#   # expect: user=NAME [groups=G1,G2] [service=S] [ram=SIZE] -> soft=V hard=V [mode=M]
#
# (V: a size such as 8MiB, a number of bytes, or "unlimited").  For each
# recipe: `memlockctl check --strict` passes on a host with the groups the
# expectations name and on one with none of them (a mixed fleet); and for
# each expectation, `memlockctl explain --json` gives those limits and
# that mode.  The users and groups are the expectations' own, in a
# passwd and group file bind-mounted over /etc's in a private mount
# namespace.  RAM: explain's --ram where this memlockctl has it; else the
# share's base is fixed by a user.slice memory limit, in a cgroup tree on
# a tmpfs over /sys/fs/cgroup in that namespace (explain reads the user's
# slice); a RAM above this machine's MemTotal then skips.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
srcdir=${PML_SRCDIR:?run with make check}
. "$srcdir/tests/tap.sh"
n=0
recipes=("$srcdir"/conf/examples/*.conf)

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "1..1"
	skip "conf/examples" "needs root (policy files must be root's) and unshare -m"
	exit 0
fi
work=$(mktemp -d /tmp/pml-recipes-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
has_ram=false
"$ctl" --help 2>&1 | grep -q -- '--ram' && has_ram=true
memtotal=$(($(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) * 1024))

# bytes V: V (8MiB, 4GiB, 123, unlimited) as bytes or "unlimited".
bytes() {
	local shift_by
	case $1 in
	unlimited) echo unlimited; return 0 ;;
	*TiB) shift_by=40 ;; *GiB) shift_by=30 ;; *MiB) shift_by=20 ;; *KiB) shift_by=10 ;;
	*) shift_by=0 ;;
	esac
	local num=${1%[KMGT]iB}
	num=${num%B}
	case $num in '' | *[!0-9]*) echo "bad size: $1" >&2; return 1 ;; esac
	echo $((num << shift_by))
}

# in_ns PASSWD GROUP RAM COMMAND...: COMMAND with PASSWD and GROUP over
# /etc's, and /sys/fs/cgroup a tree whose user.slice is limited to RAM
# bytes (empty: no cgroup tree at all), in a private mount namespace.
in_ns() {
	unshare -m -- bash -c '
		mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group &&
			mount -t tmpfs pml-recipes /sys/fs/cgroup || exit 99
		if [ -n "$3" ]; then
			: >/sys/fs/cgroup/cgroup.controllers && mkdir /sys/fs/cgroup/user.slice &&
				echo "$3" >/sys/fs/cgroup/user.slice/memory.max || exit 99
		fi
		shift 3
		exec "$@"' _ "$@"
}

for recipe in "${recipes[@]}"; do
	name=${recipe##*/}
	grep '^# expect: ' "$recipe" | sed 's/^# expect: //' >"$work/expect"
	if [ ! -s "$work/expect" ]; then
		not_ok "$name: says what it gives whom in \"# expect:\" lines"
		continue
	fi
	# The expectations' users and groups, beside this machine's.
	rm -f "$work/users" "$work/groups"
	awk '{
		sub(/ *->.*/, "")
		user = ""; groups = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^user=/) user = substr($i, 6)
			if ($i ~ /^groups=/) groups = substr($i, 8)
		}
		if (user != "root" && !(user in seen)) { seen[user] = 1; users[nu++] = user }
		ng = split(groups, g, ",")
		for (j = 1; j <= ng; j++) {
			if (!(g[j] in members)) { gl[ngl++] = g[j]; members[g[j]] = user }
			else if (index("," members[g[j]] ",", "," user ",") == 0) members[g[j]] = members[g[j]] "," user
		}
	}
	END {
		for (i = 0; i < nu; i++)
			printf "%s:x:%d:65534::/nonexistent:/usr/sbin/nologin\n", users[i], 4300 + i >(dir "/users")
		for (i = 0; i < ngl; i++)
			printf "%s:x:%d:%s\n", gl[i], 4400 + i, members[gl[i]] >(dir "/groups")
	}' dir="$work" "$work/expect"
	touch "$work/users" "$work/groups"
	awk -F: 'NR == FNR { skip[$1] = 1; next } !skip[$1]' "$work/users" /etc/passwd >"$work/passwd"
	cat "$work/users" >>"$work/passwd"
	awk -F: 'NR == FNR { skip[$1] = 1; next } !skip[$1]' "$work/groups" /etc/group >"$work/group-without"
	cat "$work/group-without" "$work/groups" >"$work/group-with"
	mkdir -p "$work/policy" && cp "$recipe" "$work/policy/memlock.conf" &&
		chmod 0644 "$work/policy/memlock.conf"

	for host in with without; do
		in_ns "$work/passwd" "$work/group-$host" "" \
			"$ctl" check --strict --conf "$work/policy/memlock.conf" >"$work/out" 2>&1
		rc=$?
		[ $rc = 0 ]
		verdict "$name: check --strict passes on a host $host the groups it names" "$work/out"
	done

	while IFS= read -r line; do
		args=${line%%->*} want=${line#*->}
		user= service= ram=
		for f in $args; do
			case $f in
			user=*) user=${f#user=} ;;
			service=*) service=${f#service=} ;;
			ram=*) ram=${f#ram=} ;;
			esac
		done
		opts=(explain "$user" --json --conf "$work/policy/memlock.conf")
		[ -n "$service" ] && opts+=(--service "$service")
		limit=
		if [ -n "$ram" ]; then
			ram_bytes=$(bytes "$ram") || { not_ok "$name: $line" "bad ram= value"; continue; }
			if $has_ram; then
				opts+=(--ram "$ram")
			elif [ "$ram_bytes" -lt "$memtotal" ]; then
				limit=$ram_bytes
			else
				skip "$name: $line" "explain has no --ram here, and $ram is above this machine's MemTotal"
				continue
			fi
		fi
		in_ns "$work/passwd" "$work/group-with" "$limit" "$ctl" "${opts[@]}" \
			>"$work/json" 2>"$work/err"
		rc=$?
		got=$(awk '/^  "(soft|hard|mode)": / {
				k = $1; gsub(/[":]/, "", k); v = $2; gsub(/[",]/, "", v); printf "%s=%s ", k, v
			}' "$work/json")
		wanted=
		for f in $want; do
			case $f in
			soft=* | hard=*) wanted="$wanted ${f%%=*}=$(bytes "${f#*=}")" ;;
			mode=*) wanted="$wanted $f" ;;
			esac
		done
		ok_all=true
		for f in $wanted; do
			case " $got " in *" $f "*) ;; *) ok_all=false ;; esac
		done
		if [ $rc = 0 ] && $ok_all; then
			ok "$name: $line"
		else
			not_ok "$name: $line" "explain exited $rc and gave: $got" "wanted:$wanted" "$(cat "$work/err")"
		fi
	done <"$work/expect"
done
echo "1..$n"
