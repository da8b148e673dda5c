/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The module through the real libpam: a private service directory
 * (pam_start_confdir), one forked child per case (check's fork mode), the
 * limits read back with getrlimit and the log lines caught on their way
 * to syslog.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "syslog_capture.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define PREFIX "pam_memlock(" PML_TEST_SERVICE ":session): "

static struct pml_pam_env env;
static uint64_t start_hard;	/* the hard limit this machine gives us */

struct result {
	int rc;
	uint64_t soft, hard;
};

/* Starts from SOFT (and the machine's hard limit), runs one session. */
static struct result session(const char *args, const char *policy, uint64_t soft)
{
	struct result r;

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  policy), 0);
	ck_assert_int_eq(pml_memlock_set(soft, start_hard), 0);
	pml_capture_reset();
	r.rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&r.soft, &r.hard);
	return r;
}

static void assert_logged(const char *line)
{
	ck_assert_msg(strstr(pml_capture_text(), line) != NULL,
		      "log lacks\n  %s\nlog was:\n%s", line, pml_capture_text());
}

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

/* RAM from _SC_PHYS_PAGES here; the module asks sysinfo(). */
START_TEST(share_of_ram_follows_the_formula)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * page;
	uint64_t want = ram / 100000 * 10;	/* 0.01% */
	struct result r;

	want -= want % page;
	if (want < page)
		want = page;
	if (want > 8 * MiB)
		want = 8 * MiB;
	r = session("conf=%s/memlock.conf",
		    "soft = \"0.01%\";\nhard = \"8 MiB\";\nmode = \"set\";\n", 64 * KiB);
	ck_assert_int_eq(r.rc, PAM_SUCCESS);
	ck_assert_uint_eq(r.soft, want);
	ck_assert_uint_eq(r.hard, 8 * MiB);
}
END_TEST

static bool can_raise_hard(void)
{
	uint64_t soft, hard;
	bool ok;

	pml_memlock_get(&soft, &hard);
	ok = hard != UINT64_MAX && pml_memlock_set(soft, hard + 4096) == 0;
	if (ok)
		pml_memlock_set(soft, hard);
	return ok;
}

/* The module's main job on an old kernel: hard 64 KiB raised to 8 MiB. */
START_TEST(raises_hard_from_64k)
{
	struct result r;

	ck_assert_int_eq(pml_memlock_set(64 * KiB, 64 * KiB), 0);
	start_hard = 64 * KiB;
	r = session("conf=%s/memlock.conf", "limit = \"8 MiB\";\n", 64 * KiB);
	ck_assert_int_eq(r.rc, PAM_SUCCESS);
	ck_assert_uint_eq(r.soft, 8 * MiB);
	ck_assert_uint_eq(r.hard, 8 * MiB);
}
END_TEST

START_TEST(unsafe_file_is_refused)
{
	struct result r;
	char line[256];

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf", "limit = \"8 MiB\";\n"), 0);
	ck_assert_int_eq(chmod(env.policy, 0664), 0);
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	r.rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&r.soft, &r.hard);
	ck_assert_int_eq(r.rc, PAM_SERVICE_ERR);
	ck_assert_uint_eq(r.soft, 64 * KiB);
	snprintf(line, sizeof(line), "<3> " PREFIX "%s: refused: is writable by group or others\n",
		 env.policy);
	assert_logged(line);
}
END_TEST

START_TEST(no_user_is_a_session_error)
{
	struct result r;

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf", "limit = \"8 MiB\";\n"), 0);
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	r.rc = pml_pam_open_close(&env, PML_TEST_SERVICE, NULL);
	pml_memlock_get(&r.soft, &r.hard);
	ck_assert_int_eq(r.rc, PAM_SESSION_ERR);
	ck_assert_uint_eq(r.soft, 64 * KiB);
	assert_logged("<3> " PREFIX "no user name (PAM_USER) for this session\n");
}
END_TEST

/* How many lines of the captured log hold NEEDLE. */
static unsigned lines_with(const char *needle)
{
	const char *p = pml_capture_text();
	unsigned n = 0;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* The test service's stack becomes the module twice, on the same policy. */
static void stack_twice(void)
{
	char stack[512];

	snprintf(stack, sizeof(stack),
		 "session optional %s conf=%s/memlock.conf\n"
		 "session optional %s conf=%s/memlock.conf\n",
		 pml_test_env("PML_MODULE"), env.dir, pml_test_env("PML_MODULE"), env.dir);
	ck_assert_int_eq(pml_pam_env_write(&env, "pam.d/" PML_TEST_SERVICE, stack), 0);
}

/* The same module twice in one stack (common-session, and again after
 * pam_limits): the later run decides, and what both runs would warn about
 * is logged once. */
START_TEST(module_twice_warns_once)
{
	struct result r;

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), "",
					  "soft = \"6 MiB\";\nhard = \"4 MiB\";\n"), 0);
	stack_twice();
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	r.rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&r.soft, &r.hard);
	ck_assert_int_eq(r.rc, PAM_SUCCESS);
	ck_assert_uint_eq(r.soft, 4 * MiB);
	ck_assert_uint_eq(lines_with("soft lowered to 4 MiB"), 1);
	ck_assert_uint_eq(lines_with("<4> "), 1);
}
END_TEST

