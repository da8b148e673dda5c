#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# The check-vm cases of the Debian 13 boot (tests/e2e/vm-debian13.sh), run
# by pml-vm-guest.service once the VM has reached multi-user.target.  The
# root, the kernel, systemd 257 as PID 1 (DefaultLimitMEMLOCK=64K) and
# every login program are Debian 13's.  The module comes as the
# libpam-memlock package built for Debian 13, installed with apt; then the
# README's Debian steps run as written (read out of the README).  Each case
# logs in through a real login path and reads the limit inside the
# session, after step 1 and after step 2, and memlockctl doctor's verdict
# and predicted limits are held against every measured path.
#
# Linux-PAM 1.7.0's pam_limits (libpam-modules' NEWS.Debian, 1.7.0-1) no
# longer resets a session's limits to PID 1's unless given set_all or a
# memlock line of limits.conf: the cases measure Debian's stacks as they
# ship, and each of those two site changes, before and after step 2.
. "$(dirname "$0")/logins.sh"
. "$e2e_dir/vm/postgres-case.sh"
. "$e2e_dir/vm/unit-cases.sh"

# run0: systemd 257's sudo, a transient service with PAMName=systemd-run0.
run0_login() { run0 --user="$E2E_USER" "$show" </dev/null 2>"$E2E_CASE/run0.log"; }
user_manager_fresh() {	# the user manager started afresh: its limits
	systemctl restart "user@$E2E_UID.service"
	user_manager
}
# The paths doctor is asked about, and how each is measured.  PAMName=login
# and the user manager are measured too; doctor's "login" and
# "systemd-user" paths stand for them.
services=(sshd login su su-l sudo sudo-i runuser runuser-l systemd-user cron systemd-run0)
declare -A how=(
	[sshd]="ssh_login $show" [login]=console_login [su]=su_plain [su-l]=su_login
	[sudo]=sudo_plain [sudo-i]=sudo_login [runuser]=runuser_plain
	[runuser-l]=runuser_login [pamname]=pamname_service
	[user@]=user_manager_fresh [systemd-user]=user_service [cron]=cron_job
	[systemd-run0]=run0_login
)
declare -A measured
# Every path in the order measured: the user manager is started afresh
# before its services are.
paths=(sshd login su su-l sudo sudo-i runuser runuser-l pamname user@ systemd-user cron systemd-run0)
# measure STAGE TABLE PATH...: each path's limits into measured[], a case
# for each against TABLE's value for it (the policy where TABLE has none).
measure() {
	local stage=$1 p want t0 t1
	local -n expect=$2
	shift 2
	for p in "$@"; do
		# (the uptime: cron_job moves the clock)
		read -r t0 _ </proc/uptime
		measured[$p]=$(${how[$p]})
		read -r t1 _ </proc/uptime
		echo "# $p: measured in $((${t1%.*} - ${t0%.*})) s"
		want=${expect[$p]:-$POLICY}
		tap_is "$stage: $p gets $(mib "$want")" "${measured[$p]}" "$want"
	done
}
mib() {	# mib "SOFT HARD": SOFT in MiB, KiB or bytes, for a case's name
	echo "$1" | awk '{ if ($1 % 1048576 == 0) print $1 / 1048576 " MiB"
		else if ($1 % 1024 == 0) print $1 / 1024 " KiB"; else print $1 " bytes" }'
}

# doctor_agrees STAGE SERVICE...: doctor's verdict and predicted soft and
# hard for each path against the measured ones.  The verdict is verdict[S]
# ("ok" where it has none); "missing unknown" predicts "unknown unknown",
# as where the session keeps its caller's limits (runuser), which doctor
# cannot know.  An "overridden" path also names the pam_limits line it
# blames.
doctor_agrees() {
	local stage=$1 s v u want got
	shift
	doctor_run --limits "$@"
	for s in "$@"; do
		read -r v u <<<"${verdict[$s]:-ok}"
		want="$v ${measured[$s]}"
		[ "$u" = unknown ] && want="$v unknown unknown"
		got=$(doctor_path "$s" | cut -d' ' -f1-3)
		if [ "$v" = overridden ]; then
			want="$want pam_limits@$(limits_at "$s")"
			got=$(doctor_path "$s" | cut -d' ' -f1-4)
		fi
		tap_is "doctor, $stage, $s: $want" "$got" "$want"
	done
}
# limits_at SERVICE: FILE:LINE of the pam_limits line its session runs
# (runuser-l's is runuser's, which it includes).
limits_at() {
	local f=/etc/pam.d/$1
	[ "$1" = runuser-l ] && f=/etc/pam.d/runuser
	echo "$f:$(limits_line "$f")"
}

