/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The benchmark's private world, in one fresh directory: the policies
 * (pam_memlock's and pam_limits' equivalent of each), a passwd and a group
 * file for nss_wrapper, and a PAM service file per (module, policy) for
 * pam_start_confdir.  Nothing outside the directory is touched.
 */
#ifndef BENCH_FIXTURE_H
#define BENCH_FIXTURE_H

#include <stddef.h>

/* The session's user: in a few of the generated groups, last rule matches. */
#define BENCH_USER "benchuser"

enum bench_policy {
	BENCH_ONE,	/* one line: limit = ...; and "* - memlock N" */
	BENCH_USERS,	/* N user rules; the user's is the last */
	BENCH_GROUPS,	/* N group rules; the user is in three of the groups */
	BENCH_POLICY_COUNT
};

enum bench_module {
	BENCH_PERMIT,	/* pam_permit alone: the baseline */
	BENCH_MEMLOCK,
	BENCH_LIMITS,
	BENCH_REF,	/* ref_libconfig: libconfig's parse and a setrlimit */
	BENCH_MODULE_COUNT
};

struct bench_paths {
	const char *memlock;	/* pam_memlock.so, absolute */
	const char *limits;	/* pam_limits.so, absolute */
	const char *ref;	/* ref_libconfig.so, absolute */
};

const char *bench_policy_name(enum bench_policy policy);
const char *bench_module_name(enum bench_module module);

/* The PAM service name for a module under a policy ("memlock-users"). */
void bench_service(enum bench_module module, enum bench_policy policy,
		   char *buf, size_t len);

/*
 * Writes everything into DIR (which exists): N_RULES rules per big policy,
 * each rule setting LIMIT_KIB.  Returns 0 or -errno.
 */
int bench_fixture_write(const char *dir, const struct bench_paths *paths,
			unsigned n_rules, unsigned long long limit_kib);

/*
 * A pam_memlock policy of N_RULES user rules, split over nothing: the file
 * `memlockctl check` is timed on (it is over 64 KiB at 10,000 rules).
 */
int bench_write_user_rules(const char *path, unsigned n_rules,
			   unsigned long long limit_kib);

#endif