/* An invalid policy read twice in one stack: its error is logged once. */
START_TEST(module_twice_reports_an_error_once)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), "",
					  "limit = \"8 MiB\" junk;\n"), 0);
	stack_twice();
	pml_capture_reset();
	/* Two optional modules that both failed: libpam fails the stack. */
	ck_assert_int_ne(pml_pam_open_close(&env, PML_TEST_SERVICE, "root"), PAM_SUCCESS);
	ck_assert_uint_eq(lines_with("<3> "), 1);
	ck_assert_uint_eq(lines_with("memlock.conf:1: "), 1);
}
END_TEST

/* A user name that holds a newline and an escape sequence must not forge a
 * second log line nor reach a terminal: every log line stays one line of
 * printable ASCII, the name escaped. */
START_TEST(hostile_user_name_is_escaped_in_every_line)
{
	static const char user[] = "ev\nil\x1b[2J\xff";
	const char *log, *p;
	unsigned lines = 0;

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf debug dry_run",
					  "soft = \"6 MiB\";\nhard = \"4 MiB\";\n"), 0);
	pml_capture_reset();
	ck_assert_int_eq(pml_pam_open_close(&env, PML_TEST_SERVICE, user), PAM_SUCCESS);
	log = pml_capture_text();
	for (p = log; *p != '\0'; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\n')
			lines++;
		else
			ck_assert_msg(c >= 0x20 && c < 0x7f, "byte 0x%02x in the log:\n%s", c, log);
	}
	/* The decision (3 lines), the warning, the dry_run notice. */
	ck_assert_uint_eq(lines, 5);
	assert_logged("user \"ev\\x0ail\\x1b[2J\\xff\": the policy's soft limit");
	assert_logged("dry_run: user \"ev\\x0ail\\x1b[2J\\xff\" would get");
}
END_TEST

/* A uid rule makes the module ask NSS, which does not know the name: the
 * error line quotes it. */
START_TEST(hostile_unknown_user_is_escaped)
{
	static const char user[] = "no\nsuch\x1buser";

	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"),
					  "conf=%s/memlock.conf",
					  "rules = ( { uid = \"1000-\"; limit = \"1 MiB\"; } );\n"), 0);
	pml_capture_reset();
	ck_assert_int_eq(pml_pam_open_close(&env, PML_TEST_SERVICE, user), PAM_USER_UNKNOWN);
	assert_logged("<3> " PREFIX "user \"no\\x0asuch\\x1buser\" is unknown to NSS");
	ck_assert_ptr_null(strchr(pml_capture_text(), '\x1b'));
}
END_TEST

/* What fills the "%s" of a row's log line. */
enum log_path { LOG_AS_IS, LOG_POLICY, LOG_DIR };
/* What a case needs of this machine to run. */
enum need { ANYWHERE, ROOT, ROOT_8MIB, ROOT_8MIB_NO_CAP, ROOT_CAP, NO_DEFAULT_8MIB };
#define START_HARD UINT64_MAX	/* want_hard: the hard limit we started with */

/*
 * The cases, in the order they run.  Most are one session: the module's
 * arguments and policy, the soft limit it starts from (the hard one is the
 * machine's), and what must come out: the return code, the limits (a
 * want_hard of 0 is not checked) and a log line.  A case of another
 * shape is its own function (custom).
 */
