#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-fleet: step 2 of the README against unattended-upgrades.
# Step 2 edits conffiles of other packages (/etc/pam.d/sshd, cron,
# runuser).  unattended-upgrade leaves out a package whose upgrade would
# make dpkg ask about a conffile: one the admin changed and the new version
# changes too.  This measures what that does to a security update, with
# cron as the package (the smallest of the three, and its /etc/pam.d/cron
# is a conffile like the others), on Debian 12 and 13: in fresh roots of
# .ci/roots (bookworm-fleet, trixie-fleet), a local repository labelled as
# Debian's security archive (so that the shipped Origins-Pattern takes it)
# holds the archive's cron repacked as a newer version whose
# /etc/pam.d/cron has one line changed.  Then, each in a fresh copy:
#   a. without step 2, unattended-upgrade installs it;
#   b. with the README's step 2 block, it holds cron back and logs why,
#      the file keeps step 2's line, and the next run does the same; the
#      same newer cron with the file unchanged, it installs;
#   c. with the README's apt.conf.d line (Dpkg::Options --force-confdef
#      and --force-confold, which turn its check off), it installs cron,
#      the line stays, and the package's new file waits beside it as
#      cron.dpkg-dist;
#   d. by hand, the README's apt-get --force-confnew command and the step 2
#      block again: the package's new file with step 2's line;
#   e. a local dpkg-divert of /etc/pam.d/cron does not help: still held.
# Skipped, with the reason, without root, .ci/root.sh or a root of the
# release (mmdebstrap needs the mirror).  Prints TAP.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${PML_SRCDIR:?run through make check-fleet}"
root_lib=$here/../../.ci/root.sh
. "$PML_SRCDIR/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (chroot, a root made by mmdebstrap)"
	exit 0
elif [ ! -f "$root_lib" ]; then
	echo "1..0 # SKIP $root_lib is missing (a dist tree has no .ci)"
	exit 0
fi
# shellcheck source=../../.ci/root.sh
. "$root_lib"
: "${PML_ROOT_CACHE:=/var/cache/pml-roots}"
export PML_ROOT_CACHE
mkdir -p "$PML_ROOT_CACHE"
root_enter "$0" "$@"

# The README's step 2 block, as an admin would paste it.
step2=$ROOT_WORK/step2
awk '/^    # Debian step 2:/ { on = 1 } on && /^$/ { exit } on { sub(/^    /, ""); print }' \
	"$PML_SRCDIR/README" >"$step2"
[ -s "$step2" ] || { echo "Bail out! no \"# Debian step 2:\" block in the README"; exit 1; }
# Its ways out, as written there: the apt.conf.d line, and the apt-get
# command of an upgrade by hand.
confold=$(awk '/^ *# \/etc\/apt\/apt\.conf\.d\/51local-confold$/ { getline; sub(/^ +/, ""); print; exit }' \
	"$PML_SRCDIR/README")
confnew=$(grep -m 1 '^ *apt-get install --only-upgrade .*--force-confnew cron$' "$PML_SRCDIR/README" |
	sed 's/^ *//')
[ -n "$confold" ] && [ -n "$confnew" ] ||
	{ echo "Bail out! the README lacks its apt.conf.d line or its apt-get --force-confnew command"; exit 1; }
line_re='^session[[:space:]]+optional[[:space:]]+pam_memlock\.so'
log=/var/log/unattended-upgrades/unattended-upgrades.log
held_re='Package cron has conffile prompt and needs to be upgraded manually'

# after_limits FILE: pam_memlock's line comes right after pam_limits'.
after_limits() {
	awk 'prev ~ /^session[ \t]+required[ \t]+pam_limits\.so/ &&
		$0 ~ /^session[ \t]+optional[ \t]+pam_memlock\.so/ { found = 1 }
		{ prev = $0 } END { exit !found }' "$1"
}

# repo DIR: the .debs in the root's DIR as a flat repository whose
# Release says Debian-Security, for $code.
repo() {
	root_run "$root" sh -c "cd $1 && apt-ftparchive packages . >Packages &&
		apt-ftparchive -o APT::FTPArchive::Release::Origin=Debian \
		-o APT::FTPArchive::Release::Label=Debian-Security \
		-o APT::FTPArchive::Release::Suite=$code-security \
		-o APT::FTPArchive::Release::Codename=$code-security release . >Release"
}