# Site changes to pam_limits, and undoing them.
save_site() { cp /etc/pam.d/sshd /etc/pam.d/cron /etc/pam.d/runuser /etc/security/limits.conf "$E2E_CASE/"; }
restore_site() {
	cp "$E2E_CASE/sshd" "$E2E_CASE/cron" "$E2E_CASE/runuser" /etc/pam.d/
	cp "$E2E_CASE/limits.conf" /etc/security/
}
set_all() {	# the option NEWS.Debian gives to restore the old behaviour
	sed -i 's/^\(session[[:space:]]\+required[[:space:]]\+pam_limits\.so\)/\1 set_all/' \
		/etc/pam.d/sshd /etc/pam.d/cron /etc/pam.d/runuser
}
LIMITS_BYTES=$((100 * MIB))
limits_memlock() { echo "*  -  memlock  $((LIMITS_BYTES / 1024))" >>/etc/security/limits.conf; }

# The user manager stays between sessions, to be restarted through the
# systemd-user stack when measured.
loginctl enable-linger "$E2E_USER"
tap_plan $((83 + POSTGRES_BOOT_CASES + POSTGRES_CASES + UNIT_CASES + UNIT_REMOVAL_CASES))
echo "# PID 1's RLIMIT_MEMLOCK: $PID1 (soft hard, bytes); services: DefaultLimitMEMLOCK=64K"
echo "# $(uname -r); $(systemctl --version | head -n 1); $(dpkg-query -W -f '${Package} ${Version}' libpam-modules)"

# --- The generator at boot: PostgreSQL 17 as the boot started it -------------
# tests/e2e/vm.sh seeded the package's generator and a unit rule in
# /etc/security/memlock.conf.  The cases remove that file before apt-get
# install below: the package ships it as a conffile, and dpkg would ask
# about a file already there.
postgres_boot_cases 17 /etc/security/memlock.conf

# --- 0. Before anything is installed ---------------------------------------
tap_is "Debian 13's stacks: pam_limits before the common session in login, su, sudo, sudo-i, systemd-user; after it in sshd, cron; runuser has none; other (run0's) has no pam_limits" \
	"$(for s in login su su-l sudo sudo-i systemd-user sshd cron runuser runuser-l other; do
		stack_order $s; done | tr '\n' ' ' | sed 's/ $//')" \
	"login:limits<common su:limits<common su-l:includes-su sudo:limits<common sudo-i:limits<common systemd-user:limits<common sshd:common<limits cron:common<limits runuser:limits,no-common runuser-l:includes-runuser other:common,no-limits"
tap_is "systemd-user is /usr/lib/pam.d's; no systemd-run0 file in /etc/pam.d or /usr/lib/pam.d" \
	"$(ls -d /etc/pam.d/systemd-user /usr/lib/pam.d/systemd-user /etc/pam.d/systemd-run0 \
		/usr/lib/pam.d/systemd-run0 2>/dev/null | tr '\n' ' ')" "/usr/lib/pam.d/systemd-user "
tap_is "services start at DefaultLimitMEMLOCK=64K: sshd's daemon has 64 KiB soft and hard" \
	"$(limits_of "$(systemctl show -P MainPID ssh.service)")" "$SERVICE_BYTES $SERVICE_BYTES"
case $PID1 in
"$SERVICE_BYTES "* | "$POLICY_BYTES "* | "$CRON_BYTES "* | "$LIMITS_BYTES "* | "" | unlimited*)
	tap_not_ok "PID 1's limit ($PID1) must differ from 64 KiB, 100, 256 and 300 MiB to tell them apart" ;;
