/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The policy as a tree of files: a candidate read in place of the main
 * file or of a drop-in (memlockctl check --as and install validate what
 * the module will read), and the top-level keys a later file replaced,
 * with check's warning for two drop-ins that set one key.  A private
 * directory, files owned by whoever runs it: no root needed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "log_buffer.h"
#include "policy_from.h"
#include "policy.h"
#include "policy/lint.h"
#include "safe_read.h"

static struct pml_log_buffer logged;
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_WARNING };
static char dir[64], main_file[128];

static void tree_setup(void)
{
	char sub[128];

	snprintf(dir, sizeof(dir), "/tmp/pml-tree-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(main_file, sizeof(main_file), "%s/memlock.conf", dir);
	snprintf(sub, sizeof(sub), "%s/memlock.d", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	logged.strip = dir;
}

static void tree_teardown(void)
{
	char command[128];

	snprintf(command, sizeof(command), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(command), 0);
}

/* Writes TEXT to NAME under the directory, mode 0644. */
static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, 0644), 0);
}

/* Loads the tree, with the file NEW (under the directory) in place of
 * DROPIN (NULL: the main file), when NEW is not NULL. */
static int load(const char *new, const char *dropin, struct pml_policy *policy)
{
	char path[256];
	const struct pml_candidate candidate = {
		.path = path, .dropin = dropin, .owner = PML_ANY_OWNER,
	};
	const struct pml_source source = { .path = main_file, .owner = geteuid() };
	const struct pml_from from = { .candidate = new != NULL ? &candidate : NULL };

	snprintf(path, sizeof(path), "%s/%s", dir, new != NULL ? new : "");
	logged.text[0] = '\0';
	return pml_policy_load_from(&source, &from, 4096, &log_to_buffer, policy);
}

/* The file of each rule, by name, one per line. */
static const char *rule_files(const struct pml_policy *policy)
{
	static char buf[512];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < policy->n_rules; i++) {
		const char *name = pml_policy_file_name(policy, policy->rules[i].at);

		used += (size_t)snprintf(buf + used, sizeof(buf) - used, "%s\n",
					 strncmp(name, dir, strlen(dir)) == 0
						 ? name + strlen(dir) + 1
						 : name);
	}
	return buf;
}

#define RULE(limit) "rules = ( { user = \"alice\"; limit = \"" limit "\"; } );\n"

START_TEST(candidate_replaces_an_installed_dropin)
{
	struct pml_policy policy;

	put("memlock.conf", RULE("1 MiB"));
	put("memlock.d/10-a.conf", RULE("2 MiB"));
	put("memlock.d/50-site.conf", RULE("3 MiB"));
	put("memlock.d/90-z.conf", RULE("4 MiB"));
	put("new", RULE("5 MiB"));
	ck_assert_msg(load("new", "50-site.conf", &policy) == 0, "%s", logged.text);
	ck_assert_str_eq(rule_files(&policy),
			 "memlock.conf\nmemlock.d/10-a.conf\nnew\nmemlock.d/90-z.conf\n");
	ck_assert(!policy.files[0].dropin);
	ck_assert(policy.files[2].dropin);
	pml_policy_free(&policy);
}
END_TEST

/* A drop-in that is not there yet takes its place by name; so it does
 * where memlock.d/ is missing. */
START_TEST(candidate_joins_the_dropins_by_name)
{
	struct pml_policy policy;
	char sub[128];

	put("memlock.d/10-a.conf", RULE("2 MiB"));
	put("memlock.d/90-z.conf", RULE("4 MiB"));
	put("new", RULE("5 MiB"));
	ck_assert_msg(load("new", "50-site.conf", &policy) == 0, "%s", logged.text);
	ck_assert_str_eq(rule_files(&policy),
			 "memlock.d/10-a.conf\nnew\nmemlock.d/90-z.conf\n");
	pml_policy_free(&policy);

	unlink(strcat(strcpy(sub, dir), "/memlock.d/10-a.conf"));
	unlink(strcat(strcpy(sub, dir), "/memlock.d/90-z.conf"));
	ck_assert_int_eq(rmdir(strcat(strcpy(sub, dir), "/memlock.d")), 0);
	ck_assert_msg(load("new", "50-site.conf", &policy) == 0, "%s", logged.text);
	ck_assert_str_eq(rule_files(&policy), "new\n");
	pml_policy_free(&policy);
}
END_TEST

START_TEST(candidate_replaces_the_main_file)
{
	struct pml_policy policy;

	put("memlock.conf", "limit = \"oops\";\n");
	put("memlock.d/10-a.conf", RULE("2 MiB"));
	put("new", RULE("5 MiB"));
	ck_assert_msg(load("new", NULL, &policy) == 0, "%s", logged.text);
	ck_assert_str_eq(rule_files(&policy), "new\nmemlock.d/10-a.conf\n");
	ck_assert(!policy.files[0].dropin);
	pml_policy_free(&policy);
}
END_TEST

/* What passes alone can break the tree: the measured case, a main file
 * whose floor is above the candidate's ceiling. */
START_TEST(candidate_is_validated_with_the_installed_files)
{
	struct pml_policy policy;

	put("memlock.conf", "floor = \"1 GiB\";\n");
	put("new", "limit = \"1%\";\nceiling = \"512 MiB\";\n");
	ck_assert_int_eq(load("new", "50-site.conf", &policy), -EINVAL);
	ck_assert_str_eq(logged.text,
			 "memlock.conf:1: floor 1 GiB (top level, line 1) is above ceiling 512 MiB (top level, new:2)\n");
}
END_TEST

