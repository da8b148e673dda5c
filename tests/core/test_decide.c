/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The pure decision: policy text + identity + injected RAM and page size
 * -> soft, hard, mode, deciding rule.  No files, no syscalls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apply.h"
#include "decide.h"
#include "harness.h"
#include "log_buffer.h"
#include "policy.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)

static struct pml_log_buffer logged;
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_DEBUG };

static struct pml_policy policy;
static struct pml_decision d;

static void teardown(void)
{
	pml_policy_free(&policy);
}

/* Decides for USER/SERVICE (uid 1000, groups "users" and "audio"). */
static void decide_on(const char *text, uint64_t ram, uint64_t page,
		      const char *user, const char *service)
{
	char *groups[] = { "users", "audio" };
	struct pml_identity id = {
		.user = user, .service = service, .looked_up = true, .uid_known = true,
		.uid = 1000, .groups = groups, .n_groups = 2,
	};
	struct pml_machine machine = {
		.ram = ram, .page_size = page, .available = { .bytes = ram },
	};

	logged.text[0] = '\0';
	pml_policy_free(&policy);	/* the previous call's, if any */
	ck_assert_msg(pml_policy_add_text(&policy, "t.conf", text, strlen(text),
					  &log_to_buffer) == 0, "%s", logged.text);
	ck_assert_msg(pml_policy_validate(&policy, page, &log_to_buffer) == 0, "%s", logged.text);
	pml_decide(&policy, &id, &machine, &d);
}

static void decide(const char *text, uint64_t ram, uint64_t page)
{
	decide_on(text, ram, page, "alice", "sshd");
}

START_TEST(empty_policy_is_8mib_raise)
{
	decide("", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 8 * MiB);
	ck_assert_uint_eq(d.hard.bytes, 8 * MiB);
	ck_assert_int_eq(d.mode->mode, PML_MODE_RAISE);
	ck_assert_int_eq(d.mode->level, PML_LEVEL_BUILTIN);
	ck_assert_ptr_eq(d.soft.from, pml_builtin(PML_KEY_LIMIT));
	ck_assert_ptr_null(d.rule);
}
END_TEST

START_TEST(fixed_size)
{
	decide("limit = \"64 KiB\";", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 64 * KiB);
	ck_assert_uint_eq(d.hard.bytes, 64 * KiB);
	ck_assert_uint_eq(d.soft.from->at.line, 1);
}
END_TEST

START_TEST(share_rounds_down_to_a_page)
{
	/* 1% of 1000000 pages of 4 KiB = 40960000 bytes, exactly 10000 pages. */
	decide("limit = \"1%\";", 1000000 * 4096ULL, 4096);
	ck_assert_uint_eq(d.soft.bytes, 40960000);
	/* 0.001% of 10 GiB = 107374.1824 -> 107374 -> 26 pages = 106496 */
	decide("limit = \"0.001%\";", 10 * GiB, 4096);
	ck_assert_uint_eq(d.soft.share_exact, 107374);
	ck_assert_uint_eq(d.soft.share_paged, 106496);
	ck_assert_uint_eq(d.hard.bytes, 106496);
	ck_assert_int_eq(d.hard.clamp, PML_CLAMP_NONE);
}
END_TEST

/* A share of "available" (the default) takes the cgroups' limit as its
 * base; share_of = "ram" takes MemTotal; a rule may choose for itself. */
START_TEST(share_of_available_and_ram)
{
	static const char text[] =
		"limit = \"50%\"; mode = \"set\";\n"
		"rules = ( { user = \"ram\"; share_of = \"ram\"; } );\n";
	char *groups[] = { "users" };
	struct pml_identity alice = {
		.user = "alice", .looked_up = true, .uid_known = true, .uid = 1000,
		.groups = groups, .n_groups = 1,
	};
	struct pml_identity ram = {
		.user = "ram", .looked_up = true, .uid_known = true, .uid = 1001,
		.groups = groups, .n_groups = 1,
	};
	struct pml_machine machine = {
		.ram = 16 * GiB, .page_size = 4096,
		.available = { .bytes = 256 * MiB, .from = "/sys/fs/cgroup/x/memory.max" },
	};

	pml_policy_free(&policy);
	ck_assert_int_eq(pml_policy_add_text(&policy, "t.conf", text, strlen(text),
					     &log_to_buffer), 0);
	pml_decide(&policy, &alice, &machine, &d);
	ck_assert_uint_eq(d.soft.bytes, 128 * MiB);
	ck_assert_uint_eq(d.hard.base, 256 * MiB);
	ck_assert_int_eq(d.hard.share_of->base, PML_BASE_AVAILABLE);
	ck_assert_int_eq(d.hard.share_of->level, PML_LEVEL_BUILTIN);
	ck_assert(pml_needs_available(&policy, d.rule));
	pml_decide(&policy, &ram, &machine, &d);
	ck_assert_uint_eq(d.soft.bytes, 8 * GiB);
	ck_assert_int_eq(d.hard.share_of->level, PML_LEVEL_RULE);
	ck_assert(!pml_needs_available(&policy, d.rule));
}
END_TEST