*)
	tap_ok "PID 1's limit, $PID1, differs from the service's 64 KiB and the 100, 256 and 300 MiB of the cases" ;;
esac
tap_is "no pam_memlock: an sshd session keeps sshd's 64 KiB (pam_limits 1.7.0 leaves it), not PID 1's $PID1" \
	"$(ssh_login "$show")" "$SERVICE_BYTES $SERVICE_BYTES"
tap_is "no pam_memlock: a cron job keeps cron's 64 KiB, not PID 1's" \
	"$(cron_job)" "$SERVICE_BYTES $SERVICE_BYTES"
cursor=$(journal_cursor)
got=$(run0_login)
journalctl --sync
tap_is "run0 opens PAM service systemd-run0 (pam_unix's session line in the journal); no pam_memlock: 64 KiB" \
	"$(journalctl --after-cursor="$cursor" -o cat --no-pager 2>/dev/null |
		sed -n "s/^pam_unix(\([^:]*\):session): session opened for user $E2E_USER.*/\1/p" |
		sort -u | tr '\n' ' ')$got" "systemd-run0 $SERVICE_BYTES $SERVICE_BYTES"
tap_diag "$E2E_CASE/run0.log"

# --- Install, as a Debian administrator does: the package --------------------
# Both packages: memlockctl, which libpam-memlock recommends, is its own.
deb=$(ls "$PML_SRCDIR"/libpam-memlock_*.deb)
ctl_deb=$(ls "$PML_SRCDIR"/memlockctl_*.deb)
if apt-get install -y -q "$deb" "$ctl_deb" >"$E2E_CASE/apt.log" 2>&1; then
	tap_ok "apt-get install ./${deb##*/} ./${ctl_deb##*/} (built for Debian 13)"
	rm -f "$E2E_CASE/apt.log"
else
	tap_not_ok "apt-get install ./${deb##*/} ./${ctl_deb##*/} (built for Debian 13)"
	tap_diag "$E2E_CASE/apt.log"
fi
tap_is "the package's module is beside pam_unix.so, in the directory libpam 1.7.0 reads" \
	"$(dpkg -L libpam-memlock libpam-modules | grep -E '/pam_(memlock|unix)\.so$' |
		xargs -n 1 dirname | sort -u)" "/usr/lib/x86_64-linux-gnu/security"
tap_is "the package's postinst enabled the profile (pam-auth-update --package): the common session stacks list pam_memlock" \
	"$(grep -c pam_memlock /etc/pam.d/common-session /etc/pam.d/common-session-noninteractive | tr '\n' ' ')" \
	"/etc/pam.d/common-session:1 /etc/pam.d/common-session-noninteractive:1 "
conf=/etc/security/memlock.conf
cat >"$conf" <<'CONF'
limit = "256 MiB";
rules = (
  { service = "cron"; limit = "300 MiB"; }
);
CONF
echo "# policy $conf: 256 MiB, 300 MiB for service \"cron\""

# --- 1. The README's Debian step 1 alone -----------------------------------
echo "# README, Debian step 1:"
if run_readme_step 1; then
	tap_ok "README Debian step 1 runs"
else
	tap_not_ok "README Debian step 1 runs"
fi
# What each path gets after step 1 where it is not the policy's 256 MiB.
declare -A step1=([cron]=$CRON [runuser]="$SERVICE_BYTES $SERVICE_BYTES"
	[runuser-l]="$SERVICE_BYTES $SERVICE_BYTES")
uptime_note "step 1"
got=$(ssh_login "$show; $probe $((16 * MIB))")
tap_is "step 1 only: sshd key login, 256 MiB, and a 16 MiB io_uring buffer registers" \
	"$got" "$POLICY registered"
