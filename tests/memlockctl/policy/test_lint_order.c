/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "likely wrong" warnings of `memlockctl check` (pam_memlock/memlockctl/policy/lint.c)
 * about the order of rules: a rule that never decides because a later one
 * matches every session it matches, a broader rule after an exception, a
 * later group rule that gives members of both less, and the orders that
 * are fine.  The made-up machine and NSS are tests/memlockctl/policy/lint_env.c.  No files:
 * runs unprivileged.
 */
#include <string.h>

#include "harness.h"
#include "lint_env.h"

START_TEST(rule_without_match_keys_hides_every_earlier_rule)
{
	assert_lint("rules = (\n"
		    "  { user = \"root\"; limit = \"4 MiB\"; },\n"
		    "  { service = \"sshd\"; uid = \"0-9\"; limit = \"2 MiB\"; },\n"
		    "  { mode = \"set\"; }\n"
		    ");\n", 2,
		    "t.conf:2: warning: this rule never decides: the later rule at t.conf:4 matches every session it matches, and the last matching rule wins\n"
		    "t.conf:3: warning: this rule never decides: the later rule at t.conf:4 matches every session it matches, and the last matching rule wins\n");
}
END_TEST

/* Rules accumulate across files: a drop-in's rule hides the main file's. */
START_TEST(rule_in_a_later_file_hides_an_earlier_one)
{
	static const char main_text[] = "rules = (\n  { user = \"root\"; limit = \"1 MiB\"; }\n);\n";
	static const char dropin_text[] = "rules = ( { uid = \"0-\"; service = \"sshd\"; mode = \"set\"; },\n"
					  "  { user = [\"daemon\", \"root\"]; limit = \"2 MiB\"; } );\n";
	struct pml_policy policy;

	pml_policy_init(&policy);
	logged.text[0] = '\0';
	ck_assert_int_eq(pml_policy_add_text(&policy, "/etc/memlock.conf", main_text,
					     strlen(main_text), &log_to_buffer), 0);
	ck_assert_int_eq(pml_policy_add_text(&policy, "/etc/memlock.d/50.conf", dropin_text,
					     strlen(dropin_text), &log_to_buffer), 0);
	ck_assert_uint_eq(lint_policy(&policy, &machine, &fake_nss, &log_to_buffer).policy, 1);
	ck_assert_str_eq(logged.text, "/etc/memlock.conf:2: warning: this rule never decides: the later rule at /etc/memlock.d/50.conf:2 matches every session it matches, and the last matching rule wins\n");
	pml_policy_free(&policy);
}
END_TEST

/* The order of the shipped example before it was fixed: a group rule, a
 * user rule, then a broader uid+service rule that decides for both over
 * ssh.  Each earlier rule is named once, with the count of the others.
 * Whether user "u1000" meets the uid range is this host's fact: a host
 * warning of its own. */
START_TEST(broader_later_rule_is_named)
{
	assert_lint("rules = (\n"
		    "  { group = \"audio\"; limit = \"unlimited\"; },\n"
		    "  { user = [\"u1000\", \"build\"]; limit = \"25%\"; ceiling = \"16 GiB\"; },\n"
		    "  { uid = \"1000-59999\"; service = \"sshd\"; limit = \"2%\"; },\n"
		    "  { service = \"cron\"; limit = \"1 MiB\"; }\n"
		    ");\n", 3,
		    "t.conf:2: warning: the broader rule at t.conf:4 (and 1 more later rule) comes later and decides for the sessions both match (the last matching rule wins): put general rules first and exceptions after them\n"
		    "t.conf:3: warning: the broader rule at t.conf:5 comes later and decides for the sessions both match (the last matching rule wins): put general rules first and exceptions after them\n"
		    "t.conf:3: host warning: the broader rule at t.conf:4 comes later and decides for the sessions both match on this host (the last matching rule wins): put general rules first and exceptions after them\n");
	ck_assert_uint_eq(counted.policy, 2);
	ck_assert_uint_eq(counted.host, 1);
}
END_TEST

/* A user's uid outside the range, a user this host does not know, or
 * one whose uid it cannot tell: no session here matches both. */
