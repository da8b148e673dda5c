# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# shellcheck shell=bash
# One policy language whatever libconfig is underneath: sourced by
# .ci/debian13.sh, which has a Debian 13 root (libconfig 1.7.3) with the
# tree built in it, to hold it against this machine's build (Debian 12:
# libconfig 1.5), file by file.
#
#   libconfig_compare ROOT DIR
#       DIR: the build directory inside ROOT; $build: this machine's.
#       1. Every golden file (tests/data/good, tests/data/bad) and the
#          shipped memlock.conf through both builds' loaders
#          (tests/core/verdicts): the same verdict, the same messages, the same
#          settings read; one case each.
#       2. The fuzz corpus, when PML_FUZZ_CORPUS names one (tests/fuzz/
#          run.sh's policy and syntax inputs; tests/run-all.sh keeps its
#          run's corpus for this): the same, one case for all.
#       3. memlockctl check --conf on every golden file in both builds: the
#          same exit status and output, with this machine's users, groups
#          and PAM services bind-mounted into the root (do it last: the
#          root's own files are covered from then on).
#   Prints TAP through .ci/tap.sh's functions; needs .ci/root.sh's.

libconfig_compare() {
	local root=$1 tdir=$2 files kind f d here there n same name verdict corpus=0
	local here_version there_version
	here_version=$(pkg-config --modversion libconfig)
	there_version=$(root_run "$root" pkg-config --modversion libconfig)
	echo "# libconfig here: $here_version; in the root: $there_version"
	if [ "$here_version" = "$there_version" ]; then
		skip "libconfig: this build and the root's differ" \
			"both are $there_version: nothing to compare (this machine is not Debian 12?)"
		return
	fi
	if ! root_run "$root" make -C "$tdir" -j2 tests/core/verdicts >"$ROOT_WORK/verdicts.log" 2>&1 ||
		! make -C "$build" tests/core/verdicts >>"$ROOT_WORK/verdicts.log" 2>&1; then
		not_ok "libconfig: tests/core/verdicts built in both" "$(tail -n 20 "$ROOT_WORK/verdicts.log")"
		return
	fi
	# --- 1, 2. The loaders
	files=$root/cmp
	mkdir -p "$files/golden" "$files/corpus"
	for f in "$top"/tests/data/good/*.conf "$top"/tests/data/bad/*.conf; do
		kind=${f%/*}
		cp "$f" "$files/golden/${kind##*/}-${f##*/}"
	done
	cp "$top/conf/memlock.conf" "$files/golden/shipped-memlock.conf"
	corpus=0
	if [ -n "${PML_FUZZ_CORPUS:-}" ]; then
		for d in "$PML_FUZZ_CORPUS"/policy "$PML_FUZZ_CORPUS"/syntax; do
			[ -d "$d" ] || continue
			for f in "$d"/*; do
				[ -f "$f" ] && cp "$f" "$files/corpus/${d##*/}-${f##*/}" &&
					corpus=$((corpus + 1))
			done
		done
	fi

	# verdicts DIR OUT: both builds over DIR's files, by name; OUT.here, OUT.there.
	verdicts() {
		local dir=$1 out=$2
		(cd "$files/$dir" && ls | sort | xargs -r "$build/tests/core/verdicts") >"$out.here" 2>&1
		root_run "$root" sh -c "cd /cmp/$dir && ls | sort | xargs -r $tdir/tests/core/verdicts" \
			>"$out.there" 2>&1
	}
	# "same NAME accepted|refused" or "differ NAME", for each file of OUT.
	compare() {
		awk '/^== / { name = $2; names[name] = 1; next }
		     FILENAME ~ /\.here$/ { here[name] = here[name] $0 "\n"; if (/^(accepted|refused)$/) v[name] = $0; next }
		     { there[name] = there[name] $0 "\n" }
		     END { for (n in names) print (here[n] == there[n] && v[n] != "" ? "same " n " " v[n] : "differ " n) }' \
			"$1.here" "$1.there" | sort -k2
	}
	# The block of OUT.SIDE for file NAME.
	block() { awk -v name="$2" '/^== / { on = $2 == name } on' "$1"; }

	verdicts golden "$ROOT_WORK/golden"
	n=0
	while read -r same name verdict; do
		n=$((n + 1))
		if [ "$same" = same ]; then
			ok "loader: $name: $verdict on both"
		else
			not_ok "loader: $name: the same on libconfig $here_version and $there_version" \
				"libconfig $here_version:" "$(block "$ROOT_WORK/golden.here" "$name")" \
				"libconfig $there_version:" "$(block "$ROOT_WORK/golden.there" "$name")"
		fi
	done < <(compare "$ROOT_WORK/golden")
	[ "$n" -eq "$(ls "$files/golden" | wc -l)" ] ||
		not_ok "loader: every golden file compared" "$n of $(ls "$files/golden" | wc -l)"
	if [ "$corpus" -eq 0 ]; then
		skip "loader: the fuzz corpus" "no corpus (PML_FUZZ_CORPUS unset or empty)"
	else
		verdicts corpus "$ROOT_WORK/corpus"
		if cmp -s "$ROOT_WORK/corpus.here" "$ROOT_WORK/corpus.there" &&
			[ "$(grep -c '^== ' "$ROOT_WORK/corpus.here")" -eq "$corpus" ]; then
			ok "loader: $corpus fuzz corpus inputs, the same on both"
		else
			# The corpus is the fuzz run's and goes with it: each input
			# that differs is kept in the log, as base64.
			not_ok "loader: $corpus fuzz corpus inputs, the same on both" \
				"$(diff "$ROOT_WORK/corpus.here" "$ROOT_WORK/corpus.there" | head -n 40)" \
				"$(compare "$ROOT_WORK/corpus" | awk '$1 == "differ" { print $2 }' | head -n 5 |
					while read -r name; do
						echo "input $name (base64): $(base64 -w0 "$files/corpus/$name")"
					done)"
		fi
	fi

	# --- 3. memlockctl check
	# What check says of a name depends on the machine: both builds see this
	# machine's users, groups and PAM services.
	for f in /etc/passwd /etc/group /etc/nsswitch.conf /etc/pam.d; do
		mount --bind "$f" "$root$f" || { not_ok "libconfig: bind $f into the root"; return; }
	done
	checks() {
		local f
		for f in "$@"; do
			echo "== ${f##*/}"
			"$CTL" check --conf "$f" 2>&1
			echo "exit $?"
		done
	}
	for kind in good bad; do
		here=$(CTL=$build/memlockctl; cd "$files/golden" &&
			checks "$files"/golden/"$kind"-*.conf | sed "s|$files/golden/||g")
		there=$(root_run "$root" env CTL=$tdir/memlockctl bash -c \
			"$(declare -f checks); cd /cmp/golden && checks /cmp/golden/$kind-*.conf" |
			sed "s|/cmp/golden/||g")
		n=$(printf '%s\n' "$here" | grep -c '^== ')
		if [ "$n" -gt 0 ] && [ "$here" = "$there" ]; then
			ok "memlockctl check: $n golden $kind files, the same exit status and output on both"
		else
			not_ok "memlockctl check: $n golden $kind files, the same exit status and output on both" \
				"$(diff <(printf '%s\n' "$here") <(printf '%s\n' "$there") | head -n 40)"
		fi
	done
}
