/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Finds the policy files, reads each through the safety checks, and merges
 * them in order: the main file, then memlock.d/ beside it, by name.
 */
#include "policy.h"

#include "policy_from.h"

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

/* Each top-level key that the file just read set again, as it was. */
static void note_replaced(struct pml_policy *policy, const struct pml_settings *before)
{
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++)
		if (before->v[key].set && policy->top.v[key].at.file != before->v[key].at.file)
			policy->replaced.v[key] = before->v[key];
}

/* One file to read: where, under which name, whom to trust. */
struct file_to_load {
	int dirfd;	   /* a negative one other than AT_FDCWD: its directory's error */
	const char *name;  /* relative to DIRFD */
	const char *shown; /* in messages */
	uid_t owner;
	bool dropin;
	/* NULL when a file that is not there is an error, else what to log
	 * (debug) before going on. */
	const char *if_missing;
};

/* Reads and parses one file. */
static int load_file(struct pml_policy *policy, const struct file_to_load *f,
		     const struct pml_log *log)
{
	struct pml_settings before;
	size_t index = policy->n_files;
	struct pml_text text;
	const char *why = NULL;
	int rc = f->dirfd < 0 && f->dirfd != AT_FDCWD
			 ? f->dirfd
			 : pml_read_file_at(f->dirfd, f->name, f->owner, &text, &why);

	if (rc == -ENOENT && f->if_missing != NULL) {
		pml_log(log, LOG_DEBUG, "%s: %s", f->shown, f->if_missing);
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
		log_read_error(log, f->shown, rc, why);
		return -EINVAL;
	}
	/* Only a later file can replace a key: the first costs nothing. */
	if (index > 0)
		before = policy->top;
	rc = pml_policy_add_text(policy, f->shown, text.data, text.len, log);
	pml_text_free(&text);
	if (policy->n_files > index)
		policy->files[index].dropin = f->dropin;
	if (rc == 0 && index > 0)
		note_replaced(policy, &before);
	return rc;
}

