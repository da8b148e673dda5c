/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The memlock.d/ drop-ins: the loader on a private directory (no PAM, no
 * root needed), and the module reading its compiled-in default file and
 * the drop-ins beside it, in a private mount namespace.  Users and groups
 * are nss_wrapper's fixtures (tests/rules_env.c).
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
#include "safe_read.h"
#include "syslog_capture.h"

/* ---- The loader on a private directory ---------------------------------- */

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
		 "<3> %s/40.conf:2: unknown key \"shell\" in rule (expected user, group, uid, service, limit, soft, hard, floor, ceiling, share_of or mode)\n",
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

/* ---- The module's own default path, in a private mount namespace -------- */

/* Where a tmpfs goes so that the default file's directory can be made:
 * the directory itself, or its nearest existing ancestor.  Refuses "/" and
 * top-level directories, which the test itself needs. */
static int default_dir_mount_point(char *out, size_t len)
{
	struct stat st;
	char *slash;
	int depth = 0;
	const char *p;

	if (snprintf(out, len, "%s", PML_DEFAULT_CONF) >= (int)len ||
	    (slash = strrchr(out, '/')) == NULL)
		return -ENAMETOOLONG;
	*slash = '\0';
	while (stat(out, &st) < 0) {
		slash = strrchr(out, '/');
		if (slash == NULL || slash == out)
			return -ENOTSUP;
		*slash = '\0';
	}
	for (p = out; *p != '\0'; p++)
		depth += *p == '/';
	return depth >= 2 ? 0 : -ENOTSUP;
}

/* In this process only: an empty, root-owned directory of the default
 * policy file.  The namespace dies with the process. */
static void private_default_dir(void)
{
	char point[PATH_MAX], dir[PATH_MAX], *p, *next;

	ck_assert_int_eq(default_dir_mount_point(point, sizeof(point)), 0);
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	/* Private first, or the tmpfs would show up in the machine's namespace. */
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("pml-test-rules", point, "tmpfs", MS_NOSUID | MS_NODEV,
			       "mode=0755"), 0);
	snprintf(dir, sizeof(dir), "%s", PML_DEFAULT_CONF);
	*strrchr(dir, '/') = '\0';
	/* Make each missing component below the mount point. */
	for (p = dir + strlen(point); *p == '/'; p = next) {
		next = strchr(p + 1, '/');
		if (next != NULL)
			*next = '\0';
		ck_assert_msg(mkdir(dir, 0755) == 0 || errno == EEXIST, "%s: %s",
			      dir, strerror(errno));
		if (next == NULL)
			break;
		*next = '/';
	}
	ck_assert_int_eq(access(dir, W_OK), 0);
}

/* Writes NAME ("memlock.conf", "memlock.d/x.conf") beside the default file. */
static void put_default(const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s", PML_DEFAULT_CONF);
	snprintf(strrchr(path, '/') + 1, sizeof(path) - (size_t)(strrchr(path, '/') + 1 - path),
		 "%s", name);
	f = fopen(path, "we");
	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void mkdir_default(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s", PML_DEFAULT_CONF);
	snprintf(strrchr(path, '/') + 1, sizeof(path) - (size_t)(strrchr(path, '/') + 1 - path),
		 "%s", name);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void dropin_path(const char *name, char *out, size_t len)
{
	snprintf(out, len, "%s", PML_DEFAULT_CONF);
	snprintf(strrchr(out, '/') + 1, len - (size_t)(strrchr(out, '/') + 1 - out),
		 "memlock.d/%s", name);
}

START_TEST(module_reads_dropins_beside_the_default_file)
{
	const struct session *s;
	char line[PATH_MAX + 256], path[PATH_MAX];

	private_default_dir();
	put_default("memlock.conf", TOP ALICE("1 MiB"));
	mkdir_default("memlock.d");
	put_default("memlock.d/20-b.conf", "# bob and alice\n" ALICE("2 MiB"));
	put_default("memlock.d/10-a.conf", ALICE("3 MiB"));
	put_default("memlock.d/20-b.conf.dpkg-old", ALICE("4 MiB"));
	put_default("memlock.d/30-c.conf~", ALICE("4 MiB"));
	use("debug", NULL);
	s = open_as("sshd", "alice");
	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == 2 * MiB && s->hard == 2 * MiB,
		      "rc %d soft %llu\n%s", s->rc, (unsigned long long)s->soft, s->log);
	dropin_path("20-b.conf", path, sizeof(path));
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "user \"alice\" service \"sshd\": rule %s:2 decides, mode set\n",
		 path);
	assert_logged(s, line);
	expect("sshd", "bob", TOP_LIMIT);
}
END_TEST

