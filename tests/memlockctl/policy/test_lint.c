/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "likely wrong" warnings of `memlockctl check` (pam_memlock/memlockctl/policy/lint.c)
 * about values and names: limits of zero or below the kernel's old
 * default, bounds that do nothing, soft above hard, shares held at a bound,
 * names this host does not know, limits that cannot hold an io_uring ring.
 * The made-up machine and NSS are tests/memlockctl/policy/lint_env.c; the order of rules is
 * tests/memlockctl/policy/test_lint_order.c.  No files: runs unprivileged.
 */
#include <stdint.h>

#include "harness.h"
#include "lint_env.h"

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
		    "  { group = \"root\"; uid = \"0-10\"; soft = \"1 MiB\"; mode = \"set\"; },\n"
		    "  { user = [\"root\", \"daemon\"]; limit = \"4 MiB\"; },\n"
		    "  { user = \"root\"; service = \"sshd\"; limit = \"2 MiB\"; }\n"
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
	struct lint_count got;

	load(text, &policy);
	got = lint_ring(&policy, &machine, ring, 4096, "6.18.1", &log_to_buffer);
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
	const TTest *const cases[] = {
		clean_policy_has_no_warning,
		clean_rules_have_no_warning,
		zero_limit_is_named,
		small_limit_is_named_with_the_unit,
		bounds_on_fixed_sizes_do_nothing,
		unknown_service_is_named,
		soft_above_hard_at_the_top_level,
		soft_above_hard_in_a_rule,
		soft_share_above_hard_on_this_machine,
		share_held_at_the_ceiling_once,
		share_raised_to_the_floor,
		share_clamp_is_reported_where_it_is_written,
		unclamped_share_has_no_warning,
		unknown_user_and_group_are_named_once,
		limit_below_one_ring_is_named_where_it_is_written,
		limit_that_holds_a_ring_is_quiet,
	};

	return run_lint_cases("lint", cases, sizeof(cases) / sizeof(cases[0]));
}
