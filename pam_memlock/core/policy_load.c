/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Finds the policy files, reads each through the safety checks, and merges
 * them in order: the main file, then memlock.d/ beside it, by name.
 */
#include "policy.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_read.h"

#define DROPIN_SUFFIX ".conf"

static void log_read_error(const struct pml_log *log, const char *name,
			   int rc, const char *why)
{
	if (why != NULL)
		pml_log(log, LOG_ERR, "%s: refused: %s", name, why);
	else
		pml_log(log, LOG_ERR, "%s: cannot read: %s", name, strerror(-rc));
}

/* Reads and parses one file.  IF_MISSING: NULL when a file that is not
 * there is an error, else what to log (debug) and go on.  A negative
 * DIRFD other than AT_FDCWD is the error its directory had. */
static int load_file(struct pml_policy *policy, int dirfd, const char *name,
		     const char *shown, uid_t owner, const char *if_missing,
		     const struct pml_log *log)
{
	struct pml_text text;
	const char *why = NULL;
	int rc = dirfd < 0 && dirfd != AT_FDCWD ? dirfd
						: pml_read_file_at(dirfd, name, owner, &text, &why);

	if (rc == -ENOENT && if_missing != NULL) {
		pml_log(log, LOG_DEBUG, "%s: %s", shown, if_missing);
		return 0;
	}
	if (rc == -ENOMEM)
		return rc;
	if (rc == 0 && text.len == 0) {
		/* "No file" already means the defaults; a file of no bytes is
		 * almost always one caught between truncate and write. */
		pml_text_free(&text);
		rc = -EINVAL;
		why = "is empty (0 bytes): a truncated or unfinished write? "
		      "Remove it, or give it a comment";
	}
	if (rc < 0) {
		log_read_error(log, shown, rc, why);
		return -EINVAL;
	}
	rc = pml_policy_add_text(policy, shown, text.data, text.len, log);
	pml_text_free(&text);
	return rc;
}

bool pml_is_dropin_name(const char *name)
{
	size_t len = strlen(name), suffix = sizeof(DROPIN_SUFFIX) - 1;

	return name[0] != '.' && len > suffix &&
	       strcmp(name + len - suffix, DROPIN_SUFFIX) == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The drop-in names in DIRFD, sorted in byte order. */
static int list_dropins(int dirfd, char ***names, size_t *count)
{
	/* A descriptor of its own for closedir to close. */
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
	DIR *dir;
	struct dirent *entry;
	char **list = NULL;
	size_t n = 0;
	int rc = 0;

	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (dir == NULL) {
		rc = -errno;
		close(fd);
		return rc;
	}
	while (rc == 0 && (errno = 0, entry = readdir(dir)) != NULL) {
		char **grown;

		if (!pml_is_dropin_name(entry->d_name))
			continue;
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (grown == NULL || (grown[n] = strdup(entry->d_name)) == NULL) {
			list = grown != NULL ? grown : list;
			rc = -ENOMEM;
			break;
		}
		list = grown;
		n++;
	}
	if (rc == 0 && errno != 0)
		rc = -errno;
	closedir(dir);
	/* qsort's base must not be NULL, even for no elements. */
	if (rc == 0 && n > 1)
		qsort(list, n, sizeof(*list), by_name);
	*names = list;
	*count = n;
	return rc;
}

static void free_names(char **names, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/*
 * memlock.d beside the main file: under SOURCE's directory when it has
 * one open, else by the main file's path.  Opened O_PATH and fstat'd
 * before it is opened for reading: a device node of that name (an image
 * memlockctl doctor checks may hold anything) is never opened.
 */
static int open_dropin_dir(const struct pml_source *source, const char *dir, int *fd,
			   const char **why)
{
	int pfd, rc;

	*why = NULL;
	if (source->in_dir && source->dir_fd < 0)
		return source->dir_fd;
	pfd = source->in_dir ? openat(source->dir_fd, PML_DROPIN_DIR, O_PATH | O_NOFOLLOW | O_CLOEXEC)
			     : openat(AT_FDCWD, dir, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	rc = pml_check_dir_fd(pfd, source->owner, why);
	if (rc == -ENOTDIR) {
		struct stat st;

		if (fstat(pfd, &st) == 0 && S_ISLNK(st.st_mode))
			*why = "is a symbolic link";
	}
	*fd = rc == 0 ? openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (rc == 0 && *fd < 0)
		rc = -errno;
	close(pfd);
	return rc;
}

static int load_dropins(struct pml_policy *policy, const struct pml_source *source,
			const struct pml_log *log)
{
	const char *main_path = source->path, *slash = strrchr(main_path, '/');
	char dir[4096], shown[4096 + 256];
	char **names = NULL;
	size_t count = 0, i;
	const char *why;
	int fd = -1, rc, worst = 0;

	if (slash == NULL)
		return 0;
	if (snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - main_path),
		     main_path, PML_DROPIN_DIR) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	rc = open_dropin_dir(source, dir, &fd, &why);
	if (rc == -ENOENT)
		return 0;
	if (rc == 0)
		rc = list_dropins(fd, &names, &count);
	if (rc < 0 && rc != -ENOMEM) {
		log_read_error(log, dir, rc, why);
		rc = -EINVAL;
	}
	for (i = 0; rc == 0 && i < count; i++) {
		snprintf(shown, sizeof(shown), "%s/%s", dir, names[i]);
		/* Removed since the directory was read: as if read a moment
		 * later (configuration management deletes drop-ins while
		 * people log in). */
		rc = load_file(policy, fd, names[i], shown, source->owner,
			       "removed while the directory was read: skipped", log);
		/* Go on after a bad file, so that `check` shows every problem. */
		if (rc == -EINVAL) {
			worst = rc;
			rc = 0;
		}
	}
	free_names(names, count);
	if (fd >= 0)
		close(fd);
	return rc < 0 ? rc : worst;
}

int pml_policy_load(const struct pml_source *source, uint64_t page_size,
		    const struct pml_log *log, struct pml_policy *policy)
{
	int rc, dropins = 0;

	const char *slash = strrchr(source->path, '/');

	pml_policy_init(policy);
	rc = load_file(policy, source->in_dir ? source->dir_fd : AT_FDCWD,
		       source->in_dir && slash != NULL ? slash + 1 : source->path,
		       source->path, source->owner,
		       source->given ? NULL : "not present, using the built-in default",
		       log);
	if (rc != -ENOMEM && !source->given)
		dropins = load_dropins(policy, source, log);
	if (rc == 0 || (rc == -EINVAL && dropins == -ENOMEM))
		rc = dropins;
	if (rc == 0)
		rc = pml_policy_validate(policy, page_size, log);
	if (rc < 0)
		pml_policy_free(policy);
	return rc;
}
