# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/project: what holds for the whole tree rather than one component:
# the man pages and their examples, the real pam-auth-update on the
# shipped profile, the layering, make install, autoreconf's m4 files in
# the dist tarball, one version everywhere, and the sources' hygiene.
PROJECT_TESTS = tests/project/man-lint.sh tests/project/man-examples.sh \
	tests/project/pam-auth-update.sh tests/project/layering.sh tests/project/install.sh \
	tests/project/hygiene.sh tests/project/autoreconf.sh tests/project/version.sh
TESTS += $(PROJECT_TESTS)
EXTRA_DIST += $(PROJECT_TESTS)
tests/project/man-examples.log tests/project/version.log: memlockctl$(EXEEXT)
