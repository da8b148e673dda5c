/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * `memlockctl explain` must say what the module does.  For each scenario
 * (a policy, a user, a PAM service), one forked child (check's fork mode)
 * runs `memlockctl explain USER --service SERVICE --json` on the policy,
 * then opens a real PAM session through pam_memlock.so with the same
 * policy, user and service, and requires the limits the session got to be
 * the soft and hard limits explain printed, and both to be what the
 * scenario was written to produce.  Policies use mode "set" and sizes of
 * at most 8 MiB, so that a process without CAP_SYS_RESOURCE gets exactly
 * the targets.  Failures must agree too: where explain fails, the session
 * fails and no limit moves.
 *
 * One scenario has no conf= argument and no --conf: a private mount
 * namespace puts its files over $(sysconfdir)/security, so that the
 * default path and the memlock.d/ drop-ins are what both read.
 */
#include <errno.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define UNLIMITED UINT64_MAX
#define ANY 0			/* a share of RAM: any value, as long as both agree */
#define FAILS 1			/* explain and the session must both fail */

struct scenario {
	const char *name;
	const char *policy;	/* memlock.conf, or NULL: the drop-in scenario */
	const char *user, *service;
	uint64_t soft, hard;	/* what it must come to (ANY, or FAILS twice) */
	int pam_rc;		/* what pam_open_session must return */
};

static const char rules_by_name[] =
	"limit = \"6 MiB\";\nmode = \"set\";\n"
	"rules = (\n"
	"  { user = \"root\"; limit = \"3 MiB\"; },\n"
	"  { user = [\"root\", \"nobody\"]; service = \"sshd\"; soft = \"1 MiB\"; hard = \"5 MiB\"; },\n"
	"  { service = \"login\"; limit = \"7 MiB\"; }\n"
	");\n";

static const char rules_by_id[] =
	"limit = \"6 MiB\";\nmode = \"set\";\n"
	"rules = (\n"
	"  { uid = \"0\"; limit = \"3 MiB\"; },\n"
	"  { group = \"nogroup\"; soft = \"512 KiB\"; hard = \"1 MiB\"; },\n"
	"  { uid = \"1-99\"; group = [\"daemon\", \"adm\"]; limit = \"5 MiB\"; }\n"
	");\n";

static const struct scenario scenarios[] = {
	{ "top level only", "limit = \"2 MiB\";\nmode = \"set\";\n",
	  "root", PML_TEST_SERVICE, 2 * MiB, 2 * MiB, PAM_SUCCESS },
	{ "user rule", rules_by_name, "root", PML_TEST_SERVICE, 3 * MiB, 3 * MiB, PAM_SUCCESS },
	{ "user and service rule", rules_by_name, "root", "sshd", 1 * MiB, 5 * MiB, PAM_SUCCESS },
	{ "other user, service rule", rules_by_name, "nobody", "sshd", 1 * MiB, 5 * MiB, PAM_SUCCESS },
	{ "service rule, last wins", rules_by_name, "root", "login", 7 * MiB, 7 * MiB, PAM_SUCCESS },
	{ "no rule matches", rules_by_name, "nobody", PML_TEST_SERVICE, 6 * MiB, 6 * MiB, PAM_SUCCESS },
	{ "uid rule", rules_by_id, "root", PML_TEST_SERVICE, 3 * MiB, 3 * MiB, PAM_SUCCESS },
	{ "group rule", rules_by_id, "nobody", PML_TEST_SERVICE, 512 * KiB, 1 * MiB, PAM_SUCCESS },
	{ "uid and group rule", rules_by_id, "daemon", PML_TEST_SERVICE, 5 * MiB, 5 * MiB, PAM_SUCCESS },
	{ "soft above hard is lowered",
	  "soft = \"6 MiB\";\nhard = \"3 MiB\";\nmode = \"set\";\n",
	  "root", PML_TEST_SERVICE, 3 * MiB, 3 * MiB, PAM_SUCCESS },
	{ "share of RAM under a ceiling",
	  "limit = \"0.01%\";\nsoft = \"0.005%\";\nceiling = \"7 MiB\";\nmode = \"set\";\n",
	  "root", PML_TEST_SERVICE, ANY, ANY, PAM_SUCCESS },
	{ "share of RAM held at the ceiling",
	  "limit = \"100%\";\nceiling = \"7 MiB\";\nfloor = \"64 KiB\";\nmode = \"set\";\n",
	  "root", PML_TEST_SERVICE, 7 * MiB, 7 * MiB, PAM_SUCCESS },
	{ "invalid policy", "limit = \"8 MB\";\n",
	  "root", PML_TEST_SERVICE, FAILS, FAILS, PAM_SERVICE_ERR },
	{ "unknown user and a group rule", rules_by_id,
	  "pml-no-such-user", PML_TEST_SERVICE, FAILS, FAILS, PAM_USER_UNKNOWN },
	{ "default path and drop-ins", NULL, "root", "sshd", 2 * MiB, 4 * MiB, PAM_SUCCESS },
};

#define N_SCENARIOS (sizeof(scenarios) / sizeof(scenarios[0]))

static struct pml_pam_env env;
static uint64_t start_hard;

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

/* The value after `"KEY": ` at the top level of explain's JSON. */
static uint64_t json_limit(const char *json, const char *key)
{
	char pattern[32];
	const char *p;

	snprintf(pattern, sizeof(pattern), "\n  \"%s\": ", key);
	p = strstr(json, pattern);
	ck_assert_msg(p != NULL, "no %s in\n%s", key, json);
	p += strlen(pattern);
	if (strncmp(p, "\"unlimited\"", 11) == 0)
		return UNLIMITED;
	return strtoull(p, NULL, 10);
}

/* Runs explain; returns its exit status, its stdout in OUT. */
static int explain(const struct scenario *sc, char *out, size_t len)
{
	char command[1024], conf[160] = "";
	FILE *pipe;
	size_t n;

	if (sc->policy != NULL)
		snprintf(conf, sizeof(conf), " --conf '%s'", env.policy);
	snprintf(command, sizeof(command), "'%s/memlockctl' explain '%s' --service '%s'%s --json",
		 pml_test_env("PML_BUILDDIR"), sc->user, sc->service, conf);
	pipe = popen(command, "r");
	ck_assert_ptr_nonnull(pipe);
	n = fread(out, 1, len - 1, pipe);
	out[n] = '\0';
	return pclose(pipe);
}

/* The drop-in scenario's files, under DIR/security. */
static void write_dropin_policy(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/security", env.dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/security/memlock.d", env.dir);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "security/memlock.conf",
					   "limit = \"6 MiB\";\n"
					   "rules = ( { user = \"root\"; limit = \"1 MiB\"; } );\n"), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "security/memlock.d/10-mode.conf",
					   "mode = \"set\";\n"), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "security/memlock.d/20-sshd.conf",
					   "rules = ( { service = \"sshd\"; soft = \"2 MiB\"; hard = \"4 MiB\"; } );\n"), 0);
	ck_assert_int_eq(pml_pam_env_write(&env, "security/memlock.d/30-off.conf.disabled",
					   "limit = \"8 KiB\";\n"), 0);
}