START_TEST(users_outside_the_uid_range_are_quiet)
{
	assert_lint("rules = (\n"
		    "  { user = [\"u70000\", \"build\", \"pml-no-such-user\", \"pml-nss-down\"]; limit = \"1 MiB\"; },\n"
		    "  { uid = \"1000-59999\"; limit = \"2 MiB\"; }\n"
		    ");\n", 1,
		    "t.conf:2: host warning: user \"pml-no-such-user\" does not exist on this machine\n");
}
END_TEST

/* Limits that come out the same on this machine (1% of 16 GiB is held
 * at the ceiling of 8 MiB) but not on one of 512 MiB: the later, broader
 * rule still decides somewhere, and any host says so. */
START_TEST(broader_rule_with_the_same_limits_here_only_is_named)
{
	assert_lint("rules = (\n"
		    "  { user = \"root\"; limit = \"1%\"; ceiling = \"8 MiB\"; },\n"
		    "  { service = \"sshd\"; limit = \"8 MiB\"; }\n"
		    ");\n", 2,
		    "t.conf:2: warning: the broader rule at t.conf:3 comes later and decides for the sessions both match (the last matching rule wins): put general rules first and exceptions after them\n"
		    "t.conf:2: host warning: limit \"1%\" comes to 164 MiB on this machine, above the ceiling (8 MiB): the ceiling decides, not the share\n");
	/* The same on every machine: a share held between equal bounds. */
	assert_lint("rules = (\n"
		    "  { user = \"root\"; limit = \"1%\"; floor = \"8 MiB\"; ceiling = \"8 MiB\"; },\n"
		    "  { service = \"sshd\"; limit = \"8 MiB\"; }\n"
		    ");\n", 1,
		    "t.conf:2: host warning: limit \"1%\" comes to 164 MiB on this machine, above the ceiling (8 MiB): the ceiling decides, not the share\n");
}
END_TEST

/* Of two group rules, a member of both gets the later one's limits. */
START_TEST(later_group_rule_that_gives_less_is_named)
{
	assert_lint("rules = (\n"
		    "  { group = \"rdma\"; limit = \"unlimited\"; },\n"
		    "  { group = \"dev\"; limit = \"5%\"; }\n"
		    ");\n", 1,
		    "t.conf:3: warning: a member of both group \"dev\" here and group \"rdma\" of the earlier rule at t.conf:2 gets this rule's lower limits (the last matching rule wins): if members of both should get more, put this rule before that one\n");
	ck_assert_uint_eq(counted.policy, 1);
	/* Soft alone lower, hard the same; and mode "set" with the same
	 * limits is no less. */
	assert_lint("rules = (\n"
		    "  { group = \"a\"; limit = \"1 GiB\"; },\n"
		    "  { group = [\"b\", \"c\"]; soft = \"64 MiB\"; hard = \"1 GiB\"; },\n"
		    "  { group = \"d\"; limit = \"1 GiB\"; mode = \"set\"; }\n"
		    ");\n", 1,
		    "t.conf:3: warning: a member of both group \"b\" here and group \"a\" of the earlier rule at t.conf:2 gets this rule's lower limits (the last matching rule wins): if members of both should get more, put this rule before that one\n");
}
END_TEST

START_TEST(group_rules_in_a_good_order_are_quiet)
{
	/* More last. */
	assert_lint("rules = (\n"
		    "  { group = \"dev\"; limit = \"5%\"; },\n"
		    "  { group = \"rdma\"; limit = \"unlimited\"; }\n"
		    ");\n", 0, "");
	/* Limits that cross: 8 MiB is more than 5% of 64 MiB, less than 5%
	 * of 16 GiB; either order. */
	assert_lint("rules = (\n"
		    "  { group = \"audio\"; limit = \"8 MiB\"; },\n"
		    "  { group = \"video\"; limit = \"5%\"; },\n"
		    "  { group = \"midi\"; limit = \"8 MiB\"; }\n"
		    ");\n", 0, "");
	/* Rules that no session can share: other services. */
	assert_lint("rules = (\n"
		    "  { group = \"ci\"; service = \"cron\"; limit = \"unlimited\"; },\n"
		    "  { group = \"ops\"; service = \"sshd\"; limit = \"1 MiB\"; }\n"
		    ");\n", 0, "");
	/* A later rule for some of the earlier rule's own groups: an
	 * exception for them. */
	assert_lint("rules = (\n"
		    "  { group = [\"x\", \"y\"]; limit = \"unlimited\"; },\n"
		    "  { group = \"y\"; limit = \"1 MiB\"; }\n"
		    ");\n", 0, "");
}
END_TEST

