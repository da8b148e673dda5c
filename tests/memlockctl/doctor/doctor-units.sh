#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# memlockctl doctor's unit verdicts, against a private unit tree under
# --root whose generator output the real pam-memlock-generator wrote: ok,
# overridden (a later drop-in; an admin's file of the drop-in's name),
# stale (the policy changed, a unit came, a rule went since the generator
# ran) and error (an invalid policy).  The generator reads the compiled-in
# policy file: a private mount namespace puts the tree's in its place.
# Prints TAP.
set -u
umask 022

ctl=${PML_BUILDDIR:?run with make check}/memlockctl
gen=$PML_BUILDDIR/pam-memlock-generator
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the policy files must be owned by root: run make check as root"
	exit 0
fi
if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq is not installed: the JSON case needs it"
	exit 0
fi
# The generator's own policy file, as --help names it.
conf=$("$ctl" --help | sed -n 's/.*read FILE instead of \(\/[^ ]*\)$/\1/p')
confdir=${conf%/*}
# A tmpfs goes over the nearest directory of it this machine has.
over=$confdir
while [ -n "$over" ] && [ ! -d "$over" ]; do over=${over%/*}; done
if [ -z "$conf" ] || [ -z "$over" ]; then
	echo "1..0 # SKIP no directory of the policy's ${conf:-(unknown)} to mount a tmpfs over"
	exit 0
fi
if ! unshare -m true 2>/dev/null; then
	echo "1..0 # SKIP no private mount namespace (unshare -m): the generator must read the tree's policy"
	exit 0
fi

work=$(mktemp -d /tmp/pml-doctor-units-XXXXXX) || exit 99
trap 'rm -rf "$work"' EXIT
tree=$work/tree
lib=$tree/lib/systemd/system
etc=$tree/etc/systemd/system
mkdir -p "$tree$confdir" "$lib" "$etc/over.service.d" "$etc/mask.service.d" "$tree/run/systemd/generator"
for u in ok over mask stale gone pg@ job@ linked; do
	printf '[Unit]\nDescription=%s\n[Service]\nExecStart=/bin/true\n' "$u" >"$lib/$u.service"
done
printf '[Service]\nLimitMEMLOCK=infinity\n' >"$etc/over.service.d/override.conf"
printf '[Service]\nExecStart=/bin/true\nLimitMEMLOCK=32M\n' >"$lib/own.service"
printf '[Service]\nLimitMEMLOCK=64K\n' >"$etc/mask.service.d/50-pam-memlock.conf"

# policy STALE-LIMIT GONE-NAME JOB-LIMIT: one line each, so the rules keep
# their lines.
policy() {
	cat >"$tree$conf" <<EOT
rules = (
  { unit = ["ok.service", "over.service", "mask.service", "own.service", "linked.service", "fresh*.service"]; limit = "1 GiB"; mode = "set"; },
  { unit = "stale.service"; limit = "$1"; mode = "set"; },
  { unit = "$2"; limit = "1 GiB"; mode = "set"; },
  { unit = "pg@*.service"; limit = "5%"; },
  { unit = "job@*.service"; limit = "$3"; mode = "set"; }
);
EOT
}

# The generator's run, as systemd's at a daemon-reload, on the tree.
policy "1 GiB" gone.service "1 GiB"
unshare -m -- bash -c '
	mount -t tmpfs pml-doctor-units "$2" && mkdir -p "${1%/*}" && cp "$3" "$1" || exit 99
	SYSTEMD_UNIT_PATH=$4/etc/systemd/system:$4/lib/systemd/system exec "$5" "$4/run/systemd/generator"
' _ "$conf" "$over" "$tree$conf" "$tree" "$gen" 2>"$work/gen.err"
if [ ! -s "$tree/run/systemd/generator/ok.service.d/50-pam-memlock.conf" ]; then
	echo "1..0 # SKIP the generator wrote no drop-in: $(head -c 300 "$work/gen.err")"
	exit 0
fi
# Since then: the stale unit's and a template's rules changed, a unit
# came, a rule went.
policy "2 GiB" nogo.service "3 GiB"
printf '[Service]\nExecStart=/bin/true\n' >"$lib/fresh.service"
# A FIFO in the drop-in's place is not opened (it would hang), but named.
rm "$tree/run/systemd/generator/linked.service.d/50-pam-memlock.conf"
mkfifo "$tree/run/systemd/generator/linked.service.d/50-pam-memlock.conf"
printf 'rules = (\n  { unit = "ok.service"; limt = "1 GiB"; }\n);\n' >"$tree$confdir/broken.conf"

export SYSTEMD_UNIT_PATH=/etc/systemd/system:/lib/systemd/system
run() { # run OUT ARGS...: doctor --root on the tree; the exit status in OUT.rc
	local out=$1
	shift
	"$ctl" doctor --root "$tree" "$@" >"$out" 2>"$out.err"
	echo $? >"$out.rc"
}

# unit|conf|verdict|exit|what the result line says
cases=(
	"ok.service|$conf|ok|0|/run/systemd/generator/ok.service.d/50-pam-memlock.conf sets it, and no later file changes it"
	"over.service|$conf|overridden|1|/etc/systemd/system/over.service.d/override.conf:2 sets LimitMEMLOCK= in a drop-in that sorts after the generator's"
	"mask.service|$conf|overridden|1|/etc/systemd/system/mask.service.d/50-pam-memlock.conf:2 sets LimitMEMLOCK= in a file of the generator's drop-in's name"
	"stale.service|$conf|stale|1|50-pam-memlock.conf says LimitMEMLOCK=1073741824:1073741824, not what the generator writes now"
	"fresh.service|$conf|stale|1|no drop-in in /run/systemd/generator"
	"gone.service|$conf|stale|1|and the generator writes no drop-in now"
	"linked.service|$conf|stale|1|/run/systemd/generator/linked.service.d/50-pam-memlock.conf: cannot be read: "
	"pg@15-main.service|$conf|ok|0|/run/systemd/generator/pg@.service.d/50-pam-memlock.conf sets it"
	"job@7.service|$conf|stale|1|50-pam-memlock.conf says LimitMEMLOCK=1073741824:1073741824, not what the generator writes now"
	"ok.service|$confdir/broken.conf|error|1|the policy is invalid, so the generator writes no drop-in: $confdir/broken.conf:2:"
)
# explain --unit --json: unit|instance|action|mode|overridden at ("-": null)
explains=(
	"ok.service|-|write|set|-"
	"over.service|-|write|set|$etc/over.service.d/override.conf:2"
	"mask.service|-|admin|set|-"
	"own.service|-|write|set|-"
	"pg@.service|pg@15-main.service|write|raise|-"
	"gone.service|-|no_rule|-|-"
)
echo "1..$((${#cases[@]} + ${#explains[@]} + 4))"
i=0
for c in "${cases[@]}"; do
	IFS='|' read -r unit file want rc says <<<"$c"
	i=$((i + 1))
	run "$work/c$i" --unit "$unit" --conf "$file"
	shown=$unit
	case $unit in *@?*.service) shown=${unit%%@*}@.service ;; esac
	[ "$(head -n 1 "$work/c$i")" = "$shown: $want" ] && [ "$(cat "$work/c$i.rc")" = "$rc" ] &&
		grep -qF -- "$says" "$work/c$i" && [ ! -s "$work/c$i.err" ]
	verdict "doctor --unit $unit: $want (exit $rc)" "$work/c$i" "$work/c$i.err"
done
grep -q '^  fix:    systemctl daemon-reload, then restart stale.service$' "$work/c4" &&
	grep -q "^  policy: LimitMEMLOCK=2147483648:2147483648, the rule at $conf:3\$" "$work/c4"
verdict "doctor --unit: a stale unit's fix is a daemon-reload, and the policy line is today's" "$work/c4"
grep -qF "  fix:    systemctl daemon-reload, then restart its instances: systemctl restart 'job@*.service'" "$work/c9"
verdict "doctor --unit: a stale template's fix restarts its instances by pattern" "$work/c9"

# Without a user: each unit a unit rule matches, after the paths.
run "$work/all" --conf "$conf"
for u in fresh job@ linked mask nogo ok over own pg@ stale; do
	echo "$u.service"
done >"$work/all.want"
sed -n 's/^\([^ ]*\.service\): [a-z]*$/\1/p' "$work/all" >"$work/all.got"
cmp -s "$work/all.want" "$work/all.got" && [ "$(cat "$work/all.rc")" = 1 ] &&
	[ "$(tail -n 1 "$work/all")" = "units:   3 ok, 5 stale, 2 overridden, 0 error" ]
verdict "doctor without a user: a verdict for each unit a unit rule matches, in name order, and their count (exit 1)" \
	"$work/all" "$work/all.got"

run "$work/json" --unit over.service --conf "$conf" --json
jq -e --arg conf "$conf" '.units == [{
	unit: "over.service", verdict: "overridden", limit: "1073741824:1073741824",
	rule: ($conf + ":2"),
	dropin: "/run/systemd/generator/over.service.d/50-pam-memlock.conf",
	overridden_by: { file: "/etc/systemd/system/over.service.d/override.conf", line: 2 },
	message: "/etc/systemd/system/over.service.d/override.conf:2 sets LimitMEMLOCK= in a drop-in that sorts after the generator'"'"'s, and wins",
	fix: ("remove LimitMEMLOCK= from /etc/systemd/system/over.service.d/override.conf:2, or leave the unit out of the rule at " + $conf + ":2")
	}]' "$work/json" >/dev/null
verdict "doctor --unit --json: the same facts, in one document" "$work/json" "$work/json.err"

# The same facts in both forms: what each JSON member implies is in the
# text (a size there is also in human units, so parts of lines).
for c in "${explains[@]}"; do
	IFS='|' read -r unit instance action mode over <<<"$c"
	asked=$unit
	[ "$instance" != - ] && asked=$instance
	i=$((i + 1))
	SYSTEMD_UNIT_PATH=$etc:$lib "$ctl" explain --unit "$asked" --conf "$tree$conf" --json \
		>"$work/e$i.json" 2>"$work/e$i.err"
	SYSTEMD_UNIT_PATH=$etc:$lib "$ctl" explain --unit "$asked" --conf "$tree$conf" \
		>"$work/e$i.txt" 2>>"$work/e$i.err"
	jq -r 'def lim: if . == "unlimited" then "infinity" else tostring end;
		"unit:       \"\(.unit)\"",
		(if .rule then "decided by: rule \(.rule.file):\(.rule.line)"
		 else "decided by: no unit rule matches" end),
		(if .dropin then "drop-in:    \(.dropin.file): LimitMEMLOCK=\(.dropin.soft | lim):\(.dropin.hard | lim)"
		 else empty end),
		(if .own then "unit'"'"'s own: LimitMEMLOCK=\(.own.soft | lim)", " at \(.own.file):\(.own.line)"
		 else "unit'"'"'s own: no LimitMEMLOCK= (systemd'"'"'s DefaultLimitMEMLOCK= applies)" end),
		(if .overridden then "overridden: LimitMEMLOCK=\(.overridden.soft | lim)",
		 " at \(.overridden.file):\(.overridden.line)"
		 else empty end)' "$work/e$i.json" >"$work/e$i.lines" 2>>"$work/e$i.err"
	missing=0
	while IFS= read -r line; do
		grep -qF -- "$line" "$work/e$i.txt" || missing=1
	done <"$work/e$i.lines"
	jq -e --arg unit "$unit" --arg instance "$instance" --arg action "$action" \
		--arg mode "$mode" --arg over "$over" '
		def n: if . == "-" then null else . end;
		.unit == $unit and .instance == ($instance | n) and .action == $action
		and .mode == ($mode | n)
		and (if .overridden then "\(.overridden.file):\(.overridden.line)" else null end) == ($over | n)
		and (if .mode == "raise" then .base.bytes == .machine.ram else true end)
		and (.action == "write") == (.dropin != null)' "$work/e$i.json" >/dev/null &&
		[ -s "$work/e$i.lines" ] && [ "$missing" = 0 ] && [ ! -s "$work/e$i.err" ]
	verdict "explain --unit $asked --json: $action, and the facts of the text form" \
		"$work/e$i.json" "$work/e$i.txt" "$work/e$i.lines" "$work/e$i.err"
done
