/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "rootfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *doc_root_path(const char *root, const char *path)
{
	size_t rl = strlen(root), pl = strlen(path);
	char *p;

	/* "--root /srv/img/" and "/etc" make "/srv/img/etc", not "//etc". */
	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	p = malloc(rl + pl + 1);
	if (p == NULL)
		return NULL;
	memcpy(p, root, rl);
	memcpy(p + rl, path, pl + 1);
	return p;
}

int doc_read(const char *root, const char *path, struct doc_text *out)
{
	char *full = doc_root_path(root, path);
	struct stat st;
	size_t got = 0, size;
	int fd, rc = 0;

	out->data = NULL;
	out->len = 0;
	if (full == NULL)
		return -ENOMEM;
	fd = open(full, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	free(full);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EISDIR;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = -EINVAL;
		goto out;
	}
	if ((unsigned long long)st.st_size > DOC_FILE_MAX) {
		rc = -EFBIG;
		goto out;
	}
	/* Read to the end, not st_size bytes: /proc files (/proc/1/limits)
	 * say they are empty.  The size may change under us too: read what
	 * is there, up to the limit. */
	size = (size_t)st.st_size > 0 ? (size_t)st.st_size : 4096;
	out->data = malloc(size + 1);
	if (out->data == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (got == size) {
			char *grown;

			/* One byte past the limit tells a file that is too large. */
			if (size > DOC_FILE_MAX) {
				rc = -EFBIG;
				goto out;
			}
			size = size * 2 < DOC_FILE_MAX + 1 ? size * 2 : DOC_FILE_MAX + 1;
			grown = realloc(out->data, size + 1);
			if (grown == NULL) {
				rc = -ENOMEM;
				goto out;
			}
			out->data = grown;
		}
		r = read(fd, out->data + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = -errno;
			goto out;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	out->data[got] = '\0';
	out->len = got;
out:
	close(fd);
	if (rc < 0)
		doc_text_free(out);
	return rc;
}

void doc_text_free(struct doc_text *text)
{
	free(text->data);
	text->data = NULL;
	text->len = 0;
}

bool doc_exists(const char *root, const char *path)
{
	char *full = doc_root_path(root, path);
	struct stat st;
	bool there;

	if (full == NULL)
		return false;
	there = stat(full, &st) == 0;
	free(full);
	return there;
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

int doc_list_dir(const char *root, const char *dir, const char *suffix,
		 char ***names, size_t *n)
{
	char *full = doc_root_path(root, dir);
	struct dirent *e;
	size_t cap = 0;
	DIR *d;

	*names = NULL;
	*n = 0;
	if (full == NULL)
		return -ENOMEM;
	d = opendir(full);
	free(full);
	if (d == NULL)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
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
	doc_names_free(*names, *n);
	*names = NULL;
	*n = 0;
	return -ENOMEM;
}

void doc_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
