/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "dirfd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef SYS_openat2
#include <linux/openat2.h>
#endif

/* Directories deeper than this in one path: -ENAMETOOLONG. */
#define WALK_DEPTH_MAX 256

const char *dirfd_root_canonical(const char *root)
{
	struct stat r, slash;

	if (root == NULL || root[0] == '\0')
		return "";
	if (stat(root, &r) == 0 && stat("/", &slash) == 0 && r.st_dev == slash.st_dev &&
	    r.st_ino == slash.st_ino)
		return "";
	return root;
}

static int open_root(const char *root)
{
	int fd = open(root[0] != '\0' ? root : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* --- The walk of user space. */

struct walk {
	int dirs[WALK_DEPTH_MAX]; /* dirs[0] is the root */
	size_t depth;
	unsigned links;
};

static void walk_pop_to(struct walk *w, size_t depth)
{
	while (w->depth > depth)
		close(w->dirs[--w->depth]);
}

/* The target of the symbolic link FD, malloc'd, then REST after a '/'. */
static char *link_then(int fd, const char *rest)
{
	char target[PATH_MAX];
	ssize_t len = readlinkat(fd, "", target, sizeof(target) - 1);
	size_t rl = strlen(rest);
	char *out;

	if (len < 0)
		return NULL;
	target[len] = '\0';
	out = malloc((size_t)len + rl + 2);
	if (out != NULL)
		snprintf(out, (size_t)len + rl + 2, "%s/%s", target, rest);
	return out;
}

/*
 * PATH walked below ROOTFD.  The descriptor of what it names is O_PATH;
 * with READING, the final component, once seen to be a regular file, is
 * opened for reading instead (only when /proc is missing: see dirfd.h).
 */
static int walk_path(int rootfd, const char *path, bool nofollow, bool reading,
		     struct stat *st)
{
	struct walk w = { .depth = 0 };
	char *todo = strdup(path), *p;
	int rc = -ENOENT;

	if (todo == NULL)
		return -ENOMEM;
	w.dirs[0] = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (w.dirs[0] < 0) {
		free(todo);
		return -errno;
	}
	w.depth = 1;
	p = todo;
	for (;;) {
		char *name, *rest, *again;
		bool last;
		int fd;

		p += strspn(p, "/");
		if (*p == '\0') {
			/* The path ends at a directory: the root, or after "..". */
			rc = fcntl(w.dirs[w.depth - 1], F_DUPFD_CLOEXEC, 0);
			rc = rc < 0 ? -errno : rc;
			break;
		}
		name = p;
		rest = p + strcspn(p, "/");
		if (*rest != '\0')
			*rest++ = '\0';
		last = rest[strspn(rest, "/")] == '\0';
		p = rest;
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0) {
			/* Ours to pop: the file system's ".." could lead out. */
			walk_pop_to(&w, w.depth > 1 ? w.depth - 1 : 1);
			continue;
		}
		fd = openat(w.dirs[w.depth - 1], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, st) < 0) {
			rc = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st->st_mode) && !(last && nofollow)) {
			if (++w.links > DIRFD_LINKS_MAX) {
				close(fd);
				rc = -ELOOP;
				break;
			}
			again = link_then(fd, rest);
			close(fd);
			if (again == NULL) {
				rc = errno == ENOMEM ? -ENOMEM : -EIO;
				break;
			}
			/* An absolute target starts again at the root. */
			if (again[0] == '/')
				walk_pop_to(&w, 1);
			free(todo);
			todo = p = again;
			continue;
		}
		if (last && reading) {
			/* Seen to be a regular file: only then opened to read. */
			close(fd);
			if (!S_ISREG(st->st_mode)) {
				rc = -EINVAL;
				break;
			}
			rc = openat(w.dirs[w.depth - 1], name,
				    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
			rc = rc < 0 ? -errno : rc;
			break;
		}
		if (last) {
			rc = fd;
			break;
		}
		if (!S_ISDIR(st->st_mode) || w.depth == WALK_DEPTH_MAX) {
			close(fd);
			rc = S_ISDIR(st->st_mode) ? -ENAMETOOLONG : -ENOTDIR;
			break;
		}
		w.dirs[w.depth++] = fd;
	}
	walk_pop_to(&w, 0);
	free(todo);
	if (rc >= 0 && fstat(rc, st) < 0) {
		int err = -errno;

		close(rc);
		rc = err;
	}
	return rc;
}

