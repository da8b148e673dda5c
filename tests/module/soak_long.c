/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The long soak: sshd and login open sessions for months in one process,
 * so a leak of a few bytes a session is a leak that matters.  100,000
 * pam_start/pam_open_session/pam_close_session/pam_end cycles in one
 * process through the real module, going round sessions that apply a
 * policy with NSS rules, a dry run, a refused policy and a missing file.  Every 5,000 sessions the resident
 * set (/proc/self/statm) and the open descriptors are sampled; after a
 * 5,000-session warm-up the descriptors must not change, and the RSS must
 * not grow by more than RSS_SLACK over the rest of the run.  The slope of
 * RSS over sessions (least squares) goes to the log.
 *
 * PML_SOAK_SESSIONS changes the count (tests/run-all.sh runs it as
 * `make soak-long`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define DEFAULT_SESSIONS 100000
#define SAMPLE_EVERY 5000
#define RSS_SLACK (128 << 10)	/* bytes: a malloc arena's trim threshold */

struct kind {
	const char *args;
	const char *policy;
	int rc;
};

static const struct kind kinds[] = {
	{ "conf=%s/memlock.conf debug",
	  "limit = \"1%\"; ceiling = \"8 MiB\";\n"
	  "rules = ( { group = \"root\"; soft = \"2 MiB\"; },\n"
	  "          { uid = \"0-10\"; service = \"sshd\"; limit = \"1 MiB\"; } );\n",
	  PAM_SUCCESS },
	{ "conf=%s/memlock.conf dry_run", "limit = \"4 MiB\";\n", PAM_SUCCESS },
	{ "conf=%s/memlock.conf", "limit = \"8 MB\";\n", PAM_SERVICE_ERR },
	{ "conf=%s/absent.conf", NULL, PAM_SERVICE_ERR },
};
#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static long rss_bytes(void)
{
	long size, resident;
	FILE *f = fopen("/proc/self/statm", "re");

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = -1;
	fclose(f);
	return resident * sysconf(_SC_PAGESIZE);
}

START_TEST(hundred_thousand_sessions_stay_flat)
{
	static struct pml_pam_env envs[N_KINDS];
	const char *n_env = getenv("PML_SOAK_SESSIONS");
	long sessions = n_env != NULL ? atol(n_env) : DEFAULT_SESSIONS;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, slope;
	long i, first_rss = 0, last_rss = 0, n = 0;
	int fds = 0;
	struct timespec t0, t1;
	size_t k;

	ck_assert_int_ge(sessions, 4 * SAMPLE_EVERY);
	for (k = 0; k < N_KINDS; k++)
		ck_assert_int_eq(pml_pam_env_make(&envs[k], pml_test_env("PML_MODULE"),
						  kinds[k].args, kinds[k].policy), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < sessions; i++) {
		const struct kind *kind = &kinds[(size_t)i % N_KINDS];
		int rc;

		pml_capture_reset();
		rc = pml_pam_open_close(&envs[(size_t)i % N_KINDS], PML_TEST_SERVICE, "root");
		ck_assert_msg(rc == kind->rc, "session %ld: rc %d, want %d; log:\n%s", i, rc,
			      kind->rc, pml_capture_text());
		if ((i + 1) % SAMPLE_EVERY == 0) {
			long rss = rss_bytes();
			double x = (double)(i + 1);

			ck_assert_int_gt(rss, 0);
			fprintf(stderr, "# %ld sessions: RSS %ld KiB, %d descriptors\n", i + 1,
				rss >> 10, pml_count_fds());
			if (i + 1 == SAMPLE_EVERY) {
				fds = pml_count_fds();
				first_rss = rss;
				continue;
			}
			ck_assert_msg(pml_count_fds() == fds, "after %ld sessions: %d descriptors, %d before",
				      i + 1, pml_count_fds(), fds);
			last_rss = rss;
			n++;
			sx += x;
			sy += (double)rss;
			sxx += x * x;
			sxy += x * (double)rss;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	fprintf(stderr,
		"# %ld sessions in %.1f s (%.0f us each); RSS %ld -> %ld KiB after the warm-up; slope %.2f bytes per 1,000 sessions; descriptors %d throughout\n",
		sessions,
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
		((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
			(double)sessions,
		first_rss >> 10, last_rss >> 10, slope * 1000, fds);
	ck_assert_msg(last_rss - first_rss <= RSS_SLACK,
		      "RSS grew by %ld bytes over %ld sessions", last_rss - first_rss,
		      sessions - SAMPLE_EVERY);
	for (k = 0; k < N_KINDS; k++)
		pml_pam_env_remove(&envs[k]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("soak_long");
	TCase *tc = tcase_create("soak_long");
	struct pml_skip skip = { "hundred_thousand_sessions_stay_flat",
		"policy files must be owned by root: run as root" };

	tcase_set_timeout(tc, 1800);
	suite_add_tcase(s, tc);
	if (geteuid() != 0)
		return pml_run_tap(s, &skip, 1);
	tcase_add_test(tc, hundred_thousand_sessions_stay_flat);
	return pml_run_tap(s, NULL, 0);
}