# prepare: the archive's cron repacked as $new, into two repositories
# in $ROOT_WORK/$code: repo with one line of /etc/pam.d/cron changed (that
# file also as new-cron), and repo-same with the file as it was.
prepare() {
	local w=$ROOT_WORK/$code old deb
	root=$w/base
	mkdir -p "$w"
	if ! root_named "$root" "$code-fleet" 2>"$w/root.err"; then
		skip "$rel: every case" "no $code root with cron and unattended-upgrades: $(tail -n 1 "$w/root.err")"
		return 1
	fi
	rel="$rel ($(cat "$root/etc/debian_version"))"
	old=$(root_run "$root" dpkg-query -W -f='${Version}' cron)
	new=$old+pml1
	ok "$rel: a root with cron $old and unattended-upgrades $(root_run "$root" \
		dpkg-query -W -f='${Version}' unattended-upgrades)"
	root_run "$root" dpkg-query -W -f='${Conffiles}\n' cron | grep -q '^ /etc/pam\.d/cron ' &&
		root_run "$root" dpkg-query -W -f='${Conffiles}\n' util-linux | grep -q '^ /etc/pam\.d/runuser '
	verdict "$rel: /etc/pam.d/cron is a conffile of cron, and runuser (step 2's too) of util-linux"

	# One comment line changed: any change of the shipped file is what
	# dpkg asks about, and the stack stays as it was.
	root_run "$root" sh -c "cd /tmp && apt-get download -q cron=$old" >"$w/download.log" 2>&1 &&
		deb=$(ls "$root"/tmp/cron_*.deb) &&
		root_run "$root" dpkg-deb -R "/tmp/${deb##*/}" /tmp/x &&
		sed -i "s/^Version: .*/Version: $new/" "$root/tmp/x/DEBIAN/control" &&
		mkdir -p "$root/srv/repo" "$root/srv/repo-same" &&
		root_run "$root" dpkg-deb -b /tmp/x "/srv/repo-same/cron_$new.deb" >>"$w/download.log" 2>&1 &&
		sed -i '1s/$/ (a newer cron)/' "$root/tmp/x/etc/pam.d/cron" &&
		sum=$(cd "$root/tmp/x" && md5sum etc/pam.d/cron) &&
		sed -i "s|^[0-9a-f]*  etc/pam\.d/cron\$|$sum|" "$root/tmp/x/DEBIAN/md5sums" &&
		root_run "$root" dpkg-deb -b /tmp/x "/srv/repo/cron_$new.deb" >>"$w/download.log" 2>&1 &&
		repo /srv/repo >>"$w/download.log" 2>&1 && repo /srv/repo-same >>"$w/download.log" 2>&1 &&
		! cmp -s "$root/etc/pam.d/cron" "$root/tmp/x/etc/pam.d/cron"
	verdict "$rel: repositories labelled Debian-Security with cron $new, with and without a changed /etc/pam.d/cron" \
		"$w/download.log" || return 1
	cp -a "$root/srv/repo" "$root/srv/repo-same" "$w/" && cp "$root/tmp/x/etc/pam.d/cron" "$w/new-cron"
	umount -R "$root" && rm -rf "$root"
}

# fresh NAME [REPO]: $root, a fresh root of $code with REPO (repo) in its
# sources, and no other list read again.
fresh() {
	root=$ROOT_WORK/$code/$1
	root_named "$root" "$code-fleet" 2>/dev/null &&
		cp -a "$ROOT_WORK/$code/${2:-repo}" "$root/srv/repo" &&
		echo 'deb [trusted=yes] file:/srv/repo ./' >"$root/etc/apt/sources.list.d/pml.list" &&
		root_run "$root" apt-get update -q -o Dir::Etc::SourceList=sources.list.d/pml.list \
			-o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0 >"$root.apt" 2>&1 &&
		root_run "$root" apt-cache policy cron | grep -q "Candidate: $new\$"
}
done_with() { umount -R "$root" && rm -rf "$root"; }
version() { root_run "$root" dpkg-query -W -f='${Version}' cron; }
# upgrade: one unattended-upgrade run as the timer starts it, its output
# and log in $root.uu.
upgrade() {
	root_run "$root" unattended-upgrade -v >"$root.uu" 2>&1
	cat "$root$log" >>"$root.uu" 2>/dev/null
}

