/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "likely wrong" warnings of `memlockctl check` (pam_memlock/memlockctl/policy/lint.c),
 * on policy texts and a made-up machine (16 GiB of RAM, 4 KiB pages), so
 * that every number in a message is known.  No files: runs unprivileged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "log_buffer.h"
#include "policy/lint.h"
#include "policy.h"

static const struct pml_machine machine = {
	.ram = (uint64_t)16 << 30, .page_size = 4096,
	.available = { .bytes = (uint64_t)16 << 30 },
};
static struct pml_log_buffer logged;
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_DEBUG };

/* A made-up NSS: names starting "pml-no-such" are unknown, names starting
 * "pml-nss-down" cannot be looked up, every other name exists. */
static int fake_known(const char *name, void *ctx)
{
	(void)ctx;
	if (strncmp(name, "pml-no-such", 11) == 0)
		return 0;
	return strncmp(name, "pml-nss-down", 12) == 0 ? -1 : 1;
}

/* Users "u<N>" have uid N; other known users have none to give. */
static int fake_uid(const char *name, uid_t *uid, void *ctx)
{
	if (name[0] == 'u' && name[1] >= '0' && name[1] <= '9') {
		*uid = (uid_t)strtoul(name + 1, NULL, 10);
		return 1;
	}
	return fake_known(name, ctx) == 1 ? -1 : fake_known(name, ctx);
}

static const struct pml_lint_names fake_nss = {
	.user_known = fake_known, .group_known = fake_known,
	.user_uid = fake_uid, .service_known = fake_known,
};

/* Loads TEXT as "t.conf", with an empty `logged.text`. */
static void load(const char *text, struct pml_policy *policy)
{
	pml_policy_init(policy);
	logged.text[0] = '\0';
	ck_assert_msg(pml_policy_add_text(policy, "t.conf", text, strlen(text),
					  &log_to_buffer) == 0 &&
		      pml_policy_validate(policy, machine.page_size, &log_to_buffer) == 0,
		      "policy refused:\n%s", logged.text);
}

/* The kinds of the last lint() */
static struct pml_lint_count counted;

/* Lints TEXT; returns the count, the lines in `logged.text`. */
static unsigned lint(const char *text)
{
	struct pml_policy policy;

	load(text, &policy);
	counted = pml_lint(&policy, &machine, &fake_nss, &log_to_buffer);
	pml_policy_free(&policy);
	return counted.policy + counted.host;
}

static void assert_logged(unsigned got, unsigned count, const char *lines)
{
	ck_assert_msg(got == count, "%u warnings, want %u:\n%s", got, count, logged.text);
	ck_assert_str_eq(logged.text, lines);
}

static void assert_lint(const char *text, unsigned count, const char *lines)
{
	assert_logged(lint(text), count, lines);
}

START_TEST(clean_policy_has_no_warning)
{
	assert_lint("limit = \"8 MiB\";\nsoft = \"4 MiB\";\n", 0, "");
}
END_TEST

START_TEST(clean_rules_have_no_warning)
{
	assert_lint("limit = \"1%\"; ceiling = \"1 TiB\";\n"
		    "rules = (\n"
		    "  { uid = \"5-\"; service = [\"sshd\", \"login\"]; mode = \"set\"; },\n"
		    "  { group = \"root\"; uid = \"0-10\"; soft = \"1 MiB\"; },\n"
		    "  { user = [\"root\", \"daemon\"]; limit = \"4 MiB\"; },\n"
		    "  { user = \"root\"; service = \"sshd\"; limit = \"2 MiB\"; }\n"
		    ");\n", 0, "");
}
END_TEST

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
	ck_assert_uint_eq(pml_lint(&policy, &machine, &fake_nss, &log_to_buffer).policy, 1);
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

START_TEST(zero_limit_is_named)
{
	assert_lint("limit = \"0\";\n"
		    "rules = ( { user = \"a\"; soft = \"0 KiB\"; hard = \"1 MiB\"; } );\n", 2,
		    "t.conf:1: warning: limit \"0\": no memory can be locked, so mlock, io_uring and RDMA fail; the kernel's own default is 8 MiB (64 KiB before Linux 5.16)\n"
		    "t.conf:2: warning: soft \"0\": no memory can be locked, so mlock, io_uring and RDMA fail; the kernel's own default is 8 MiB (64 KiB before Linux 5.16)\n");
}
END_TEST

