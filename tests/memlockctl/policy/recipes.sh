#!/bin/bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The recipes in conf/examples, held to their own text.  Each recipe is a
# policy file whose comments say what it gives whom, as lines
#
#   # expect: user=NAME [groups=G1,G2] [service=S] [ram=SIZE] -> soft=V hard=V [mode=M]
#   # expect: unit=NAME [ram=SIZE] -> soft=V hard=V [mode=M]
#
# (V: a size such as 8MiB, a number of bytes, or "unlimited").  For each
# recipe: `memlockctl check --strict` passes on a host with the groups the
# expectations name and on one with none of them (a mixed fleet); and for
# each expectation, `memlockctl explain --json` (`explain --unit` for a
# unit, with an empty unit search path) gives those limits and that mode.
# The users and groups are the expectations' own, in a passwd and group
# file bind-mounted over /etc's in a private mount namespace, with an
# empty cgroup tree; RAM is explain's --ram, a hypothetical host's.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
srcdir=${PML_SRCDIR:?run with make check}
. "$srcdir/tests/lib/tap.sh"
n=0
recipes=("$srcdir"/conf/examples/*.conf)

if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "1..1"
	skip "conf/examples" "needs root (policy files must be root's) and unshare -m"
	exit 0
fi
work=$(mktemp -d /tmp/pml-recipes-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
mkdir "$work/no-units"

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

# in_ns PASSWD GROUP COMMAND...: COMMAND with PASSWD and GROUP over
# /etc's, and no cgroup tree, in a private mount namespace.
in_ns() {
	unshare -m -- bash -c '
		mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group &&
			mount -t tmpfs pml-recipes /sys/fs/cgroup || exit 99
		shift 2
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
		in_ns "$work/passwd" "$work/group-$host" \
			"$ctl" check --strict --conf "$work/policy/memlock.conf" >"$work/out" 2>&1
		rc=$?
		[ $rc = 0 ]
		verdict "$name: check --strict passes on a host $host the groups it names" "$work/out"
	done

	while IFS= read -r line; do
		args=${line%%->*} want=${line#*->}
		user= service= ram= unit=
		for f in $args; do
			case $f in
			user=*) user=${f#user=} ;;
			service=*) service=${f#service=} ;;
			ram=*) ram=${f#ram=} ;;
			unit=*) unit=${f#unit=} ;;
			esac
		done
		if [ -n "$unit" ]; then
			opts=(explain --unit "$unit" --conf "$work/policy/memlock.conf")
		else
			opts=(explain "$user" --json --conf "$work/policy/memlock.conf")
		fi
		[ -n "$service" ] && opts+=(--service "$service")
		[ -n "$ram" ] && opts+=(--ram "$ram")
		SYSTEMD_UNIT_PATH=$work/no-units in_ns "$work/passwd" "$work/group-with" \
			"$ctl" "${opts[@]}" >"$work/out" 2>"$work/err"
		rc=$?
		if [ -n "$unit" ]; then
			# "mode:       set" and "policy:     soft N (...), hard N (...)"
			got=$(awk '$1 == "mode:" { printf "mode=%s ", $2 }
				$1 == "policy:" { s = $3; h = $0; sub(/.*hard /, "", h); sub(/ .*/, "", h)
					sub(/,$/, "", s); sub(/^infinity$/, "unlimited", s)
					sub(/^infinity$/, "unlimited", h); printf "soft=%s hard=%s ", s, h }' "$work/out")
		else
			got=$(awk '/^  "(soft|hard|mode)": / {
					k = $1; gsub(/[":]/, "", k); v = $2; gsub(/[",]/, "", v); printf "%s=%s ", k, v
				}' "$work/out")
		fi
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
