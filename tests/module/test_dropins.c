/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The memlock.d/ drop-ins through the loader on a private directory (no
 * PAM, no root needed): load order, which names count, how keys and rules
 * of several files combine, refusals.  Users and groups are nss_wrapper's
 * fixtures (tests/module/rules_env.c); the module reading the drop-ins beside its
 * compiled-in default file is tests/module/test_default_dir.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decide.h"
#include "evaluate.h"
#include "harness.h"
#include "log_buffer.h"
#include "pam_session.h"
#include "policy.h"
#include "rules_env.h"
#include "safe_read.h"
#include "syslog_capture.h"

static struct pml_log_buffer logged = { .tag_priority = true };

static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_DEBUG };

static char dropins[256];

static void tree_setup(void)
{
	ck_assert_int_eq(pml_pam_env_make(&env, "pam_permit.so", "", NULL), 0);
	snprintf(dropins, sizeof(dropins), "%s/memlock.d", env.dir);
	ck_assert_int_eq(mkdir(dropins, 0755), 0);
}

static void tree_teardown(void)
{
	pml_pam_env_remove(&env);
}

static void put(const char *name, const char *text)
{
	ck_assert_int_eq(pml_pam_env_write(&env, name, text), 0);
}

static int load(bool path_given, struct pml_policy *policy)
{
	struct pml_source source = {
		.path = env.policy, .given = path_given, .owner = geteuid(),
	};

	logged.text[0] = '\0';
	return pml_policy_load(&source, 4096, &log_to_buffer, policy);
}

/* What USER gets for SERVICE from POLICY, with no NSS: only user and
 * service rules can match. */
static struct pml_decision decide_for(const struct pml_policy *policy,
				      const char *user, const char *service)
{
	struct pml_identity identity = { .user = user, .service = service };
	struct pml_machine machine = {
		.ram = 1024 * MiB, .page_size = 4096,
		.available = { .bytes = 1024 * MiB },
	};
	struct pml_decision decision;

	pml_decide(policy, &identity, &machine, &decision);
	return decision;
}

static const char *file_of(const struct pml_policy *policy,
			   const struct pml_setting *setting)
{
	const char *name = pml_policy_file_name(policy, setting->at);

	return strrchr(name, '/') + 1;
}

#define ALICE(limit) "rules = ( { user = \"alice\"; limit = \"" limit "\"; } );\n"

START_TEST(dropins_load_in_byte_order)
{
	/* Byte order, not the locale's nor case-blind: "Z" sorts before "a". */
	static const char *const order[] = {
		"memlock.conf", "10-a.conf", "9-b.conf", "A.conf", "Z.conf", "a.conf"
	};
	struct pml_policy policy;
	struct pml_decision d;
	size_t i;

	put("memlock.conf", ALICE("1 MiB"));
	put("memlock.d/a.conf", ALICE("6 MiB"));
	put("memlock.d/9-b.conf", ALICE("3 MiB"));
	put("memlock.d/Z.conf", ALICE("5 MiB"));
	put("memlock.d/A.conf", ALICE("4 MiB"));
	put("memlock.d/10-a.conf", ALICE("2 MiB"));
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_files, 6);
	ck_assert_uint_eq(policy.n_rules, 6);
	for (i = 0; i < 6; i++) {
		const char *name = pml_policy_file_name(&policy, policy.rules[i].at);

		ck_assert_str_eq(strrchr(name, '/') + 1, order[i]);
	}
	d = decide_for(&policy, "alice", SVC);
	ck_assert_ptr_eq(d.rule, &policy.rules[5]);
	ck_assert_uint_eq(d.soft.bytes, 6 * MiB);
	pml_policy_free(&policy);
}
END_TEST