/* Below the kernel's old default of 64 KiB: "8192" is bytes here and KiB
 * in limits.conf, so a number without a unit gets one suggested. */
START_TEST(small_limit_is_named_with_the_unit)
{
	assert_lint("limit = \"8192\";\n"
		    "rules = (\n"
		    "  { user = \"a\"; soft = \"63 KiB\"; hard = \"65535 B\"; },\n"
		    "  { user = \"b\"; hard = \"65536\"; soft = \"64 KiB\"; },\n"
		    "  { user = \"c\"; limit = \"100\"; }\n"
		    ");\n", 4,
		    "t.conf:1: warning: limit \"8192\" is 8 KiB, below the kernel's own default of 64 KiB before Linux 5.16: a size without a unit is in bytes, where limits.conf counts memlock in KiB; did you mean \"8192 KiB\"?\n"
		    "t.conf:3: warning: soft is 63 KiB, below the kernel's own default of 64 KiB before Linux 5.16: mlock, io_uring and RDMA get next to nothing\n"
		    "t.conf:3: warning: hard is 65535 bytes, below the kernel's own default of 64 KiB before Linux 5.16: mlock, io_uring and RDMA get next to nothing\n"
		    "t.conf:5: warning: limit \"100\" is 100 bytes, below the kernel's own default of 64 KiB before Linux 5.16: a size without a unit is in bytes, where limits.conf counts memlock in KiB; did you mean \"100 KiB\"?\n");
}
END_TEST

/* floor and ceiling hold a share of RAM; on fixed sizes they do nothing.
 * A rule that inherits a share from the top level does use them. */
START_TEST(bounds_on_fixed_sizes_do_nothing)
{
	assert_lint("limit = \"1%\";\n"
		    "rules = (\n"
		    "  { user = \"a\"; limit = \"8 MiB\"; floor = \"1 MiB\"; ceiling = \"1 GiB\"; },\n"
		    "  { user = \"b\"; ceiling = \"1 TiB\"; }\n"
		    ");\n", 2,
		    "t.conf:3: warning: floor has no effect: this rule's limits are fixed sizes, and only a share of RAM is held between floor and ceiling\n"
		    "t.conf:3: warning: ceiling has no effect: this rule's limits are fixed sizes, and only a share of RAM is held between floor and ceiling\n");
}
END_TEST

START_TEST(unknown_service_is_named)
{
	assert_lint("rules = ( { service = [\"sshd\", \"pml-no-such-ssh\"]; limit = \"1 MiB\"; } );\n", 1,
		    "t.conf:1: host warning: PAM service \"pml-no-such-ssh\" does not exist on this machine\n");
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
	ck_assert(pml_rule_covers(&empty, &users_a));
	ck_assert(pml_rule_covers(&empty, &empty));
	ck_assert(pml_rule_covers(&users_ab, &users_a));
	ck_assert(!pml_rule_covers(&users_a, &users_ab));
	ck_assert(!pml_rule_covers(&users_a, &empty));
	ck_assert(pml_rule_covers(&uids_all, &uids_top));
	ck_assert(!pml_rule_covers(&uids_top, &uids_all));
	/* A uid range says nothing about names, nor names about uids. */
	ck_assert(!pml_rule_covers(&uids_all, &users_a));
	ck_assert(!pml_rule_covers(&users_a, &uids_all));
}
END_TEST

START_TEST(soft_above_hard_at_the_top_level)
{
	assert_lint("soft = \"16 MiB\";\nhard = \"4 MiB\";\n"
		    "rules = ( { service = \"cron\"; mode = \"set\"; } );\n", 1,
		    "t.conf:1: warning: the soft limit (16 MiB) is above the hard limit (4 MiB); sessions get soft lowered to 4 MiB\n");
}
END_TEST

