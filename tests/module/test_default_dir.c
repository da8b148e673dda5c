/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The module reading its compiled-in default file and the memlock.d/
 * drop-ins beside it, in a private mount namespace (a tmpfs over the
 * default file's directory, seen by this process only).  Users and groups
 * are nss_wrapper's fixtures (tests/module/rules_env.c); the loader's own cases on
 * a private directory are tests/module/test_dropins.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "rules_env.h"

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

int main(int argc, char **argv)
{
	Suite *s = suite_create("default_dir");
	struct cases ns = { .tc = tcase_create("namespace") };
	char point[PATH_MAX];
	bool nss, mounts, shallow, pam;

	(void)argc;
	pam = rules_env_start(argv, &nss);
	shallow = default_dir_mount_point(point, sizeof(point)) < 0;
	mounts = geteuid() == 0 && !shallow && can_unshare_mounts();

	tcase_add_checked_fixture(ns.tc, session_setup, session_teardown);
#define NEED_NS (!pam ? NEED_ROOT : !nss ? NEED_NSS : shallow ? \
		 "no safe place to mount a tmpfs for " PML_DEFAULT_CONF : \
		 "unshare(CLONE_NEWNS) or mount is not permitted here")
	CASE(ns, module_reads_dropins_beside_the_default_file, pam && nss && mounts, NEED_NS);
	CASE(ns, module_applies_dropins_without_the_default_file, pam && nss && mounts, NEED_NS);
	CASE(ns, module_conf_naming_the_default_file_reads_no_dropins, pam && nss && mounts, NEED_NS);

	suite_add_tcase(s, ns.tc);
	return pml_run_tap(s, ns.skips, ns.n_skips);
}