/* Each ignored file would break the policy if it were read. */
START_TEST(dropins_ignore_other_names)
{
	static const char *const ignored[] = {
		".hidden.conf", "README", "x.conf.dpkg-old", "x.conf.dpkg-dist",
		"x.conf.dpkg-new", "x.conf.ucf-old", "x.conf~", "x.conf.bak",
		"x.conf.rpmsave", "#x.conf#~", ".x.conf.swp", "x.CONF", "conf",
		".conf", "x.conf.d",
	};
	struct pml_policy policy;
	size_t i;

	put("memlock.conf", TOP);
	for (i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++) {
		char name[128];

		snprintf(name, sizeof(name), "memlock.d/%s", ignored[i]);
		put(name, "this is not a policy\n");
	}
	put("memlock.d/50-alice.conf", ALICE("1 MiB"));
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_files, 2);
	ck_assert_uint_eq(policy.n_rules, 1);
	ck_assert_str_eq(file_of(&policy, &policy.rules[0].settings.v[PML_KEY_LIMIT]),
			 "50-alice.conf");
	pml_policy_free(&policy);
}
END_TEST

/* A later limit replaces the earlier limit only: the earlier soft stays. */
START_TEST(later_top_level_keys_replace_one_by_one)
{
	struct pml_policy policy;
	struct pml_decision d;

	put("memlock.conf", "limit = \"1 MiB\";\nsoft = \"512 KiB\";\nmode = \"set\";\n");
	put("memlock.d/50.conf", "limit = \"2 MiB\";\n");
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	d = decide_for(&policy, "alice", SVC);
	ck_assert_uint_eq(d.soft.bytes, 512 * KiB);
	ck_assert_str_eq(file_of(&policy, d.soft.from), "memlock.conf");
	ck_assert_uint_eq(d.hard.bytes, 2 * MiB);
	ck_assert_str_eq(file_of(&policy, d.hard.from), "50.conf");
	ck_assert_int_eq(d.mode->mode, PML_MODE_SET);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(rules_accumulate_and_the_last_match_wins_across_files)
{
	struct pml_policy policy;
	struct pml_decision d;

	put("memlock.conf", TOP ALICE("1 MiB"));
	put("memlock.d/20.conf", ALICE("2 MiB"));
	put("memlock.d/30.conf", "rules = ( { user = \"bob\"; limit = \"3 MiB\"; } );\n");
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_rules, 3);
	d = decide_for(&policy, "alice", SVC);
	ck_assert_uint_eq(d.soft.bytes, 2 * MiB);
	ck_assert_str_eq(file_of(&policy, d.soft.from), "20.conf");
	d = decide_for(&policy, "bob", SVC);
	ck_assert_uint_eq(d.soft.bytes, 3 * MiB);
	d = decide_for(&policy, "carol", SVC);
	ck_assert_ptr_null(d.rule);
	ck_assert_uint_eq(d.soft.bytes, TOP_LIMIT);
	pml_policy_free(&policy);
}
END_TEST

/* A drop-in's top level changes the defaults under earlier rules; it does
 * not outrank them. */
