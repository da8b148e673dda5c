/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The ring figures `memlockctl measure` found, kept for check and explain:
 * they only read files, and a measurement takes forks, uid switches and
 * io_uring calls.  One small file a kernel release, since the release is
 * what decides the figures:
 *
 *     # memlockctl measure, Linux 6.18.1
 *     kernel 6.18.1
 *     io_uring enabled
 *     page 4096
 *     small_ring 8192
 *     ring_4096 413696
 *
 * A file that root does not own, that others may write, or that does not
 * read as this is ignored, with a message: the figures reach a root-run
 * check's warnings.
 */
#include "measure.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/text.h"
#include "replace/replace.h"

#ifndef PML_MEASURED_DIR
#define PML_MEASURED_DIR "/var/lib/pam_memlock"
#endif
#define ENV_DIR "MEMLOCKCTL_MEASURED_DIR"
#define FILE_MAX 512

/* io_uring as measure found it: the status a measure_rings carries. */
static const struct {
	const char *name;
	int status;
} io_uring_names[] = {
	{ .name = "enabled", .status = 0 },
	{ .name = "missing", .status = -ENOSYS },
	{ .name = "refused", .status = -EPERM },
};

const char *measure_saved_dir(void)
{
	const char *dir = getenv(ENV_DIR);

	return dir != NULL && dir[0] == '/' ? dir : PML_MEASURED_DIR;
}

/* DIR/rings-RELEASE; -EINVAL for a release that is no file name. */
static int saved_path(const char *release, char *buf, size_t len)
{
	if (release[0] == '\0' || release[0] == '.' || strchr(release, '/') != NULL ||
	    (size_t)snprintf(buf, len, "%s/rings-%s", measure_saved_dir(), release) >= len)
		return -EINVAL;
	return 0;
}

static int io_uring_status(const char *name, int *status)
{
	size_t i;

	for (i = 0; i < sizeof(io_uring_names) / sizeof(io_uring_names[0]); i++)
		if (strcmp(io_uring_names[i].name, name) == 0) {
			*status = io_uring_names[i].status;
			return 0;
		}
	return -EINVAL;
}

/* "KEY VALUE" lines into *R; each key once, all of them there. */
static int parse(char *text, const char *release, struct measure_rings *r)
{
	enum {
		KERNEL = 1,
		IO_URING = 2,
		PAGE = 4,
		SMALL = 8,
		LARGE = 16,
		ALL = 31
	};
	unsigned seen = 0, bit;
	char large_key[32], *line, *save = NULL, *value, *end;
	uint64_t *number;

	snprintf(large_key, sizeof(large_key), "ring_%u", MEASURE_DEFAULT_ENTRIES);
	for (line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		value = strchr(line, ' ');
		if (value == NULL)
			return -EINVAL;
		*value++ = '\0';
		number = NULL;
		if (strcmp(line, "kernel") == 0) {
			bit = KERNEL;
			if (strcmp(value, release) != 0)
				return -EINVAL;
		} else if (strcmp(line, "io_uring") == 0) {
			bit = IO_URING;
			if (io_uring_status(value, &r->status) < 0)
				return -EINVAL;
		} else if (strcmp(line, "page") == 0) {
			bit = PAGE, number = &r->page;
		} else if (strcmp(line, "small_ring") == 0) {
			bit = SMALL, number = &r->small;
		} else if (strcmp(line, large_key) == 0) {
			bit = LARGE, number = &r->large;
		} else {
			return -EINVAL;
		}
		if (number != NULL) {
			errno = 0;
			if (value[0] < '0' || value[0] > '9')
				return -EINVAL;
			*number = strtoull(value, &end, 10);
			if (errno != 0 || *end != '\0')
				return -EINVAL;
		}
		if ((seen & bit) != 0)
			return -EINVAL;
		seen |= bit;
	}
	if (seen != ALL || r->page == 0)
		return -EINVAL;
	return 0;
}

/* The file's text, if root owns it and only root may write it. */
static int read_trusted(const char *path, char *buf, size_t len, const char **why)
{
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		*why = errno == ELOOP ? "a symbolic link" : NULL;
		return -errno;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		*why = "not a regular file";
	else if (st.st_uid != 0)
		*why = "not owned by root";
	else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		*why = "writable by group or others";
	else if ((n = read(fd, buf, len - 1)) < 0 || (size_t)n == len - 1)
		*why = n < 0 ? "unreadable" : "too long";
	else
		buf[n] = '\0';
	close(fd);
	return *why != NULL ? -EINVAL : 0;
}

void measure_saved_rings(struct measure_rings *r, const char *release)
{
	char path[PATH_MAX], text[FILE_MAX], shown[PATH_MAX + 64];
	const char *why = NULL;
	int rc;

	*r = (struct measure_rings){ .status = -ENOENT };
	snprintf(r->release, sizeof(r->release), "%s", release);
	if (saved_path(release, path, sizeof(path)) < 0)
		return;
	rc = read_trusted(path, text, sizeof(text), &why);
	if (rc == 0 && parse(text, release, r) < 0) {
		why = "not a measurement of this kernel as memlockctl measure writes one";
		rc = -EINVAL;
	}
	if (rc == 0)
		return;
	if (why != NULL)
		fprintf(stderr, "memlockctl: %s: ignored: %s; `memlockctl measure` writes it anew\n",
			pml_escape(path, shown, sizeof(shown)), why);
	/* Whatever was read of it counts for nothing. */
	*r = (struct measure_rings){ .status = -ENOENT };
	snprintf(r->release, sizeof(r->release), "%s", release);
}

static const char *io_uring_name(int status)
{
	size_t i;

	for (i = 0; i < sizeof(io_uring_names) / sizeof(io_uring_names[0]); i++)
		if (io_uring_names[i].status == status)
			return io_uring_names[i].name;
	return "refused";
}

int measure_save_rings(const struct measure_rings *r, char *path, size_t len)
{
	const char *dir = measure_saved_dir(), *what;
	char text[FILE_MAX];
	int n;

	if (saved_path(r->release, path, len) < 0)
		return -EINVAL;
	n = snprintf(text, sizeof(text),
		     "# memlockctl measure, Linux %s\nkernel %s\nio_uring %s\npage %" PRIu64 "\nsmall_ring %" PRIu64 "\nring_%u %" PRIu64 "\n",
		     r->release, r->release, io_uring_name(r->status), r->page, r->small,
		     MEASURE_DEFAULT_ENTRIES, r->large);
	if (n < 0 || (size_t)n >= sizeof(text))
		return -EINVAL;
	/* Created on the first save: installing the package makes nothing. */
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return replace_file(path, text, (size_t)n, (struct replace_how){ .mode = 0644 }, &what);
}
