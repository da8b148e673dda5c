/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "safe_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(const char **why, const char *reason, int err)
{
	*why = reason;
	return -err;
}

static int check_owner_and_mode(const struct stat *st, uid_t owner,
				const char **why)
{
	if (owner == PML_ANY_OWNER)
		return 0;
	if (st->st_uid != owner)
		return refuse(why, owner == 0 ? "is not owned by root" : "is not owned by the expected user",
			      EPERM);
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) != 0)
		return refuse(why, "is writable by group or others", EPERM);
	return 0;
}

int pml_check_dir_fd(int fd, uid_t owner, const char **why)
{
	struct stat st;

	*why = NULL;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return refuse(why, "is not a directory", ENOTDIR);
	return check_owner_and_mode(&st, owner, why);
}

/* One pread(2) from offset 0, retried only when interrupted. */
static ssize_t read_from_start(int fd, char *data, size_t cap)
{
	ssize_t got;

	do
		got = pread(fd, data, cap, 0);
	while (got < 0 && errno == EINTR);
	return got;
}

/*
 * Reads the whole file in ONE read from its start: a regular file's read
 * is short only at its end.  Only when the file grew past its fstat size
 * is it read again, whole, from its start.
 */
static int read_all(int fd, size_t size_hint, struct pml_text *out)
{
	/* One byte more than expected, to notice a file that grew. */
	size_t cap = size_hint < PML_FILE_MAX ? size_hint + 1 : PML_FILE_MAX + 1;
	char *data = malloc(cap + 1);
	ssize_t got;

	if (data == NULL)
		return -ENOMEM;
	got = read_from_start(fd, data, cap);
	if (got >= 0 && (size_t)got == cap && cap <= PML_FILE_MAX) {
		char *bigger;

		cap = PML_FILE_MAX + 1;
		bigger = realloc(data, cap + 1);
		if (bigger == NULL) {
			free(data);
			return -ENOMEM;
		}
		data = bigger;
		got = read_from_start(fd, data, cap);
	}
	if (got < 0) {
		int err = errno;

		free(data);
		return -err;
	}
	if ((size_t)got > PML_FILE_MAX) {
		free(data);
		return -EFBIG;
	}
	data[got] = '\0';
	out->data = data;
	out->len = (size_t)got;
	return 0;
}

static bool same_text(const struct pml_text *a, const struct pml_text *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/*
 * Even one read is no snapshot of a file rewritten in place: the kernel
 * copies the page cache while the writer fills it, and tests/module/test_races
 * saw a session read the start of one policy and the end of the next
 * (A's soft limit with B's hard: a policy nobody wrote).  So the text is
 * taken only when two reads in a row agree; a file that keeps changing is
 * refused, as one caught half-written would be.
 */
static int read_stable(int fd, size_t size_hint, struct pml_text *out, const char **why)
{
	struct pml_text last = { 0 }, next;
	int tries, rc;

	for (tries = 0; tries < PML_READ_TRIES; tries++) {
		rc = read_all(fd, last.data != NULL ? last.len : size_hint, &next);
		if (rc < 0) {
			pml_text_free(&last);
			return rc;
		}
		if (last.data != NULL && same_text(&last, &next)) {
			pml_text_free(&next);
			*out = last;
			return 0;
		}
		pml_text_free(&last);
		last = next;
	}
	pml_text_free(&last);
	return refuse(why, "changed while it was read: is it being written in place?", EAGAIN);
}

int pml_read_file_at(int dirfd, const char *name, uid_t owner,
		     struct pml_text *out, const char **why)
{
	struct stat st, opened;
	int pfd, fd = -1, rc;

	*why = NULL;
	out->data = NULL;
	out->len = 0;
	if (dirfd == AT_FDCWD && name[0] != '/')
		return refuse(why, "is not an absolute path", EINVAL);
	/* The type first, from a descriptor that opens nothing: a device node
	 * is never opened, and a FIFO never waited on. */
	pfd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (fstat(pfd, &st) < 0)
		rc = -errno;
	else if (S_ISLNK(st.st_mode))
		rc = refuse(why, "is a symbolic link", ELOOP);
	else if (!S_ISREG(st.st_mode))
		rc = refuse(why, S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file",
			    EINVAL);
	else
		rc = check_owner_and_mode(&st, owner, why);
	close(pfd);
	if (rc < 0)
		return rc;
	/* A file renamed over this one since (configuration management does
	 * that while people log in) is read as the newer one, after the same
	 * checks; O_NONBLOCK and O_NOCTTY keep that open from waiting or
	 * taking a terminal. */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		if (errno == ELOOP)
			return refuse(why, "is a symbolic link", ELOOP);
		return -errno;
	}
	if (fstat(fd, &opened) < 0) {
		rc = -errno;
	} else if (!S_ISREG(opened.st_mode)) {
		rc = refuse(why, S_ISDIR(opened.st_mode) ? "is a directory" : "is not a regular file",
			    EINVAL);
	} else if ((rc = check_owner_and_mode(&opened, owner, why)) == 0) {
		if (opened.st_size > PML_FILE_MAX)
			rc = -EFBIG;
		else
			rc = read_stable(fd, (size_t)opened.st_size, out, why);
		if (rc == -EFBIG)
			*why = "is larger than 64 KiB";
	}
	close(fd);
	return rc;
}

void pml_text_free(struct pml_text *text)
{
	free(text->data);
	text->data = NULL;
	text->len = 0;
}
