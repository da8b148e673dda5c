#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# Project hygiene, checked like everything else: every source file carries
# its SPDX line, and the C sources are formatted as .clang-format says
# (where clang-format is installed).  TAP.
set -u
src=${PML_SRCDIR:?run with make check}
cd "$src" || exit 99
n=0

# The sources: C, shell, Python, the build files and the man pages.
sources() {
	find pam_memlock tests .ci man conf -type f \( -name '*.[ch]' -o -name '*.sh' \
		-o -name '*.py' -o -name '*.[58]' -o -name run -o -name local.mk \) \
		-not -path 'tests/data/*' 2>/dev/null
	ls Makefile.am configure.ac tests/e2e/vm/init 2>/dev/null
}

missing=$(sources | while read -r f; do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later' ||
		echo "$f"
done)
n=$((n + 1))
if [ -z "$missing" ]; then
	echo "ok $n - every source file has the SPDX line in its first three lines"
else
	echo "not ok $n - every source file has the SPDX line in its first three lines"
	printf '%s\n' "$missing" | sed 's/^/# missing: /'
fi

n=$((n + 1))
format=$(command -v clang-format 2>/dev/null || command -v clang-format-14 2>/dev/null)
if [ ! -f .clang-format ]; then
	echo "ok $n - C sources match .clang-format # SKIP there is no .clang-format"
elif [ -z "$format" ]; then
	echo "ok $n - C sources match .clang-format # SKIP clang-format is not installed"
elif out=$(find pam_memlock -name '*.[ch]' | sort | xargs "$format" --dry-run -Werror 2>&1); then
	echo "ok $n - C sources match .clang-format ($format --dry-run -Werror)"
else
	echo "not ok $n - C sources match .clang-format ($format --dry-run -Werror)"
	printf '%s\n' "$out" | head -n 40 | sed 's/^/# /'
fi
echo "1..$n"
