/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The golden corpus through the real module: every tests/data/bad/NAME.conf
 * is handed to pam_memlock.so with conf= in a real libpam session (one
 * forked child each, check's fork mode), and must give exactly
 * PAM_SERVICE_ERR, leave RLIMIT_MEMLOCK as it was, and log exactly the
 * lines of NAME.err at LOG_ERR, nothing else.  Every good file must give
 * PAM_SUCCESS under dry_run with no error logged.  test_policy checks the
 * same files against the loader alone; this proves the module's edge (the
 * PAM code, syslog, the untouched limits) agrees with it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "golden.h"
#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define KiB ((uint64_t)1 << 10)
#define PREFIX "pam_memlock(" PML_TEST_SERVICE ":session): "

static char *bad_names[PML_GOLDEN_MAX], *good_names[PML_GOLDEN_MAX];
static int n_bad, n_good;
static struct pml_pam_env env;
static uint64_t start_hard;

/*
 * Makes a private PAM service whose module line reads conf=DIR/NAME, and
 * copies tests/data/KIND/NAME there byte for byte (0644, owned by us).
 */
static void stage(const char *kind, const char *name, const char *extra_args)
{
	char from[4096], to[512], args[512];
	size_t len;
	char *text;
	int fd;

	ck_assert_msg(strchr(name, '%') == NULL, "%s: no %% in corpus names", name);
	snprintf(args, sizeof(args), "conf=%%s/%s %s", name, extra_args);
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  NULL), 0);
	snprintf(from, sizeof(from), "%s/%s/%s", pml_test_env("PML_TESTDATA"),
		 kind, name);
	snprintf(to, sizeof(to), "%s/%s", env.dir, name);
	text = pml_golden_read(from, &len);
	fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	ck_assert_msg(fd >= 0, "%s: %s", to, strerror(errno));
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	ck_assert_int_eq(fchmod(fd, 0644), 0);
	close(fd);
	free(text);
}

/* NAME.err's lines as the module logs them: "<3> PREFIX DIR/NAME:LINE: ...". */
static char *expected_log(const char *name)
{
	char path[4096];
	size_t len, cap, used = 0;
	char *err, *line, *save = NULL, *out;

	snprintf(path, sizeof(path), "%s/bad/%.*s.err", pml_test_env("PML_TESTDATA"),
		 (int)(strlen(name) - 5), name);
	err = pml_golden_read(path, &len);
	cap = 2 * len + 4096;
	out = malloc(cap);
	ck_assert_ptr_nonnull(out);
	out[0] = '\0';
	for (line = strtok_r(err, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		used += (size_t)snprintf(out + used, cap - used, "<3> " PREFIX "%s/%s\n",
					 env.dir, line);
	free(err);
	return out;
}

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

START_TEST(bad_file_refused_by_the_module)
{
	const char *name = bad_names[_i];
	uint64_t soft, hard;
	char *want;
	int rc;

	stage("bad", name, "");
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&soft, &hard);
	ck_assert_msg(rc == PAM_SERVICE_ERR, "%s: pam_open_session gave %d (%s), want PAM_SERVICE_ERR",
		      name, rc, pam_strerror(NULL, rc));
	ck_assert_uint_eq(soft, 64 * KiB);
	ck_assert_uint_eq(hard, start_hard);
	want = expected_log(name);
	ck_assert_str_eq(pml_capture_text(), want);
	free(want);
}
END_TEST

START_TEST(good_file_accepted_by_the_module)
{
	const char *name = good_names[_i];
	uint64_t soft, hard;
	int rc;

	stage("good", name, "dry_run");
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&soft, &hard);
	ck_assert_msg(rc == PAM_SUCCESS, "%s: pam_open_session gave %d; log:\n%s",
		      name, rc, pml_capture_text());
	ck_assert_uint_eq(soft, 64 * KiB);
	ck_assert_uint_eq(hard, start_hard);
	/* dry_run logs its decision at LOG_NOTICE; nothing worse may appear. */
	ck_assert_msg(strstr(pml_capture_text(), "<3> ") == NULL &&
		      strstr(pml_capture_text(), "<4> ") == NULL,
		      "%s: unexpected log:\n%s", name, pml_capture_text());
	ck_assert_msg(strstr(pml_capture_text(), "<5> " PREFIX "dry_run: ") != NULL,
		      "%s: no dry_run line:\n%s", name, pml_capture_text());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("corpus_pam");
	TCase *tc = tcase_create("corpus_pam");
	struct pml_skip skips[1];
	uint64_t soft;

	pml_memlock_get(&soft, &start_hard);
	n_bad = pml_golden_list("bad", bad_names);
	n_good = pml_golden_list("good", good_names);
	if (geteuid() != 0) {
		skips[0] = (struct pml_skip){ "corpus_through_the_module",
			"policy files must be owned by root: run make check as root" };
		return pml_run_tap(s, skips, 1);
	}
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_loop_test(tc, bad_file_refused_by_the_module, 0, n_bad);
	tcase_add_loop_test(tc, good_file_accepted_by_the_module, 0, n_good);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
