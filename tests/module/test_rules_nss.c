/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What rules ask of NSS, through the real module and libpam, with fake
 * users and groups under nss_wrapper (tests/module/rules_env.c): a user NSS does
 * not know, and how many lookups each kind of rule makes (counted), each
 * session in its own forked process.  Part of the program tests/module/test_rules,
 * whose main (tests/module/test_rules.c, with the cases of which rule matches
 * whom) adds these cases through rules_nss.h.
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

START_TEST(unknown_user_with_a_uid_rule_is_user_unknown)
{
	const struct session *s;

	use_policy(TOP "rules = ( { uid = \"1000-\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "ghost");
	ck_assert_int_eq(s->rc, PAM_USER_UNKNOWN);
	ck_assert_uint_eq(s->soft, START_SOFT);
	ck_assert_uint_eq(s->hard, start_hard);
	assert_logged(s, "<3> " PREFIX(SVC) "user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

/* Even when the group rule could never match: the policy needs the user. */
START_TEST(unknown_user_with_a_group_rule_is_user_unknown)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; group = \"audio\"; limit = \"1 MiB\"; } );\n");
	s = open_as("sshd", "ghost");
	ck_assert_int_eq(s->rc, PAM_USER_UNKNOWN);
	ck_assert_uint_eq(s->soft, START_SOFT);
	ck_assert_uint_eq(s->hard, start_hard);
	assert_logged(s, "<3> " PREFIX("sshd") "user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

START_TEST(unknown_user_needs_no_nss_without_uid_or_group_rules)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "          { service = \"sshd\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "ghost", TOP_LIMIT);
	expect("sshd", "ghost", 2 * MiB);
	s = open_as("sshd", "ghost");
	ck_assert_uint_eq(nss_total(&s->calls), 0);
}
END_TEST

START_TEST(user_and_service_rules_make_no_nss_call)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = [\"alice\", \"bob\"]; limit = \"1 MiB\"; },\n"
		   "          { service = \"sshd\"; user = \"alice\"; limit = \"2 MiB\"; } );\n");
	s = open_as("sshd", "alice");
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_msg(nss_total(&s->calls) == 0, "%u NSS calls", nss_total(&s->calls));
	s = open_as(SVC, "root");
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_msg(nss_total(&s->calls) == 0, "%u NSS calls", nss_total(&s->calls));
}
END_TEST

/* The counters see the module's calls: without this, zero proves nothing.
 * A group named in a rule is resolved to its gid, which is looked for among
 * the user's: no group's name is ever asked by gid. */
START_TEST(group_rule_asks_nss_once)
{
	const struct session *s;

	use_policy(TOP "rules = ( { group = \"audio\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getpwnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrgid_r, 0);
	ck_assert_uint_eq(nss_total(&s->calls), 3);
}
END_TEST

/* joiner is in 41 groups: one getgrnam_r for the one name, not 41 lookups. */
START_TEST(group_lookups_follow_the_names_not_the_memberships)
{
	const struct session *s;

	use_policy(TOP "rules = ( { group = \"joined40\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "joiner");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrgid_r, 0);
	/* getgrouplist once: its first buffer holds 1,024 gids.  Each call
	 * asks every source again (with nslcd, an LDAP search). */
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(nss_total(&s->calls), 3);
	/* crowd is in 1,101 groups: getgrouplist twice. */
	pml_pam_env_remove(&env);
	use_policy(TOP "rules = ( { group = \"crowd1100\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "crowd");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getgrouplist, 2);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
}
END_TEST

/* sound is a second name of audio's gid 29 (pam_limits matches it too). */
START_TEST(group_matches_every_name_of_a_gid)
{
	use_policy(TOP "rules = ( { group = \"sound\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "orphan", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

/* The last matching rule decides: names only earlier rules hold are not
 * asked once a later rule matches, nor those of a rule whose other keys
 * fail; the decision is the same as with every name resolved. */
START_TEST(group_lookups_stop_at_the_deciding_rule)
{
	const struct session *s;

	use_policy(TOP "rules = (\n"
		   "  { group = \"video\"; limit = \"1 MiB\"; },\n"
		   "  { group = [\"users\", \"audio\"]; limit = \"2 MiB\"; },\n"
		   "  { user = \"bob\"; group = \"joined01\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	s = open_as(SVC, "alice");		/* users? no; audio: yes */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 2);
	s = open_as(SVC, "bob");		/* joined01? no; users: yes */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 2);
	s = open_as(SVC, "u999");		/* in users (primary gid 100) */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	s = open_as(SVC, "orphan");		/* audio; never video */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	s = open_as(SVC, "joiner");		/* in none: every name asked once */
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_uint_eq(s->calls.getgrnam_r, 3);
}
END_TEST

/* The performance requirement's logic: each distinct name is resolved at
 * most once per session, whatever the number of rules that name it, and
 * not at all once a later rule has decided. */
START_TEST(thousand_group_rules_ask_nss_as_often_as_one)
{
	char *policy = malloc(PML_FILE_MAX);
	struct nss_calls one;
	const struct session *s;
	size_t used;
	int i;

	ck_assert_ptr_nonnull(policy);
	used = (size_t)snprintf(policy, PML_FILE_MAX, "%s", TOP "rules = (\n");
	for (i = 0; i < 999; i++)
		used += (size_t)snprintf(policy + used, PML_FILE_MAX - used,
					 "  { group = [\"team%03d\", \"video\"]; limit = \"1 MiB\"; },\n",
					 i);
	snprintf(policy + used, PML_FILE_MAX - used,
		 "  { group = \"video\"; limit = \"2 MiB\"; }\n);\n");
	ck_assert_uint_lt(strlen(policy), PML_FILE_MAX);

	use_policy(TOP "rules = ( { group = \"video\"; limit = \"2 MiB\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_uint_eq(s->soft, 2 * MiB);
	one = s->calls;
	pml_pam_env_remove(&env);

	use_policy(policy);
	s = open_as(SVC, "alice");
	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == 2 * MiB, "rc %d\n%s",
		      s->rc, s->log);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getpwnam_r, 1);
	ck_assert_int_eq(memcmp(&s->calls, &one, sizeof(one)), 0);
	/* bob is in none of them: no rule decides, so each distinct name is
	 * asked, once: video (named 1,000 times) and team000..team998. */
	s = open_as(SVC, "bob");
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1000);
	free(policy);
}
END_TEST

void add_nss_cases(struct cases *module, bool pam, bool nss)
{
	CASE(*module, unknown_user_with_a_uid_rule_is_user_unknown, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, unknown_user_with_a_group_rule_is_user_unknown, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, unknown_user_needs_no_nss_without_uid_or_group_rules, pam, NEED_ROOT);
	CASE(*module, user_and_service_rules_make_no_nss_call, pam, NEED_ROOT);
	CASE(*module, group_rule_asks_nss_once, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, group_lookups_follow_the_names_not_the_memberships, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, group_matches_every_name_of_a_gid, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, group_lookups_stop_at_the_deciding_rule, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(*module, thousand_group_rules_ask_nss_as_often_as_one, pam && nss, pam ? NEED_NSS : NEED_ROOT);
}