/* A name the loader never reads in memlock.d/ cannot be validated as one
 * of its files. */
START_TEST(candidate_under_a_name_never_read_is_refused)
{
	struct pml_policy policy;

	put("new", RULE("5 MiB"));
	ck_assert_int_eq(load("new", "50-site.conf.bak", &policy), -EINVAL);
	ck_assert_str_eq(logged.text,
			 "new: never read: drop-ins are read only when their names end in \".conf\" and do not start with \".\"\n");
	ck_assert_int_eq(load("new", ".50-site.conf", &policy), -EINVAL);
}
END_TEST

/* The candidate gets its own trust; the installed files keep theirs. */
START_TEST(candidate_owner_is_its_own)
{
	struct pml_policy policy;
	char path[256];

	put("memlock.d/10-a.conf", RULE("2 MiB"));
	put("new", RULE("5 MiB"));
	snprintf(path, sizeof(path), "%s/new", dir);
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_msg(load("new", "50-site.conf", &policy) == 0, "%s", logged.text);
	pml_policy_free(&policy);
	snprintf(path, sizeof(path), "%s/memlock.d/10-a.conf", dir);
	ck_assert_int_eq(chmod(path, 0666), 0);
	ck_assert_int_eq(load("new", "50-site.conf", &policy), -EINVAL);
	ck_assert_str_eq(logged.text,
			 "memlock.d/10-a.conf: refused: is writable by group or others\n");
}
END_TEST

/* Each key a later file set again, as the earlier file had it. */
START_TEST(replaced_keys_are_recorded)
{
	struct pml_policy policy;

	put("memlock.conf", "limit = \"8 MiB\";\nmode = \"raise\";\n");
	put("memlock.d/50-site.conf", "limit = \"1%\";\nceiling = \"1 GiB\";\n");
	put("memlock.d/50-site.old.conf", "limit = \"64 KiB\";\n");
	ck_assert_msg(load(NULL, NULL, &policy) == 0, "%s", logged.text);
	ck_assert(policy.replaced.v[PML_KEY_LIMIT].set);
	ck_assert_str_eq(pml_policy_file_name(&policy, policy.replaced.v[PML_KEY_LIMIT].at) +
				 strlen(dir) + 1,
			 "memlock.d/50-site.conf");
	ck_assert_uint_eq(policy.replaced.v[PML_KEY_LIMIT].amount.share, 1000);
	ck_assert(!policy.replaced.v[PML_KEY_MODE].set);
	ck_assert(!policy.replaced.v[PML_KEY_CEILING].set);
	pml_policy_free(&policy);
}
END_TEST

static struct lint_count lint_tree(void)
{
	const struct pml_machine machine = {
		.ram = (uint64_t)16 << 30, .page_size = 4096,
		.available = { .bytes = (uint64_t)16 << 30 },
	};
	struct pml_policy policy;
	struct lint_count count;

	ck_assert_msg(load(NULL, NULL, &policy) == 0, "%s", logged.text);
	count = lint_policy(&policy, &machine, NULL, &log_to_buffer);
	pml_policy_free(&policy);
	return count;
}

/* The copy left behind sorts after the file it was copied from, and its
 * keys win: check says so.  The main file's keys are there to be
 * replaced: nothing to say. */
START_TEST(key_two_dropins_set_is_a_warning)
{
	struct lint_count count;

	put("memlock.conf", "limit = \"8 MiB\";\nmode = \"raise\";\n");
	put("memlock.d/50-site.conf", "limit = \"1%\";\nmode = \"raise\";\n");
	count = lint_tree();
	ck_assert_uint_eq(count.policy + count.host, 0);

	put("memlock.d/50-site.old.conf", "limit = \"64 KiB\";\nmode = \"set\";\n");
	count = lint_tree();
	ck_assert_uint_eq(count.policy, 2);
	ck_assert_uint_eq(count.host, 0);
	ck_assert_str_eq(logged.text,
			 "memlock.d/50-site.old.conf:1: warning: limit = \"64 KiB\" replaces limit = \"1%\" of the earlier drop-in memlock.d/50-site.conf:1: of two drop-ins that set a top-level key, the later by name wins; set each key in one file\n"
			 "memlock.d/50-site.old.conf:2: warning: mode = \"set\" replaces mode = \"raise\" of the earlier drop-in memlock.d/50-site.conf:2: of two drop-ins that set a top-level key, the later by name wins; set each key in one file\n");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("tree");

	tcase_add_checked_fixture(tc, tree_setup, tree_teardown);
	tcase_add_test(tc, candidate_replaces_an_installed_dropin);
	tcase_add_test(tc, candidate_joins_the_dropins_by_name);
	tcase_add_test(tc, candidate_replaces_the_main_file);
	tcase_add_test(tc, candidate_is_validated_with_the_installed_files);
	tcase_add_test(tc, candidate_under_a_name_never_read_is_refused);
	tcase_add_test(tc, candidate_owner_is_its_own);
	tcase_add_test(tc, replaced_keys_are_recorded);
	tcase_add_test(tc, key_two_dropins_set_is_a_warning);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
