/*
 * Rules (user, group, uid, service) and the memlock.d/ drop-ins, proven
 * with fake users and groups: the program re-runs itself under nss_wrapper
 * with tests/data/rules/passwd and group, so the machine's own accounts are
 * never read.  Three kinds of case:
 *   module:     the real module through libpam, each session in its own
 *               forked process (a session that lowers the hard limit cannot
 *               raise it again), NSS calls counted by interposing them here;
 *   dropins:    the loader on a private directory (no PAM, no root needed);
 *   namespace:  the module reading its compiled-in default file and the
 *               drop-ins beside it, in a private mount namespace.
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

#include "decide.h"
#include "evaluate.h"
#include "harness.h"
#include "log_buffer.h"
#include "pam_session.h"
#include "policy.h"
#include "safe_read.h"
#include "syslog_capture.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)

/* Every session starts from this soft limit and the machine's hard one. */
#define START_SOFT (64 * KiB)
/* What the top level of most policies below gives: no rule decided. */
#define TOP_LIMIT (512 * KiB)
#define TOP "limit = \"512 KiB\";\nmode = \"set\";\n"

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

struct nss_calls {
	unsigned getpwnam, getpwnam_r, getpwuid, getpwuid_r;
	unsigned getgrnam, getgrnam_r, getgrgid, getgrgid_r, getgrouplist;
};

static struct nss_calls calls;

static unsigned nss_total(const struct nss_calls *c)
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
static void reexec_under_nss_wrapper(char **argv)
{
	const char *data = pml_test_env("PML_TESTDATA");
	const char *lib = getenv("PML_NSS_WRAPPER");
	const char *preload = getenv("LD_PRELOAD");
	char path[PATH_MAX], list[PATH_MAX * 2];

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
static bool fixtures_in_use(void)
{
	struct passwd *pw = getpwnam("u1999");

	return pw != NULL && pw->pw_uid == 1999 &&
	       strstr(pw->pw_gecos, "pml-test fixture") != NULL &&
	       getpwnam("daemon") == NULL;
}

/* ---- Sessions through the module -------------------------------------- */

static struct pml_pam_env env;
static uint64_t start_hard;

/* What one session did, written by the process that ran it. */
struct session {
	int rc;
	uint64_t soft, hard;
	struct nss_calls calls;
	char log[16384];
};

static struct session *last;

static void session_setup(void)
{
	last = mmap(NULL, sizeof(*last), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(last, MAP_FAILED);
}

static void session_teardown(void)
{
	pml_pam_env_remove(&env);
}

/* pam.d/SERVICE: the same stack as pml-test, with the given arguments. */
static void add_service(const char *service, const char *args)
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
static void use(const char *args, const char *policy)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  policy), 0);
	add_service("sshd", args);
	add_service("login", args);
}

static void use_policy(const char *policy)
{
	use("conf=%s/memlock.conf debug", policy);
}

/* Opens and closes one session in a child process; *last holds the result. */
static const struct session *open_as(const char *service, const char *user)
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
static void expect(const char *service, const char *user, uint64_t want)
{
	const struct session *s = open_as(service, user);

	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == want && s->hard == want,
		      "%s via %s: rc %d, soft %llu, hard %llu; want %llu both\nlog:\n%s",
		      user, service, s->rc, (unsigned long long)s->soft,
		      (unsigned long long)s->hard, (unsigned long long)want, s->log);
}

static void assert_logged(const struct session *s, const char *line)
{
	ck_assert_msg(strstr(s->log, line) != NULL,
		      "log lacks\n  %s\nlog was:\n%s", line, s->log);
}

#define SVC PML_TEST_SERVICE
#define PREFIX(service) "pam_memlock(" service ":session): "

START_TEST(user_rule_matches_that_user_only)
{
	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
	expect(SVC, "root", TOP_LIMIT);
}
END_TEST

START_TEST(user_list_matches_any_element)
{
	use_policy(TOP "rules = ( { user = [\"bob\", \"alice\"]; limit = \"1 MiB\"; },\n"
		   "          { user = (\"u999\"); limit = \"2 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", 1 * MiB);
	expect(SVC, "u999", 2 * MiB);
	expect(SVC, "u1999", TOP_LIMIT);
}
END_TEST

