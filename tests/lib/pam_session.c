/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "pam_session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_appl.h>

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f == NULL)
		return -errno;
	fputs(text, f);
	if (fclose(f) != 0)
		return -errno;
	return 0;
}

int pml_pam_env_write(const struct pml_pam_env *env, const char *name,
		      const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", env->dir, name);
	return write_file(path, text);
}

int pml_pam_env_make(struct pml_pam_env *env, const char *module,
		     const char *args, const char *policy)
{
	char path[256], line[1024], expanded[512];
	int rc;

	snprintf(env->dir, sizeof(env->dir), "/tmp/pml-test-XXXXXX");
	if (mkdtemp(env->dir) == NULL)
		return -errno;
	/* mkdtemp makes it 0700; the policy checks want no group/other write. */
	snprintf(env->confdir, sizeof(env->confdir), "%s/pam.d", env->dir);
	snprintf(env->policy, sizeof(env->policy), "%s/memlock.conf", env->dir);
	if (mkdir(env->confdir, 0755) < 0)
		return -errno;
	snprintf(expanded, sizeof(expanded), args, env->dir);
	snprintf(line, sizeof(line), "session required %s %s\n", module, expanded);
	snprintf(path, sizeof(path), "%s/%s", env->confdir, PML_TEST_SERVICE);
	rc = write_file(path, line);
	/* libpam falls back to "other" and complains when there is none. */
	snprintf(path, sizeof(path), "%s/other", env->confdir);
	if (rc == 0)
		rc = write_file(path, "session required pam_deny.so\n");
	if (rc == 0 && policy != NULL)
		rc = write_file(env->policy, policy);
	return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void pml_pam_env_remove(const struct pml_pam_env *env)
{
	if (env->dir[0] != '\0')
		nftw(env->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int pml_no_conversation(int n, const struct pam_message **msg,
			struct pam_response **resp, void *data)
{
	(void)n;
	(void)msg;
	(void)resp;
	(void)data;
	return PAM_CONV_ERR;
}

int pml_pam_start(const struct pml_pam_env *env, const char *service, const char *user,
		  pam_handle_t **pamh)
{
	static const struct pam_conv conv = { pml_no_conversation, NULL };

	return pam_start_confdir(service, user, &conv, env->confdir, pamh);
}

int pml_pam_session(pam_handle_t *pamh)
{
	int rc = pam_open_session(pamh, 0);

	if (rc == PAM_SUCCESS)
		pam_close_session(pamh, 0);
	pam_end(pamh, rc);
	return rc;
}

int pml_pam_open_close(const struct pml_pam_env *env, const char *service,
		       const char *user)
{
	pam_handle_t *pamh = NULL;
	int rc = pml_pam_start(env, service, user, &pamh);

	return rc == PAM_SUCCESS ? pml_pam_session(pamh) : rc;
}

void pml_memlock_get(uint64_t *soft, uint64_t *hard)
{
	struct rlimit rl;

	getrlimit(RLIMIT_MEMLOCK, &rl);
	*soft = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : rl.rlim_cur;
	*hard = rl.rlim_max == RLIM_INFINITY ? UINT64_MAX : rl.rlim_max;
}

int pml_memlock_set(uint64_t soft, uint64_t hard)
{
	struct rlimit rl = { soft == UINT64_MAX ? RLIM_INFINITY : soft,
			     hard == UINT64_MAX ? RLIM_INFINITY : hard };

	return setrlimit(RLIMIT_MEMLOCK, &rl) < 0 ? -errno : 0;
}

int pml_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory stream's own */
}
