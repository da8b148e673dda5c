/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "memory.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define PATH_MAX_LEN 4096
/* /proc/self/cgroup: one line per hierarchy, a dozen at most. */
#define CGROUP_FILE_MAX 8192

/* A cgroup hierarchy that can hold a memory limit. */
struct hierarchy {
	const char *dir;    /* where it is mounted */
	const char *marker; /* a file that says it is there */
	const char *limit;  /* the limit's file in each cgroup */
	bool v2;	    /* /proc/self/cgroup's "0::PATH" line */
};

static const struct hierarchy hierarchies[] = {
	{ .dir = "/sys/fs/cgroup", .marker = "cgroup.controllers", .limit = "memory.max", .v2 = true },
	{ .dir = "/sys/fs/cgroup/unified", .marker = "cgroup.controllers", .limit = "memory.max", .v2 = true },
	{ .dir = "/sys/fs/cgroup/memory", .marker = "memory.limit_in_bytes", .limit = "memory.limit_in_bytes", .v2 = false },
};

#define N_HIERARCHIES (sizeof(hierarchies) / sizeof(hierarchies[0]))

/* Reads a small file whole.  Returns its length or -errno.  pread, as
 * safe_read.c reads: libpam binds every import again in each session. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	size_t len = 0;

	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t got = pread(fd, buf + len, size - 1 - len, (off_t)len);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0) {
				int err = errno;

				close(fd);
				return -err;
			}
			break;
		}
		len += (size_t)got;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* PATH read by FILES, or by path on this machine. */
static ssize_t read_file(const struct pml_files *files, const char *path,
			 char *buf, size_t size)
{
	return files != NULL ? files->read(files, path, buf, size)
			     : read_small(path, buf, size);
}

/* What is put before a path in messages. */
static const char *shown_under(const struct pml_files *files)
{
	return files != NULL && files->shown_under != NULL ? files->shown_under : "";
}

