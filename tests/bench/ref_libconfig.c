/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The floor of the benchmark: the least a libconfig-based session module
 * can do.  It links libconfig (so that libpam's dlopen loads and relocates
 * it every session, as it does for pam_memlock), reads the conf= file into
 * memory, parses it with config_read_string, and calls setrlimit with the
 * limits the session already has.  It interprets nothing: whatever
 * pam_memlock costs above this is the price of its own work.
 *
 * Built for `make bench` only, never installed.
 */
#define PAM_SM_SESSION
#include <fcntl.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <security/pam_modules.h>

/* Reads PATH whole, NUL-terminated; NULL on any failure. */
static char *read_text(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	char *text = NULL;
	size_t len = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (text = malloc((size_t)st.st_size + 1)) != NULL) {
		while (len < (size_t)st.st_size) {
			ssize_t got = read(fd, text + len, (size_t)st.st_size - len);

			if (got <= 0)
				break;
			len += (size_t)got;
		}
		text[len] = '\0';
	}
	close(fd);
	return text;
}

PAM_EXTERN int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	const char *path = NULL;
	struct rlimit rl;
	config_t config;
	char *text;
	int i, ok;

	(void)pamh;
	(void)flags;
	for (i = 0; i < argc; i++)
		if (strncmp(argv[i], "conf=", 5) == 0)
			path = argv[i] + 5;
	if (path == NULL || (text = read_text(path)) == NULL)
		return PAM_SERVICE_ERR;
	config_init(&config);
	ok = config_read_string(&config, text) == CONFIG_TRUE;
	config_destroy(&config);
	free(text);
	if (!ok)
		return PAM_SERVICE_ERR;
	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0 || setrlimit(RLIMIT_MEMLOCK, &rl) < 0)
		return PAM_SESSION_ERR;
	return PAM_SUCCESS;
}

PAM_EXTERN int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc,
				    const char **argv)
{
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
