/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What the rule and drop-in tests share: the nss_wrapper fixtures (the
 * program runs itself again with tests/data/rules/passwd and group, so the
 * machine's own accounts are never read), NSS calls counted by
 * interposition, and sessions through the real module, each in a forked
 * process (a session that lowers the hard limit cannot raise it again).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "rules_env.h"
#include "syslog_capture.h"
#include "policy.h"
#include "safe_read.h"
#include "syslog_capture.h"



#define REEXEC_MARK "PML_TEST_RULES_UNDER_NSS_WRAPPER"

#if defined(__SANITIZE_ADDRESS__)
#define PML_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PML_ASAN 1
#endif
#endif

/* ---- Counting NSS calls ----------------------------------------------
 * The module is dlopen()ed by libpam; its calls to these functions bind to
 * the executable's definitions first, as pam_syslog's syslog() does in
 * syslog_capture.c.  Each one counts and passes the call on to the next
 * definition: nss_wrapper's, or libc's. */

struct nss_calls calls;

unsigned nss_total(const struct nss_calls *c)
{
	return c->getpwnam + c->getpwnam_r + c->getpwuid + c->getpwuid_r +
	       c->getgrnam + c->getgrnam_r + c->getgrgid + c->getgrgid_r +
	       c->getgrouplist;
}

#define PASS_ON_AS(ret, name, params, args, result)			\
	ret name params							\
	{								\
		static ret (*next) params;				\
		ret rc;							\
									\
		calls.name++;						\
		if (next == NULL)					\
			next = (ret (*) params)dlsym(RTLD_NEXT, #name);	\
		rc = next args;						\
		return result;						\
	}
#define PASS_ON(ret, name, params, args) PASS_ON_AS(ret, name, params, args, rc)

/* nss_wrapper says "not found" with ENOENT, where glibc returns 0 and no
 * entry; from glibc, ENOENT means that a source was unavailable (see
 * identity.c).  These two pass nss_wrapper's answers on as glibc's. */
#define GLIBC_NOT_FOUND (rc == ENOENT && *r == NULL ? 0 : rc)

PASS_ON(struct passwd *, getpwnam, (const char *n), (n))
PASS_ON(struct passwd *, getpwuid, (uid_t u), (u))
PASS_ON_AS(int, getpwnam_r, (const char *n, struct passwd *p, char *b, size_t l,
			     struct passwd **r), (n, p, b, l, r), GLIBC_NOT_FOUND)
PASS_ON(int, getpwuid_r, (uid_t u, struct passwd *p, char *b, size_t l,
			  struct passwd **r), (u, p, b, l, r))
PASS_ON(struct group *, getgrnam, (const char *n), (n))
PASS_ON(struct group *, getgrgid, (gid_t g), (g))
PASS_ON_AS(int, getgrnam_r, (const char *n, struct group *g, char *b, size_t l,
			     struct group **r), (n, g, b, l, r), GLIBC_NOT_FOUND)
PASS_ON(int, getgrgid_r, (gid_t i, struct group *g, char *b, size_t l,
			  struct group **r), (i, g, b, l, r))
PASS_ON(int, getgrouplist, (const char *u, gid_t g, gid_t *gs, int *n),
	(u, g, gs, n))

/* Runs this program again with nss_wrapper preloaded on the fixtures.
 * Returns only when that cannot be done. */
void reexec_under_nss_wrapper(char **argv)
{
	const char *data = pml_test_env("PML_TESTDATA");
	const char *lib = getenv("PML_NSS_WRAPPER");
	const char *preload = getenv("LD_PRELOAD");
	char path[PATH_MAX], list[PATH_MAX * 2];

	if (getenv(REEXEC_MARK) != NULL)
		return;
	snprintf(path, sizeof(path), "%s/rules/passwd", data);
	setenv("NSS_WRAPPER_PASSWD", path, 1);
	snprintf(path, sizeof(path), "%s/rules/group", data);
	setenv("NSS_WRAPPER_GROUP", path, 1);
	snprintf(list, sizeof(list), "%s%s%s",
		 lib != NULL ? lib : "libnss_wrapper.so",
		 preload != NULL && preload[0] != '\0' ? ":" : "",
		 preload != NULL ? preload : "");
	setenv("LD_PRELOAD", list, 1);
	setenv(REEXEC_MARK, "1", 1);
#ifdef PML_ASAN
	/* ASan insists on coming first among the libraries, and a preload
	 * goes before it.  Harmless here: nss_wrapper replaces no allocator. */
	{
		const char *asan = getenv("ASAN_OPTIONS");
		char options[1024];

		snprintf(options, sizeof(options), "%s%sverify_asan_link_order=0",
			 asan != NULL ? asan : "",
			 asan != NULL && asan[0] != '\0' ? ":" : "");
		setenv("ASAN_OPTIONS", options, 1);
	}
#endif
	execv("/proc/self/exe", argv);
	fprintf(stderr, "cannot re-run under nss_wrapper: %s\n", strerror(errno));
}

/* The fixture users are there, and nothing of the machine's own. */
bool fixtures_in_use(void)
{
	struct passwd *pw = getpwnam("u1999");

	return pw != NULL && pw->pw_uid == 1999 &&
	       strstr(pw->pw_gecos, "pml-test fixture") != NULL &&
	       getpwnam("daemon") == NULL;
}

/* ---- Sessions through the module -------------------------------------- */

struct pml_pam_env env;
uint64_t start_hard;
struct session *last;

void session_setup(void)
{
	last = mmap(NULL, sizeof(*last), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(last, MAP_FAILED);
}

void session_teardown(void)
{
	pml_pam_env_remove(&env);
}

/* pam.d/SERVICE: the same stack as pml-test, with the given arguments. */
void add_service(const char *service, const char *args)
{
	char name[128], line[1024], expanded[512];

	snprintf(expanded, sizeof(expanded), args, env.dir);
	snprintf(line, sizeof(line), "session required %s %s\n",
		 pml_test_env("PML_MODULE"), expanded);
	snprintf(name, sizeof(name), "pam.d/%s", service);
	ck_assert_int_eq(pml_pam_env_write(&env, name, line), 0);
}

/* A private PAM directory whose services pml-test, sshd and login all run
 * the module with ARGS on POLICY (written to DIR/memlock.conf unless NULL). */
void use(const char *args, const char *policy)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  policy), 0);
	add_service("sshd", args);
	add_service("login", args);
}