/* --- The kernel's way, where it has one. */

/* The descriptor, or -ENOSYS where the kernel (or a filter) has no openat2. */
static int kernel_path(int rootfd, const char *path, bool nofollow, struct stat *st)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (nofollow ? O_NOFOLLOW : 0),
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));

	if (fd < 0)
		return errno == EPERM ? -ENOSYS : -errno;
	if (fstat((int)fd, st) < 0) {
		int err = -errno;

		close((int)fd);
		return err;
	}
	return (int)fd;
#else
	(void)rootfd, (void)path, (void)nofollow, (void)st;
	return -ENOSYS;
#endif
}

int dirfd_open_path_walk(const char *root, const char *path, bool nofollow, struct stat *st)
{
	int rootfd = open_root(root), fd;

	if (rootfd < 0)
		return rootfd;
	fd = walk_path(rootfd, path, nofollow, false, st);
	close(rootfd);
	return fd;
}

int dirfd_open_path(const char *root, const char *path, bool nofollow, struct stat *st)
{
	int rootfd = open_root(root), fd;

	if (rootfd < 0)
		return rootfd;
	fd = kernel_path(rootfd, path, nofollow, st);
	if (fd == -ENOSYS)
		fd = walk_path(rootfd, path, nofollow, false, st);
	close(rootfd);
	return fd;
}

int dirfd_open_dir(const char *root, const char *dir)
{
	struct stat st;
	int pfd = dirfd_open_path(root, dir, false, &st), fd;

	if (pfd < 0)
		return pfd;
	if (!S_ISDIR(st.st_mode)) {
		close(pfd);
		return -ENOTDIR;
	}
	/* A directory opened below itself: no name is looked up again. */
	fd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(pfd);
	return fd < 0 ? -errno : fd;
}

int dirfd_open_parent(const char *root, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd;

	if (slash == NULL || slash == path)
		return dirfd_open_dir(root, "/");
	dir = strndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return -ENOMEM;
	fd = dirfd_open_dir(root, dir);
	free(dir);
	return fd;
}

/* PFD, a regular file checked as *ST, opened for reading: through /proc,
 * the very file; without /proc, by name again, and only if it is the same. */