START_TEST(fixed_size_needs_no_base)
{
	decide("limit = \"8 MiB\";", 16 * GiB, 4096);
	ck_assert(!pml_needs_available(&policy, d.rule));
	decide("limit = \"8 MiB\"; soft = \"1%\";", 16 * GiB, 4096);
	ck_assert(pml_needs_available(&policy, d.rule));
}
END_TEST

START_TEST(share_with_large_pages)
{
	/* 64 KiB pages (arm64, ppc64): 0.01% of 1 GiB = 107374 -> 65536 */
	decide("limit = \"0.01%\";", GiB, 65536);
	ck_assert_uint_eq(d.soft.bytes, 65536);
}
END_TEST

START_TEST(floor_page_holds_a_tiny_share_up)
{
	/* 0.001% of 64 MiB = 671 bytes: less than a page. */
	decide("limit = \"0.001%\";", 64 * MiB, 4096);
	ck_assert_uint_eq(d.soft.share_paged, 0);
	ck_assert_uint_eq(d.soft.bytes, 4096);
	ck_assert_int_eq(d.soft.clamp, PML_CLAMP_FLOOR);
}
END_TEST

START_TEST(floor_size)
{
	decide("limit = \"1%\"; floor = \"8 MiB\";", 100 * MiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 8 * MiB);
	ck_assert_int_eq(d.soft.clamp, PML_CLAMP_FLOOR);
	decide("limit = \"10%\"; floor = \"8 MiB\";", 1 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 107372544);	/* 26214 pages */
	ck_assert_int_eq(d.soft.clamp, PML_CLAMP_NONE);
}
END_TEST

START_TEST(ceiling_holds_a_share_down)
{
	decide("limit = \"50%\"; ceiling = \"4 GiB\";", 64 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 4 * GiB);
	ck_assert_int_eq(d.soft.clamp, PML_CLAMP_CEILING);
	ck_assert_uint_eq(d.soft.share_paged, 32 * GiB);
}
END_TEST

START_TEST(fixed_size_ignores_floor_and_ceiling)
{
	decide("limit = \"16 MiB\"; floor = \"1 MiB\"; ceiling = \"2 MiB\";", GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 16 * MiB);
	ck_assert_int_eq(d.soft.clamp, PML_CLAMP_NONE);
}
END_TEST

START_TEST(hundred_percent_of_huge_ram)
{
	/* 2^63 bytes of RAM must not overflow the arithmetic. */
	decide("limit = \"100%\";", (uint64_t)1 << 63, 4096);
	ck_assert_uint_eq(d.soft.bytes, (uint64_t)1 << 63);
}
END_TEST

/* Shares of the largest base: exact to the byte, without 128-bit math. */
START_TEST(shares_of_uint64_max_ram)
{
	decide("limit = \"100%\";", UINT64_MAX, 4096);
	ck_assert_uint_eq(d.soft.share_exact, UINT64_MAX);
	ck_assert_uint_eq(d.soft.bytes, UINT64_MAX - 4095);
	decide("limit = \"100%\";", UINT64_MAX - 1, 4096);
	ck_assert_uint_eq(d.soft.share_exact, UINT64_MAX - 1);
	decide("limit = \"99.999%\";", UINT64_MAX, 4096);
	ck_assert_uint_eq(d.soft.share_exact, 18446559606268814519u);
	ck_assert_uint_eq(d.soft.bytes, 18446559606268813312u);
	decide("limit = \"50%\";", UINT64_MAX, 4096);
	ck_assert_uint_eq(d.soft.share_exact, 9223372036854775807u);
	decide("limit = \"33.333%\";", UINT64_MAX, 4096);
	ck_assert_uint_eq(d.soft.share_exact, 6148853202089604839u);
	decide("limit = \"0.001%\";", UINT64_MAX, 4096);
	ck_assert_uint_eq(d.soft.share_exact, 184467440737095u);
}
END_TEST