START_TEST(module_applies_dropins_without_the_default_file)
{
	const struct session *s;

	private_default_dir();
	mkdir_default("memlock.d");
	put_default("memlock.d/50.conf",
		    "rules = ( { group = \"audio\"; limit = \"1 MiB\"; mode = \"set\"; } );\n");
	use("debug", NULL);
	s = open_as(SVC, "alice");
	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == 1 * MiB && s->hard == 1 * MiB,
		      "rc %d\n%s", s->rc, s->log);
	assert_logged(s, "<7> " PREFIX(SVC) PML_DEFAULT_CONF ": not present, using the built-in default\n");
	/* Everyone else: the built-in 8 MiB, raise (as far as hard allows). */
	s = open_as(SVC, "bob");
	ck_assert_uint_eq(s->soft, start_hard < 8 * MiB ? start_hard : 8 * MiB);
	s = open_as(SVC, "ghost");
	ck_assert_int_eq(s->rc, PAM_USER_UNKNOWN);
}
END_TEST

/* conf= naming the default file itself still means "this file alone". */
START_TEST(module_conf_naming_the_default_file_reads_no_dropins)
{
	private_default_dir();
	put_default("memlock.conf", TOP);
	mkdir_default("memlock.d");
	put_default("memlock.d/50.conf", ALICE("1 MiB"));
	use("conf=" PML_DEFAULT_CONF, NULL);
	expect(SVC, "alice", TOP_LIMIT);
	pml_pam_env_remove(&env);
	use("", NULL);
	expect(SVC, "alice", 1 * MiB);
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("dropins");
	TCase *tree = tcase_create("dropins");
	TCase *ns = tcase_create("namespace");
	struct pml_skip skips[64];
	size_t n_skips = 0;
	uint64_t soft;
	char point[PATH_MAX];
	bool root = geteuid() == 0, nss, mounts, shallow, pam;

	(void)argc;
	reexec_under_nss_wrapper(argv);
	umask(022);
	nss = fixtures_in_use();
	pml_memlock_get(&soft, &start_hard);
	shallow = default_dir_mount_point(point, sizeof(point)) < 0;
	mounts = root && !shallow && can_unshare_mounts();
	/* Policy files must be root's; "set" mode lowers to at most 4 MiB. */
	pam = root && start_hard >= 4 * MiB;

	tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_checked_fixture(ns, session_setup, session_teardown);
#define CASE(tc, fn, ok, why) do { \
		if (ok) tcase_add_test(tc, fn); \
		else skips[n_skips++] = (struct pml_skip){ #fn, why }; \
	} while (0)
#define NEED_ROOT "policy files must be owned by root: run make check as root with a hard limit of 4 MiB or more"
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
	CASE(tree, evaluate_uses_a_group_rule_from_a_dropin, nss, NEED_NSS);

#define NEED_NS (!pam ? NEED_ROOT : !nss ? NEED_NSS : shallow ? \
		 "no safe place to mount a tmpfs for " PML_DEFAULT_CONF : \
		 "unshare(CLONE_NEWNS) or mount is not permitted here")
	CASE(ns, module_reads_dropins_beside_the_default_file, pam && nss && mounts, NEED_NS);
	CASE(ns, module_applies_dropins_without_the_default_file, pam && nss && mounts, NEED_NS);
	CASE(ns, module_conf_naming_the_default_file_reads_no_dropins, pam && nss && mounts, NEED_NS);

	suite_add_tcase(s, tree);
	suite_add_tcase(s, ns);
	return pml_run_tap(s, skips, n_skips);
}
