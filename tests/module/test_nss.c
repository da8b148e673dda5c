/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Group and user lookups through glibc's own NSS, not nss_wrapper: each
 * case runs in a private mount namespace where a generated passwd, group
 * and nsswitch.conf are bind-mounted over the machine's, so that the real
 * files backend (with its ERANGE behaviour) answers.  The machine's /etc is
 * never written; the mounts die with the case's process.
 *
 * The group file holds one group of 90,000 members, like an Active
 * Directory "Domain Users", before the groups the rules name: glibc's files
 * backend then needs a buffer of nearly 2 MiB to read past it, whichever
 * group is asked for.
 *
 * The "pmltest" source (tests/module/nss_pmltest.c, built as libnss_pmltest.so.2)
 * fails the way an unreachable directory does.  glibc dlopen()s it by name,
 * so the program re-runs itself with tests/module/.libs on LD_LIBRARY_PATH.
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)

#define START_SOFT (64 * KiB)
#define TOP_LIMIT (512 * KiB)
#define TOP "limit = \"512 KiB\";\nmode = \"set\";\n"
#define SVC PML_TEST_SERVICE
#define PREFIX "pam_memlock(" SVC ":session): "

#define HUGE_MEMBERS 90000
/* A directory's big group: 20,000 members, as in make check-directory. */
#define BIG_MEMBERS 20000

static struct pml_pam_env env;
static uint64_t start_hard;

struct session {
	int rc;
	uint64_t soft, hard;
	unsigned fetches; /* getgrnam_r calls */
	char log[16384];
};

/* getgrnam_r, counted on its way to glibc: each call is one fetch of the
 * group from its source, and each ERANGE one more. */
static unsigned fetches;

int getgrnam_r(const char *name, struct group *gr, char *buf, size_t len,
	       struct group **result)
{
	static int (*next)(const char *, struct group *, char *, size_t,
			   struct group **);

	fetches++;
	if (next == NULL)
		next = (int (*)(const char *, struct group *, char *, size_t,
				struct group **))dlsym(RTLD_NEXT, "getgrnam_r");
	return next(name, gr, buf, len, result);
}

static struct session *last;

static const char passwd_text[] =
	"root:x:0:0:root:/root:/bin/sh\n"
	"pmluser:x:1000:1000:pml-test fixture:/:/bin/false\n"
	"pmlother:x:1001:1001:pml-test fixture:/:/bin/false\n"
	"pmlhalf:x:1002:1002:pml-test fixture:/:/bin/false\n";

/* The huge group comes first; staff and staff-alias share gid 5002. */
static void write_group_file(void)
{
	char path[PATH_MAX];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/group", env.dir);
	f = fopen(path, "we");
	ck_assert_ptr_nonnull(f);
	fputs("root:x:0:\nhuge:x:5000:", f);
	for (i = 0; i < HUGE_MEMBERS; i++)
		fprintf(f, "member%05d,", i);
	fputs("pmluser\n"
	      "pmluser:x:1000:\n"
	      "pmlother:x:1001:\n"
	      "pmlhalf:x:1002:\n"
	      "small:x:5001:pmluser\n"
	      "staff:x:5002:pmluser\n"
	      "staff-alias:x:5002:\n", f);
	ck_assert_int_eq(fclose(f), 0);
}

/* Without the huge group: "big" of BIG_MEMBERS, pmluser among them. */
static void write_big_group_file(void)
{
	char path[PATH_MAX];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/group", env.dir);
	f = fopen(path, "we");
	ck_assert_ptr_nonnull(f);
	fputs("root:x:0:\npmluser:x:1000:\npmlother:x:1001:\nbig:x:5000:pmluser", f);
	for (i = 1; i < BIG_MEMBERS; i++)
		fprintf(f, ",member%05d", i);
	fputs("\n", f);
	ck_assert_int_eq(fclose(f), 0);
}

static void bind_over(const char *name, const char *target)
{
	char from[PATH_MAX];

	snprintf(from, sizeof(from), "%s/%s", env.dir, name);
	ck_assert_msg(mount(from, target, NULL, MS_BIND, NULL) == 0,
		      "mount %s on %s: %s", from, target, strerror(errno));
}