START_TEST(exceptions_after_general_rules_are_quiet)
{
	assert_lint("rules = (\n"
		    "  { uid = \"1000-59999\"; service = \"sshd\"; limit = \"2%\"; },\n"
		    "  { group = \"audio\"; limit = \"unlimited\"; },\n"
		    "  { user = [\"ci\", \"build\"]; limit = \"25%\"; ceiling = \"16 GiB\"; }\n"
		    ");\n", 0, "");
	assert_lint("rules = (\n"
		    "  { user = \"ci\"; service = \"sshd\"; limit = \"1 MiB\"; },\n"
		    "  { service = \"cron\"; limit = \"2 MiB\"; },\n"
		    "  { uid = \"5-9\"; service = \"cron\"; limit = \"3 MiB\"; },\n"
		    "  { uid = \"20-30\"; service = \"login\"; limit = \"4 MiB\"; },\n"
		    "  { group = \"audio\"; service = \"login\"; limit = \"5 MiB\"; },\n"
		    "  { uid = \"0-\"; service = \"sshd\"; limit = \"1 MiB\"; }\n"
		    ");\n", 0, "");
}
END_TEST

START_TEST(subset_of_names_is_hidden)
{
	assert_lint("rules = (\n"
		    "  { user = [\"root\", \"daemon\"]; group = \"root\"; service = \"sshd\"; limit = \"1 MiB\"; },\n"
		    "  { user = [\"daemon\", \"bin\", \"root\"]; group = [\"root\", \"adm\"]; limit = \"2 MiB\"; }\n"
		    ");\n", 1,
		    "t.conf:2: warning: this rule never decides: the later rule at t.conf:3 matches every session it matches, and the last matching rule wins\n");
}
END_TEST

START_TEST(names_not_all_covered_are_not_hidden)
{
	/* "daemon" is not in the later rule, and the later rule asks for a
	 * service that the earlier one does not: no warning either way. */
	assert_lint("rules = (\n"
		    "  { user = [\"root\", \"daemon\"]; limit = \"1 MiB\"; },\n"
		    "  { user = \"root\"; limit = \"2 MiB\"; },\n"
		    "  { user = \"root\"; limit = \"3 MiB\"; },\n"
		    "  { user = \"root\"; service = \"sshd\"; limit = \"2 MiB\"; }\n"
		    ");\n", 1,
		    "t.conf:3: warning: this rule never decides: the later rule at t.conf:4 matches every session it matches, and the last matching rule wins\n");
}
END_TEST

START_TEST(uid_ranges_covered_together_are_hidden)
{
	assert_lint("rules = (\n"
		    "  { uid = [\"0-10\", \"50-99\"]; limit = \"1 MiB\"; },\n"
		    "  { uid = [\"60-\", \"0-49\", \"50-59\"]; limit = \"2 MiB\"; }\n"
		    ");\n", 1,
		    "t.conf:2: warning: this rule never decides: the later rule at t.conf:3 matches every session it matches, and the last matching rule wins\n");
}
END_TEST

START_TEST(uid_range_with_a_gap_is_not_hidden)
{
	assert_lint("rules = (\n"
		    "  { uid = [\"0-10\", \"50-99\"]; limit = \"1 MiB\"; },\n"
		    "  { uid = [\"0-49\", \"51-\"]; limit = \"2 MiB\"; },\n"
		    "  { uid = \"-4294967294\"; group = \"root\"; limit = \"2 MiB\"; }\n"
		    ");\n", 0, "");
}
END_TEST

/*
 * Modes weigh in the order: the Slurm site's policy.  Jobs (service
 * "slurm", mode "set") start under slurmd's LimitMEMLOCK=infinity.  With
 * the set rule after the hpc rule it decides for hpc members' jobs: capped,
 * and the lint must not ask to move it first.  With it first, the hpc
 * rule decides for them in mode "raise", and the job keeps unlimited: the
 * lint names that order.  Raising to unlimited (rdma-admins) is setting it.
 */