void use_policy(const char *policy)
{
	use("conf=%s/memlock.conf debug", policy);
}

/* Opens and closes one session in a child process; *last holds the result. */
const struct session *open_as(const char *service, const char *user)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		memset(last, 0, sizeof(*last));
		if (pml_memlock_set(START_SOFT, start_hard) < 0)
			_exit(2);
		memset(&calls, 0, sizeof(calls));
		pml_capture_reset();
		last->rc = pml_pam_open_close(&env, service, user);
		last->calls = calls;
		pml_memlock_get(&last->soft, &last->hard);
		snprintf(last->log, sizeof(last->log), "%s", pml_capture_text());
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the session for %s (%s) died: status 0x%x", user, service,
		      status);
	return last;
}

/* USER opening a SERVICE session gets WANT as both limits ("set" mode). */
void expect(const char *service, const char *user, uint64_t want)
{
	const struct session *s = open_as(service, user);

	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == want && s->hard == want,
		      "%s via %s: rc %d, soft %llu, hard %llu; want %llu both\nlog:\n%s",
		      user, service, s->rc, (unsigned long long)s->soft,
		      (unsigned long long)s->hard, (unsigned long long)want, s->log);
}

void assert_logged(const struct session *s, const char *line)
{
	ck_assert_msg(strstr(s->log, line) != NULL,
		      "log lacks\n  %s\nlog was:\n%s", line, s->log);
}

bool can_unshare_mounts(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 &&
		      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

bool rules_env_start(char **argv, bool *nss)
{
	uint64_t soft;

	reexec_under_nss_wrapper(argv);
	umask(022);
	*nss = fixtures_in_use();
	pml_memlock_get(&soft, &start_hard);
	return geteuid() == 0 && start_hard >= 4 * MiB;
}

void add_case(struct cases *c, const TTest *test, bool ok, const char *why)
{
	if (ok)
		tcase_add_test(c->tc, test);
	else
		c->skips[c->n_skips++] = (struct pml_skip){ .name = test->name, .reason = why };
}