/*
 * In this process and its children only: glibc reads NSSWITCH's passwd and
 * group from the files written here (the group file by WRITE_GROUPS).  Run
 * the module on POLICY.
 */
static void private_world_with(const char *nsswitch, const char *policy,
			       void (*write_groups)(void))
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf debug", policy), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "passwd", passwd_text), 0);
	write_groups();
	ck_assert_int_eq(pml_pam_env_write(&env, "nsswitch.conf", nsswitch), 0);
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	/* Private first, or the mounts would show up in the machine's namespace. */
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	bind_over("passwd", "/etc/passwd");
	bind_over("group", "/etc/group");
	bind_over("nsswitch.conf", "/etc/nsswitch.conf");
}

static void private_world(const char *nsswitch, const char *policy)
{
	private_world_with(nsswitch, policy, write_group_file);
}

#define FILES_ONLY "passwd: files\ngroup: files\n"
#define PMLTEST_PASSWD "passwd: files pmltest\ngroup: files\n"
#define PMLTEST_GROUP "passwd: files\ngroup: files pmltest\n"

static void setup(void)
{
	last = mmap(NULL, sizeof(*last), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(last, MAP_FAILED);
}

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

/* One session in a child process (a session can lower the hard limit). */
static const struct session *open_as(const char *user)
{
	int status;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		memset(last, 0, sizeof(*last));
		if (pml_memlock_set(START_SOFT, start_hard) < 0)
			_exit(2);
		pml_capture_reset();
		fetches = 0;
		last->rc = pml_pam_open_close(&env, SVC, user);
		last->fetches = fetches;
		pml_memlock_get(&last->soft, &last->hard);
		snprintf(last->log, sizeof(last->log), "%s", pml_capture_text());
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the session for %s died: status 0x%x", user, status);
	return last;
}

static void expect(const char *user, uint64_t want)
{
	const struct session *s = open_as(user);

	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == want && s->hard == want,
		      "%s: rc %d (%s), soft %llu, hard %llu; want %llu both\nlog:\n%s",
		      user, s->rc, pam_strerror(NULL, s->rc),
		      (unsigned long long)s->soft, (unsigned long long)s->hard,
		      (unsigned long long)want, s->log);
}

/* The fixture is what glibc answers: the huge line really is too big for
 * the 1 MiB a lookup used to stop at. */
START_TEST(fixture_is_what_glibc_reads)
{
	private_world(FILES_ONLY, TOP);
	{
		char *buf = malloc(MiB);
		struct group gr, *found = NULL;

		ck_assert_ptr_nonnull(buf);
		ck_assert_int_eq(getgrnam_r("small", &gr, buf, MiB, &found), ERANGE);
		free(buf);
	}
	ck_assert_ptr_nonnull(getgrnam("small"));
	ck_assert_uint_eq(getgrnam("staff-alias")->gr_gid, 5002);
	ck_assert_uint_eq(getpwnam("pmluser")->pw_uid, 1000);
}
END_TEST

/* A huge group the user is in must not fail the session (a buffer too
 * small for it is no "database unavailable") when a rule names another
 * group, or only a uid. */