START_TEST(soft_and_hard_split)
{
	decide("limit = \"1 GiB\"; soft = \"64 MiB\";", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 64 * MiB);
	ck_assert_uint_eq(d.hard.bytes, GiB);
	decide("hard = \"unlimited\";", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 8 * MiB);
	ck_assert_uint_eq(d.hard.bytes, PML_UNLIMITED);
}
END_TEST

START_TEST(soft_above_hard_comes_down)
{
	decide("soft = \"1%\"; hard = \"1 MiB\";", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, MiB);
	ck_assert_uint_eq(d.hard.bytes, MiB);
	ck_assert(d.soft_lowered_to_hard);
	decide("soft = \"1 MiB\"; hard = \"2 MiB\";", 16 * GiB, 4096);
	ck_assert(!d.soft_lowered_to_hard);
}
END_TEST

START_TEST(mode_set)
{
	decide("mode = \"set\";", 16 * GiB, 4096);
	ck_assert_int_eq(d.mode->mode, PML_MODE_SET);
	ck_assert_int_eq(d.mode->level, PML_LEVEL_TOP);
	ck_assert_int_eq(d.mode->key, PML_KEY_MODE);
}
END_TEST

START_TEST(rule_overrides_and_inherits)
{
	decide("limit = \"1%\"; ceiling = \"64 MiB\"; mode = \"set\";\n"
	       "rules = ( { user = \"alice\"; soft = \"5%\"; } );", 16 * GiB, 4096);
	ck_assert_ptr_nonnull(d.rule);
	ck_assert_uint_eq(d.rule->at.line, 2);
	ck_assert_uint_eq(d.soft.bytes, 64 * MiB);	/* 5% held at the top ceiling */
	ck_assert_uint_eq(d.hard.bytes, 64 * MiB);	/* 1% = 163 MiB, same ceiling */
	ck_assert_int_eq(d.mode->mode, PML_MODE_SET);		/* from the top level */
}
END_TEST

START_TEST(rule_limit_beats_top_side)
{
	decide("soft = \"1 MiB\";\nrules = ( { user = \"alice\"; limit = \"4 MiB\"; } );",
	       16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 4 * MiB);
	ck_assert_uint_eq(d.hard.bytes, 4 * MiB);
}
END_TEST

START_TEST(last_matching_rule_wins)
{
	decide("rules = (\n"
	       " { group = \"audio\"; limit = \"1 MiB\"; },\n"
	       " { user = \"alice\"; limit = \"2 MiB\"; },\n"
	       " { user = \"bob\"; limit = \"3 MiB\"; }\n"
	       ");", 16 * GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 2 * MiB);
	ck_assert_uint_eq(d.rule->at.line, 3);
}
END_TEST

START_TEST(match_keys_all_must_match)
{
	const char *text = "rules = ( { user = \"alice\"; service = [\"login\", \"su\"]; limit = \"1 MiB\"; } );";

	decide_on(text, 16 * GiB, 4096, "alice", "sshd");
	ck_assert_ptr_null(d.rule);
	pml_policy_free(&policy);
	decide_on(text, 16 * GiB, 4096, "alice", "su");
	ck_assert_ptr_nonnull(d.rule);
}
END_TEST

START_TEST(uid_ranges_are_inclusive)
{
	const char *ranges[] = { "1000", "1000-1000", "999-1000", "1000-", "-1000", "0-" };
	const char *misses[] = { "1001", "0-999", "1001-", "-999" };
	char text[128];
	size_t i;

	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		snprintf(text, sizeof(text), "rules = ( { uid = \"%s\"; limit = \"1 MiB\"; } );", ranges[i]);
		decide(text, GiB, 4096);
		ck_assert_msg(d.rule != NULL, "uid 1000 not in \"%s\"", ranges[i]);
		pml_policy_free(&policy);
	}
	for (i = 0; i < sizeof(misses) / sizeof(misses[0]); i++) {
		snprintf(text, sizeof(text), "rules = ( { uid = \"%s\"; limit = \"1 MiB\"; } );", misses[i]);
		decide(text, GiB, 4096);
		ck_assert_msg(d.rule == NULL, "uid 1000 in \"%s\"", misses[i]);
		pml_policy_free(&policy);
	}
}
END_TEST

