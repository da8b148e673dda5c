/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's stack reader held to the real libpam, case by case.  Each case
 * of tests/data/pam-parity is a pam.d directory whose service is "svc".
 *  - libpam: a child opens a session of "svc" through this machine's
 *    libpam, in a private mount namespace with the case over /etc/pam.d
 *    (and an empty directory over /usr/lib/pam.d), so that Debian's
 *    @include, which reads /etc/pam.d whatever confdir says, reads the case
 *    too.  Modules are this machine's: pam_permit, pam_deny,
 *    pam_succeed_if (for the conditions on the service), and
 *    pam_nonexistent, which no system has.  A child that does not answer
 *    within 5 seconds, or dies of a signal, opened no session.
 *  - doctor: the same files under a root that holds this libpam.so.0 (so
 *    that doctor picks its reader as it would on this machine) and empty
 *    pam_permit.so, pam_deny.so and pam_succeed_if.so; the stack resolved
 *    and walked.
 * They must agree on whether the session opens; when it opens, doctor must
 * find nothing wrong, unless the case has a file "finding" saying what.  A
 * case with a file "undefined" is one where libpam's outcome is undefined
 * behaviour (that file says why): skipped, but doctor must call it wrong.
 * Prints TAP: one case per directory, named with the libpam that decided.
 * Needs root (a mount namespace); skips, saying so, without it.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

#include "doctor/pamstack.h"

enum outcome {
	OPENS,
	FAILS,	 /* pam_start or pam_open_session fails */
	HANGS,	 /* no answer within 5 seconds */
	CRASHES, /* a signal */
};

static const char *const outcome_names[] = { "opens", "fails", "hangs", "crashes" };

static int no_conversation(int n, const struct pam_message **msg, struct pam_response **resp,
			   void *data)
{
	(void)n, (void)msg, (void)resp, (void)data;
	return PAM_CONV_ERR;
}

static int run(const char *cmd)
{
	int rc = system(cmd);

	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/*
 * Makes this mount namespace's mounts private, so that nothing bound here
 * shows anywhere else.  In a chroot "/" is no mount point: there every
 * mount must be private already (as in a namespace made with unshare
 * --propagation private, where CI runs its Debian 13 root).
 */
static bool mounts_private(void)
{
	char line[4096];
	bool shared = false;
	FILE *f;

	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0)
		return true;
	if (errno != EINVAL || (f = fopen("/proc/self/mountinfo", "r")) == NULL)
		return false;
	while (fgets(line, sizeof(line), f) != NULL)
		shared = shared || strstr(line, " shared:") != NULL;
	fclose(f);
	return !shared;
}

/* The session through libpam, the case's files over /etc/pam.d. */
static enum outcome through_libpam(const char *root)
{
	struct pam_conv conv = { no_conversation, NULL };
	char etc[4096], usr[4096];
	int status;
	pid_t pid;

