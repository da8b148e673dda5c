/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Allocation failure at every site: out of memory inside sshd or login
 * must fail the session cleanly (PAM_BUF_ERR, nothing leaked, limits
 * untouched), wherever the allocation that fails is.  This program
 * defines malloc, calloc, realloc and the aligned allocators; libpam
 * dlopen()s the module, and every object (the module, libconfig, libpam,
 * glibc's NSS, strdup inside libc) binds to the executable's definitions
 * first (tests/module/failing_alloc.c).  Between a flag set just before
 * pam_open_session and cleared just after, the Nth allocation fails.  For N = 1, 2, ... each in a forked
 * child, until a session makes fewer than N allocations:
 *
 *   - the session ends: no crash, no hang (the parent waits with a deadline);
 *   - it returns PAM_BUF_ERR or PAM_SERVICE_ERR with RLIMIT_MEMLOCK
 *     untouched, or PAM_SUCCESS with exactly the limits of a session
 *     without failures, when the code that saw the failure recovered (each
 *     such site is listed in the log, by object and function);
 *   - no descriptor is left open, and after pam_end the allocations still
 *     live are those before pam_start (after a warm-up session, so that
 *     what glibc loads for good is loaded).
 *
 * Leaks are counted here by the allocator itself, in every build but the
 * sanitizer one: ASan has its own allocator, which this program's malloc
 * would bypass, so the cases skip there.  `make check-valgrind` runs this
 * program under memcheck too (--soname-synonyms=somalloc=nouserintercepts
 * leaves this malloc in place), whose leak check fails any child that
 * leaked after its failed allocation.
 */
#include <errno.h>
#include <execinfo.h>
#include <limits.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "failing_alloc.h"
#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

/* --- Sessions. */

#define SOFT0 (64u << 10)
#define HARD0 (8u << 20)
#define MAX_N 20000
#define CHILD_SECONDS 20

struct result {
	bool injected;
	int rc;
	uint64_t soft, hard;
	int fds_leaked;
	long live_leaked;
	char site[256];
};

static struct pml_pam_env env;

/* One session as the child runs it: pam_start, then pam_open_session with
 * allocation FAIL failing (0: none), pam_end. */
static void session(unsigned long fail, const char *user, struct result *out)
{
	pam_handle_t *pamh = NULL;
	struct pam_conv conv = { pml_no_conversation, NULL };
	int rc, fds;
	long before;

	ck_assert_int_eq(pml_memlock_set(SOFT0, HARD0), 0);
	pml_capture_reset();
	fds = pml_count_fds();
	before = live;
	rc = pam_start_confdir(PML_TEST_SERVICE, user, &conv, env.confdir, &pamh);
	ck_assert_int_eq(rc, PAM_SUCCESS);
	counted = 0;
	failed = false;
	fail_at = fail;
	armed = true;
	rc = pam_open_session(pamh, 0);
	armed = false;
	out->injected = failed;
	out->rc = rc;
	pml_memlock_get(&out->soft, &out->hard);
	pam_close_session(pamh, 0);
	pam_end(pamh, rc);
	out->fds_leaked = pml_count_fds() - fds;
	out->live_leaked = live - before;
	snprintf(out->site, sizeof(out->site), "%s", failed ? site : "");
}

/* A crash in the child: its stack on stderr (the test's log). */
static void on_crash(int sig)
{
	void *frames[32];
	int n = backtrace(frames, 32);

	backtrace_symbols_fd(frames, n, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Runs the session in a forked child with a deadline; false if it crashed
 * or hung. */
static bool in_child(unsigned long fail, const char *user, struct result *out,
		     void (*setup)(void), char *why, size_t why_len)
{
	out->injected = false;
	int pipefd[2], status;
	struct pollfd p;
	pid_t pid;
	ssize_t got;

	ck_assert_int_eq(pipe(pipefd), 0);
	site[0] = '\0';
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct result r, warm;

		close(pipefd[0]);
		signal(SIGSEGV, on_crash);
		signal(SIGABRT, on_crash);
		if (setup != NULL)
			setup();
		/* Warm-up: what libc, NSS and libpam load and keep for good. */
		session(0, user, &warm);
		memset(&r, 0, sizeof(r));
		session(fail, user, &r);
		if (write(pipefd[1], &r, sizeof(r)) != (ssize_t)sizeof(r))
			_exit(3);
		close(pipefd[1]); /* valgrind 3.23+ fails a child that exits with it open */
		_exit(0);
	}
	close(pipefd[1]);
	p = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	if (poll(&p, 1, CHILD_SECONDS * 1000) <= 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		close(pipefd[0]);
		snprintf(why, why_len, "hung (no answer in %d s)", CHILD_SECONDS);
		return false;
	}
	got = read(pipefd[0], out, sizeof(*out));
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	if (got != (ssize_t)sizeof(*out) || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		snprintf(why, why_len, "the child died (%s %d)",
			 WIFSIGNALED(status) ? "signal" : "status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return false;
	}
	return true;
}

/*
 * Fails each allocation of the session in turn.  WANT_RC is what the
 * session returns without failures, with limits WANT_SOFT/WANT_HARD.
 */
static void every_allocation(const char *user, void (*setup)(void), int want_rc,
			     uint64_t want_soft, uint64_t want_hard)
{
	struct result ref, r;
	unsigned long n, buf_err = 0, service_err = 0, recovered = 0, libconfig = 0,
		      audit = 0;
	char why[128];

	ck_assert_msg(in_child(0, user, &ref, setup, why, sizeof(why)), "%s", why);
	ck_assert_int_eq(ref.rc, want_rc);
	ck_assert_uint_eq(ref.soft, want_soft);
	ck_assert_uint_eq(ref.hard, want_hard);
	ck_assert_int_eq(ref.fds_leaked, 0);
	ck_assert_int_eq(ref.live_leaked, 0);
	for (n = 1; n <= MAX_N; n++) {
		if (!in_child(n, user, &r, setup, why, sizeof(why))) {
			/*
			 * libconfig 1.5 does not check its own allocations
			 * (config_init writes through calloc's NULL; its flex
			 * scanner exits the process): nothing the module can
			 * catch.  Listed, counted, and reported; any other
			 * site that dies fails the test.
			 */
			ck_assert_msg(site_is("libconfig.so"),
				      "allocation %lu (%s) failed: the session %s", n,
				      site[0] != '\0' ? site : "before any failure", why);
			fprintf(stderr, "# allocation %lu: %s failed and libconfig 1.5 %s\n",
				n, site, why);
			libconfig++;
			continue;
		}
		if (!r.injected)
			break;
		ck_assert_msg(r.fds_leaked == 0, "allocation %lu (%s) failed: %d descriptors left open",
			      n, r.site, r.fds_leaked);
		ck_assert_msg(r.live_leaked == 0, "allocation %lu (%s) failed: %ld allocations leaked",
			      n, r.site, r.live_leaked);
		if (r.rc == PAM_BUF_ERR || r.rc == PAM_SERVICE_ERR) {
			ck_assert_msg(r.soft == SOFT0 && r.hard == HARD0,
				      "allocation %lu (%s) failed: rc %d but limits changed to %llu/%llu",
				      n, r.site, r.rc, (unsigned long long)r.soft,
				      (unsigned long long)r.hard);
			if (r.rc == PAM_BUF_ERR)
				buf_err++;
			else
				service_err++;
			continue;
		}
		/*
		 * libpam writes an audit record (libaudit) after the modules
		 * ran; when that fails it returns PAM_SYSTEM_ERR whatever the
		 * module said.  Accepted for libpam's and libaudit's own
		 * allocations only, with the limits untouched or the module's.
		 */
		if (r.rc == PAM_SYSTEM_ERR && (site_is("libpam.so") || site_is("libaudit.so"))) {
			ck_assert_msg((r.soft == SOFT0 && r.hard == HARD0) ||
				      (r.soft == want_soft && r.hard == want_hard),
				      "allocation %lu (%s) failed: PAM_SYSTEM_ERR with limits %llu/%llu",
				      n, r.site, (unsigned long long)r.soft,
				      (unsigned long long)r.hard);
			fprintf(stderr, "# allocation %lu: %s failed: libpam says PAM_SYSTEM_ERR\n",
				n, r.site);
			audit++;
			continue;
		}
		ck_assert_msg(r.rc == want_rc && r.soft == want_soft && r.hard == want_hard,
			      "allocation %lu (%s) failed: rc %d, limits %llu/%llu: neither a clean error nor the session's own result",
			      n, r.site, r.rc, (unsigned long long)r.soft,
			      (unsigned long long)r.hard);
		/* Recovery is only believed of code that is not the module's:
		 * the module must report every failure it sees. */
		ck_assert_msg(strncmp(r.site, "pam_memlock.so", 14) != 0 &&
			      strncmp(r.site, "libc.so.6:strdup in pam_memlock.so", 34) != 0 &&
			      strncmp(r.site, "libc.so.6:strndup in pam_memlock.so", 35) != 0,
			      "allocation %lu failed in the module (%s), which went on as if not",
			      n, r.site);
		recovered++;
		fprintf(stderr, "# allocation %lu: %s recovered\n", n, r.site);
	}
	ck_assert_msg(n > 1 && n <= MAX_N, "no allocation to fail (n = %lu)", n);
	fprintf(stderr,
		"# %s: %lu allocations in the session; failing each: %lu PAM_BUF_ERR, %lu PAM_SERVICE_ERR, %lu recovered, %lu PAM_SYSTEM_ERR from libpam, %lu fatal inside libconfig 1.5\n",
		user, n - 1, buf_err, service_err, recovered, audit, libconfig);
}

/* Rules that need the uid and the groups, a share of RAM, debug logging. */
static const char nss_policy[] =
	"limit = \"1%\";\n"
	"ceiling = \"4 MiB\";\n"
	"rules = (\n"
	"  { uid = \"0-10\"; service = \"sshd\"; limit = \"3 MiB\"; },\n"
	"  { group = [\"root\", \"daemon\"]; soft = \"2 MiB\"; }\n"
	");\n";

START_TEST(each_allocation_of_a_session_with_nss_rules)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf debug", nss_policy), 0);
	every_allocation("root", NULL, PAM_SUCCESS, 2u << 20, HARD0);
	pml_pam_env_remove(&env);
}
END_TEST

START_TEST(each_allocation_of_a_refused_policy)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf",
					  "limit = \"8 MiB\";\nrules = ( { user = \"a\"; limit = \"1 MB\"; } );\n"),
			 0);
	every_allocation("root", NULL, PAM_SERVICE_ERR, SOFT0, HARD0);
	pml_pam_env_remove(&env);
}
END_TEST

