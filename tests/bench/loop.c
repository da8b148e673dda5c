/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What bench runs under callgrind: N sessions of one service, after one
 * warm-up session that is not counted (callgrind starts with collection
 * off; the client requests switch it on around the loop).  A program of
 * its own, without bench's counting malloc, so that the instructions are
 * only the sessions'.
 *
 *   BENCH_DIR=DIR loop SERVICE N   (with nss_wrapper set up as bench does)
 *
 * It links libpam alone: a session must load libconfig as it does in sshd
 * or login, so nothing else may have loaded it (tests/bench/nss_loop.c
 * measures the NSS look-up, which needs the loader, on its own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT do { } while (0)
#endif

#include "fixture.h"
#include "session.h"

static void one(const char *confdir, const char *service)
{
	bench_session(confdir, service);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("BENCH_DIR");
	char confdir[4096];
	unsigned long n, i;

	if (argc != 3 || dir == NULL) {
		fprintf(stderr, "usage: BENCH_DIR=DIR %s SERVICE N\n", argv[0]);
		return 2;
	}
	snprintf(confdir, sizeof(confdir), "%s/pam.d", dir);
	n = strtoul(argv[2], NULL, 10);
	one(confdir, argv[1]);
	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n; i++)
		one(confdir, argv[1]);
	CALLGRIND_TOGGLE_COLLECT;
	return 0;
}