START_TEST(user_named_like_a_number_is_a_name)
{
	decide_on("rules = ( { user = \"1000\"; limit = \"1 MiB\"; } );", GiB, 4096,
		  "alice", "sshd");
	ck_assert_ptr_null(d.rule);	/* alice has uid 1000, but is not "1000" */
}
END_TEST

START_TEST(group_matches_any_of_the_users_groups)
{
	decide("rules = ( { group = [\"wheel\", \"audio\"]; limit = \"unlimited\"; } );", GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, PML_UNLIMITED);
	pml_policy_free(&policy);
	decide("rules = ( { group = \"wheel\"; limit = \"unlimited\"; } );", GiB, 4096);
	ck_assert_ptr_null(d.rule);
}
END_TEST

START_TEST(rule_without_match_keys_matches_everyone)
{
	decide("rules = ( { limit = \"3 MiB\"; } );", GiB, 4096);
	ck_assert_uint_eq(d.soft.bytes, 3 * MiB);
}
END_TEST

START_TEST(needs_nss_only_for_uid_and_group)
{
	decide("rules = ( { user = \"a\"; service = \"b\"; limit = \"1 MiB\"; } );", GiB, 4096);
	ck_assert(!policy.needs_nss);
	pml_policy_free(&policy);
	decide("rules = ( { uid = \"5\"; limit = \"1 MiB\"; } );", GiB, 4096);
	ck_assert(policy.needs_nss);
	pml_policy_free(&policy);
	decide("rules = ( { group = \"g\"; limit = \"1 MiB\"; } );", GiB, 4096);
	ck_assert(policy.needs_nss);
}
END_TEST

START_TEST(later_text_replaces_top_keys_one_by_one)
{
	static const char first[] = "limit = \"1 MiB\"; soft = \"512 KiB\";";
	static const char second[] = "limit = \"2 MiB\";";
	struct pml_identity id = { .user = "alice", .service = "sshd" };
	struct pml_machine machine = {
		.ram = GiB, .page_size = 4096, .available = { .bytes = GiB },
	};

	pml_policy_init(&policy);
	ck_assert_int_eq(pml_policy_add_text(&policy, "a.conf", first, sizeof(first) - 1, &log_to_buffer), 0);
	ck_assert_int_eq(pml_policy_add_text(&policy, "b.conf", second, sizeof(second) - 1, &log_to_buffer), 0);
	pml_decide(&policy, &id, &machine, &d);
	ck_assert_uint_eq(d.soft.bytes, 512 * KiB);	/* the later limit keeps soft */
	ck_assert_uint_eq(d.hard.bytes, 2 * MiB);
	ck_assert_str_eq(pml_policy_file_name(&policy, d.hard.from->at), "b.conf");
}
END_TEST

/*
 * Many rules over two texts: each keeps its own names and uid ranges,
 * which live in blocks of memory that the policy shares out and frees.
 */
START_TEST(every_rule_keeps_its_names_and_uids)
{
	enum { PER_TEXT = 600, RULE_MAX = 128 };
	char *text = malloc(PER_TEXT * RULE_MAX + 16), want[32];
	size_t file, i, used;

	ck_assert_ptr_nonnull(text);
	pml_policy_init(&policy);
	for (file = 0; file < 2; file++) {
		used = (size_t)snprintf(text, 16, "rules = (\n");
		for (i = file * PER_TEXT; i < (file + 1) * PER_TEXT; i++)
			used += (size_t)snprintf(text + used, RULE_MAX,
						 "{ user = [\"u%zu\", \"v%zu\"]; uid = [\"%zu\", \"%zu-%zu\"]; limit = \"1 MiB\"; }%s\n",
						 i, i, i, 10000 + i, 20000 + i,
						 i + 1 < (file + 1) * PER_TEXT ? "," : ");");
		ck_assert_msg(pml_policy_add_text(&policy, file ? "b.conf" : "a.conf", text, used,
						  &log_to_buffer) == 0,
			      "%s", logged.text);
	}
	free(text);
	ck_assert_uint_eq(policy.n_rules, 2 * PER_TEXT);
	for (i = 0; i < policy.n_rules; i++) {
		const struct pml_rule *rule = &policy.rules[i];

		ck_assert_uint_eq(rule->users.n, 2);
		snprintf(want, sizeof(want), "u%zu", i);
		ck_assert_str_eq(rule->users.v[0], want);
		snprintf(want, sizeof(want), "v%zu", i);
		ck_assert_str_eq(rule->users.v[1], want);
		ck_assert_uint_eq(rule->n_uids, 2);
		ck_assert_uint_eq(rule->uids[0].first, i);
		ck_assert_uint_eq(rule->uids[0].last, i);
		ck_assert_uint_eq(rule->uids[1].first, 10000 + i);
		ck_assert_uint_eq(rule->uids[1].last, 20000 + i);
	}
}
END_TEST