/* The default file and drop-ins: in a private mount namespace, a tmpfs
 * over the default file's directory. */
static char default_dir[PATH_MAX];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0)
		_exit(4);
}

/* The nearest existing ancestor of the default directory gets the tmpfs
 * (under distcheck even $(sysconfdir) is missing); the rest is made in it. */
static void private_defaults(void)
{
	char path[PATH_MAX + 32], point[PATH_MAX], *p;
	struct stat st;

	snprintf(point, sizeof(point), "%s", default_dir);
	while (stat(point, &st) < 0 && (p = strrchr(point, '/')) != NULL && p != point)
		*p = '\0';
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("pml-alloc", point, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755") < 0)
		_exit(5);
	for (p = default_dir + strlen(point); *p == '/'; p = strchr(p + 1, '/')) {
		char *next = strchr(p + 1, '/');

		if (next != NULL)
			*next = '\0';
		if (mkdir(default_dir, 0755) < 0 && errno != EEXIST)
			_exit(7);
		if (next == NULL)
			break;
		*next = '/';
	}
	snprintf(path, sizeof(path), "%s/memlock.conf", default_dir);
	write_text(path, "limit = \"1 MiB\";\n");
	snprintf(path, sizeof(path), "%s/memlock.d", default_dir);
	if (mkdir(path, 0755) < 0)
		_exit(6);
	snprintf(path, sizeof(path), "%s/memlock.d/10-a.conf", default_dir);
	write_text(path, "hard = \"6 MiB\";\n");
	snprintf(path, sizeof(path), "%s/memlock.d/20-b.conf", default_dir);
	write_text(path, "rules = ( { user = \"root\"; soft = \"5 MiB\"; } );\n");
	snprintf(path, sizeof(path), "%s/memlock.d/README", default_dir);
	write_text(path, "ignored\n");
}

START_TEST(each_allocation_of_a_session_with_dropins)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), "", NULL), 0);
	every_allocation("root", private_defaults, PAM_SUCCESS, 5u << 20, HARD0);
	pml_pam_env_remove(&env);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("alloc_fail");
	TCase *tc = tcase_create("alloc_fail");
	struct pml_skip skips[3];
	size_t n_skips = 0;
	const char *san = getenv("PML_SANITIZERS"), *why = NULL;
	char *slash;

	if (!failing_alloc_init())
		return 99;
	snprintf(default_dir, sizeof(default_dir), "%s", PML_DEFAULT_CONF);
	slash = strrchr(default_dir, '/');
	*slash = '\0';
	tcase_set_timeout(tc, 600);
	suite_add_tcase(s, tc);
#ifdef __SANITIZE_ADDRESS__
	san = "yes";
#endif
	if (san != NULL && strcmp(san, "yes") == 0)
		why = "ASan's allocator: this program's malloc would bypass it (make check-valgrind runs it)";
	/* A case runs, or is reported skipped with WHY: never both. */
#define CASE(fn, reason)							\
	do {								\
		if ((reason) == NULL)					\
			tcase_add_test(tc, fn);				\
		else							\
			skips[n_skips++] = (struct pml_skip){ #fn, reason };	\
	} while (0)
	CASE(each_allocation_of_a_session_with_nss_rules, why);
	CASE(each_allocation_of_a_refused_policy, why);
	CASE(each_allocation_of_a_session_with_dropins,
	     why != NULL ? why
	     : geteuid() != 0 ? "needs root for a private mount namespace over the default directory"
	     : NULL);
	return pml_run_tap(s, skips, n_skips);
}
