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
 * SERVICE "nss-lookup" runs only what pam_memlock asks NSS for a session
 * of the group-rules policy (pml_identity_lookup: the user, their group
 * list, the gid of each group name the decision needs), so that this cost
 * can be told apart from the module's own.
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
#include "identity.h"
#include "policy.h"
#include "session.h"

/* The group-rules policy, loaded once, outside what is counted. */
static struct pml_policy groups_policy;

static void load_groups_policy(const char *dir)
{
	static const struct pml_log quiet = { NULL, NULL, LOG_ERR };
	struct pml_load_options options = { NULL, true, 0, 4096 };
	char path[4096 + 64];

	snprintf(path, sizeof(path), "%s/memlock-groups.conf", dir);
	options.path = path;
	options.owner = geteuid();
	if (pml_policy_load(&options, &quiet, &groups_policy) != 0) {
		fprintf(stderr, "loop: cannot load %s\n", path);
		exit(1);
	}
}

static void nss_lookup(void)
{
	struct pml_identity identity = { BENCH_USER, NULL, false, 0, NULL, 0 };

	if (pml_identity_lookup(&identity, &groups_policy) != 0) {
		fprintf(stderr, "loop: cannot look up " BENCH_USER "\n");
		exit(1);
	}
	pml_identity_free(&identity);
}

static void one(const char *confdir, const char *service)
{
	if (strcmp(service, "nss-lookup") == 0)
		nss_lookup();
	else
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
	if (strcmp(argv[1], "nss-lookup") == 0)
		load_groups_policy(dir);
	one(confdir, argv[1]);
	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n; i++)
		one(confdir, argv[1]);
	CALLGRIND_TOGGLE_COLLECT;
	return 0;
}