static bool exists(const struct pml_files *files, const char *dir, const char *file)
{
	char path[PATH_MAX_LEN];

	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return false;
	if (files != NULL)
		return files->exists(files, path);
	fd = openat(AT_FDCWD, path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* "max", or a decimal byte count, then at most a newline.  Returns false
 * for anything else. */
static bool parse_limit(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = text;

	if (strcmp(text, "max\n") == 0 || strcmp(text, "max") == 0) {
		*out = UINT64_MAX;
		return true;
	}
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (p == text || (*p != '\0' && strcmp(p, "\n") != 0))
		return false;
	*out = v;
	return true;
}

/* Reads the limit in DIR and keeps it when it is the lowest. */
static void consider(const struct pml_files *files, const char *dir,
		     const char *file, const struct pml_log *log,
		     struct pml_available *out)
{
	char path[PATH_MAX_LEN], text[64];
	ssize_t len;
	uint64_t limit;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return;
	len = read_file(files, path, text, sizeof(text));
	if (len < 0) {
		if (len != -ENOENT)
			pml_log(log, LOG_DEBUG, "%s%s: skipped: %s", shown_under(files),
				path, strerror((int)-len));
		return;
	}
	if (!parse_limit(text, &limit)) {
		pml_log(log, LOG_WARNING, "%s%s: not a memory limit, skipped",
			shown_under(files), path);
		return;
	}
	/* OUT starts at RAM: "max", and v1's "no limit" (a number near 2^63),
	 * are above it like any limit that does not bind. */
	if (limit >= out->bytes)
		return;
	out->bytes = limit;
	/* A path longer than .from is cut there, NUL-terminated. */
	if (snprintf(out->from, sizeof(out->from), "%s%s", shown_under(files), path) >=
	    (int)sizeof(out->from))
		out->from[sizeof(out->from) - 1] = '\0';
}

/*
 * This process's cgroup in hierarchy H, from /proc/self/cgroup's TEXT:
 * "0::PATH" for v2, "N:...,memory,...:PATH" for v1.  NULL when absent.
 */
static const char *cgroup_path(const char *text, const struct hierarchy *h,
			       char *buf, size_t size)
{
	const char *line = text;

	while (*line != '\0') {
		const char *end = strchr(line, '\n');
		size_t len = end != NULL ? (size_t)(end - line) : strlen(line);
		const char *c1 = memchr(line, ':', len);
		const char *c2 = c1 != NULL ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;

		if (c2 != NULL) {
			size_t controllers = (size_t)(c2 - c1 - 1);
			bool match = h->v2 ? (c1 - line == 1 && line[0] == '0' && controllers == 0)
					   : false;
			const char *p = c1 + 1;

			/* v1: "memory" as one of the comma-separated names. */
			while (!h->v2 && p < c2) {
				const char *comma = memchr(p, ',', (size_t)(c2 - p));
				const char *stop = comma != NULL ? comma : c2;

				if (stop - p == 6 && strncmp(p, "memory", 6) == 0)
					match = true;
				p = stop + 1;
			}
			if (match && (size_t)(line + len - c2 - 1) < size) {
				snprintf(buf, size, "%.*s", (int)(line + len - c2 - 1), c2 + 1);
				return buf;
			}
		}
		if (end == NULL)
			break;
		line = end + 1;
	}
	return NULL;
}

/* The limits of PATH and its ancestors in hierarchy H. */
static void walk(const struct pml_files *files, const struct hierarchy *h, const char *path,
		 const struct pml_log *log, struct pml_available *out)
{
	char dir[PATH_MAX_LEN];
	size_t base = strlen(h->dir), len;

	if (snprintf(dir, sizeof(dir), "%s%s", h->dir, path) >= (int)sizeof(dir))
		return;
	len = strlen(dir);
	while (len > base) {
		while (len > base && dir[len - 1] == '/')
			len--;
		if (len == base)
			break;
		dir[len] = '\0';
		consider(files, dir, h->limit, log, out);
		while (len > base && dir[len - 1] != '/')
			len--;
	}
	/* The root this process can see: a container's own, in a namespace. */
	consider(files, h->dir, h->limit, log, out);
}

bool pml_has_user_slice(const struct pml_files *files)
{
	size_t i;

	for (i = 0; i < N_HIERARCHIES; i++)
		if (exists(files, hierarchies[i].dir, "user.slice"))
			return true;
	return false;
}

void pml_available_memory(const struct pml_base_query *query, uint64_t ram,
			  const struct pml_log *log, struct pml_available *out)
{
	const struct pml_files *files = query->files;
	bool process = query->pid != PML_NO_PROCESS, have_text = false;
	char path[PATH_MAX_LEN], text[CGROUP_FILE_MAX], slice[64];
	size_t i;

	*out = (struct pml_available){
		.bytes = ram,
		.scope = process ? PML_BASE_PROCESS : PML_BASE_TOP,
	};
	if (query->pid == 0)
		snprintf(path, sizeof(path), "/proc/self/cgroup");
	else
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)query->pid);
	if (process)
		have_text = read_file(files, path, text, sizeof(text)) >= 0;
	snprintf(slice, sizeof(slice), "/user.slice/user-%lu.slice",
		 (unsigned long)query->uid);
	for (i = 0; i < N_HIERARCHIES; i++) {
		const struct hierarchy *h = &hierarchies[i];
		char own[PATH_MAX_LEN];

		if (!exists(files, h->dir, h->marker))
			continue;
		if (have_text && cgroup_path(text, h, own, sizeof(own)) != NULL) {
			walk(files, h, own, log, out);
		} else if (!process && query->uid_known && exists(files, h->dir, slice + 1)) {
			/* Where the user's sessions run, under systemd. */
			walk(files, h, slice, log, out);
			out->scope = PML_BASE_USER_SLICE;
		} else if (!process) {
			consider(files, h->dir, h->limit, log, out);
		}
		if (!query->uid_known)
			continue;
		snprintf(own, sizeof(own), "%s%s", h->dir, slice);
		consider(files, own, h->limit, log, out);
		snprintf(own, sizeof(own), "%s/user.slice", h->dir);
		consider(files, own, h->limit, log, out);
	}
}
