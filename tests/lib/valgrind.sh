#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# make check-valgrind's LOG_COMPILER: valgrind with only stdin, stdout and
# stderr open.  From valgrind 3.23 (Debian 13 has 3.24) --track-fds=yes
# counts every descriptor open at exit as an error, those the test driver
# or the caller's shell handed down included; only the test's own count.
exec "${PML_PYTHON:-python3}" -c 'import os, sys
os.closerange(3, os.sysconf("SC_OPEN_MAX"))
os.execvp(sys.argv[1], sys.argv[1:])' "$@"