START_TEST(soft_above_hard_in_a_rule)
{
	assert_lint("hard = \"4 MiB\";\nsoft = \"1 MiB\";\n"
		    "rules = (\n"
		    "  { user = \"root\"; soft = \"unlimited\"; },\n"
		    "  { user = \"daemon\"; limit = \"2 MiB\"; hard = \"1 MiB\"; },\n"
		    "  { user = \"bin\"; limit = \"2 MiB\"; hard = \"3 MiB\"; }\n"
		    ");\n", 2,
		    "t.conf:4: warning: this rule's soft limit (unlimited) is above its hard limit (4 MiB); sessions get soft lowered to 4 MiB\n"
		    "t.conf:5: warning: this rule's soft limit (2 MiB) is above its hard limit (1 MiB); sessions get soft lowered to 1 MiB\n");
}
END_TEST

START_TEST(soft_share_above_hard_on_this_machine)
{
	/* 1% of 16 GiB is about 164 MiB. */
	assert_lint("soft = \"1%\";\nhard = \"100 MiB\";\n", 1,
		    "t.conf:1: host warning: the soft limit (164 MiB) is above the hard limit (100 MiB) on this machine; sessions get soft lowered to 100 MiB\n");
}
END_TEST

START_TEST(share_held_at_the_ceiling_once)
{
	/* One "limit" behind both sides: one warning, at the share's line. */
	assert_lint("ceiling = \"64 MiB\";\nlimit = \"1%\";\n", 1,
		    "t.conf:2: host warning: limit \"1%\" comes to 164 MiB on this machine, above the ceiling (64 MiB): the ceiling decides, not the share\n");
}
END_TEST

START_TEST(share_raised_to_the_floor)
{
	/* 0.001% of 16 GiB: 171798 bytes, 167936 as whole pages. */
	assert_lint("limit = \"8 MiB\";\n"
		    "rules = ( { user = \"root\";\n"
		    "  soft = \"0.001%\"; floor = \"1 MiB\"; } );\n", 1,
		    "t.conf:3: host warning: soft \"0.001%\" comes to 164 KiB on this machine, below the floor (1 MiB): the floor decides, not the share\n");
}
END_TEST

START_TEST(share_clamp_is_reported_where_it_is_written)
{
	/* The top level's share and ceiling: once, at the top.  A rule that
	 * only sets the mode inherits it silently; a rule whose own ceiling
	 * beats the share is told, at its ceiling. */
	assert_lint("limit = \"50%\";\nceiling = \"4 GiB\";\n"
		    "rules = (\n"
		    "  { user = \"root\"; mode = \"set\"; },\n"
		    "  { user = \"daemon\";\n"
		    "    ceiling = \"1 GiB\"; },\n"
		    "  { user = \"bin\"; ceiling = \"1 TiB\"; }\n"
		    ");\n", 2,
		    "t.conf:1: host warning: limit \"50%\" comes to 8 GiB on this machine, above the ceiling (4 GiB): the ceiling decides, not the share\n"
		    "t.conf:6: host warning: limit \"50%\" comes to 8 GiB on this machine, above the ceiling (1 GiB): the ceiling decides, not the share\n");
}
END_TEST

START_TEST(unclamped_share_has_no_warning)
{
	assert_lint("limit = \"1%\";\nfloor = \"1 MiB\";\nceiling = \"1 GiB\";\n", 0, "");
}
END_TEST

START_TEST(unknown_user_and_group_are_named_once)
{
	assert_lint("rules = (\n"
		    "  { user = [\"root\", \"pml-no-such-user\", \"pml-no-such-user\"];\n"
		    "    group = [\"pml-no-such-group\", \"root\"]; limit = \"1 MiB\"; },\n"
		    "  { user = \"pml-no-such\\x1b[1m\"; limit = \"1 MiB\"; },\n"
		    "  { user = \"pml-nss-down\"; group = \"pml-nss-down\"; limit = \"1 MiB\"; }\n"
		    ");\n", 3,
		    "t.conf:2: host warning: user \"pml-no-such-user\" does not exist on this machine\n"
		    "t.conf:2: host warning: group \"pml-no-such-group\" does not exist on this machine\n"
		    "t.conf:4: host warning: user \"pml-no-such\\x1b[1m\" does not exist on this machine\n");
}
END_TEST