cases() {
	local w=$ROOT_WORK/$code

	fresh a
	verdict "$rel: a fresh root sees cron $new from the repository" "$root.apt" || return
	upgrade
	[ "$(version)" = "$new" ] && cmp -s "$w/new-cron" "$root/etc/pam.d/cron" &&
		! grep -q "$held_re" "$root.uu"
	verdict "a. $rel: without step 2, unattended-upgrade installs cron $new and its file" \
		"$root.uu"
	done_with

	fresh b && root_run "$root" sh <"$step2" 2>/dev/null
	after_limits "$root/etc/pam.d/cron" && cp "$root/etc/pam.d/cron" "$w/step2-cron"
	verdict "b. $rel: the README's step 2 block puts the line after pam_limits in cron" \
		"$root/etc/pam.d/cron"
	upgrade
	grep -q "$held_re" "$root.uu" && [ "$(version)" != "$new" ]
	verdict "b. $rel: with step 2, unattended-upgrade holds cron back: \"$held_re\"" "$root.uu"
	cmp -s "$w/step2-cron" "$root/etc/pam.d/cron"
	verdict "b. $rel: with step 2, /etc/pam.d/cron keeps step 2's line" "$root/etc/pam.d/cron"
	# The next day's run, on its own: the same again.
	root_run "$root" unattended-upgrade >"$root.uu2" 2>&1
	grep -q "$held_re" "$root.uu2" && [ "$(version)" != "$new" ]
	verdict "b. $rel: with step 2, a second run holds cron back again" "$root.uu2"
	done_with

	# An update that leaves the file as it was: nothing to ask, nothing held.
	fresh b2 repo-same && root_run "$root" sh <"$step2" 2>/dev/null
	upgrade
	[ "$(version)" = "$new" ] && ! grep -q "$held_re" "$root.uu" &&
		cmp -s "$w/step2-cron" "$root/etc/pam.d/cron"
	verdict "b. $rel: with step 2, a newer cron whose /etc/pam.d/cron is unchanged: installed, the line kept" \
		"$root.uu"
	done_with

	fresh c && root_run "$root" sh <"$step2" 2>/dev/null &&
		printf '%s\n' "$confold" >"$root/etc/apt/apt.conf.d/51local-confold"
	upgrade
	[ "$(version)" = "$new" ] && ! grep -q "$held_re" "$root.uu"
	verdict "c. $rel: with step 2 and the README's apt.conf.d line ($confold), unattended-upgrade installs cron $new" \
		"$root.uu"
	cmp -s "$w/step2-cron" "$root/etc/pam.d/cron" &&
		cmp -s "$w/new-cron" "$root/etc/pam.d/cron.dpkg-dist"
	verdict "c. $rel: step 2's file stays; the package's new one is cron.dpkg-dist" \
		"$root.uu"
	done_with

	fresh d && root_run "$root" sh <"$step2" 2>/dev/null &&
		root_run "$root" sh -c "$confnew -y -q" >"$root.apt" 2>&1 &&
		root_run "$root" sh <"$step2" 2>/dev/null
	[ "$(version)" = "$new" ] && after_limits "$root/etc/pam.d/cron" &&
		grep -Ev "$line_re" "$root/etc/pam.d/cron" | cmp -s "$w/new-cron" -
	verdict "d. $rel: the README's \"$confnew\", then step 2 again: cron $new, its new file with step 2's line" \
		"$root.apt"
	done_with

	fresh e && root_run "$root" sh -c 'dpkg-divert --local --rename \
		--divert /etc/pam.d/cron.distrib --add /etc/pam.d/cron &&
		cp -p /etc/pam.d/cron.distrib /etc/pam.d/cron' >"$root.apt" 2>&1 &&
		root_run "$root" sh <"$step2" 2>/dev/null
	upgrade
	grep -q "$held_re" "$root.uu" && [ "$(version)" != "$new" ]
	verdict "e. $rel: step 2 on a dpkg-divert'ed /etc/pam.d/cron: still held back" "$root.uu"
	done_with
}

for code in bookworm trixie; do
	started=$(date +%s)
	rel="Debian $([ "$code" = bookworm ] && echo 12 || echo 13)"
	prepare && cases
	echo "# $rel: $(($(date +%s) - started)) s"
done
echo "1..$n"
