/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Atomic replace (replace.h): a temporary file in the target's directory,
 * written whole, fsynced, renamed over the target, the directory fsynced.
 */
#include "replace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evaluate.h"
#include "log.h"

#define TEMP_SUFFIX ".memlockctl-XXXXXX"

static int write_all(int fd, const char *data, size_t len)
{
	while (len > 0) {
		ssize_t put = write(fd, data, len);

		if (put < 0 && errno == EINTR)
			continue;
		if (put < 0)
			return -errno;
		data += put;
		len -= (size_t)put;
	}
	return 0;
}

/* "DIR/.NAME.memlockctl-XXXXXX" for "DIR/NAME", ".NAME..." for "NAME". */
static char *temp_name(const char *target)
{
	const char *slash = strrchr(target, '/');
	int dir_len = slash != NULL ? (int)(slash - target + 1) : 0;
	char *temp;

	if (asprintf(&temp, "%.*s.%s" TEMP_SUFFIX, dir_len, target, target + dir_len) < 0)
		return NULL;
	return temp;
}

/* Writes and closes FD; returns 0 or -errno. */
static int fill(int fd, const void *data, size_t len, struct replace_how how)
{
	int err = 0;

	if (how.root_owned && fchown(fd, 0, 0) < 0)
		err = -errno;
	if (err == 0 && fchmod(fd, how.mode) < 0)
		err = -errno;
	if (err == 0)
		err = write_all(fd, data, len);
	if (err == 0 && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && err == 0)
		err = -errno;
	return err;
}

int replace_write(struct replace *r, const char *target, const void *data, size_t len,
		  struct replace_how how, const char **what)
{
	sigset_t all;
	int fd, err;

	*r = (struct replace){ .target = target, .temp = temp_name(target) };
	*what = "create a file beside";
	if (r->temp == NULL)
		return -ENOMEM;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &r->before);
	fd = mkstemp(r->temp);
	if (fd < 0) {
		err = -errno;
		sigprocmask(SIG_SETMASK, &r->before, NULL);
		free(r->temp);
		r->temp = NULL;
		return err;
	}
	err = fill(fd, data, len, how);
	if (err < 0) {
		*what = "write";
		replace_abort(r);
	}
	return err;
}

/* The rename itself on disk: an fsync of the directory that holds it. */
static void sync_dir(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir = slash == NULL ? strdup(".")
				  : strndup(target, slash == target ? 1 : (size_t)(slash - target));
	int fd = dir != NULL ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	char shown[PML_DESCRIBE_MAX];
	int err = 0;

	if (dir == NULL)
		err = ENOMEM;
	else if (fd < 0 || fsync(fd) < 0)
		err = errno;
	if (err != 0)
		fprintf(stderr, "memlockctl: warning: cannot fsync the directory of %s: %s\n",
			pml_escape(target, shown, sizeof(shown)), strerror(err));
	if (fd >= 0)
		close(fd);
	free(dir);
}

int replace_commit(struct replace *r, const char **what)
{
	int err = 0;

	if (rename(r->temp, r->target) < 0) {
		err = -errno;
		*what = "rename the new file over";
		unlink(r->temp);
	} else {
		sync_dir(r->target);
	}
	/* A signal held back is delivered here, with nothing left behind. */
	sigprocmask(SIG_SETMASK, &r->before, NULL);
	free(r->temp);
	r->temp = NULL;
	return err;
}

void replace_abort(struct replace *r)
{
	unlink(r->temp);
	sigprocmask(SIG_SETMASK, &r->before, NULL);
	free(r->temp);
	r->temp = NULL;
}

int replace_file(const char *target, const void *data, size_t len, struct replace_how how,
		 const char **what)
{
	struct replace r;
	int err = replace_write(&r, target, data, len, how, what);

	return err < 0 ? err : replace_commit(&r, what);
}