static const struct row {
	const char *name;
	const TTest *const *custom;
	enum need need;
	const char *args, *policy;
	uint64_t soft;
	int rc;
	uint64_t want_soft, want_hard;
	const char *log;
	enum log_path path;
} rows[] = {
	{ .name = "raises_64k_soft_to_8mib", .need = ROOT_8MIB,
	  .args = "conf=%s/memlock.conf debug", .policy = "limit = \"8 MiB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 8 * MiB, .want_hard = 8 * MiB,
	  .log = "<7> " PREFIX "user \"root\": RLIMIT_MEMLOCK soft 64 KiB -> 8 MiB, hard 8 MiB -> 8 MiB\n" },
	{ .name = "raise_never_lowers", .need = ROOT_8MIB,
	  .args = "conf=%s/memlock.conf", .policy = "limit = \"1 MiB\";\n",
	  .soft = 4 * MiB, .rc = PAM_SUCCESS, .want_soft = 4 * MiB, .want_hard = 8 * MiB },
	{ .name = "set_lowers", .need = ROOT,
	  .args = "conf=%s/memlock.conf", .policy = "limit = \"1 MiB\";\nmode = \"set\";\n",
	  .soft = 4 * MiB, .rc = PAM_SUCCESS, .want_soft = 1 * MiB, .want_hard = 1 * MiB },
	{ .name = "soft_and_hard_apart", .need = ROOT,
	  .args = "conf=%s/memlock.conf",
	  .policy = "limit = \"4 MiB\";\nsoft = \"2 MiB\";\nmode = \"set\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 2 * MiB, .want_hard = 4 * MiB },
	{ .name = "soft_above_hard_is_lowered_with_a_warning", .need = ROOT,
	  .args = "conf=%s/memlock.conf",
	  .policy = "soft = \"6 MiB\";\nhard = \"3 MiB\";\nmode = \"set\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 3 * MiB, .want_hard = 3 * MiB,
	  .log = "<4> " PREFIX "user \"root\": the policy's soft limit (6 MiB) is above its hard limit (3 MiB); soft lowered to 3 MiB\n" },
	/* In raise mode the session keeps its higher hard limit (8 MiB), and
	 * the warning names what soft became (4 MiB), not the hard limit it
	 * kept. */
	{ .name = "soft_lowered_warning_names_the_soft_value_in_raise_mode", .need = ROOT_8MIB,
	  .args = "conf=%s/memlock.conf", .policy = "soft = \"6 MiB\";\nhard = \"4 MiB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 4 * MiB, .want_hard = 8 * MiB,
	  .log = "<4> " PREFIX "user \"root\": the policy's soft limit (6 MiB) is above its hard limit (4 MiB); soft lowered to 4 MiB\n" },
	{ .name = "dry_run_changes_nothing", .need = ROOT_8MIB,
	  .args = "conf=%s/memlock.conf dry_run", .policy = "limit = \"8 MiB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 64 * KiB, .want_hard = 8 * MiB,
	  .log = "<5> " PREFIX "dry_run: user \"root\" would get soft 8 MiB, hard 8 MiB (now soft 64 KiB, hard 8 MiB); nothing changed\n" },
	{ .name = "share_of_ram_follows_the_formula", .need = ROOT_8MIB,
	  .custom = &share_of_ram_follows_the_formula },
	{ .name = "share_held_at_the_ceiling", .need = ROOT,
	  .args = "conf=%s/memlock.conf",
	  .policy = "limit = \"100%\";\nceiling = \"5 MiB\";\nmode = \"set\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 5 * MiB, .want_hard = 5 * MiB },
	{ .name = "refused_hard_raise_still_raises_soft", .need = ROOT_8MIB_NO_CAP,
	  .args = "conf=%s/memlock.conf", .policy = "limit = \"16 MiB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 8 * MiB, .want_hard = 8 * MiB,
	  .log = "<4> " PREFIX "user \"root\": raising the hard limit needs CAP_SYS_RESOURCE: wanted soft 16 MiB, hard 16 MiB; got soft 8 MiB, hard 8 MiB\n" },
	{ .name = "raises_hard_from_64k", .need = ROOT_CAP, .custom = &raises_hard_from_64k },
	{ .name = "missing_conf_file_is_a_service_error", .need = ANYWHERE,
	  .args = "conf=%s/absent.conf", .soft = 64 * KiB,
	  .rc = PAM_SERVICE_ERR, .want_soft = 64 * KiB, .want_hard = START_HARD,
	  .log = "<3> " PREFIX "%s/absent.conf: cannot read: No such file or directory\n",
	  .path = LOG_DIR },
	{ .name = "syntax_error_leaves_limits_alone", .need = ROOT,
	  .args = "conf=%s/memlock.conf", .policy = "limit = \"8 MiB\";\nmode = ;\n",
	  .soft = 64 * KiB, .rc = PAM_SERVICE_ERR, .want_soft = 64 * KiB,
	  .log = "<3> " PREFIX "%s:2: syntax error\n", .path = LOG_POLICY },
	{ .name = "bad_value_names_file_and_line", .need = ROOT,
	  .args = "conf=%s/memlock.conf", .policy = "# the size\n\nlimit = \"8 MB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SERVICE_ERR, .want_soft = 64 * KiB,
	  .log = "<3> " PREFIX "%s:3: limit: \"8 MB\": unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024); did you mean \"8 MiB\"?\n",
	  .path = LOG_POLICY },
	{ .name = "unsafe_file_is_refused", .need = ROOT, .custom = &unsafe_file_is_refused },
	{ .name = "no_user_is_a_session_error", .need = ANYWHERE,
	  .custom = &no_user_is_a_session_error },
	{ .name = "unknown_argument_is_logged_and_ignored", .need = ROOT,
	  .args = "conf=%s/memlock.conf bogus", .policy = "limit = \"8 MiB\";\n",
	  .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 8 * MiB,
	  .log = "<3> " PREFIX "unknown argument \"bogus\" ignored\n" },
	/* Without conf=, an absent default file means the built-in 8 MiB. */
	{ .name = "absent_default_file_means_8mib", .need = NO_DEFAULT_8MIB,
	  .args = "debug", .soft = 64 * KiB, .rc = PAM_SUCCESS, .want_soft = 8 * MiB,
	  .log = "<7> " PREFIX PML_DEFAULT_CONF ": not present, using the built-in default\n" },
	{ .name = "module_twice_warns_once", .need = ROOT_8MIB,
	  .custom = &module_twice_warns_once },
	{ .name = "module_twice_reports_an_error_once", .need = ROOT,
	  .custom = &module_twice_reports_an_error_once },
	{ .name = "hostile_user_name_is_escaped_in_every_line", .need = ROOT,
	  .custom = &hostile_user_name_is_escaped_in_every_line },
	{ .name = "hostile_unknown_user_is_escaped", .need = ROOT,
	  .custom = &hostile_unknown_user_is_escaped },
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* One row's session, and what must come out of it. */
START_TEST(session_case)
{
	const struct row *c = &rows[_i];
	struct result r = session(c->args, c->policy, c->soft);
	char line[512];

	ck_assert_int_eq(r.rc, c->rc);
	ck_assert_uint_eq(r.soft, c->want_soft);
	if (c->want_hard != 0)
		ck_assert_uint_eq(r.hard, c->want_hard == START_HARD ? start_hard : c->want_hard);
	if (c->log == NULL)
		return;
	if (c->path == LOG_AS_IS) {
		assert_logged(c->log);
		return;
	}
	snprintf(line, sizeof(line), c->log, c->path == LOG_DIR ? env.dir : env.policy);
	assert_logged(line);
}
END_TEST

#define NEED_ROOT "policy files must be owned by root: run make check as root"

/* Whether this machine can run a case that needs NEED; if not, why. */
static bool can_run(enum need need, bool root, bool cap, const char **why)
{
	struct stat st;

	*why = "";
	switch (need) {
	case ANYWHERE:
		return true;
	case ROOT:
		*why = NEED_ROOT;
		return root;
	case ROOT_8MIB:
		*why = NEED_ROOT " with an 8 MiB hard limit";
		return root && start_hard == 8 * MiB;
	case ROOT_8MIB_NO_CAP:
		*why = "needs a process WITHOUT CAP_SYS_RESOURCE and an 8 MiB hard limit";
		return root && !cap && start_hard == 8 * MiB;
	case ROOT_CAP:
		*why = "raising a hard limit needs CAP_SYS_RESOURCE, which this sandbox lacks";
		return root && cap;
	case NO_DEFAULT_8MIB:
		*why = PML_DEFAULT_CONF " exists on this machine, or the hard limit is not 8 MiB";
		return stat(PML_DEFAULT_CONF, &st) < 0 && start_hard == 8 * MiB;
	}
	return false;
}

int main(void)
{
	Suite *s = suite_create("pam");
	TCase *tc = tcase_create("pam");
	static TTest named[N_ROWS];
	struct pml_skip skips[N_ROWS];
	size_t n_skips = 0;
	uint64_t soft;
	bool root = geteuid() == 0;
	bool cap = can_raise_hard();

	pml_memlock_get(&soft, &start_hard);
	tcase_add_checked_fixture(tc, NULL, teardown);
	for (size_t i = 0; i < N_ROWS; i++) {
		const char *why;

		if (!can_run(rows[i].need, root, cap, &why)) {
			skips[n_skips++] = (struct pml_skip){ rows[i].name, why };
		} else if (rows[i].custom != NULL) {
			tcase_add_test(tc, *rows[i].custom);
		} else {
			/* session_case under the row's name: check's TAP names it. */
			named[i] = *session_case;
			named[i].name = rows[i].name;
			tcase_add_loop_test(tc, &named[i], (int)i, (int)i + 1);
		}
	}
	suite_add_tcase(s, tc);
	return pml_run_tap(s, skips, n_skips);
}
