/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What pam_memlock asks NSS in a session of the group-rules policy
 * (pml_identity_lookup: the user, their group list, the gid of each group
 * name the decision needs), N times under callgrind after one warm-up, so
 * that this cost can be told apart from the module's own.  A program apart
 * from loop.c: it needs the loader, and so libconfig, which loop must not
 * have loaded before its sessions.
 *
 *   BENCH_DIR=DIR nss_loop nss-lookup N   (with nss_wrapper set up as bench does)
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

/* The group-rules policy, loaded once, outside what is counted. */
static struct pml_policy groups_policy;

static void load_groups_policy(const char *dir)
{
	static const struct pml_log quiet = { .max_priority = LOG_ERR };
	char path[4096 + 64];
	struct pml_source source = { .path = path, .given = true, .owner = geteuid() };

	snprintf(path, sizeof(path), "%s/memlock-groups.conf", dir);
	if (pml_policy_load(&source, 4096, &quiet, &groups_policy) != 0) {
		fprintf(stderr, "nss_loop: cannot load %s\n", path);
		exit(1);
	}
}

static void nss_lookup(void)
{
	struct pml_identity identity = { .user = BENCH_USER };

	if (pml_identity_lookup(&identity, &groups_policy, PML_GROUPS_DECIDING) != 0) {
		fprintf(stderr, "nss_loop: cannot look up " BENCH_USER "\n");
		exit(1);
	}
	pml_identity_free(&identity);
}

int main(int argc, char **argv)
{
	const char *dir = getenv("BENCH_DIR");
	unsigned long n, i;

	if (argc != 3 || dir == NULL || strcmp(argv[1], "nss-lookup") != 0) {
		fprintf(stderr, "usage: BENCH_DIR=DIR %s nss-lookup N\n", argv[0]);
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	load_groups_policy(dir);
	nss_lookup();
	CALLGRIND_TOGGLE_COLLECT;
	for (i = 0; i < n; i++)
		nss_lookup();
	CALLGRIND_TOGGLE_COLLECT;
	pml_policy_free(&groups_policy);
	return 0;
}
