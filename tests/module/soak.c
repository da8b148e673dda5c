/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The soak: 1,000 pam_start/pam_open_session/pam_close_session/pam_end
 * cycles through the real module in one process, going round every kind
 * of outcome (applied with rules that need NSS, dry_run, a bad value,
 * syntax errors, @include, an unsafe file, a missing file, no user).  After a warm-up
 * round (libpam, NSS and libc load what they keep for good), the number of
 * open descriptors and the bytes malloc has handed out must not change.
 *
 * Under `make check-valgrind` the same run goes through memcheck, whose
 * leak check (definite and indirect leaks are errors) runs when the forked
 * test child exits.  Under ASan, mallinfo2 sees nothing (ASan has its own
 * allocator) and LeakSanitizer does that job at exit.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define CYCLES 1000
#define WARM_UP 2		/* rounds of every kind before the baseline */
/*
 * Bytes the heap may grow by: none.  glibc's per-thread cache (tcache)
 * keeps freed chunks that mallinfo2 still counts as in use, and fills its
 * bins slowly as sessions allocate other sizes.  make check turns it off
 * (GLIBC_TUNABLES), so that what is counted is what is really held.
 */
#define HEAP_SLACK 0
#define NO_TCACHE "glibc.malloc.tcache_count=0"

struct kind {
	const char *name;
	const char *args;	/* %s is the env's directory */
	const char *policy;	/* NULL: no file */
	mode_t mode;
	const char *user;
	int rc;
};

static struct kind kinds[] = {
	{ "applied, rules need NSS", "conf=%s/memlock.conf debug",
	  "limit = \"1%\"; ceiling = \"8 MiB\"; mode = \"set\";\n"
	  "rules = ( { group = \"root\"; soft = \"2 MiB\"; },\n"
	  "          { uid = \"0-10\"; service = \"sshd\"; limit = \"1 MiB\"; } );\n",
	  0644, "root", PAM_SUCCESS },
	{ "dry_run", "conf=%s/memlock.conf dry_run bogus",
	  "limit = \"4 MiB\";\n", 0644, "root", PAM_SUCCESS },
	{ "bad value", "conf=%s/memlock.conf",
	  "limit = \"8 MB\";\nrules = ( { user = \"a\"; limit = \"1 MiB\"; } );\n",
	  0644, "root", PAM_SERVICE_ERR },
	{ "syntax error", "conf=%s/memlock.conf",
	  "limit = \"8 MiB\";\nrules = ( { user = \"a\"; \n", 0644, "root",
	  PAM_SERVICE_ERR },
	/* libconfig 1.5 itself leaks the string of this syntax error. */
	{ "misplaced string", "conf=%s/memlock.conf",
	  "limit \"8 MiB\";\n", 0644, "root", PAM_SERVICE_ERR },
	{ "include", "conf=%s/memlock.conf",
	  "@include \"/etc/passwd\"\n", 0644, "root", PAM_SERVICE_ERR },
	{ "unsafe file", "conf=%s/memlock.conf",
	  "limit = \"8 MiB\";\n", 0666, "root", PAM_SERVICE_ERR },
	{ "missing file", "conf=%s/absent.conf", NULL, 0, "root", PAM_SERVICE_ERR },
	{ "no user", "conf=%s/memlock.conf", "limit = \"8 MiB\";\n", 0644, NULL,
	  PAM_SESSION_ERR },
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static struct pml_pam_env envs[N_KINDS];

static void setup(void)
{
	size_t i;

	for (i = 0; i < N_KINDS; i++) {
		struct kind *k = &kinds[i];

		ck_assert_int_eq(pml_pam_env_make(&envs[i], pml_test_env("PML_MODULE"),
						  k->args, k->policy), 0);
		if (k->policy != NULL)
			ck_assert_int_eq(chmod(envs[i].policy, k->mode), 0);
	}
}

static void teardown(void)
{
	size_t i;

	for (i = 0; i < N_KINDS; i++)
		pml_pam_env_remove(&envs[i]);
}

static void cycle(int i)
{
	struct kind *k = &kinds[(size_t)i % N_KINDS];
	int rc;

	pml_capture_reset();
	rc = pml_pam_open_close(&envs[(size_t)i % N_KINDS], PML_TEST_SERVICE, k->user);
	ck_assert_msg(rc == k->rc, "cycle %d (%s): rc %d (%s), want %d; log:\n%s",
		      i, k->name, rc, pam_strerror(NULL, rc), k->rc,
		      pml_capture_text());
}

START_TEST(thousand_sessions_leave_nothing_behind)
{
	const char *tunables = getenv("GLIBC_TUNABLES");
	int fds, i;
	size_t heap, now;

	ck_assert_msg(tunables != NULL && strstr(tunables, NO_TCACHE) != NULL,
		      "GLIBC_TUNABLES must hold " NO_TCACHE ": run through make check");
	for (i = 0; i < (int)N_KINDS * WARM_UP; i++)
		cycle(i);
	fds = pml_count_fds();
	heap = mallinfo2().uordblks;
	for (; i < CYCLES; i++) {
		cycle(i);
		ck_assert_msg(pml_count_fds() == fds, "cycle %d (%s): %d descriptors open, %d before",
			      i, kinds[(size_t)i % N_KINDS].name, pml_count_fds(), fds);
	}
	now = mallinfo2().uordblks;
	ck_assert_msg(now <= heap + HEAP_SLACK,
		      "heap in use grew from %zu to %zu bytes over %d sessions",
		      heap, now, CYCLES - (int)N_KINDS * WARM_UP);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("soak");
	TCase *tc = tcase_create("soak");
	struct pml_skip skip = { "thousand_sessions_leave_nothing_behind",
		"policy files must be owned by root: run make check as root" };

	if (geteuid() != 0)
		return pml_run_tap(s, &skip, 1);
	tcase_add_checked_fixture(tc, setup, teardown);
	/* 1,000 dlopen/dlclose of the module take a while under valgrind. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, thousand_sessions_leave_nothing_behind);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