/* The candidate's own file, read in place of the tree's. */
static struct file_to_load candidate_file(const struct pml_candidate *c)
{
	return (struct file_to_load){
		.dirfd = AT_FDCWD,
		.name = c->path,
		.shown = c->name != NULL ? c->name : c->path,
		.owner = c->owner,
		.dropin = c->dropin != NULL,
	};
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

/* Appends a copy of NAME to *LIST. */
static int add_name(char ***list, size_t *n, const char *name)
{
	char **grown = realloc(*list, (*n + 1) * sizeof(**list));

	if (grown == NULL)
		return -ENOMEM;
	*list = grown;
	if ((grown[*n] = strdup(name)) == NULL)
		return -ENOMEM;
	(*n)++;
	return 0;
}

static bool has_name(char *const *list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

/* The drop-in names in DIRFD (none for -1), and EXTRA (may be NULL) if it
 * is not among them, sorted in byte order. */
static int list_dropins(int dirfd, const char *extra, char ***names, size_t *count)
{
	DIR *dir = NULL;
	struct dirent *entry;
	char **list = NULL;
	size_t n = 0;
	int rc = 0, fd;

	if (dirfd >= 0) {
		/* A descriptor of its own for closedir to close. */
		fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		dir = fdopendir(fd);
		if (dir == NULL) {
			rc = -errno;
			close(fd);
			return rc;
		}
	}
	while (dir != NULL && rc == 0 && (errno = 0, entry = readdir(dir)) != NULL)
		if (pml_is_dropin_name(entry->d_name))
			rc = add_name(&list, &n, entry->d_name);
	if (dir != NULL && rc == 0 && errno != 0)
		rc = -errno;
	if (dir != NULL)
		closedir(dir);
	if (rc == 0 && extra != NULL && !has_name(list, n, extra))
		rc = add_name(&list, &n, extra);
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
 * memlock.d beside the main file: in DIR_FD (NULL: by the main file's
 * path).  Opened O_PATH and fstat'd before it is opened
 * for reading: a device node of that name (an image memlockctl doctor
 * checks may hold anything) is never opened.
 */
static int open_dropin_dir(const struct pml_source *source, const int *dir_fd,
			   const char *dir, int *fd, const char **why)
{
	int pfd, rc;

	*why = NULL;
	if (dir_fd != NULL && *dir_fd < 0)
		return *dir_fd;
	pfd = dir_fd != NULL ? openat(*dir_fd, PML_DROPIN_DIR, O_PATH | O_NOFOLLOW | O_CLOEXEC)
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

/* The drop-ins of memlock.d/ beside SOURCE's main file (in DIR_FD, if not
 * NULL), CANDIDATE (if any) in place of the one it names. */
static int load_dropins(struct pml_policy *policy, const struct pml_source *source,
			const struct pml_candidate *candidate, const int *dir_fd,
			const struct pml_log *log)
{
	const char *main_path = source->path, *slash = strrchr(main_path, '/');
	const char *extra = candidate != NULL ? candidate->dropin : NULL;
	char dir[4096], shown[4096 + 256];
	char **names = NULL;
	size_t count = 0, i;
	const char *why = NULL;
	int fd = -1, rc, worst = 0;

	if (slash == NULL)
		return 0;
	if (snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - main_path),
		     main_path, PML_DROPIN_DIR) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	rc = open_dropin_dir(source, dir_fd, dir, &fd, &why);
	/* No memlock.d: nothing to read, unless a candidate is to be read
	 * as the first file of it. */
	if (rc == -ENOENT) {
		if (extra == NULL)
			return 0;
		rc = 0;
	}
	if (rc == 0)
		rc = list_dropins(fd, extra, &names, &count);
	if (rc < 0 && rc != -ENOMEM) {
		log_read_error(log, dir, rc, why);
		rc = -EINVAL;
	}
	for (i = 0; rc == 0 && i < count; i++) {
		/* Removed since the directory was read: as if read a moment
		 * later (configuration management deletes drop-ins while
		 * people log in). */
		struct file_to_load f = {
			.dirfd = fd,
			.name = names[i],
			.shown = shown,
			.owner = source->owner,
			.dropin = true,
			.if_missing = "removed while the directory was read: skipped",
		};

		snprintf(shown, sizeof(shown), "%s/%s", dir, names[i]);
		if (extra != NULL && strcmp(names[i], extra) == 0)
			f = candidate_file(candidate);
		rc = load_file(policy, &f, log);
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

int pml_policy_load_from(const struct pml_source *source, const struct pml_from *from,
			 uint64_t page_size, const struct pml_log *log,
			 struct pml_policy *policy)
{
	const struct pml_candidate *candidate = from != NULL ? from->candidate : NULL;
	const int *dir_fd = from != NULL && from->in_dir ? &from->dir_fd : NULL;
	struct file_to_load main_file = {
		.dirfd = AT_FDCWD,
		.name = source->path,
		.shown = source->path,
		.owner = source->owner,
		.if_missing = source->given ? NULL : "not present, using the built-in default",
	};
	const char *slash = strrchr(source->path, '/');
	int rc, dropins = 0;

	if (dir_fd != NULL) {
		main_file.dirfd = *dir_fd;
		main_file.name = slash != NULL ? slash + 1 : source->path;
	}
	pml_policy_init(policy);
	if (candidate != NULL && candidate->dropin != NULL &&
	    (source->given || !pml_is_dropin_name(candidate->dropin))) {
		pml_log(log, LOG_ERR, "%s: never read: %s", candidate_file(candidate).shown,
			source->given ? "no drop-in is read beside a given file"
				      : "drop-ins are read only when their names end in \".conf\" and do not start with \".\"");
		return -EINVAL;
	}
	if (candidate != NULL && candidate->dropin == NULL)
		main_file = candidate_file(candidate);
	rc = load_file(policy, &main_file, log);
	if (rc != -ENOMEM && !source->given)
		dropins = load_dropins(policy, source, candidate, dir_fd, log);
	if (rc == 0 || (rc == -EINVAL && dropins == -ENOMEM))
		rc = dropins;
	if (rc == 0)
		rc = pml_policy_validate(policy, page_size, log);
	if (rc < 0)
		pml_policy_free(policy);
	return rc;
}

int pml_policy_load(const struct pml_source *source, uint64_t page_size,
		    const struct pml_log *log, struct pml_policy *policy)
{
	return pml_policy_load_from(source, NULL, page_size, log, policy);
}
