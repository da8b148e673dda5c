/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The harness itself: the summary's skips must be exactly the cases that
 * did not run.  A suite is run in a child whose TAP is read back: one case
 * that runs, one that is only skipped, and one that a mistaken suite both
 * adds and reports skipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

START_TEST(runs)
{
}
END_TEST

START_TEST(runs_and_is_skipped)
{
}
END_TEST

/* The TAP a suite of RUNS, RUNS_AND_IS_SKIPPED (added and skipped) and
 * NEVER (skipped only) prints, into BUF. */
static void tap_of_a_mistaken_suite(char *buf, size_t len)
{
	static const struct pml_skip skips[] = {
		{ "runs_and_is_skipped", "a mistake" },
		{ "never", "not here" },
	};
	int fds[2], status;
	size_t used = 0;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		Suite *s = suite_create("inner");
		TCase *tc = tcase_create("inner");

		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		tcase_add_test(tc, runs);
		tcase_add_test(tc, runs_and_is_skipped);
		suite_add_tcase(s, tc);
		pml_run_tap(s, skips, 2);
		fflush(stdout);
		_exit(0);
	}
	close(fds[1]);
	while (used + 1 < len && (n = read(fds[0], buf + used, len - 1 - used)) > 0)
		used += (size_t)n;
	buf[used] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
}

/* TAP on one line, so that a failure message cannot pass for TAP lines. */
static const char *flat(const char *tap, char *buf, size_t len)
{
	size_t i;

	for (i = 0; tap[i] != '\0' && i + 1 < len; i++)
		buf[i] = tap[i] == '\n' ? '|' : tap[i];
	buf[i] = '\0';
	return buf;
}

START_TEST(a_skip_counts_only_what_did_not_run)
{
	char tap[8192], shown[8192];

	tap_of_a_mistaken_suite(tap, sizeof(tap));
	flat(tap, shown, sizeof(shown));
	ck_assert_msg(strstr(tap, ":inner:runs: Passed") != NULL, "%s", shown);
	ck_assert_msg(strstr(tap, "ok 4 - never # SKIP not here\n") != NULL, "%s", shown);
	ck_assert_msg(strstr(tap, "not ok 3 - runs_and_is_skipped: reported skipped (a mistake), but it ran\n") != NULL,
		      "%s", shown);
	ck_assert_msg(strstr(tap, "runs_and_is_skipped # SKIP") == NULL, "%s", shown);
	ck_assert_msg(strstr(tap, "1..4\n") != NULL, "%s", shown);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("harness");
	TCase *tc = tcase_create("harness");

	tcase_add_test(tc, a_skip_counts_only_what_did_not_run);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