START_TEST(later_top_level_does_not_outrank_an_earlier_rule)
{
	struct pml_policy policy;
	struct pml_decision d;

	put("memlock.conf", "rules = ( { user = \"alice\"; soft = \"1 MiB\"; } );\n");
	put("memlock.d/50.conf", "limit = \"3 MiB\";\nmode = \"set\";\n");
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	d = decide_for(&policy, "alice", SVC);
	ck_assert_uint_eq(d.soft.bytes, 1 * MiB);
	ck_assert_uint_eq(d.hard.bytes, 3 * MiB);
	ck_assert_int_eq(d.mode->mode, PML_MODE_SET);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(dropins_apply_without_the_main_file)
{
	struct pml_policy policy;
	struct pml_decision d;
	char line[512];

	put("memlock.d/50.conf", ALICE("1 MiB"));
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	snprintf(line, sizeof(line), "<7> %s: not present, using the built-in default\n",
		 env.policy);
	ck_assert_str_eq(logged.text, line);
	d = decide_for(&policy, "alice", SVC);
	ck_assert_uint_eq(d.soft.bytes, 1 * MiB);
	d = decide_for(&policy, "bob", SVC);
	ck_assert_uint_eq(d.soft.bytes, 8 * MiB);
	ck_assert_int_eq(d.soft.from->level, PML_LEVEL_BUILTIN);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(given_path_reads_no_dropins)
{
	struct pml_policy policy;

	put("memlock.conf", TOP);
	put("memlock.d/50.conf", ALICE("1 MiB"));
	ck_assert_msg(load(true, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_files, 1);
	ck_assert_uint_eq(policy.n_rules, 0);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(missing_or_empty_dropin_directory_is_fine)
{
	struct pml_policy policy;

	put("memlock.conf", TOP);
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_files, 1);
	pml_policy_free(&policy);
	ck_assert_int_eq(rmdir(dropins), 0);
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert_uint_eq(policy.n_files, 1);
	pml_policy_free(&policy);
}
END_TEST

/* Every bad file is reported, and nothing of any file is kept. */
START_TEST(bad_dropin_rejects_the_whole_policy)
{
	struct pml_policy policy;
	char want[2048];

	put("memlock.conf", TOP ALICE("1 MiB"));
	put("memlock.d/20.conf", "rules = (\n  { uid = \"2000-1000\"; limit = \"1 MiB\"; }\n);\n");
	put("memlock.d/30.conf", ALICE("2 MiB"));
	put("memlock.d/40.conf", "\nrules = ( { user = \"bob\"; shell = \"sh\"; } );\n");
	ck_assert_int_eq(load(false, &policy), -EINVAL);
	snprintf(want, sizeof(want),
		 "<3> %s/20.conf:2: uid: \"2000-1000\": range is reversed (first uid above last)\n"
		 "<3> %s/40.conf:2: unknown key \"shell\" in rule (expected user, group, uid, service, unit, limit, soft, hard, floor, ceiling, share_of or mode)\n",
		 dropins, dropins);
	ck_assert_str_eq(logged.text, want);
	ck_assert_uint_eq(policy.n_files, 0);
	ck_assert_uint_eq(policy.n_rules, 0);
	ck_assert_ptr_null(policy.rules);
}
END_TEST

START_TEST(unsafe_dropins_are_refused)
{
	struct pml_policy policy;
	char path[512], want[1024];

	put("memlock.conf", TOP);
	put("memlock.d/50.conf", ALICE("1 MiB"));
	snprintf(path, sizeof(path), "%s/50.conf", dropins);
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(load(false, &policy), -EINVAL);
	snprintf(want, sizeof(want), "<3> %s: refused: is writable by group or others\n", path);
	ck_assert_str_eq(logged.text, want);
	ck_assert_uint_eq(policy.n_files, 0);

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(symlink(env.policy, path), 0);
	ck_assert_int_eq(load(false, &policy), -EINVAL);
	snprintf(want, sizeof(want), "<3> %s: refused: is a symbolic link\n", path);
	ck_assert_str_eq(logged.text, want);

	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(chmod(dropins, 0777), 0);
	ck_assert_int_eq(load(false, &policy), -EINVAL);
	snprintf(want, sizeof(want), "<3> %s: refused: is writable by group or others\n", dropins);
	ck_assert_str_eq(logged.text, want);
}
END_TEST

START_TEST(every_uid_form_parses)
{
	struct pml_policy policy;
	const struct pml_rule *r;

	put("memlock.conf", "rules = ( { uid = [\"4294967294\", \"0\", \"-0\", \"0-\", \"5-5\",\n"
			    "                   \"-4294967294\", \"007\"]; limit = \"1 MiB\"; } );\n");
	ck_assert_msg(load(true, &policy) == 0, "%s", logged.text);
	r = &policy.rules[0];
	ck_assert_uint_eq(r->n_uids, 7);
	ck_assert_uint_eq(r->uids[0].first, 4294967294u);
	ck_assert_uint_eq(r->uids[0].last, 4294967294u);
	ck_assert_uint_eq(r->uids[1].first, 0);
	ck_assert_uint_eq(r->uids[1].last, 0);
	ck_assert_uint_eq(r->uids[2].first, 0);
	ck_assert_uint_eq(r->uids[2].last, 0);
	ck_assert_uint_eq(r->uids[3].first, 0);
	ck_assert_uint_eq(r->uids[3].last, 4294967294u);
	ck_assert_uint_eq(r->uids[4].first, 5);
	ck_assert_uint_eq(r->uids[4].last, 5);
	ck_assert_uint_eq(r->uids[5].first, 0);
	ck_assert_uint_eq(r->uids[5].last, 4294967294u);
	ck_assert_uint_eq(r->uids[6].first, 7);
	ck_assert_uint_eq(r->uids[6].last, 7);
	ck_assert(policy.needs_nss);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(only_uid_and_group_rules_need_nss)
{
	struct pml_policy policy;

	put("memlock.conf", TOP "rules = ( { user = \"a\"; service = \"b\"; limit = \"1 MiB\"; } );\n");
	ck_assert_msg(load(true, &policy) == 0, "%s", logged.text);
	ck_assert(!policy.needs_nss);
	pml_policy_free(&policy);
	put("memlock.d/50.conf", "rules = ( { group = \"audio\"; limit = \"1 MiB\"; } );\n");
	ck_assert_msg(load(false, &policy) == 0, "%s", logged.text);
	ck_assert(policy.needs_nss);
	pml_policy_free(&policy);
}
END_TEST

/* The module's path minus PAM: pml_evaluate reads the drop-ins and asks
 * NSS (nss_wrapper here) for a group rule that lives in one. */
START_TEST(evaluate_uses_a_group_rule_from_a_dropin)
{
	struct pml_request request = {
		.source = { .path = env.policy, .owner = geteuid() },
		.user = "alice",
		.service = "sshd",
	};
	struct pml_evaluation e;
	char origin[512], want[512];

	put("memlock.conf", TOP);
	put("memlock.d/50.conf", "\nrules = ( { group = \"video\"; limit = \"1 MiB\"; } );\n");
	logged.text[0] = '\0';
	memset(&calls, 0, sizeof(calls));
	ck_assert_msg(pml_evaluate(&request, &log_to_buffer, &e) == 0, "%s", logged.text);
	ck_assert_uint_eq(calls.getgrouplist, 1);
	ck_assert(e.identity.looked_up);
	ck_assert_uint_eq(e.identity.uid, 1000);
	ck_assert_ptr_nonnull(e.decision.rule);
	ck_assert_uint_eq(e.decision.soft.bytes, 1 * MiB);
	pml_describe_origin(&e.policy, e.decision.soft.from, origin, sizeof(origin));
	snprintf(want, sizeof(want), "%s/50.conf:2", dropins);
	ck_assert_str_eq(origin, want);
	pml_evaluation_free(&e);

	request.user = "ghost";
	logged.text[0] = '\0';
	ck_assert_int_eq(pml_evaluate(&request, &log_to_buffer, &e), -ESRCH);
	ck_assert_str_eq(logged.text, "<3> user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("dropins");
	TCase *tree = tcase_create("dropins");
	struct cases with_nss = { .tc = tree };
	bool nss;

	(void)argc;
	rules_env_start(argv, &nss);

	tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_test(tree, dropins_load_in_byte_order);
	tcase_add_test(tree, dropins_ignore_other_names);
	tcase_add_test(tree, later_top_level_keys_replace_one_by_one);
	tcase_add_test(tree, rules_accumulate_and_the_last_match_wins_across_files);
	tcase_add_test(tree, later_top_level_does_not_outrank_an_earlier_rule);
	tcase_add_test(tree, dropins_apply_without_the_main_file);
	tcase_add_test(tree, given_path_reads_no_dropins);
	tcase_add_test(tree, missing_or_empty_dropin_directory_is_fine);
	tcase_add_test(tree, bad_dropin_rejects_the_whole_policy);
	tcase_add_test(tree, unsafe_dropins_are_refused);
	tcase_add_test(tree, every_uid_form_parses);
	tcase_add_test(tree, only_uid_and_group_rules_need_nss);
	CASE(with_nss, evaluate_uses_a_group_rule_from_a_dropin, nss, NEED_NSS);

	suite_add_tcase(s, tree);
	return pml_run_tap(s, with_nss.skips, with_nss.n_skips);
}
