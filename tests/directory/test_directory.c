/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Sessions through the real module, with users and groups from a real
 * directory: slapd and nslcd that tests/directory/run.sh started in this
 * process's own mount and network namespaces (loopback only), with a
 * private nsswitch.conf ("passwd: files ldap", "group: files ldap"),
 * nslcd.conf and /run/nslcd.  The data (tests/directory/gen-ldif.py):
 * 20,000 users pmlu00001.., 5,000 groups pmlg0001.., pmlu00001 in 300 of
 * them, pmlbig with all 20,000 users.  A directory is where NSS is slow
 * and fails, so the cases are what a site with LDAP depends on:
 *
 *   - 100 group rules and a uid rule give each of 40 users the limit the
 *     layout says, through LDAP; a user the directory does not know gets
 *     PAM_USER_UNKNOWN;
 *   - NSS calls per session are counted (this program interposes them):
 *     one getpwnam_r, one getgrouplist, at most one getgrnam_r per group
 *     name the rules hold, the same for a user in 300 groups as for a user
 *     in one;
 *   - slapd killed: a session that needs groups fails with PAM_SERVICE_ERR
 *     within nslcd's timeouts plus 1 s, logs that the user database could
 *     not be read and leaves the limits alone; a policy needing no NSS
 *     still applies;
 *   - slapd stopped (SIGSTOP): the same, bounded by nslcd's timelimit;
 *     the worst case is printed;
 *   - slapd back: the next session succeeds.
 *
 * run.sh passes PML_SLAPD_PIDFILE, PML_SLAPD_START (a command) and
 * PML_NSS_BOUND (seconds: the longest nslcd can take to give up).
 */
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define SOFT0 (64u << 10)
#define HARD0 (8u << 20)
#define GROUP_RULES 99		/* plus pmlbig: 100 group rules */
#define GROUP_STEP 50		/* rule r names pmlg(50 r) */
#define UID_SOFT (512u << 10)	/* the uid rule, second */
#define BIG_SOFT (7u << 20)	/* pmlbig's rule, first */

/* --- NSS calls, counted on their way to glibc. */

struct nss_calls {
	unsigned getpwnam_r, getgrnam_r, getgrouplist;
};

static struct nss_calls calls;

#define PASS_ON(ret, name, params, args)				\
	ret name params							\
	{								\
		static ret (*next) params;				\
									\
		calls.name++;						\
		if (next == NULL)					\
			next = (ret (*) params)dlsym(RTLD_NEXT, #name);	\
		return next args;					\
	}

PASS_ON(int, getpwnam_r, (const char *n, struct passwd *p, char *b, size_t l,
			  struct passwd **r), (n, p, b, l, r))
PASS_ON(int, getgrnam_r, (const char *n, struct group *g, char *b, size_t l,
			  struct group **r), (n, g, b, l, r))
PASS_ON(int, getgrouplist, (const char *u, gid_t g, gid_t *gs, int *n),
	(u, g, gs, n))

/* --- The policy and what each user must get. */

static struct pml_pam_env groups_env, plain_env, big_env;

/* rule 0: pmlbig (everyone); rule 1: uid 200001-200010 (pmlu00001-10);
 * rules 2..100: pmlg(50 r).  The last matching rule decides. */
static char *group_policy(void)
{
	size_t cap = 16384, used = 0;
	char *text = malloc(cap);
	int r;

	ck_assert_ptr_nonnull(text);
	used += (size_t)snprintf(text + used, cap - used,
				 "rules = (\n  { group = \"pmlbig\"; soft = \"7 MiB\"; },\n"
				 "  { uid = \"200001-200010\"; soft = \"512 KiB\"; }");
	for (r = 1; r <= GROUP_RULES; r++)
		used += (size_t)snprintf(text + used, cap - used,
					 ",\n  { group = \"pmlg%04d\"; soft = \"%u KiB\"; }",
					 r * GROUP_STEP, 1024 + 4 * r);
	snprintf(text + used, cap - used, "\n);\n");
	return text;
}

/* The groups of user N, as gen-ldif.py makes them: pmlg(N mod 5000 + 1),
 * and for N = 1 pmlg0001..pmlg0300; every user is in pmlbig. */
static bool in_group(int user, int group)
{
	return user == 1 ? group <= 300 : user % 5000 + 1 == group;
}

static uint64_t expected_soft(int user)
{
	int r;

	for (r = GROUP_RULES; r >= 1; r--)
		if (in_group(user, r * GROUP_STEP))
			return (uint64_t)(1024 + 4 * r) << 10;
	if (user <= 10)
		return UID_SOFT;
	return BIG_SOFT;	/* pmlbig is everyone's */
}

/* --- Sessions in forked children: limits, time and log come back. */

struct outcome {
	int rc;
	uint64_t soft, hard;
	double seconds;
	struct nss_calls calls;
	char log[2048];
};

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static struct outcome session(const struct pml_pam_env *env, const char *user)
{
	struct outcome o = { .rc = -1 };
	int fds[2], status;
	struct pollfd p;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		double t0;

		close(fds[0]);
		pml_memlock_set(SOFT0, HARD0);
		pml_capture_reset();
		memset(&calls, 0, sizeof(calls));
		t0 = now();
		o.rc = pml_pam_open_close(env, PML_TEST_SERVICE, user);
		o.seconds = now() - t0;
		o.calls = calls;
		pml_memlock_get(&o.soft, &o.hard);
		snprintf(o.log, sizeof(o.log), "%s", pml_capture_text());
		_exit(write(fds[1], &o, sizeof(o)) == (ssize_t)sizeof(o) ? 0 : 1);
	}
	close(fds[1]);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	if (poll(&p, 1, 120 * 1000) <= 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		ck_abort_msg("a session for %s hung for 120 s", user);
	}
	ck_assert_int_eq(read(fds[0], &o, sizeof(o)), (ssize_t)sizeof(o));
	close(fds[0]);
	waitpid(pid, &status, 0);
	return o;
}

