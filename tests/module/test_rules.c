/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Rules (user, group, uid, service) through the real module and libpam,
 * with fake users and groups under nss_wrapper (tests/module/rules_env.c): which
 * rule matches whom and decides, each session in its own forked process;
 * what the rules ask of NSS is this program's other file,
 * tests/module/test_rules_nss.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "decide.h"
#include "evaluate.h"
#include "harness.h"
#include "log_buffer.h"
#include "pam_session.h"
#include "policy.h"
#include "rules_env.h"
#include "rules_nss.h"
#include "safe_read.h"
#include "syslog_capture.h"

START_TEST(user_rule_matches_that_user_only)
{
	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
	expect(SVC, "root", TOP_LIMIT);
}
END_TEST

START_TEST(user_list_matches_any_element)
{
	use_policy(TOP "rules = ( { user = [\"bob\", \"alice\"]; limit = \"1 MiB\"; },\n"
		   "          { user = (\"u999\"); limit = \"2 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", 1 * MiB);
	expect(SVC, "u999", 2 * MiB);
	expect(SVC, "u1999", TOP_LIMIT);
}
END_TEST

/* bob's primary group is "users"; the group file lists no members for it. */
START_TEST(group_matches_the_primary_group)
{
	use_policy(TOP "rules = ( { group = \"users\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "bob", 1 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

/* alice is in video only through the group file's member list. */
START_TEST(group_matches_a_supplementary_group)
{
	use_policy(TOP "rules = ( { group = \"video\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

START_TEST(group_list_matches_any_element)
{
	use_policy(TOP "rules = ( { group = [\"nosuchgroup\", \"audio\"]; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "orphan", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

/* joiner is in 41 groups, crowd in 1,101: more than the first
 * getgrouplist buffer holds (1,024). */
START_TEST(group_found_beyond_the_first_32)
{
	use_policy(TOP "rules = ( { group = \"joined40\"; limit = \"1 MiB\"; },\n"
		       "          { group = \"crowd1100\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "joiner", 1 * MiB);
	expect(SVC, "crowd", 2 * MiB);
}
END_TEST

/* orphan's primary gid 4242 has no group entry: it matches no name, not
 * even "4242" (group names are names), and the other groups still count. */
START_TEST(group_names_are_never_gids)
{
	use_policy(TOP "rules = ( { group = \"4242\"; limit = \"1 MiB\"; },\n"
		   "          { group = \"29\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "orphan", TOP_LIMIT);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(uid_range_edges)
{
	use_policy(TOP "rules = ( { uid = \"1000-1999\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "u999", TOP_LIMIT);		/* first - 1 */
	expect(SVC, "alice", 1 * MiB);		/* first */
	expect(SVC, "u1999", 1 * MiB);		/* last */
	expect(SVC, "u2000", TOP_LIMIT);	/* last + 1 */
}
END_TEST

START_TEST(uid_open_ranges_and_single_uids)
{
	use_policy(TOP "rules = (\n"
		   "  { uid = \"-999\"; limit = \"1 MiB\"; },\n"
		   "  { uid = \"1000\"; limit = \"2 MiB\"; },\n"
		   "  { uid = \"2000-\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	expect(SVC, "root", 1 * MiB);		/* uid 0 */
	expect(SVC, "u999", 1 * MiB);
	expect(SVC, "alice", 2 * MiB);		/* 1000 */
	expect(SVC, "bob", TOP_LIMIT);		/* 1001 */
	expect(SVC, "u1999", TOP_LIMIT);
	expect(SVC, "u2000", 3 * MiB);
	expect(SVC, "joiner", 3 * MiB);		/* 3000 */
}
END_TEST

START_TEST(uid_list_matches_any_range)
{
	use_policy(TOP "rules = ( { uid = [\"0\", \"1999-2000\"]; limit = \"1 MiB\"; } );\n");
	expect(SVC, "root", 1 * MiB);
	expect(SVC, "u1999", 1 * MiB);
	expect(SVC, "u2000", 1 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(service_rules_match_the_pam_service)
{
	use_policy(TOP "rules = ( { service = \"sshd\"; limit = \"1 MiB\"; },\n"
		   "          { service = [\"login\", \"nosuchservice\"]; limit = \"2 MiB\"; } );\n");
	expect("sshd", "alice", 1 * MiB);
	expect("login", "alice", 2 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(every_key_of_a_rule_must_match)
{
	use_policy(TOP "rules = ( { user = \"alice\"; service = \"sshd\"; group = \"audio\";\n"
		   "            uid = \"1000\"; limit = \"1 MiB\"; } );\n");
	expect("sshd", "alice", 1 * MiB);
	expect("login", "alice", TOP_LIMIT);
	expect("sshd", "bob", TOP_LIMIT);
	expect("sshd", "orphan", TOP_LIMIT);	/* in audio, but not alice */
}
END_TEST

START_TEST(last_matching_rule_wins)
{
	use_policy(TOP "rules = (\n"
		   "  { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "  { group = \"audio\"; limit = \"2 MiB\"; },\n"
		   "  { user = \"bob\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	expect(SVC, "alice", 2 * MiB);
	expect(SVC, "orphan", 2 * MiB);
	expect(SVC, "bob", 3 * MiB);
}
END_TEST

/* A rule without match keys matches everyone, and needs no NSS. */
START_TEST(rule_without_match_keys_matches_everyone)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "          { limit = \"2 MiB\"; } );\n");
	expect(SVC, "alice", 2 * MiB);
	expect("sshd", "bob", 2 * MiB);
	s = open_as(SVC, "ghost");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(nss_total(&s->calls), 0);
}
END_TEST

START_TEST(rule_takes_missing_settings_from_the_top_level)
{
	const struct session *s;

	use_policy("limit = \"3 MiB\";\nmode = \"set\";\n"
		   "rules = ( { user = \"alice\"; soft = \"1 MiB\"; },\n"
		   "          { user = \"bob\"; mode = \"raise\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->hard, 3 * MiB);
	/* raise: the hard limit the session already had is kept. */
	s = open_as(SVC, "bob");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 3 * MiB);
	ck_assert_uint_eq(s->hard, start_hard);
}
END_TEST

/* The user named "1000" has uid 5001, the one named "0" uid 5000.  Two
 * policies, so that the last match cannot hide a wrong one; the first has
 * a uid rule matching nobody, so that the uids are known to the module. */
START_TEST(user_named_like_a_number_is_not_that_uid)
{
	use_policy(TOP "rules = (\n"
		   "  { uid = \"99999\"; limit = \"3 MiB\"; },\n"
		   "  { user = \"1000\"; limit = \"1 MiB\"; },\n"
		   "  { user = \"0\"; limit = \"2 MiB\"; }\n"
		   ");\n");
	expect(SVC, "1000", 1 * MiB);
	expect(SVC, "0", 2 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
	expect(SVC, "root", TOP_LIMIT);
	pml_pam_env_remove(&env);

	use_policy(TOP "rules = (\n"
		   "  { uid = \"1000\"; limit = \"3 MiB\"; },\n"
		   "  { uid = \"0\"; limit = \"4 MiB\"; }\n"
		   ");\n");
	expect(SVC, "1000", TOP_LIMIT);
	expect(SVC, "0", TOP_LIMIT);
	expect(SVC, "alice", 3 * MiB);
	expect(SVC, "root", 4 * MiB);
}
END_TEST

START_TEST(debug_names_the_deciding_rule_as_file_and_line)
{
	const struct session *s;
	char line[1024];

	use_policy("# line 1\n" TOP "\n"
		   "rules = (\n"			/* line 5 */
		   "  { user = \"bob\"; limit = \"3 MiB\"; },\n"
		   "  {\n"				/* line 7 */
		   "    group = \"audio\";\n"
		   "    soft = \"256 KiB\";\n"	/* line 9 */
		   "  }\n"
		   ");\n");
	s = open_as("sshd", "alice");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "user \"alice\" service \"sshd\": rule %s:7 decides, mode set\n",
		 env.policy);
	assert_logged(s, line);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "soft 256 KiB (%s:9)\n", env.policy);
	assert_logged(s, line);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "hard 512 KiB (%s:2)\n", env.policy);
	assert_logged(s, line);

	s = open_as(SVC, "u999");
	snprintf(line, sizeof(line), "<7> " PREFIX(SVC) "user \"u999\" service \"" SVC "\": no rule matched, top level decides, mode set\n");
	assert_logged(s, line);
}
END_TEST

/* conf= reads its file alone, even with a memlock.d/ beside it. */
START_TEST(conf_argument_reads_no_dropins)
{
	char dir[128];

	use_policy(TOP);
	snprintf(dir, sizeof(dir), "%s/memlock.d", env.dir);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "memlock.d/50-alice.conf",
					   "rules = ( { user = \"alice\"; limit = \"1 MiB\"; } );\n"), 0);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("rules");
	struct cases module = { .tc = tcase_create("module") };
	bool nss, pam;

	(void)argc;
	pam = rules_env_start(argv, &nss);
	tcase_add_checked_fixture(module.tc, session_setup, session_teardown);
	CASE(module, user_rule_matches_that_user_only, pam, NEED_ROOT);
	CASE(module, user_list_matches_any_element, pam, NEED_ROOT);
	CASE(module, group_matches_the_primary_group, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_matches_a_supplementary_group, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_list_matches_any_element, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_found_beyond_the_first_32, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_names_are_never_gids, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_range_edges, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_open_ranges_and_single_uids, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_list_matches_any_range, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, service_rules_match_the_pam_service, pam, NEED_ROOT);
	CASE(module, every_key_of_a_rule_must_match, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, last_matching_rule_wins, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, rule_without_match_keys_matches_everyone, pam, NEED_ROOT);
	CASE(module, rule_takes_missing_settings_from_the_top_level, pam, NEED_ROOT);
	CASE(module, user_named_like_a_number_is_not_that_uid, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	add_nss_cases(&module, pam, nss);
	CASE(module, debug_names_the_deciding_rule_as_file_and_line, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, conf_argument_reads_no_dropins, pam, NEED_ROOT);

	suite_add_tcase(s, module.tc);
	return pml_run_tap(s, module.skips, module.n_skips);
}