START_TEST(huge_group_does_not_fail_a_rule_naming_another)
{
	private_world(FILES_ONLY, TOP "rules = ( { group = \"small\"; limit = \"1 MiB\"; } );\n");
	expect("pmluser", 1 * MiB);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

START_TEST(huge_group_does_not_fail_a_uid_rule)
{
	private_world(FILES_ONLY, TOP "rules = ( { uid = \"1000\"; limit = \"1 MiB\"; } );\n");
	expect("pmluser", 1 * MiB);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

START_TEST(rule_naming_the_huge_group_matches)
{
	private_world(FILES_ONLY, TOP "rules = ( { group = \"huge\"; limit = \"1 MiB\"; } );\n");
	expect("pmluser", 1 * MiB);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

/* Each ERANGE from getgrnam_r is one more fetch of the whole group: with
 * nslcd, one more LDAP search of all its members.  A group of 20,000
 * takes one. */
START_TEST(big_group_is_fetched_once)
{
	const struct session *s;

	private_world_with(FILES_ONLY, TOP "rules = ( { group = \"big\"; limit = \"1 MiB\"; } );\n",
			   write_big_group_file);
	s = open_as("pmluser");
	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == 1 * MiB,
		      "rc %d, soft %llu; log:\n%s", s->rc, (unsigned long long)s->soft, s->log);
	ck_assert_uint_eq(s->fetches, 1);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

/* Every name of a gid matches, as with pam_limits. */
START_TEST(second_name_of_a_gid_matches)
{
	private_world(FILES_ONLY, TOP "rules = ( { group = \"staff-alias\"; limit = \"1 MiB\"; } );\n");
	expect("pmluser", 1 * MiB);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

/* "Unknown user" and "user database unavailable" differ: a directory that
 * is down must not be reported as a user who does not exist. */

static void expect_untouched(const struct session *s, const char *user, int rc,
			     const char *line)
{
	ck_assert_msg(s->rc == rc, "%s: rc %d (%s), want %d (%s)\nlog:\n%s", user,
		      s->rc, pam_strerror(NULL, s->rc), rc, pam_strerror(NULL, rc),
		      s->log);
	ck_assert_uint_eq(s->soft, START_SOFT);
	ck_assert_uint_eq(s->hard, start_hard);
	ck_assert_msg(strstr(s->log, line) != NULL, "%s: log lacks\n  %s\nlog was:\n%s",
		      user, line, s->log);
}

#define UNREADABLE(user, why) "<3> " PREFIX "the user database could not be read for user \"" \
	user "\", and a rule needs their uid or groups: " why "\n"

/* glibc passes on the errno of a source that says UNAVAIL: ENOENT here,
 * as from nss_files without its file or nss-pam-ldapd without nslcd. */
START_TEST(unavailable_user_database_is_a_service_error)
{
	private_world(PMLTEST_PASSWD, TOP "rules = ( { uid = \"1000\"; limit = \"1 MiB\"; } );\n");
	expect_untouched(open_as("pml-unavail"), "pml-unavail", PAM_SERVICE_ERR,
			 UNREADABLE("pml-unavail", "No such file or directory"));
	expect_untouched(open_as("pml-unavail-eio"), "pml-unavail-eio", PAM_SERVICE_ERR,
			 UNREADABLE("pml-unavail-eio", "Input/output error"));
	/* The sources that do answer still work. */
	expect("pmluser", 1 * MiB);
}
END_TEST

START_TEST(try_again_is_a_service_error)
{
	private_world(PMLTEST_PASSWD, TOP "rules = ( { group = \"small\"; limit = \"1 MiB\"; } );\n");
	expect_untouched(open_as("pml-tryagain"), "pml-tryagain", PAM_SERVICE_ERR,
			 UNREADABLE("pml-tryagain", "Resource temporarily unavailable"));
}
END_TEST

/* Every source says NOTFOUND: that, and only that, is an unknown user. */
START_TEST(not_found_is_user_unknown)
{
	private_world(PMLTEST_PASSWD, TOP "rules = ( { uid = \"1000\"; limit = \"1 MiB\"; } );\n");
	expect_untouched(open_as("ghost"), "ghost", PAM_USER_UNKNOWN,
			 "<3> " PREFIX "user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

/* A group a rule names that cannot be read is not "not a member". */
START_TEST(unavailable_group_database_is_a_service_error)
{
	private_world(PMLTEST_GROUP, TOP "rules = ( { group = \"pml-unavail-group\"; limit = \"1 MiB\"; } );\n");
	expect_untouched(open_as("pmlother"), "pmlother", PAM_SERVICE_ERR,
			 UNREADABLE("pmlother", "No such file or directory"));
	/* A name no source knows matches no one, and is no error. */
	ck_assert_int_eq(pml_pam_env_write(&env, "memlock.conf",
					   TOP "rules = ( { group = \"nosuchgroup\"; limit = \"1 MiB\"; } );\n"), 0);
	expect("pmlother", TOP_LIMIT);
}
END_TEST

/*
 * glibc's getgrouplist passes over a source that fails while it asks (the
 * directory timed out) and reports nothing: the group is missing from the
 * list.  The group's own entry still names the user: the rule matches,
 * and a warning says that a source failed.
 */
START_TEST(group_a_failing_source_dropped_still_counts)
{
	gid_t gids[64];
	int n = 64, i;
	struct group *remote;

	private_world(PMLTEST_GROUP, TOP "rules = ( { group = \"pml-remote\"; limit = \"1 MiB\"; } );\n");
	/* The fixture: the list lacks gid 6000, whose entry names pmlhalf. */
	ck_assert_int_ge(getgrouplist("pmlhalf", 1002, gids, &n), 0);
	for (i = 0; i < n; i++)
		ck_assert_uint_ne(gids[i], 6000);
	remote = getgrnam("pml-remote");
	ck_assert_ptr_nonnull(remote);
	ck_assert_str_eq(remote->gr_mem[0], "pmlhalf");
	expect("pmlhalf", 1 * MiB);
	ck_assert_msg(strstr(last->log, "<4> " PREFIX "group \"pml-remote\" lists user \"pmlhalf\" as a member, but getgrouplist did not return it: a group source may have failed; the group counts\n") != NULL,
		      "log:\n%s", last->log);
	expect("pmlother", TOP_LIMIT);
	ck_assert_ptr_null(strstr(last->log, "getgrouplist did not return"));
}
END_TEST

static bool can_unshare_mounts(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 &&
		      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

#define REEXEC_MARK "PML_TEST_NSS_REEXECUTED"

/* Runs this program again with tests/module/.libs on LD_LIBRARY_PATH, where glibc
 * finds libnss_pmltest.so.2.  Returns only when that cannot be done. */
static void reexec_with_test_source(char **argv)
{
	const char *old = getenv("LD_LIBRARY_PATH");
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/tests/module/.libs%s%s", pml_test_env("PML_BUILDDIR"),
		 old != NULL && old[0] != '\0' ? ":" : "", old != NULL ? old : "");
	setenv("LD_LIBRARY_PATH", path, 1);
	setenv(REEXEC_MARK, "1", 1);
	execv("/proc/self/exe", argv);
	fprintf(stderr, "cannot re-run with LD_LIBRARY_PATH: %s\n", strerror(errno));
}

static bool test_source_built(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/tests/module/.libs/libnss_pmltest.so.2",
		 pml_test_env("PML_BUILDDIR"));
	return getenv(REEXEC_MARK) != NULL && access(path, R_OK) == 0;
}

int main(int argc, char **argv)
{
	Suite *s = suite_create("nss");
	TCase *files = tcase_create("files");
	TCase *failing = tcase_create("failing");
	struct pml_skip skips[16];
	size_t n_skips = 0;
	uint64_t soft;
	bool ok, source;
	const char *why;

	(void)argc;
	if (getenv(REEXEC_MARK) == NULL)
		reexec_with_test_source(argv);
	umask(022);
	pml_memlock_get(&soft, &start_hard);
	ok = geteuid() == 0 && start_hard >= 4 * MiB && can_unshare_mounts();
	why = geteuid() != 0 || start_hard < 4 * MiB
	      ? "policy files must be owned by root: run make check as root with a hard limit of 4 MiB or more"
	      : "unshare(CLONE_NEWNS) or mount is not permitted here";
	tcase_add_checked_fixture(files, setup, teardown);
	tcase_set_timeout(files, 60);
#define CASE(tc, fn) do { \
		if (ok) tcase_add_test(tc, fn); \
		else skips[n_skips++] = (struct pml_skip){ #fn, why }; \
	} while (0)
	CASE(files, fixture_is_what_glibc_reads);
	CASE(files, huge_group_does_not_fail_a_rule_naming_another);
	CASE(files, huge_group_does_not_fail_a_uid_rule);
	CASE(files, rule_naming_the_huge_group_matches);
	CASE(files, second_name_of_a_gid_matches);
	CASE(files, big_group_is_fetched_once);
	source = test_source_built();
	if (ok && !source)
		why = "tests/module/.libs/libnss_pmltest.so.2 was not built, or LD_LIBRARY_PATH could not be set";
	ok = ok && source;
	tcase_add_checked_fixture(failing, setup, teardown);
	CASE(failing, unavailable_user_database_is_a_service_error);
	CASE(failing, try_again_is_a_service_error);
	CASE(failing, not_found_is_user_unknown);
	CASE(failing, unavailable_group_database_is_a_service_error);
	CASE(failing, group_a_failing_source_dropped_still_counts);
	suite_add_tcase(s, files);
	suite_add_tcase(s, failing);
	return pml_run_tap(s, skips, n_skips);
}
