/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What the rule and drop-in tests share: fixtures under nss_wrapper, NSS
 * calls counted, sessions through the real module in forked processes.
 */
#ifndef PML_TEST_RULES_ENV_H
#define PML_TEST_RULES_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "harness.h"
#include "pam_session.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)

/* Every session starts from this soft limit and the machine's hard one. */
#define START_SOFT (64 * KiB)
/* What the top level of most policies gives: no rule decided. */
#define TOP_LIMIT (512 * KiB)
#define TOP "limit = \"512 KiB\";\nmode = \"set\";\n"
#define ALICE(limit) "rules = ( { user = \"alice\"; limit = \"" limit "\"; } );\n"

#define SVC PML_TEST_SERVICE
#define PREFIX(service) "pam_memlock(" service ":session): "

#define NEED_NSS "nss_wrapper (libnss_wrapper.so, package libnss-wrapper) could not be preloaded"
#define NEED_ROOT "policy files must be owned by root: run make check as root with a hard limit of 4 MiB or more"

/* NSS calls made since the counters were last zeroed. */
struct nss_calls {
	unsigned getpwnam, getpwnam_r, getpwuid, getpwuid_r;
	unsigned getgrnam, getgrnam_r, getgrgid, getgrgid_r, getgrouplist;
};

extern struct nss_calls calls;
unsigned nss_total(const struct nss_calls *c);

/* Runs this program again with nss_wrapper preloaded on the fixtures, once;
 * returns when it already runs so, or when that cannot be done. */
void reexec_under_nss_wrapper(char **argv);

/* The fixture users are there, and nothing of the machine's own. */
bool fixtures_in_use(void);

/* Can this process make a private mount namespace? */
bool can_unshare_mounts(void);

/* What one session did, written by the process that ran it. */
struct session {
	int rc;
	uint64_t soft, hard;
	struct nss_calls calls;
	char log[16384];
};

extern struct pml_pam_env env;	/* the private PAM directory */
extern uint64_t start_hard;	/* the hard limit this machine gives */
extern struct session *last;

void session_setup(void);
void session_teardown(void);
/* pam.d/SERVICE: the same stack as pml-test, with the given arguments. */
void add_service(const char *service, const char *args);
/* A private PAM directory whose services pml-test, sshd and login all run
 * the module with ARGS on POLICY (written to DIR/memlock.conf unless NULL). */
void use(const char *args, const char *policy);
void use_policy(const char *policy);
/* Opens and closes one session in a child process; *last holds the result. */
const struct session *open_as(const char *service, const char *user);
/* USER opening a SERVICE session gets WANT as both limits ("set" mode). */
void expect(const char *service, const char *user, uint64_t want);
void assert_logged(const struct session *s, const char *line);

/* What each rules test's main starts with: this program again under
 * nss_wrapper, umask 022, start_hard read; *NSS tells whether the fixtures
 * are in use.  Returns whether sessions through the module can run here:
 * policy files must be root's, and "set" mode lowers to at most 4 MiB. */
bool rules_env_start(char **argv, bool *nss);

/* One TCase's cases, and those left out with their reasons. */
struct cases {
	TCase *tc;
	struct pml_skip skips[64];
	size_t n_skips;
};

/* TEST joins C's TCase when OK; else it is reported skipped for WHY. */
void add_case(struct cases *c, const TTest *test, bool ok, const char *why);
#define CASE(c, fn, ok, why) add_case(&(c), fn, ok, why)

#endif
