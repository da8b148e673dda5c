/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Policies rewritten while sessions run: an administrator's edit or
 * `memlockctl install` must never give a session half a policy.  32
 * worker processes open 1,000 sessions through the real module, each in a
 * forked child that records its return code and the RLIMIT_MEMLOCK it got,
 * while a writer process rewrites the policy every few milliseconds:
 *
 *   rename      a temporary file renamed over the main file, A and B in
 *               turn: every session succeeds with A's or B's limits;
 *   install     `memlockctl install` as the writer: the same;
 *   in place    truncate, then write in 16-byte pieces: every session gets
 *               A, B, a clean refusal (PAM_SERVICE_ERR, limits untouched)
 *               or the result of a prefix of A or B that is itself a valid
 *               policy; never a crash, a hang or a mix of A and B;
 *   drop-in     memlock.d/50-d.conf renamed in and unlinked: A or A+D;
 *   drop-in in place  created by truncate-and-write, then unlinked: A,
 *               A+D, a refusal, or A with a valid prefix of D.
 *
 * The allowed results of prefixes are not guessed: before each race, every
 * prefix of each file is installed and one session run on it, so the
 * module itself says what each prefix gives.  The policy is the default
 * file, in a private mount namespace (a tmpfs over its directory), so
 * that drop-ins are read.  Counts of each kind of result go to the log.
 * The race itself is tests/module/policy_race.c.
 */
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "policy_race.h"

START_TEST(rename_gives_a_or_b)
{
	static struct allowed set;

	race_setup();
	allow(&set, value_of(policy_a), "A");
	allow(&set, value_of(policy_b), "B");
	ck_assert_uint_eq(set.n, 2);
	race(BY_RENAME, &set, "rename");
}
END_TEST

START_TEST(memlockctl_install_gives_a_or_b)
{
	static struct allowed set;

	race_setup();
	allow(&set, value_of(policy_a), "A");
	allow(&set, value_of(policy_b), "B");
	ck_assert_uint_eq(set.n, 2);
	race(BY_INSTALL, &set, "memlockctl install");
}
END_TEST

START_TEST(in_place_gives_a_b_a_refusal_or_a_valid_prefix)
{
	static struct allowed set;

	race_setup();
	allow(&set, value_of(policy_a), "A");
	allow(&set, value_of(policy_b), "B");
	ck_assert_uint_eq(set.n, 2);
	allow_prefixes(&set, main_file, policy_a, "a prefix of A");
	allow_prefixes(&set, main_file, policy_b, "a prefix of B");
	allow(&set, (struct value){ .rc = PAM_SERVICE_ERR, .soft = SOFT0, .hard = HARD0 },
	      "refused");
	put_by_rename(main_file, policy_a);
	race(IN_PLACE, &set, "in place");
}
END_TEST

START_TEST(dropin_appearing_and_vanishing_gives_a_or_a_with_d)
{
	static struct allowed set;

	race_setup();
	allow(&set, value_of(policy_a), "A");
	put_by_rename(dropin_file, dropin_d);
	allow(&set, value_of(policy_a), "A+D");
	ck_assert_uint_eq(set.n, 2);
	race(DROPIN_RENAME, &set, "drop-in renamed in, unlinked");
}
END_TEST

START_TEST(dropin_written_in_place)
{
	static struct allowed set;

	race_setup();
	allow(&set, value_of(policy_a), "A");
	put_by_rename(dropin_file, dropin_d);
	allow(&set, value_of(policy_a), "A+D");
	ck_assert_uint_eq(set.n, 2);
	allow_prefixes(&set, dropin_file, dropin_d, "A with a prefix of D");
	allow(&set, (struct value){ .rc = PAM_SERVICE_ERR, .soft = SOFT0, .hard = HARD0 },
	      "refused");
	ck_assert_int_eq(unlink(dropin_file), 0);
	race(DROPIN_IN_PLACE, &set, "drop-in written in place, unlinked");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("races");
	TCase *tc = tcase_create("races");
	struct pml_skip skips[5];
	size_t n_skips = 0;
	const char *why = NULL;

	tcase_set_timeout(tc, 300);
	suite_add_tcase(s, tc);
	if (geteuid() != 0 || unshare(0) < 0)
		why = "needs root: policy files must be root's, in a private mount namespace";
	/* A case runs, or is reported skipped with WHY: never both. */
#define CASE(fn)							\
	do {								\
		if (why == NULL)					\
			tcase_add_test(tc, fn);				\
		else							\
			skips[n_skips++] = (struct pml_skip){ #fn, why };	\
	} while (0)
	CASE(rename_gives_a_or_b);
	CASE(memlockctl_install_gives_a_or_b);
	CASE(in_place_gives_a_b_a_refusal_or_a_valid_prefix);
	CASE(dropin_appearing_and_vanishing_gives_a_or_a_with_d);
	CASE(dropin_written_in_place);
	return pml_run_tap(s, skips, n_skips);
}