/* Where the default policy's directory is, and what to mount over. */
static bool mount_target(char *onto, size_t len, bool *whole_parent)
{
	char path[] = PML_DEFAULT_CONF;
	char *dir = dirname(path);
	struct stat st;

	*whole_parent = stat(dir, &st) != 0;
	if (*whole_parent) {
		dir = dirname(dir);
		/* Never hide /etc: NSS and PAM live there. */
		if (strcmp(dir, "/etc") == 0 || stat(dir, &st) != 0)
			return false;
	}
	snprintf(onto, len, "%s", dir);
	return true;
}

/* In this child only: the drop-in scenario's files at the default path. */
static void mount_policy(void)
{
	char onto[256], from[256];
	bool whole_parent;

	ck_assert(mount_target(onto, sizeof(onto), &whole_parent));
	snprintf(from, sizeof(from), "%s%s", env.dir, whole_parent ? "" : "/security");
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_msg(mount(from, onto, NULL, MS_BIND, NULL) == 0, "mount %s on %s: %s",
		      from, onto, strerror(errno));
}

static void write_service(const char *service, const char *args)
{
	char name[128], line[512];

	snprintf(name, sizeof(name), "pam.d/%s", service);
	snprintf(line, sizeof(line), "session required %s %s\n",
		 pml_test_env("PML_MODULE"), args);
	ck_assert_int_eq(pml_pam_env_write(&env, name, line), 0);
}