static int reopen_regular(int pfd, const char *root, const char *path, const struct stat *st)
{
	char proc[64];
	struct stat again;
	int fd;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENOENT) {
		int rootfd = open_root(root);

		if (rootfd < 0)
			return rootfd;
		fd = walk_path(rootfd, path, false, true, &again);
		close(rootfd);
		if (fd < 0)
			return fd;
	} else if (fd < 0) {
		return -errno;
	}
	if (fstat(fd, &again) < 0 || again.st_dev != st->st_dev || again.st_ino != st->st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* Reads FD into BUF until LEN bytes or the end: *GOT bytes.  Returns 0
 * or -errno. */
static int read_upto(int fd, char *buf, size_t len, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t r = read(fd, buf + *got, len - *got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		*got += (size_t)r;
	}
	return 0;
}

int dirfd_read_at(int dir, const char *name, char *buf, size_t len)
{
	char proc[64];
	struct stat st, again;
	int pfd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), fd, rc = 0;
	size_t used = 0;

	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	if (rc < 0) {
		close(pfd);
		return rc;
	}
	/* The very file checked; without /proc, the name again, if it is
	 * still the same file (O_NOFOLLOW, O_NONBLOCK: no link, no wait). */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", pfd);
	fd = open(proc, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	rc = fd < 0 ? -errno : 0;
	close(pfd);
	if (rc < 0)
		return rc;
	if (fstat(fd, &again) < 0 || again.st_dev != st.st_dev || again.st_ino != st.st_ino) {
		close(fd);
		return -ESTALE;
	}
	if (len > 0) {
		rc = read_upto(fd, buf, len - 1, &used);
		buf[used] = '\0';
	}
	close(fd);
	return rc;
}

/* Reads FD to the end, not st_size bytes: /proc files (/proc/1/limits) say
 * they are empty.  The size may change under us too: what is there is
 * read, up to the limit. */
static int read_fd(int fd, size_t size, struct dirfd_text *out)
{
	size_t got = 0, n;
	int rc;

	size = size > 0 ? size : 4096;
	out->data = malloc(size + 1);
	if (out->data == NULL)
		return -ENOMEM;
	for (;;) {
		char *grown;

		rc = read_upto(fd, out->data + got, size - got, &n);
		got += n;
		if (rc < 0)
			return rc;
		if (got < size)
			break; /* the end */
		/* One byte past the limit tells a file that is too large. */
		if (size > DIRFD_FILE_MAX)
			return -EFBIG;
		size = size * 2 < DIRFD_FILE_MAX + 1 ? size * 2 : DIRFD_FILE_MAX + 1;
		grown = realloc(out->data, size + 1);
		if (grown == NULL)
			return -ENOMEM;
		out->data = grown;
	}
	out->data[got] = '\0';
	out->len = got;
	return 0;
}

int dirfd_read(const char *root, const char *path, struct dirfd_text *out)
{
	struct stat st;
	int pfd, fd, rc;

	out->data = NULL;
	out->len = 0;
	pfd = dirfd_open_path(root, path, false, &st);
	if (pfd < 0)
		return pfd;
	if (S_ISDIR(st.st_mode))
		rc = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else if ((unsigned long long)st.st_size > DIRFD_FILE_MAX)
		rc = -EFBIG;
	else
		rc = 0;
	fd = rc == 0 ? reopen_regular(pfd, root, path, &st) : rc;
	close(pfd);
	if (fd < 0)
		return fd;
	rc = read_fd(fd, (size_t)st.st_size, out);
	close(fd);
	if (rc < 0)
		dirfd_text_free(out);
	return rc;
}

void dirfd_text_free(struct dirfd_text *text)
{
	free(text->data);
	text->data = NULL;
	text->len = 0;
}

bool dirfd_exists(const char *root, const char *path)
{
	struct stat st;
	int fd = dirfd_open_path(root, path, false, &st);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static ssize_t files_read(const struct pml_files *files, const char *path,
			  char *buf, size_t size)
{
	const struct dirfd_files *f = (const struct dirfd_files *)files;
	struct dirfd_text text;
	int rc = dirfd_read(f->root, path, &text);
	size_t n;

	if (rc < 0)
		return rc;
	n = size > 0 && text.len >= size ? size - 1 : text.len;
	if (size > 0) {
		memcpy(buf, text.data, n);
		buf[n] = '\0';
	}
	dirfd_text_free(&text);
	return (ssize_t)n;
}

static bool files_exist(const struct pml_files *files, const char *path)
{
	return dirfd_exists(((const struct dirfd_files *)files)->root, path);
}

static int files_list(const struct pml_files *files, const char *dir, const char *suffix,
		      char ***names, size_t *n)
{
	return dirfd_list_dir(((const struct dirfd_files *)files)->root, dir, suffix, names, n);
}

void dirfd_files_init(struct dirfd_files *files, const char *root)
{
	*files = (struct dirfd_files){
		.files = { .read = files_read,
			   .exists = files_exist,
			   .list = files_list,
			   .shown_under = root },
		.root = root,
	};
}

static int by_bytes(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t sl = strlen(s), xl = strlen(suffix);

	return sl >= xl && strcmp(s + sl - xl, suffix) == 0;
}

int dirfd_list_dir(const char *root, const char *dir, const char *suffix,
		   char ***names, size_t *n)
{
	int fd = dirfd_open_dir(root, dir);
	struct dirent *e;
	size_t cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (fd < 0)
		return fd == -ENOENT || fd == -ENOTDIR ? 0 : fd;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (suffix != NULL && !ends_with(e->d_name, suffix))
			continue;
		if (*n == cap) {
			char **grown = realloc(*names, (cap ? cap * 2 : 16) * sizeof(char *));

			if (grown == NULL)
				goto nomem;
			*names = grown;
			cap = cap ? cap * 2 : 16;
		}
		(*names)[*n] = strdup(e->d_name);
		if ((*names)[*n] == NULL)
			goto nomem;
		(*n)++;
	}
	closedir(d);
	if (*n > 0)
		qsort(*names, *n, sizeof(char *), by_bytes);
	return 0;
nomem:
	closedir(d);
	dirfd_names_free(*names, *n);
	*names = NULL;
	*n = 0;
	return -ENOMEM;
}

void dirfd_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