static void make_envs(void)
{
	char *policy = group_policy();

	ck_assert_int_eq(pml_pam_env_make(&groups_env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf", policy), 0);
	free(policy);
	ck_assert_int_eq(pml_pam_env_make(&big_env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf",
					  "rules = ( { group = \"pmlbig\"; soft = \"7 MiB\"; } );\n"),
			 0);
	ck_assert_int_eq(pml_pam_env_make(&plain_env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf",
					  "rules = ( { user = \"pmlu00001\"; soft = \"3 MiB\"; } );\n"),
			 0);
}

static void remove_envs(void)
{
	pml_pam_env_remove(&groups_env);
	pml_pam_env_remove(&plain_env);
	pml_pam_env_remove(&big_env);
}

static pid_t slapd_pid(void)
{
	FILE *f = fopen(pml_test_env("PML_SLAPD_PIDFILE"), "re");
	long pid = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld", &pid), 1);
	fclose(f);
	ck_assert_int_gt(pid, 1);
	return (pid_t)pid;
}

static void slapd_start(void)
{
	ck_assert_int_eq(system(pml_test_env("PML_SLAPD_START")), 0);
}

/* Until nslcd answers again (it retries a server it found down only
 * after reconnect_sleeptime); returns how long that took. */
static double wait_for_directory(void)
{
	double t0 = now();
	char buf[4096];
	struct passwd pw, *found = NULL;

	while (now() - t0 < 30) {
		if (getpwnam_r("pmlu20000", &pw, buf, sizeof(buf), &found) == 0 && found != NULL)
			return now() - t0;
		usleep(50 * 1000);
	}
	ck_abort_msg("the directory did not come back in 30 s");
	return 0;
}

static double nss_bound(void)
{
	return atof(pml_test_env("PML_NSS_BOUND"));
}

/* --- Cases. */

START_TEST(group_and_uid_rules_resolve_through_ldap)
{
	static const int users[] = {
		1, 2, 3, 10, 11, 49, 50, 99, 149, 249, 299, 1049, 2549, 4949,
		4999, 5000, 5049, 7449, 9999, 10049, 12499, 14949, 15000, 15049,
		17549, 19949, 19999, 20000, 4, 5, 6, 7, 8, 9, 12, 100, 4950, 5001,
		13, 14,
	};
	size_t i;

	make_envs();
	for (i = 0; i < sizeof(users) / sizeof(users[0]); i++) {
		char name[16];
		struct outcome o;
		uint64_t want = expected_soft(users[i]);
		snprintf(name, sizeof(name), "pmlu%05d", users[i]);
		o = session(&groups_env, name);
		ck_assert_msg(o.rc == PAM_SUCCESS, "%s: rc %d; log:\n%s", name, o.rc, o.log);
		ck_assert_msg(o.soft == want && o.hard == HARD0,
			      "%s: got %llu/%llu, want %llu/%u", name,
			      (unsigned long long)o.soft, (unsigned long long)o.hard,
			      (unsigned long long)want, HARD0);
	}
	{
		struct outcome o = session(&groups_env, "pmlnobody");

		ck_assert_msg(o.rc == PAM_USER_UNKNOWN, "unknown user: rc %d; log:\n%s",
			      o.rc, o.log);
		ck_assert(o.soft == SOFT0 && o.hard == HARD0);
	}
	remove_envs();
}
END_TEST

/* Median and range of 21 sessions of USER under ENV's policy, to the log. */
static void report_cost(const struct pml_pam_env *env, const char *policy,
			const char *user, const char *what)
{
	double sorted[21], t;
	int i, j;

	for (i = 0; i < 21; i++) {
		struct outcome o = session(env, user);

		ck_assert_int_eq(o.rc, PAM_SUCCESS);
		t = o.seconds;
		for (j = i; j > 0 && sorted[j - 1] > t; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = t;
	}
	fprintf(stderr, "# session with %s, %s (%s): median %.1f ms [%.1f..%.1f] over 21\n",
		policy, user, what, sorted[10] * 1e3, sorted[0] * 1e3, sorted[20] * 1e3);
}

/* Median and range of 21 bare getgrnam_r of GROUP with room for it at
 * once, to the log: what one fetch costs, module or not. */
static void report_fetch(const char *group)
{
	size_t len = (size_t)1 << 20, members = 0;
	char *buf = malloc(len);
	double sorted[21], t0, t;
	struct group gr, *found;
	int i, j;

	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < 21; i++) {
		found = NULL;
		t0 = now();
		ck_assert_int_eq(getgrnam_r(group, &gr, buf, len, &found), 0);
		t = now() - t0;
		ck_assert_ptr_nonnull(found);
		for (j = i; j > 0 && sorted[j - 1] > t; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = t;
	}
	while (gr.gr_mem[members] != NULL)
		members++;
	free(buf);
	fprintf(stderr, "# one getgrnam_r of %s (%zu members), no module: median %.1f ms [%.1f..%.1f] over 21\n",
		group, members, sorted[10] * 1e3, sorted[0] * 1e3, sorted[20] * 1e3);
}

/* The NSS questions of a session depend on the rules, not on how many
 * groups the user is in. */
START_TEST(nss_calls_do_not_grow_with_the_users_groups)
{
	struct outcome many, one;

	make_envs();
	/* pmlu00001: 300 groups; pmlu04999: pmlg5000 and pmlbig. */
	many = session(&groups_env, "pmlu00001");
	one = session(&groups_env, "pmlu04999");
	ck_assert_int_eq(many.rc, PAM_SUCCESS);
	ck_assert_int_eq(one.rc, PAM_SUCCESS);
	fprintf(stderr, "# pmlu00001 (300 groups): %u getpwnam_r, %u getgrouplist, %u getgrnam_r\n",
		many.calls.getpwnam_r, many.calls.getgrouplist, many.calls.getgrnam_r);
	fprintf(stderr, "# pmlu04999 (2 groups): %u getpwnam_r, %u getgrouplist, %u getgrnam_r\n",
		one.calls.getpwnam_r, one.calls.getgrouplist, one.calls.getgrnam_r);
	ck_assert_uint_eq(many.calls.getpwnam_r, 1);
	ck_assert_uint_eq(one.calls.getpwnam_r, 1);
	ck_assert_uint_eq(many.calls.getgrouplist, 1);
	ck_assert_uint_eq(one.calls.getgrouplist, 1);
	/* Walking back from the last rule: pmlu00001 matches at pmlg0300. */
	ck_assert_uint_eq(many.calls.getgrnam_r, GROUP_RULES - 300 / GROUP_STEP + 1);
	/*
	 * pmlu04999 matches none of the 99: all of them, then pmlbig, whose
	 * 20,000 members fit the first buffer: one getgrnam_r each.  An
	 * ERANGE would be one more (nslcd fetches the whole group again).
	 */
	ck_assert_uint_eq(one.calls.getgrnam_r, GROUP_RULES + 1);
	/* The session cost (tests/bench/README). */
	report_cost(&groups_env, "100 LDAP group rules", "pmlu00049",
		    "99 small groups asked, the last decides");
	report_cost(&groups_env, "100 LDAP group rules", "pmlu04999",
		    "100 groups asked, pmlbig of 20,000 members decides");
	report_cost(&big_env, "one rule naming pmlbig", "pmlu04999",
		    "pmlbig of 20,000 members, asked once");
	report_fetch("pmlbig");
	remove_envs();
}
END_TEST

/* SIGNAL slapd (SIGKILL or SIGSTOP), run sessions, bring it back. */
static void directory_fails(int sig, const char *what)
{
	struct outcome o, plain;
	double worst = 0, back;
	pid_t pid;
	int i;

	make_envs();
	wait_for_directory();
	o = session(&groups_env, "pmlu00002");
	ck_assert_msg(o.rc == PAM_SUCCESS, "before: rc %d; log:\n%s", o.rc, o.log);
	pid = slapd_pid();
	ck_assert_int_eq(kill(pid, sig), 0);
	if (sig == SIGKILL)
		waitpid(pid, NULL, WNOHANG);
	for (i = 0; i < 3; i++) {
		char name[16];

		/* A user nslcd has not answered for yet, each time. */
		snprintf(name, sizeof(name), "pmlu%05d", 100 + i);
		o = session(&groups_env, name);
		fprintf(stderr, "# %s: session %d: rc %d in %.2f s\n", what, i + 1, o.rc, o.seconds);
		ck_assert_msg(o.rc == PAM_SERVICE_ERR, "%s: rc %d, want PAM_SERVICE_ERR; log:\n%s",
			      what, o.rc, o.log);
		ck_assert_msg(strstr(o.log, "the user database could not be read for user") != NULL,
			      "%s: no such log line:\n%s", what, o.log);
		ck_assert_msg(o.soft == SOFT0 && o.hard == HARD0, "%s: limits changed", what);
		if (o.seconds > worst)
			worst = o.seconds;
		ck_assert_msg(o.seconds <= nss_bound() + 1.0,
			      "%s: the session took %.2f s; nslcd's bound is %.1f s",
			      what, o.seconds, nss_bound());
	}
	/* A policy that needs no NSS is unaffected. */
	plain = session(&plain_env, "pmlu00001");
	ck_assert_msg(plain.rc == PAM_SUCCESS && plain.soft == (3u << 20),
		      "%s: a policy without NSS: rc %d, soft %llu; log:\n%s", what, plain.rc,
		      (unsigned long long)plain.soft, plain.log);
	fprintf(stderr, "# %s: worst session %.2f s (nslcd's bound %.1f s); a policy without NSS: %.3f s\n",
		what, worst, nss_bound(), plain.seconds);
	/*
	 * Back: once nslcd answers again (its own reconnect delay, measured),
	 * the next session succeeds; the module kept nothing of the failures.
	 */
	if (sig == SIGKILL)
		slapd_start();
	else
		ck_assert_int_eq(kill(pid, SIGCONT), 0);
	back = wait_for_directory();
	o = session(&groups_env, "pmlu00100");
	ck_assert_msg(o.rc == PAM_SUCCESS && o.soft == expected_soft(100),
		      "%s, then back: rc %d; log:\n%s", what, o.rc, o.log);
	fprintf(stderr, "# %s, then back: nslcd answered again after %.2f s; the next session succeeded in %.3f s\n",
		what, back, o.seconds);
	remove_envs();
}

START_TEST(directory_down)
{
	directory_fails(SIGKILL, "slapd killed");
}
END_TEST

START_TEST(directory_hung)
{
	directory_fails(SIGSTOP, "slapd stopped");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("directory");
	TCase *tc = tcase_create("directory");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, group_and_uid_rules_resolve_through_ldap);
	tcase_add_test(tc, nss_calls_do_not_grow_with_the_users_groups);
	tcase_add_test(tc, directory_down);
	tcase_add_test(tc, directory_hung);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
