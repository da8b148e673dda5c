#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: memlockctl's metrics as Prometheus gets them, through
# Debian's own node_exporter.  `memlockctl metrics --output` writes into a
# private textfile directory from a saved root (tests/memlockctl/monitor/monitor-tree.sh),
# once with a policy that loads and once with one that does not;
# prometheus-node-exporter, with its textfile collector pointed there,
# listens on 127.0.0.1 in a private network and mount namespace, and a
# scrape of /metrics must carry memlockctl's series with their values and
# node_exporter's own node_textfile_scrape_error 0.  Twice:
#
#   Debian 12  this machine's prometheus-node-exporter (1.5);
#   Debian 13  the one of a Debian 13 root from .ci/root.sh (1.9), chrooted
#              in the same namespaces; the files written by this build.
#
# Each release is skipped, with the reason, where its node_exporter, curl,
# a namespace or (for 13) the root cannot be had.  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PML_BUILDDIR:?run through make check-fleet}" "${PML_SRCDIR:?}"
ctl=$PML_BUILDDIR/memlockctl
root_lib=$here/../../.ci/root.sh
. "${PML_SRCDIR:?run with make check}/tests/lib/tap.sh"
namespaces=(unshare --net --mount --fork --kill-child --propagation private --)

unrunnable() {
	if [ "$(id -u)" != 0 ]; then
		echo "needs root (policy files must be root's; namespaces)"
	elif ! command -v curl >/dev/null; then
		echo "curl is not installed"
	elif ! "${namespaces[@]}" true 2>/dev/null; then
		echo "unshare of net/mount namespaces refused here"
	fi
}
why=$(unrunnable)
[ -z "$why" ] || { echo "1..0 # SKIP $why"; exit 0; }
# shellcheck source=../monitor-tree.sh
. "$PML_SRCDIR/tests/memlockctl/monitor/monitor-tree.sh"

# scrape_in TEXTFILE-DIR OUT EXPORTER...: in a private network and
# mount namespace, EXPORTER (a command line) listening on 127.0.0.1:9100
# with its textfile collector on TEXTFILE-DIR; /metrics into OUT.
scrape_in() {
	local textfile=$1 out=$2
	shift 2
	# shellcheck disable=SC2016 # expanded by the inner shell
	"${namespaces[@]}" bash -c '
		out=$1 textfile=$2; shift 2
		ip link set lo up || exit 1
		"$@" --web.listen-address=127.0.0.1:9100 --collector.disable-defaults \
			--collector.textfile --collector.textfile.directory="$textfile" \
			>"$out.log" 2>&1 &
		for _ in $(seq 50); do
			curl -sf -o "$out" http://127.0.0.1:9100/metrics && exit 0
			sleep 0.2
		done
		cat "$out.log" >&2; exit 1' sh "$out" "$textfile" "$@"
}

# value FILE SERIES: the value of SERIES (name and labels, as written) in a
# scrape, as a plain integer (node_exporter prints 3145728 as 3.145728e+06).
value() {
	awk -v s="$2" '$1 == s { printf "%.0f\n", $2; found = 1 } END { exit !found }' "$1"
}
# expect FILE SERIES=VALUE...: every SERIES is there with its VALUE.
expect() {
	local f=$1 pair got rc=0
	shift
	for pair in "$@"; do
		got=$(value "$f" "${pair%=*}") || { echo "missing: ${pair%=*}"; rc=1; continue; }
		[ "$got" = "${pair##*=}" ] || { echo "${pair%=*}: $got, expected ${pair##*=}"; rc=1; }
	done
	return $rc
}