/* The apply plan: pure arithmetic on (current, target). */
START_TEST(plan_raise_keeps_the_higher)
{
	struct pml_limits cur = { 4 * MiB, 16 * MiB }, target = { 8 * MiB, 8 * MiB };
	struct pml_limits got = pml_plan(PML_MODE_RAISE, cur, target);

	ck_assert_uint_eq(got.soft, 8 * MiB);
	ck_assert_uint_eq(got.hard, 16 * MiB);
	got = pml_plan(PML_MODE_SET, cur, target);
	ck_assert_uint_eq(got.soft, 8 * MiB);
	ck_assert_uint_eq(got.hard, 8 * MiB);
	cur.hard = PML_UNLIMITED;
	got = pml_plan(PML_MODE_RAISE, cur, target);
	ck_assert_uint_eq(got.hard, PML_UNLIMITED);
}
END_TEST

START_TEST(plan_within_hard)
{
	struct pml_limits cur = { 64 * KiB, 8 * MiB }, wanted = { 16 * MiB, 16 * MiB };
	struct pml_limits got = pml_plan_within_hard(cur, wanted);

	ck_assert_uint_eq(got.soft, 8 * MiB);
	ck_assert_uint_eq(got.hard, 8 * MiB);
	wanted.soft = 2 * MiB;
	got = pml_plan_within_hard(cur, wanted);
	ck_assert_uint_eq(got.soft, 2 * MiB);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("decide");
	TCase *tc = tcase_create("decide");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, empty_policy_is_8mib_raise);
	tcase_add_test(tc, fixed_size);
	tcase_add_test(tc, share_rounds_down_to_a_page);
	tcase_add_test(tc, share_of_available_and_ram);
	tcase_add_test(tc, fixed_size_needs_no_base);
	tcase_add_test(tc, share_with_large_pages);
	tcase_add_test(tc, floor_page_holds_a_tiny_share_up);
	tcase_add_test(tc, floor_size);
	tcase_add_test(tc, ceiling_holds_a_share_down);
	tcase_add_test(tc, fixed_size_ignores_floor_and_ceiling);
	tcase_add_test(tc, hundred_percent_of_huge_ram);
	tcase_add_test(tc, shares_of_uint64_max_ram);
	tcase_add_test(tc, soft_and_hard_split);
	tcase_add_test(tc, soft_above_hard_comes_down);
	tcase_add_test(tc, mode_set);
	tcase_add_test(tc, rule_overrides_and_inherits);
	tcase_add_test(tc, rule_limit_beats_top_side);
	tcase_add_test(tc, last_matching_rule_wins);
	tcase_add_test(tc, match_keys_all_must_match);
	tcase_add_test(tc, uid_ranges_are_inclusive);
	tcase_add_test(tc, user_named_like_a_number_is_a_name);
	tcase_add_test(tc, group_matches_any_of_the_users_groups);
	tcase_add_test(tc, rule_without_match_keys_matches_everyone);
	tcase_add_test(tc, needs_nss_only_for_uid_and_group);
	tcase_add_test(tc, later_text_replaces_top_keys_one_by_one);
	tcase_add_test(tc, every_rule_keeps_its_names_and_uids);
	tcase_add_test(tc, plan_raise_keeps_the_higher);
	tcase_add_test(tc, plan_within_hard);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