	snprintf(etc, sizeof(etc), "%s/etc/pam.d", root);
	snprintf(usr, sizeof(usr), "%s/usr/lib/pam.d", root);
	pid = fork();
	if (pid == 0) {
		pam_handle_t *pamh = NULL;
		int rc;

		alarm(5);
		if (unshare(CLONE_NEWNS) < 0 || !mounts_private() ||
		    mount(etc, "/etc/pam.d", NULL, MS_BIND, NULL) < 0 ||
		    (access("/usr/lib/pam.d", F_OK) == 0 &&
		     mount(usr, "/usr/lib/pam.d", NULL, MS_BIND, NULL) < 0))
			_exit(3);
		rc = pam_start("svc", "root", &conv, &pamh);
		if (rc == PAM_SUCCESS)
			rc = pam_open_session(pamh, PAM_SILENT);
		if (pamh != NULL)
			pam_end(pamh, rc);
		_exit(rc == PAM_SUCCESS ? 0 : 1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return CRASHES;
	if (WIFSIGNALED(status))
		return WTERMSIG(status) == SIGALRM ? HANGS : CRASHES;
	if (WEXITSTATUS(status) == 3) {
		printf("Bail out! cannot bind the case over /etc/pam.d in a mount namespace of its own\n");
		exit(1);
	}
	return WEXITSTATUS(status) == 0 ? OPENS : FAILS;
}

/* This machine's libpam.so.0, as the dynamic linker found it. */
static const char *libpam_path(void)
{
	Dl_info info;

	if (dladdr((void *)pam_start, &info) == 0 || info.dli_fname == NULL)
		return NULL;
	return info.dli_fname;
}

static void make_root(const char *root, const char *data, const char *name, const char *lib)
{
	char cmd[16384];

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/etc' '%s/usr/lib/pam.d' '%s/usr/lib/security' '%s%.*s' &&"
		 " cp -R '%s/%s' '%s/etc/pam.d' && cp '%s' '%s%s' &&"
		 " : >'%s/usr/lib/security/pam_permit.so' && : >'%s/usr/lib/security/pam_deny.so' &&"
		 " : >'%s/usr/lib/security/pam_succeed_if.so'",
		 root, root, root, root, (int)(strrchr(lib, '/') - lib), lib, data, name, root, lib,
		 root, lib, root, root, root);
	if (run(cmd) != 0) {
		printf("Bail out! cannot make a root for %s\n", name);
		exit(1);
	}
}

/* The first line of PATH, malloc'd; NULL when there is no such file. */
static char *first_line(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return NULL;
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return strdup(buf);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *data = getenv("PML_TESTDATA"), *lib = libpam_path();
	char dir[4096], *names[256];
	size_t n = 0, i;
	struct dirent *e;
	int failed = 0;
	DIR *d;

	if (data == NULL || lib == NULL) {
		printf("Bail out! run with make check (PML_TESTDATA), linked with libpam\n");
		return 1;
	}
	if (geteuid() != 0 || unshare(CLONE_NEWNS) < 0) {
		printf("1..0 # SKIP needs root and a private mount namespace: libpam's @include reads /etc/pam.d\n");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/pam-parity", data);
	d = opendir(dir);
	if (d == NULL) {
		printf("Bail out! %s: %s\n", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d)) != NULL && n < 256)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof(char *), by_name);
	printf("1..%zu\n", n);
	for (i = 0; i < n; i++) {
		char root[] = "/tmp/pml-parity-XXXXXX", finding[4096], undefined[4096], cmd[4200];
		char *undefined_why;
		struct doc_libpam libpam;
		struct doc_stack st;
		enum outcome real, doctor;
		bool findings_allowed;

		if (mkdtemp(root) == NULL) {
			printf("Bail out! mkdtemp: %s\n", strerror(errno));
			return 1;
		}
		make_root(root, dir, names[i], lib);
		snprintf(finding, sizeof(finding), "%s/etc/pam.d/finding", root);
		findings_allowed = access(finding, F_OK) == 0;
		snprintf(undefined, sizeof(undefined), "%s/etc/pam.d/undefined", root);
		undefined_why = first_line(undefined);
		real = through_libpam(root);
		doc_libpam_probe(root, &libpam);
		if (doc_stack_resolve_with(root, &libpam, "svc", &st) < 0) {
			printf("Bail out! out of memory\n");
			return 1;
		}
		doc_stack_walk(&st);
		doctor = st.session_fails ? FAILS : OPENS;
		if (undefined_why != NULL && st.n_problems > 0) {
			printf("ok %zu - %s: doctor calls it wrong # SKIP libpam's outcome is undefined: %s\n",
			       i + 1, names[i], undefined_why);
		} else if (undefined_why != NULL) {
			failed++;
			printf("not ok %zu - %s: doctor finds nothing wrong where libpam's outcome is undefined\n",
			       i + 1, names[i]);
		} else if ((real == OPENS) == (doctor == OPENS) &&
		    (real != OPENS || st.n_problems == 0 || findings_allowed)) {
			printf("ok %zu - %s: libpam %s (%s) and doctor agree: the session %s\n", i + 1,
			       names[i], doc_libpam_dialect_name(libpam.dialect), libpam.library,
			       outcome_names[real]);
		} else {
			failed++;
			printf("not ok %zu - %s: libpam %s: the session %s; doctor: it %s, %zu problem(s)\n",
			       i + 1, names[i], doc_libpam_dialect_name(libpam.dialect),
			       outcome_names[real], outcome_names[doctor], st.n_problems);
			for (size_t k = 0; k < st.n_problems; k++)
				printf("# %s:%u: %s\n", st.problems[k].file ? st.problems[k].file : "-",
				       st.problems[k].line, st.problems[k].message);
		}
		doc_stack_free(&st);
		free(undefined_why);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		run(cmd);
		free(names[i]);
	}
	return failed > 0 ? 1 : 0;
}