START_TEST(explain_agrees_with_the_module)
{
	const struct scenario *sc = &scenarios[_i];
	char json[16384], args[160] = "";
	uint64_t soft, hard, want_soft, want_hard;
	int status, rc;

	if (sc->policy != NULL)
		snprintf(args, sizeof(args), "conf=%s/memlock.conf", "%s");
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  sc->policy), 0);
	if (sc->policy != NULL)
		snprintf(args, sizeof(args), "conf=%s", env.policy);
	write_service(sc->service, args);
	if (sc->policy == NULL) {
		write_dropin_policy();
		mount_policy();
	}

	status = explain(sc, json, sizeof(json));
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	rc = pml_pam_open_close(&env, sc->service, sc->user);
	pml_memlock_get(&soft, &hard);
	ck_assert_msg(rc == sc->pam_rc, "%s: pam_open_session returned %d (%s), want %d",
		      sc->name, rc, pam_strerror(NULL, rc), sc->pam_rc);
	if (sc->soft == FAILS) {
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1,
			      "%s: explain exited %#x, want 1; it printed\n%s", sc->name,
			      status, json);
		ck_assert_uint_eq(soft, 64 * KiB);
		ck_assert_uint_eq(hard, start_hard);
		return;
	}
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "%s: explain exited %#x", sc->name, status);
	want_soft = json_limit(json, "soft");
	want_hard = json_limit(json, "hard");
	/* The module did what explain said... */
	ck_assert_msg(soft == want_soft && hard == want_hard,
		      "%s: explain says soft %llu hard %llu, the session got soft %llu hard %llu",
		      sc->name, (unsigned long long)want_soft, (unsigned long long)want_hard,
		      (unsigned long long)soft, (unsigned long long)hard);
	/* ...and that is what the scenario is about. */
	if (sc->soft == ANY) {
		ck_assert(want_soft >= 4 * KiB && want_soft <= want_hard);
		ck_assert(want_hard >= 4 * KiB && want_hard <= 7 * MiB);
	} else {
		ck_assert_uint_eq(want_soft, sc->soft);
		ck_assert_uint_eq(want_hard, sc->hard);
	}
}
END_TEST

/* Can this process make a private mount namespace?  Asked in a child. */
static bool can_unshare_mounts(void)
{
	char onto[256];
	bool whole_parent;
	pid_t pid;
	int status;

	if (!mount_target(onto, sizeof(onto), &whole_parent))
		return false;
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 &&
		      mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 ? 0 : 1);
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

int main(void)
{
	Suite *s = suite_create("memlockctl_pam");
	TCase *tc = tcase_create("memlockctl_pam");
	struct pml_skip skips[N_SCENARIOS];
	size_t n_skips = 0, i;
	uint64_t soft;
	bool root = geteuid() == 0;
	bool mounts = root && can_unshare_mounts();

	pml_memlock_get(&soft, &start_hard);
	tcase_add_checked_fixture(tc, NULL, teardown);
	for (i = 0; i < N_SCENARIOS; i++) {
		const struct scenario *sc = &scenarios[i];
		const char *why = NULL;

		if (!root)
			why = "policy files must be owned by root: run make check as root";
		else if (start_hard < 8 * MiB)
			why = "needs a hard RLIMIT_MEMLOCK of at least 8 MiB";
		else if (sc->pam_rc == PAM_SUCCESS && getpwnam(sc->user) == NULL)
			why = "the scenario's user does not exist on this machine";
		else if (sc->policy == NULL && !mounts)
			why = "needs a private mount namespace (unshare) to put a policy at the default path";
		if (why != NULL) {
			skips[n_skips++] = (struct pml_skip){ sc->name, why };
		} else {
			printf("# explain_agrees_with_the_module, scenario %zu: %s\n", i, sc->name);
			tcase_add_loop_test(tc, explain_agrees_with_the_module, (int)i, (int)i + 1);
		}
	}
	/* A session may take a moment: sshd-like stacks load modules. */
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	fflush(stdout);		/* before check forks: once, not once a child */
	return pml_run_tap(s, skips, n_skips);
}