measured[sshd]=${got% registered}
measure "step 1 only" step1 "${paths[@]:1}"
# su, sudo and runuser start from their caller's limits, which doctor
# cannot know, and on Debian 13 no pam_limits line resets them: the module
# raises them to the policy's, or keeps a caller's higher one.  So "ok",
# and the values unknown.
callers="su su-l sudo sudo-i"
declare -A verdict=([runuser]="missing unknown" [runuser-l]="missing unknown")
for s in $callers; do verdict[$s]="ok unknown"; done
uptime_note "doctor after step 1"
doctor_agrees "step 1 only" "${services[@]}"

# A site that restores the old behaviour with set_all, or sets memlock in
# limits.conf: pam_limits after common-session undoes step 1 again.
uptime_note "set_all and limits.conf after step 1"
save_site
set_all
declare -A pid1=([sshd]=$PID1 [cron]=$PID1 [runuser-l]=$PID1)
measure "step 1 only, pam_limits set_all" pid1 sshd cron runuser-l
declare -A verdict=([sshd]=overridden [cron]=overridden [runuser-l]=missing)
doctor_agrees "step 1 only, pam_limits set_all" sshd cron runuser-l
restore_site
limits_memlock
declare -A lim=([sshd]="$LIMITS_BYTES $LIMITS_BYTES" [cron]="$LIMITS_BYTES $LIMITS_BYTES")
measure "step 1 only, limits.conf memlock 100 MiB" lim sshd cron su
declare -A verdict=([sshd]=overridden [cron]=overridden)
doctor_agrees "step 1 only, limits.conf memlock 100 MiB" sshd cron su
restore_site

# --- 2. The README's Debian step 2: every path ------------------------------
echo "# README, Debian step 2:"
if run_readme_step 2; then
	tap_ok "README Debian step 2 runs"
else
	tap_not_ok "README Debian step 2 runs"
fi
uptime_note "step 2"
declare -A step2=([cron]=$CRON)
measure "both steps" step2 "${paths[@]}"
declare -A verdict=()
for s in $callers runuser runuser-l; do verdict[$s]="ok unknown"; done
uptime_note "doctor after step 2"
doctor_agrees "both steps" "${services[@]}"
# Both site changes at once: the module after pam_limits has the last word
# over either.
uptime_note "set_all and limits.conf after step 2"
save_site
set_all
limits_memlock
measure "both steps, set_all and limits.conf memlock 100 MiB" step2 sshd cron runuser-l
declare -A verdict=()	# limits.conf's line makes runuser-l's start known
doctor_agrees "both steps, set_all and limits.conf memlock 100 MiB" sshd cron runuser-l
restore_site

# --- DefaultLimitMEMLOCK= in /etc/systemd/user.conf --------------------------
uptime_note "user.conf"
user_conf 64K
tap_is "user.conf DefaultLimitMEMLOCK=64K: the user manager keeps 256 MiB" \
	"$(user_manager)" "$POLICY"
measured[systemd-user]=$(user_service)
tap_is "user.conf DefaultLimitMEMLOCK=64K: its services get 64 KiB" \
	"${measured[systemd-user]}" "$SERVICE_BYTES $SERVICE_BYTES"
doctor_run systemd-user
tap_is "doctor, user.conf DefaultLimitMEMLOCK=64K, systemd-user: overridden, predicts the services' measured ${measured[systemd-user]}" \
	"$(doctor_path systemd-user)" "overridden ${measured[systemd-user]}"
user_conf 1G
measured[systemd-user]=$(user_service)
tap_is "user.conf DefaultLimitMEMLOCK=1G: its services get the manager's 256 MiB" \
	"${measured[systemd-user]}" "$POLICY"
doctor_run systemd-user
tap_is "doctor, user.conf DefaultLimitMEMLOCK=1G, systemd-user: ok, predicts the services' measured ${measured[systemd-user]}" \
	"$(doctor_path systemd-user)" "ok ${measured[systemd-user]}"
sed -i '/^DefaultLimitMEMLOCK=/d' /etc/systemd/user.conf

# --- Unit rules: the package's generator, PostgreSQL 17 under Debian's unit --
postgres_cases 17 "$conf"
unit_cases "$conf"
# Last: the package that ships the generator goes.
unit_removal_cases 17 "$conf"
echo "# guest script finished: $(cut -d' ' -f1 /proc/uptime) s of uptime"