# cases RELEASE WORK EXPORTER...: the two policies through one node_exporter.
cases() {
	local rel=$1 w=$2 err
	shift 2
	err=$w/err
	mkdir -p "$w/textfile"
	tree "$w/good"
	proc "$w/good" 71 8388608 1024 0
	proc "$w/good" 72 8388608 2048 4
	echo 'limit = "8 MiB";' >"$w/ok.conf"
	echo 'limit = 8;' >"$w/bad.conf"

	if "$ctl" metrics --root "$w/good" --conf "$w/ok.conf" \
		--output "$w/textfile/memlock.prom" 2>"$err" &&
		scrape_in "$w/textfile" "$w/scrape1" "$@" 2>"$err"; then
		ok "$rel: node_exporter serves /metrics with memlockctl's file in its textfile directory"
	else
		not_ok "$rel: node_exporter serves /metrics with memlockctl's file in its textfile directory" "$(tail -n 40 "$err")"
		return
	fi
	expect "$w/scrape1" node_textfile_scrape_error=0 >"$err" 2>&1 &&
		grep -q '^node_textfile_mtime_seconds{file="[^"]*memlock.prom"}' "$w/scrape1"
	verdict "$rel: a policy that loads: node_textfile_scrape_error 0, memlock.prom read" "$err"
	if expect "$w/scrape1" memlock_policy_loads=1 'memlock_policy_warnings{about="policy"}=0' \
		'memlock_doctor_path{service="sshd",verdict="ok"}=1' memlock_doctor_paths_not_ok=0 \
		memlock_status_success=1 'memlock_processes{verdict="ok"}=2' \
		'memlock_processes{verdict="below"}=0' memlock_locked_bytes=3145728 \
		memlock_pinned_bytes=4096 >"$err" 2>&1 &&
		grep -Eq '^memlock_info\{version="[^"]+"\} 1$' "$w/scrape1" &&
		grep -Eq '^memlock_last_run_timestamp_seconds [0-9.e+]+$' "$w/scrape1"; then
		ok "$rel: a policy that loads: memlockctl's series arrive with their values"
	else
		not_ok "$rel: a policy that loads: memlockctl's series arrive with their values" "$(tail -n 40 "$err")"
	fi

	"$ctl" metrics --root "$w/good" --conf "$w/bad.conf" --output "$w/textfile/memlock.prom" \
		2>"$err" &&
		scrape_in "$w/textfile" "$w/scrape2" "$@" 2>>"$err" &&
		expect "$w/scrape2" node_textfile_scrape_error=0 memlock_policy_loads=0 \
			memlock_status_success=0 >>"$err" 2>&1 &&
		! grep -q '^memlock_processes' "$w/scrape2"
	verdict "$rel: a policy that does not load: policy_loads 0, no process judged, scrape_error 0" \
		"$err"
}

debian12() {
	local w
	if ! command -v prometheus-node-exporter >/dev/null; then
		skip "Debian 12: every case" "prometheus-node-exporter is not installed"
		return
	fi
	w=$(mktemp -d /tmp/pml-fleet-ne-XXXXXX) || return
	cases "Debian $(cat /etc/debian_version 2>/dev/null), node_exporter $(prometheus-node-exporter --version 2>&1 |
		sed -n '1s/.*version \([^ ]*\).*/\1/p')" "$w" prometheus-node-exporter
	rm -rf "$w"
}

debian13() {
	local root=$ROOT_WORK/trixie
	if ! root_named "$root" trixie-fleet 2>"$ROOT_WORK/trixie.err"; then
		skip "Debian 13: every case" "no Debian 13 root: $(tail -n 1 "$ROOT_WORK/trixie.err")"
		return
	fi
	# The textfile directory is inside the root, so that the chrooted
	# exporter sees it as /textfile.
	mkdir -m 0755 "$root/w" || return
	cases "Debian $(cat "$root/etc/debian_version"), node_exporter $(root_run "$root" \
		prometheus-node-exporter --version 2>&1 | sed -n '1s/.*version \([^ ]*\).*/\1/p')" \
		"$root/w" chroot_exporter "$root"
}
# chroot_exporter ROOT ARG...: the root's node_exporter, the directory
# argument made relative to the root.
chroot_exporter() {
	local root=$1 arg args=()
	shift
	for arg in "$@"; do args+=("${arg/$root/}"); done
	exec chroot "$root" /usr/bin/prometheus-node-exporter "${args[@]}"
}
export -f chroot_exporter

if [ -n "${PML_FLEET_ONLY_12:-}" ]; then
	why13="PML_FLEET_ONLY_12 is set"
elif [ ! -f "$root_lib" ]; then
	why13="$root_lib is missing (a dist tree has no .ci)"
else
	why13=
	# shellcheck source=../../.ci/root.sh
	. "$root_lib"
	: "${PML_ROOT_CACHE:=/var/cache/pml-roots}"
	export PML_ROOT_CACHE
	mkdir -p "$PML_ROOT_CACHE"
	root_enter "$0" "$@"
fi
debian12
if [ -n "$why13" ]; then
	skip "Debian 13: every case" "$why13"
else
	debian13
fi
echo "1..$n"
