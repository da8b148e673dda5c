/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * make demo: one real PAM session through the module just built, with the
 * shipped policy, starting from the 64 KiB soft limit that kernels before
 * 5.16 give everybody, and the limit shown before and after.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "pam_session.h"
#include "syslog_capture.h"

/* ulimit -l counts KiB; say MiB where it is a whole number of them. */
static const char *human(uint64_t bytes, char *buf, size_t len)
{
	if (bytes == UINT64_MAX)
		snprintf(buf, len, "unlimited");
	else if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
	return buf;
}

static void show(const char *when, uint64_t soft, uint64_t hard)
{
	char s[32], h[32];

	printf("  %-24s soft %-10s hard %s\n", when, human(soft, s, sizeof(s)),
	       human(hard, h, sizeof(h)));
}

static char *read_policy(const char *path)
{
	static char text[65536];
	FILE *f = fopen(path, "re");
	size_t n;

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

int main(int argc, char **argv)
{
	struct pml_pam_env env;
	struct passwd *pw = getpwuid(geteuid());
	uint64_t soft, hard;
	int rc;

	if (argc != 3) {
		fprintf(stderr, "usage: %s MODULE POLICY\n", argv[0]);
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "demo: run as root: pam_memlock only trusts policy files owned by root\n");
		return 1;
	}
	/* A root-owned copy of the shipped policy, in a private PAM directory. */
	if (pml_pam_env_make(&env, argv[1], "conf=%s/memlock.conf debug",
			     read_policy(argv[2])) < 0) {
		perror("demo: cannot make a private PAM directory");
		return 1;
	}
	pml_memlock_get(&soft, &hard);
	printf("pam_memlock demo\n\n");
	printf("A session for user \"%s\" through the real libpam, service \"%s\" in a\n"
	       "private directory, stack: session required %s\n"
	       "policy: the shipped %s\n\n", pw ? pw->pw_name : "root",
	       PML_TEST_SERVICE, argv[1], argv[2]);
	/* What every user got from kernels before 5.16 (and from many still). */
	if (pml_memlock_set(64 << 10, hard) < 0) {
		perror("demo: cannot lower the soft limit to 64 KiB");
		return 1;
	}
	pml_memlock_get(&soft, &hard);
	show("before the session:", soft, hard);
	printf("  (64 KiB: what kernels before Linux 5.16 give every user)\n\n");
	pml_capture_echo(stdout);
	rc = pml_pam_open_close(&env, PML_TEST_SERVICE, pw ? pw->pw_name : "root");
	pml_capture_echo(NULL);
	pml_memlock_get(&soft, &hard);
	printf("\n");
	show("after pam_open_session:", soft, hard);
	printf("\npam_open_session returned %d (%s).\n", rc,
	       rc == PAM_SUCCESS ? "PAM_SUCCESS" : "an error: see the log lines above");
	if (rc == PAM_SUCCESS) {
		char s[32];

		printf("A shell that login, sshd or su starts now inherits a locked-memory\n"
		       "limit (`ulimit -l`) of %s instead of 64 KiB: room for io_uring's\n"
		       "registered buffers and rings, BPF maps and RDMA memory regions.\n",
		       human(soft, s, sizeof(s)));
	}
	pml_pam_env_remove(&env);
	return rc == PAM_SUCCESS ? 0 : 1;
}