/* bob's primary group is "users"; the group file lists no members for it. */
START_TEST(group_matches_the_primary_group)
{
	use_policy(TOP "rules = ( { group = \"users\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "bob", 1 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

/* alice is in video only through the group file's member list. */
START_TEST(group_matches_a_supplementary_group)
{
	use_policy(TOP "rules = ( { group = \"video\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

START_TEST(group_list_matches_any_element)
{
	use_policy(TOP "rules = ( { group = [\"nosuchgroup\", \"audio\"]; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "orphan", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

/* joiner is in 41 groups, crowd in 1,101: more than the first
 * getgrouplist buffer holds (1,024). */
START_TEST(group_found_beyond_the_first_32)
{
	use_policy(TOP "rules = ( { group = \"joined40\"; limit = \"1 MiB\"; },\n"
		       "          { group = \"crowd1100\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "joiner", 1 * MiB);
	expect(SVC, "crowd", 2 * MiB);
}
END_TEST

/* orphan's primary gid 4242 has no group entry: it matches no name, not
 * even "4242" (group names are names), and the other groups still count. */
START_TEST(group_names_are_never_gids)
{
	use_policy(TOP "rules = ( { group = \"4242\"; limit = \"1 MiB\"; },\n"
		   "          { group = \"29\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "orphan", TOP_LIMIT);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(uid_range_edges)
{
	use_policy(TOP "rules = ( { uid = \"1000-1999\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "u999", TOP_LIMIT);		/* first - 1 */
	expect(SVC, "alice", 1 * MiB);		/* first */
	expect(SVC, "u1999", 1 * MiB);		/* last */
	expect(SVC, "u2000", TOP_LIMIT);	/* last + 1 */
}
END_TEST

START_TEST(uid_open_ranges_and_single_uids)
{
	use_policy(TOP "rules = (\n"
		   "  { uid = \"-999\"; limit = \"1 MiB\"; },\n"
		   "  { uid = \"1000\"; limit = \"2 MiB\"; },\n"
		   "  { uid = \"2000-\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	expect(SVC, "root", 1 * MiB);		/* uid 0 */
	expect(SVC, "u999", 1 * MiB);
	expect(SVC, "alice", 2 * MiB);		/* 1000 */
	expect(SVC, "bob", TOP_LIMIT);		/* 1001 */
	expect(SVC, "u1999", TOP_LIMIT);
	expect(SVC, "u2000", 3 * MiB);
	expect(SVC, "joiner", 3 * MiB);		/* 3000 */
}
END_TEST

START_TEST(uid_list_matches_any_range)
{
	use_policy(TOP "rules = ( { uid = [\"0\", \"1999-2000\"]; limit = \"1 MiB\"; } );\n");
	expect(SVC, "root", 1 * MiB);
	expect(SVC, "u1999", 1 * MiB);
	expect(SVC, "u2000", 1 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(service_rules_match_the_pam_service)
{
	use_policy(TOP "rules = ( { service = \"sshd\"; limit = \"1 MiB\"; },\n"
		   "          { service = [\"login\", \"nosuchservice\"]; limit = \"2 MiB\"; } );\n");
	expect("sshd", "alice", 1 * MiB);
	expect("login", "alice", 2 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

START_TEST(every_key_of_a_rule_must_match)
{
	use_policy(TOP "rules = ( { user = \"alice\"; service = \"sshd\"; group = \"audio\";\n"
		   "            uid = \"1000\"; limit = \"1 MiB\"; } );\n");
	expect("sshd", "alice", 1 * MiB);
	expect("login", "alice", TOP_LIMIT);
	expect("sshd", "bob", TOP_LIMIT);
	expect("sshd", "orphan", TOP_LIMIT);	/* in audio, but not alice */
}
END_TEST

START_TEST(last_matching_rule_wins)
{
	use_policy(TOP "rules = (\n"
		   "  { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "  { group = \"audio\"; limit = \"2 MiB\"; },\n"
		   "  { user = \"bob\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	expect(SVC, "alice", 2 * MiB);
	expect(SVC, "orphan", 2 * MiB);
	expect(SVC, "bob", 3 * MiB);
}
END_TEST

/* A rule without match keys matches everyone, and needs no NSS. */
START_TEST(rule_without_match_keys_matches_everyone)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "          { limit = \"2 MiB\"; } );\n");
	expect(SVC, "alice", 2 * MiB);
	expect("sshd", "bob", 2 * MiB);
	s = open_as(SVC, "ghost");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(nss_total(&s->calls), 0);
}
END_TEST

START_TEST(rule_takes_missing_settings_from_the_top_level)
{
	const struct session *s;

	use_policy("limit = \"3 MiB\";\nmode = \"set\";\n"
		   "rules = ( { user = \"alice\"; soft = \"1 MiB\"; },\n"
		   "          { user = \"bob\"; mode = \"raise\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->hard, 3 * MiB);
	/* raise: the hard limit the session already had is kept. */
	s = open_as(SVC, "bob");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	ck_assert_uint_eq(s->soft, 3 * MiB);
	ck_assert_uint_eq(s->hard, start_hard);
}
END_TEST

/* The user named "1000" has uid 5001, the one named "0" uid 5000.  Two
 * policies, so that the last match cannot hide a wrong one; the first has
 * a uid rule matching nobody, so that the uids are known to the module. */
START_TEST(user_named_like_a_number_is_not_that_uid)
{
	use_policy(TOP "rules = (\n"
		   "  { uid = \"99999\"; limit = \"3 MiB\"; },\n"
		   "  { user = \"1000\"; limit = \"1 MiB\"; },\n"
		   "  { user = \"0\"; limit = \"2 MiB\"; }\n"
		   ");\n");
	expect(SVC, "1000", 1 * MiB);
	expect(SVC, "0", 2 * MiB);
	expect(SVC, "alice", TOP_LIMIT);
	expect(SVC, "root", TOP_LIMIT);
	pml_pam_env_remove(&env);

	use_policy(TOP "rules = (\n"
		   "  { uid = \"1000\"; limit = \"3 MiB\"; },\n"
		   "  { uid = \"0\"; limit = \"4 MiB\"; }\n"
		   ");\n");
	expect(SVC, "1000", TOP_LIMIT);
	expect(SVC, "0", TOP_LIMIT);
	expect(SVC, "alice", 3 * MiB);
	expect(SVC, "root", 4 * MiB);
}
END_TEST

START_TEST(unknown_user_with_a_uid_rule_is_user_unknown)
{
	const struct session *s;

	use_policy(TOP "rules = ( { uid = \"1000-\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "ghost");
	ck_assert_int_eq(s->rc, PAM_USER_UNKNOWN);
	ck_assert_uint_eq(s->soft, START_SOFT);
	ck_assert_uint_eq(s->hard, start_hard);
	assert_logged(s, "<3> " PREFIX(SVC) "user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

/* Even when the group rule could never match: the policy needs the user. */
START_TEST(unknown_user_with_a_group_rule_is_user_unknown)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; group = \"audio\"; limit = \"1 MiB\"; } );\n");
	s = open_as("sshd", "ghost");
	ck_assert_int_eq(s->rc, PAM_USER_UNKNOWN);
	ck_assert_uint_eq(s->soft, START_SOFT);
	ck_assert_uint_eq(s->hard, start_hard);
	assert_logged(s, "<3> " PREFIX("sshd") "user \"ghost\" is unknown to NSS, and a rule needs their uid or groups\n");
}
END_TEST

START_TEST(unknown_user_needs_no_nss_without_uid_or_group_rules)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = \"alice\"; limit = \"1 MiB\"; },\n"
		   "          { service = \"sshd\"; limit = \"2 MiB\"; } );\n");
	expect(SVC, "ghost", TOP_LIMIT);
	expect("sshd", "ghost", 2 * MiB);
	s = open_as("sshd", "ghost");
	ck_assert_uint_eq(nss_total(&s->calls), 0);
}
END_TEST

START_TEST(user_and_service_rules_make_no_nss_call)
{
	const struct session *s;

	use_policy(TOP "rules = ( { user = [\"alice\", \"bob\"]; limit = \"1 MiB\"; },\n"
		   "          { service = \"sshd\"; user = \"alice\"; limit = \"2 MiB\"; } );\n");
	s = open_as("sshd", "alice");
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_msg(nss_total(&s->calls) == 0, "%u NSS calls", nss_total(&s->calls));
	s = open_as(SVC, "root");
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_msg(nss_total(&s->calls) == 0, "%u NSS calls", nss_total(&s->calls));
}
END_TEST

/* The counters see the module's calls: without this, zero proves nothing.
 * A group named in a rule is resolved to its gid, which is looked for among
 * the user's: no group's name is ever asked by gid. */
START_TEST(group_rule_asks_nss_once)
{
	const struct session *s;

	use_policy(TOP "rules = ( { group = \"audio\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getpwnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrgid_r, 0);
	ck_assert_uint_eq(nss_total(&s->calls), 3);
}
END_TEST

/* joiner is in 41 groups: one getgrnam_r for the one name, not 41 lookups. */
START_TEST(group_lookups_follow_the_names_not_the_memberships)
{
	const struct session *s;

	use_policy(TOP "rules = ( { group = \"joined40\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "joiner");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	ck_assert_uint_eq(s->calls.getgrgid_r, 0);
	/* getgrouplist once: its first buffer holds 1,024 gids.  Each call
	 * asks every source again (with nslcd, an LDAP search). */
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(nss_total(&s->calls), 3);
	/* crowd is in 1,101 groups: getgrouplist twice. */
	use_policy(TOP "rules = ( { group = \"crowd1100\"; limit = \"1 MiB\"; } );\n");
	s = open_as(SVC, "crowd");
	ck_assert_uint_eq(s->soft, 1 * MiB);
	ck_assert_uint_eq(s->calls.getgrouplist, 2);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
}
END_TEST

/* sound is a second name of audio's gid 29 (pam_limits matches it too). */
START_TEST(group_matches_every_name_of_a_gid)
{
	use_policy(TOP "rules = ( { group = \"sound\"; limit = \"1 MiB\"; } );\n");
	expect(SVC, "alice", 1 * MiB);
	expect(SVC, "orphan", 1 * MiB);
	expect(SVC, "bob", TOP_LIMIT);
}
END_TEST

/* The last matching rule decides: names only earlier rules hold are not
 * asked once a later rule matches, nor those of a rule whose other keys
 * fail; the decision is the same as with every name resolved. */
START_TEST(group_lookups_stop_at_the_deciding_rule)
{
	const struct session *s;

	use_policy(TOP "rules = (\n"
		   "  { group = \"video\"; limit = \"1 MiB\"; },\n"
		   "  { group = [\"users\", \"audio\"]; limit = \"2 MiB\"; },\n"
		   "  { user = \"bob\"; group = \"joined01\"; limit = \"3 MiB\"; }\n"
		   ");\n");
	s = open_as(SVC, "alice");		/* users? no; audio: yes */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 2);
	s = open_as(SVC, "bob");		/* joined01? no; users: yes */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 2);
	s = open_as(SVC, "u999");		/* in users (primary gid 100) */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1);
	s = open_as(SVC, "orphan");		/* audio; never video */
	ck_assert_uint_eq(s->soft, 2 * MiB);
	s = open_as(SVC, "joiner");		/* in none: every name asked once */
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_uint_eq(s->calls.getgrnam_r, 3);
}
END_TEST

/* The performance requirement's logic: each distinct name is resolved at
 * most once per session, whatever the number of rules that name it, and
 * not at all once a later rule has decided. */
START_TEST(thousand_group_rules_ask_nss_as_often_as_one)
{
	char *policy = malloc(PML_FILE_MAX);
	struct nss_calls one;
	const struct session *s;
	size_t used;
	int i;

	ck_assert_ptr_nonnull(policy);
	used = (size_t)snprintf(policy, PML_FILE_MAX, "%s", TOP "rules = (\n");
	for (i = 0; i < 999; i++)
		used += (size_t)snprintf(policy + used, PML_FILE_MAX - used,
					 "  { group = [\"team%03d\", \"video\"]; limit = \"1 MiB\"; },\n",
					 i);
	snprintf(policy + used, PML_FILE_MAX - used,
		 "  { group = \"video\"; limit = \"2 MiB\"; }\n);\n");
	ck_assert_uint_lt(strlen(policy), PML_FILE_MAX);

	use_policy(TOP "rules = ( { group = \"video\"; limit = \"2 MiB\"; } );\n");
	s = open_as(SVC, "alice");
	ck_assert_uint_eq(s->soft, 2 * MiB);
	one = s->calls;
	pml_pam_env_remove(&env);

	use_policy(policy);
	s = open_as(SVC, "alice");
	ck_assert_msg(s->rc == PAM_SUCCESS && s->soft == 2 * MiB, "rc %d\n%s",
		      s->rc, s->log);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getpwnam_r, 1);
	ck_assert_int_eq(memcmp(&s->calls, &one, sizeof(one)), 0);
	/* bob is in none of them: no rule decides, so each distinct name is
	 * asked, once: video (named 1,000 times) and team000..team998. */
	s = open_as(SVC, "bob");
	ck_assert_uint_eq(s->soft, TOP_LIMIT);
	ck_assert_uint_eq(s->calls.getgrouplist, 1);
	ck_assert_uint_eq(s->calls.getgrnam_r, 1000);
	free(policy);
}
END_TEST

START_TEST(debug_names_the_deciding_rule_as_file_and_line)
{
	const struct session *s;
	char line[1024];

	use_policy("# line 1\n" TOP "\n"
		   "rules = (\n"			/* line 5 */
		   "  { user = \"bob\"; limit = \"3 MiB\"; },\n"
		   "  {\n"				/* line 7 */
		   "    group = \"audio\";\n"
		   "    soft = \"256 KiB\";\n"	/* line 9 */
		   "  }\n"
		   ");\n");
	s = open_as("sshd", "alice");
	ck_assert_int_eq(s->rc, PAM_SUCCESS);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "user \"alice\" service \"sshd\": rule %s:7 decides, mode set\n",
		 env.policy);
	assert_logged(s, line);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "soft 256 KiB (%s:9)\n", env.policy);
	assert_logged(s, line);
	snprintf(line, sizeof(line), "<7> " PREFIX("sshd") "hard 512 KiB (%s:2)\n", env.policy);
	assert_logged(s, line);

	s = open_as(SVC, "u999");
	snprintf(line, sizeof(line), "<7> " PREFIX(SVC) "user \"u999\" service \"" SVC "\": no rule matched, top level decides, mode set\n");
	assert_logged(s, line);
}
END_TEST

/* conf= reads its file alone, even with a memlock.d/ beside it. */
START_TEST(conf_argument_reads_no_dropins)
{
	char dir[128];

	use_policy(TOP);
	snprintf(dir, sizeof(dir), "%s/memlock.d", env.dir);
	ck_assert_int_eq(mkdir(dir, 0755), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "memlock.d/50-alice.conf",
					   "rules = ( { user = \"alice\"; limit = \"1 MiB\"; } );\n"), 0);
	expect(SVC, "alice", TOP_LIMIT);
}
END_TEST

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
	struct pml_identity identity = { user, service, false, 0, NULL, 0 };
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

int main(int argc, char **argv)
{
	Suite *s = suite_create("rules");
	TCase *module = tcase_create("module");
	TCase *tree = tcase_create("dropins");
	TCase *ns = tcase_create("namespace");
	struct pml_skip skips[64];
	size_t n_skips = 0;
	uint64_t soft;
	char point[PATH_MAX];
	bool root = geteuid() == 0, nss, mounts, shallow, pam;

	(void)argc;
	if (getenv(REEXEC_MARK) == NULL)
		reexec_under_nss_wrapper(argv);
	umask(022);
	nss = fixtures_in_use();
	pml_memlock_get(&soft, &start_hard);
	shallow = default_dir_mount_point(point, sizeof(point)) < 0;
	mounts = root && !shallow && can_unshare_mounts();
	/* Policy files must be root's; "set" mode lowers to at most 4 MiB. */
	pam = root && start_hard >= 4 * MiB;

	tcase_add_checked_fixture(module, session_setup, session_teardown);
	tcase_add_checked_fixture(tree, tree_setup, tree_teardown);
	tcase_add_checked_fixture(ns, session_setup, session_teardown);
#define CASE(tc, fn, ok, why) do { \
		if (ok) tcase_add_test(tc, fn); \
		else skips[n_skips++] = (struct pml_skip){ #fn, why }; \
	} while (0)
#define NEED_NSS "nss_wrapper (libnss_wrapper.so, package libnss-wrapper) could not be preloaded"
#define NEED_ROOT "policy files must be owned by root: run make check as root with a hard limit of 4 MiB or more"
	CASE(module, user_rule_matches_that_user_only, pam, NEED_ROOT);
	CASE(module, user_list_matches_any_element, pam, NEED_ROOT);
	CASE(module, group_matches_the_primary_group, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_matches_a_supplementary_group, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_list_matches_any_element, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_found_beyond_the_first_32, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_names_are_never_gids, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_range_edges, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_open_ranges_and_single_uids, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, uid_list_matches_any_range, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, service_rules_match_the_pam_service, pam, NEED_ROOT);
	CASE(module, every_key_of_a_rule_must_match, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, last_matching_rule_wins, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, rule_without_match_keys_matches_everyone, pam, NEED_ROOT);
	CASE(module, rule_takes_missing_settings_from_the_top_level, pam, NEED_ROOT);
	CASE(module, user_named_like_a_number_is_not_that_uid, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, unknown_user_with_a_uid_rule_is_user_unknown, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, unknown_user_with_a_group_rule_is_user_unknown, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, unknown_user_needs_no_nss_without_uid_or_group_rules, pam, NEED_ROOT);
	CASE(module, user_and_service_rules_make_no_nss_call, pam, NEED_ROOT);
	CASE(module, group_rule_asks_nss_once, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_lookups_follow_the_names_not_the_memberships, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_matches_every_name_of_a_gid, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, group_lookups_stop_at_the_deciding_rule, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, thousand_group_rules_ask_nss_as_often_as_one, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, debug_names_the_deciding_rule_as_file_and_line, pam && nss, pam ? NEED_NSS : NEED_ROOT);
	CASE(module, conf_argument_reads_no_dropins, pam, NEED_ROOT);

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

	suite_add_tcase(s, module);
	suite_add_tcase(s, tree);
	suite_add_tcase(s, ns);
	return pml_run_tap(s, skips, n_skips);
}
