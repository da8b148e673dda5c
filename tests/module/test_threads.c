/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * No state shared between sessions: two threads, each with its own PAM
 * handles, open sessions through the real module at the same time (dry_run
 * and debug, so that the decision is logged and the limits, which belong to
 * the whole process, stay as they are).  Every session must return and log
 * exactly what the same session returned and logged when it ran alone.
 * The threads use different users, so that one thread's user, rule or
 * groups showing up in the other's log is caught.
 *
 * The log is caught per thread: tests/lib/syslog_capture.c keeps its lines in
 * thread-local buffers.
 */
#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define ROUNDS 200
#define LOG_SIZE 8192

/* Two rules need NSS (group, uid), one needs the service; shares of RAM
 * go through floor and ceiling. */
static const char policy[] =
	"limit = \"1%\";\n"
	"floor = \"1 MiB\";\n"
	"ceiling = \"6 MiB\";\n"
	"rules = (\n"
	"  { group = \"root\"; soft = \"2 MiB\"; hard = \"0.5%\"; },\n"
	"  { uid = \"65534\"; limit = \"0.001%\"; mode = \"set\"; },\n"
	"  { user = \"nobody\"; service = \"" PML_TEST_SERVICE "\"; soft = \"3 MiB\"; }\n"
	");\n";

static struct pml_pam_env env;

struct session_result {
	int rc;
	char log[LOG_SIZE];
};

static void one_session(const char *user, struct session_result *out)
{
	pml_capture_reset();
	out->rc = pml_pam_open_close(&env, PML_TEST_SERVICE, user);
	snprintf(out->log, sizeof(out->log), "%s", pml_capture_text());
}

struct worker {
	const char *user;
	const struct session_result *reference;
	pthread_barrier_t *start;
	unsigned mismatches;
	struct session_result first_mismatch;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct session_result *r = malloc(sizeof(*r));
	int i;

	if (r == NULL)
		abort();
	pthread_barrier_wait(w->start);
	for (i = 0; i < ROUNDS; i++) {
		one_session(w->user, r);
		if (r->rc != w->reference->rc ||
		    strcmp(r->log, w->reference->log) != 0) {
			if (w->mismatches++ == 0)
				w->first_mismatch = *r;
		}
	}
	free(r);
	return NULL;
}

static void setup(void)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf dry_run debug",
					  policy), 0);
}

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

/* Runs USERS[0] and USERS[1] in two threads against references made alone. */
static void run_two(const char *user0, const char *user1)
{
	static struct session_result reference[2];
	const char *users[2] = { user0, user1 };
	struct worker workers[2];
	pthread_barrier_t start;
	pthread_t threads[2];
	int i;

	for (i = 0; i < 2; i++) {
		one_session(users[i], &reference[i]);
		ck_assert_msg(reference[i].rc == PAM_SUCCESS, "%s: rc %d; log:\n%s",
			      users[i], reference[i].rc, reference[i].log);
		/* The decision really is logged (debug) and differs by user. */
		ck_assert_ptr_nonnull(strstr(reference[i].log, "dry_run: user \""));
	}
	ck_assert_int_eq(pthread_barrier_init(&start, NULL, 2), 0);
	for (i = 0; i < 2; i++) {
		workers[i] = (struct worker){ users[i], &reference[i], &start, 0, { 0, "" } };
		ck_assert_int_eq(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
	}
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(threads[i], NULL), 0);
	pthread_barrier_destroy(&start);
	for (i = 0; i < 2; i++)
		ck_assert_msg(workers[i].mismatches == 0,
			      "%s: %u of %d sessions differ from the one run alone; first: rc %d, log:\n%s\nwanted rc %d, log:\n%s",
			      users[i], workers[i].mismatches, ROUNDS,
			      workers[i].first_mismatch.rc, workers[i].first_mismatch.log,
			      reference[i].rc, reference[i].log);
}

START_TEST(same_user_in_two_threads)
{
	run_two("root", "root");
}
END_TEST

START_TEST(different_users_in_two_threads)
{
	run_two("root", "nobody");
}
END_TEST

/*
 * A host thread's own locale (uselocale) is its own: libconfig 1.5 sets a
 * "C" locale while it reads and then LC_GLOBAL_LOCALE, whatever the thread
 * had.  The module must leave the thread's locale as it found it.
 */
struct locale_check {
	locale_t before, after;
	int rc;
	char log[LOG_SIZE];
};

static void *session_in_own_locale(void *arg)
{
	struct locale_check *c = arg;
	struct session_result r;

	c->before = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
	if (c->before == (locale_t)0)
		c->before = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (c->before == (locale_t)0)
		abort();
	uselocale(c->before);
	one_session("root", &r);
	c->after = uselocale((locale_t)0);
	c->rc = r.rc;
	memcpy(c->log, r.log, sizeof(c->log));
	uselocale(LC_GLOBAL_LOCALE);
	freelocale(c->before);
	return NULL;
}

START_TEST(thread_locale_survives_a_session)
{
	struct locale_check c;
	pthread_t thread;

	ck_assert_int_eq(pthread_create(&thread, NULL, session_in_own_locale, &c), 0);
	ck_assert_int_eq(pthread_join(thread, NULL), 0);
	ck_assert_msg(c.rc == PAM_SUCCESS, "rc %d; log:\n%s", c.rc, c.log);
	ck_assert_ptr_nonnull(strstr(c.log, "dry_run: user \""));
	ck_assert_msg(c.after == c.before,
		      "the thread's locale was %p before the session and %p after (LC_GLOBAL_LOCALE is %p)",
		      (void *)c.before, (void *)c.after, (void *)LC_GLOBAL_LOCALE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("threads");
	TCase *tc = tcase_create("threads");
	struct pml_skip skips[3];

	if (geteuid() != 0) {
		skips[0] = (struct pml_skip){ "same_user_in_two_threads",
			"policy files must be owned by root: run make check as root" };
		skips[1] = (struct pml_skip){ "different_users_in_two_threads", skips[0].reason };
		skips[2] = (struct pml_skip){ "thread_locale_survives_a_session", skips[0].reason };
		return pml_run_tap(s, skips, 3);
	}
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, same_user_in_two_threads);
	tcase_add_test(tc, different_users_in_two_threads);
	tcase_add_test(tc, thread_locale_survives_a_session);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
