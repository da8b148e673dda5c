/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The loader against golden files.  tests/data/bad/NAME.conf must be
 * refused with exactly the lines in NAME.err ("NAME.conf:LINE: message");
 * tests/data/good/NAME.conf must load cleanly.  Each file is copied into a
 * private 0644 directory first, so that a group-writable checkout does not
 * trip the safety checks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden.h"
#include "harness.h"
#include "log_buffer.h"
#include "policy.h"
#include "safe_read.h"


static char *bad_names[PML_GOLDEN_MAX], *good_names[PML_GOLDEN_MAX];
static int n_bad, n_good;
static char tmpdir[] = "/tmp/pml-policy-XXXXXX";
static struct pml_log_buffer logged;

/* Messages name the file by its path; main() strips tmpdir/ from them. */
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_WARNING };

/* Copies DIR/NAME to tmpdir/NAME, mode 0644; returns the new path. */
static const char *stage_from(const char *dir, const char *name)
{
	static char from[4096], to[4096];
	char *buf;
	FILE *in, *out;
	size_t n;

	snprintf(from, sizeof(from), "%s/%s", dir, name);
	snprintf(to, sizeof(to), "%s/%s", tmpdir, name);
	in = fopen(from, "re");
	ck_assert_msg(in != NULL, "%s: %s", from, strerror(errno));
	out = fopen(to, "we");
	ck_assert_ptr_nonnull(out);
	buf = malloc(1 << 20);
	while ((n = fread(buf, 1, 1 << 20, in)) > 0)
		fwrite(buf, 1, n, out);
	free(buf);
	fclose(in);
	fclose(out);
	chmod(to, 0644);
	return to;
}

/* The same for a golden file under tests/data/DIR. */
static const char *stage(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", pml_test_env("PML_TESTDATA"), dir);
	return stage_from(path, name);
}

static int load(const char *path, struct pml_policy *policy)
{
	struct pml_source source = { .path = path, .given = true, .owner = geteuid() };

	logged.text[0] = '\0';
	return pml_policy_load(&source, 4096, &log_to_buffer, policy);
}

START_TEST(bad_file_is_refused_with_its_message)
{
	const char *name = bad_names[_i];
	char err_path[4096], *want;
	struct pml_policy policy;
	int rc;

	rc = load(stage("bad", name), &policy);
	ck_assert_msg(rc == -EINVAL, "%s: got %d, want -EINVAL; log:\n%s", name, rc, logged.text);
	ck_assert_ptr_null(policy.rules);
	ck_assert_uint_eq(policy.n_files, 0);
	snprintf(err_path, sizeof(err_path), "%s/bad/%.*s.err",
		 pml_test_env("PML_TESTDATA"), (int)(strlen(name) - 5), name);
	want = pml_golden_read(err_path, NULL);
	ck_assert_str_eq(logged.text, want);
	free(want);
}
END_TEST

/* The policy `make install` ships must stay valid as its comments change. */
START_TEST(shipped_policy_loads)
{
	char path[4096];
	struct pml_policy policy;
	const char *staged;
	int rc;

	snprintf(path, sizeof(path), "%s/conf", pml_test_env("PML_SRCDIR"));
	staged = stage_from(path, "memlock.conf");
	rc = load(staged, &policy);
	ck_assert_msg(rc == 0, "conf/memlock.conf refused:\n%s", logged.text);
	ck_assert_str_eq(logged.text, "");
	ck_assert(policy.top.v[PML_KEY_LIMIT].set);
	ck_assert_uint_eq(policy.top.v[PML_KEY_LIMIT].amount.bytes, 8u << 20);
	ck_assert_uint_eq(policy.n_rules, 0);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(good_file_loads)
{
	const char *name = good_names[_i];
	struct pml_policy policy;
	int rc = load(stage("good", name), &policy);

	ck_assert_msg(rc == 0, "%s refused:\n%s", name, logged.text);
	ck_assert_str_eq(logged.text, "");
	pml_policy_free(&policy);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("policy");

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 99;
	}
	logged.strip = tmpdir;
	n_bad = pml_golden_list("bad", bad_names);
	n_good = pml_golden_list("good", good_names);
	tcase_add_loop_test(tc, bad_file_is_refused_with_its_message, 0, n_bad);
	tcase_add_loop_test(tc, good_file_loads, 0, n_good);
	tcase_add_test(tc, shipped_policy_loads);
	suite_add_tcase(s, tc);
	pml_run_tap(s, NULL, 0);
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			return 1;
	}
	return 0;
}