#define SITE_HPC "  { group = \"hpc\"; limit = \"25%\"; ceiling = \"64 GiB\"; },\n"
#define SITE_SLURM "  { service = \"slurm\"; limit = \"25%\"; ceiling = \"64 GiB\"; mode = \"set\"; },\n"
#define SITE_RDMA "  { group = \"rdma-admins\"; limit = \"unlimited\"; }\n"

START_TEST(set_rule_after_a_raise_rule_is_the_cap)
{
	assert_lint("limit = \"8 MiB\";\nrules = (\n" SITE_HPC SITE_SLURM SITE_RDMA ");\n", 0, "");
}
END_TEST

START_TEST(raise_rule_after_a_set_rule_is_named)
{
	assert_lint("limit = \"8 MiB\";\nrules = (\n" SITE_SLURM SITE_HPC SITE_RDMA ");\n", 1,
		    "t.conf:3: warning: the later rule at t.conf:4 decides for the sessions both match with mode = \"raise\" (the last matching rule wins): they keep a higher limit they start with (a daemon's LimitMEMLOCK=infinity), uncapped; to cap them, give that rule mode = \"set\", or add a rule for both, with mode = \"set\", after it\n");
}
END_TEST

/* A later broader set rule with other limits than a raise rule: named,
 * but never with "put general rules first". */
START_TEST(set_rule_with_other_limits_is_not_moved_first)
{
	assert_lint("rules = (\n"
		    "  { group = \"hpc\"; limit = \"25%\"; },\n"
		    "  { service = \"slurm\"; limit = \"1 GiB\"; mode = \"set\"; }\n"
		    ");\n", 1,
		    "t.conf:2: warning: the broader rule at t.conf:3 comes later and decides for the sessions both match, with other limits and mode = \"set\" (the last matching rule wins): to give them this rule's limits, add a rule for both, with mode = \"set\", after it; moving it first would leave them uncapped\n");
}
END_TEST

START_TEST(covers_is_conservative)
{
	struct pml_rule empty = { 0 }, users_a = { 0 }, users_ab = { 0 };
	struct pml_rule uids_all = { 0 }, uids_top = { 0 };
	const char *a[] = { "a" }, *ab[] = { "b", "a" };
	struct pml_uid_range all = { 0, UINT32_MAX - 1 }, top = { UINT32_MAX - 1, UINT32_MAX - 1 };

	users_a.users = (struct pml_names){ a, 1 };
	users_ab.users = (struct pml_names){ ab, 2 };
	uids_all.uids = &all;
	uids_all.n_uids = 1;
	uids_top.uids = &top;
	uids_top.n_uids = 1;
	ck_assert(lint_rule_covers(&empty, &users_a));
	ck_assert(lint_rule_covers(&empty, &empty));
	ck_assert(lint_rule_covers(&users_ab, &users_a));
	ck_assert(!lint_rule_covers(&users_a, &users_ab));
	ck_assert(!lint_rule_covers(&users_a, &empty));
	ck_assert(lint_rule_covers(&uids_all, &uids_top));
	ck_assert(!lint_rule_covers(&uids_top, &uids_all));
	/* A uid range says nothing about names, nor names about uids. */
	ck_assert(!lint_rule_covers(&uids_all, &users_a));
	ck_assert(!lint_rule_covers(&users_a, &uids_all));
}
END_TEST

int main(void)
{
	const TTest *const cases[] = {
		rule_without_match_keys_hides_every_earlier_rule,
		rule_in_a_later_file_hides_an_earlier_one,
		broader_later_rule_is_named,
		users_outside_the_uid_range_are_quiet,
		broader_rule_with_the_same_limits_here_only_is_named,
		later_group_rule_that_gives_less_is_named,
		group_rules_in_a_good_order_are_quiet,
		exceptions_after_general_rules_are_quiet,
		subset_of_names_is_hidden,
		names_not_all_covered_are_not_hidden,
		uid_ranges_covered_together_are_hidden,
		uid_range_with_a_gap_is_not_hidden,
		covers_is_conservative,
		set_rule_after_a_raise_rule_is_the_cap,
		raise_rule_after_a_set_rule_is_named,
		set_rule_with_other_limits_is_not_moved_first,
	};

	return run_lint_cases("lint_order", cases, sizeof(cases) / sizeof(cases[0]));
}