/* Lints TEXT for a kernel whose 4096-entry ring costs RING bytes. */
static void assert_lint_ring(const char *text, uint64_t ring, unsigned count,
			     const char *lines)
{
	struct pml_policy policy;
	struct pml_lint_count got;

	load(text, &policy);
	got = pml_lint_ring(&policy, &machine, ring, 4096, "6.18.1", &log_to_buffer);
	ck_assert_uint_eq(got.policy, 0);
	pml_policy_free(&policy);
	assert_logged(got.host, count, lines);
}

#define RING_404K (404u * 1024)
#define RING_WARNING(line, soft) \
	"t.conf:" line ": host warning: a soft limit of " soft " cannot hold one io_uring ring of 4096 entries on Linux 6.18.1, which needs 404 KiB (memlockctl measure): io_uring_queue_init fails with ENOMEM\n"

START_TEST(limit_below_one_ring_is_named_where_it_is_written)
{
	/* The top level's once, not again in the rule that inherits it; a
	 * rule's own soft; a share of 16 GiB that comes to 164 KiB, paged. */
	assert_lint_ring("limit = \"256 KiB\";\n"
			 "rules = (\n"
			 "  { user = \"a\"; mode = \"set\"; },\n"
			 "  { user = \"b\"; soft = \"100 KiB\"; hard = \"1 MiB\"; },\n"
			 "  { user = \"c\"; limit = \"0.001%\"; }\n"
			 ");\n",
			 RING_404K, 3,
			 RING_WARNING("1", "256 KiB") RING_WARNING("4", "100 KiB")
				 RING_WARNING("5", "164 KiB"));
}
END_TEST

START_TEST(limit_that_holds_a_ring_is_quiet)
{
	/* Exactly one ring, unlimited, the built-in 8 MiB; and any limit on
	 * a kernel that charges rings to none (a ring of 0 bytes). */
	assert_lint_ring("limit = \"404 KiB\";\n"
			 "rules = ( { user = \"a\"; limit = \"unlimited\"; } );\n",
			 RING_404K, 0, "");
	assert_lint_ring("rules = ( { user = \"a\"; mode = \"set\"; } );\n", RING_404K, 0, "");
	assert_lint_ring("limit = \"64 KiB\";\n", 0, 0, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lint");
	TCase *tc = tcase_create("lint");

	tcase_add_test(tc, clean_policy_has_no_warning);
	tcase_add_test(tc, clean_rules_have_no_warning);
	tcase_add_test(tc, rule_without_match_keys_hides_every_earlier_rule);
	tcase_add_test(tc, rule_in_a_later_file_hides_an_earlier_one);
	tcase_add_test(tc, broader_later_rule_is_named);
	tcase_add_test(tc, users_outside_the_uid_range_are_quiet);
	tcase_add_test(tc, broader_rule_with_the_same_limits_here_only_is_named);
	tcase_add_test(tc, later_group_rule_that_gives_less_is_named);
	tcase_add_test(tc, group_rules_in_a_good_order_are_quiet);
	tcase_add_test(tc, exceptions_after_general_rules_are_quiet);
	tcase_add_test(tc, zero_limit_is_named);
	tcase_add_test(tc, small_limit_is_named_with_the_unit);
	tcase_add_test(tc, bounds_on_fixed_sizes_do_nothing);
	tcase_add_test(tc, unknown_service_is_named);
	tcase_add_test(tc, subset_of_names_is_hidden);
	tcase_add_test(tc, names_not_all_covered_are_not_hidden);
	tcase_add_test(tc, uid_ranges_covered_together_are_hidden);
	tcase_add_test(tc, uid_range_with_a_gap_is_not_hidden);
	tcase_add_test(tc, covers_is_conservative);
	tcase_add_test(tc, soft_above_hard_at_the_top_level);
	tcase_add_test(tc, soft_above_hard_in_a_rule);
	tcase_add_test(tc, soft_share_above_hard_on_this_machine);
	tcase_add_test(tc, share_held_at_the_ceiling_once);
	tcase_add_test(tc, share_raised_to_the_floor);
	tcase_add_test(tc, share_clamp_is_reported_where_it_is_written);
	tcase_add_test(tc, unclamped_share_has_no_warning);
	tcase_add_test(tc, unknown_user_and_group_are_named_once);
	tcase_add_test(tc, limit_below_one_ring_is_named_where_it_is_written);
	tcase_add_test(tc, limit_that_holds_a_ring_is_quiet);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
