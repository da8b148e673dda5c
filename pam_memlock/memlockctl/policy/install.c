/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl install NEW [--conf TARGET]: writes NEW to a temporary file
 * beside TARGET (owned by root, mode 0644), fsyncs it, validates what the
 * module will then read (the installed files of TARGET's tree, with the
 * temporary file in TARGET's place) with the module's own loader, and
 * renames it over TARGET, as visudo does; on any error TARGET is left as
 * it was.
 *
 * A session reads TARGET whole or not at all: rename(2) swaps the name in
 * one step, so a reader opens either the old file or the new one, never a
 * half-written one (an editor that truncates and writes in place cannot
 * promise that; see memlock.conf(5)).
 *
 * From before mkstemp to the rename (or the unlink of a refused file)
 * signals are held back: a Ctrl-C or a kill then takes effect once the
 * temporary file is gone, and leaves nothing behind.  Only SIGKILL, which
 * nothing can hold back, or a crash of the machine can leave it.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "safe_read.h"
#include "evaluate.h"
#include "output/text.h"

/* The temporary file starts with a dot, so the loader never reads it as a
 * drop-in, whichever directory TARGET is in. */
#define TEMP_PREFIX "."
#define TEMP_SUFFIX ".memlockctl-XXXXXX"

/* Reads NEW, at most one byte past the policy size limit (the loader then
 * refuses it as too large). */
static int read_new(const char *path, char **data, size_t *len)
{
	struct stat st;
	size_t cap = PML_FILE_MAX + 1, used = 0;
	char *buf;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
	}
	buf = err == 0 ? malloc(cap) : NULL;
	if (err == 0 && buf == NULL)
		err = -ENOMEM;
	while (err == 0 && used < cap) {
		ssize_t got = read(fd, buf + used, cap - used);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			err = -errno;
		else if (got == 0)
			break;
		else
			used += (size_t)got;
	}
	close(fd);
	if (err < 0) {
		free(buf);
		return err;
	}
	*data = buf;
	*len = used;
	return 0;
}

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

/* TARGET's directory ("/" for "/x"), and the temporary file's template. */
static int temp_names(const char *target, char **dir, char **temp)
{
	const char *slash = strrchr(target, '/');
	size_t dir_len = (size_t)(slash - target);

	*dir = strndup(target, dir_len == 0 ? 1 : dir_len);
	*temp = malloc(strlen(target) + sizeof(TEMP_PREFIX) + sizeof(TEMP_SUFFIX));
	if (*dir == NULL || *temp == NULL) {
		free(*dir);
		free(*temp);
		return -ENOMEM;
	}
	sprintf(*temp, "%.*s/" TEMP_PREFIX "%s" TEMP_SUFFIX, (int)dir_len, target,
		slash + 1);
	return 0;
}

static int fail(const char *what, const char *path, int err)
{
	char shown[PML_DESCRIBE_MAX];

	pml_escape(path, shown, sizeof(shown));
	fprintf(stderr, "memlockctl: %s %s: %s\n", what, shown, strerror(-err));
	return CLI_EXIT_FAIL;
}

int cli_install(const struct cli_options *options)
{
	const char *target = options->source.path;
	struct cli_log_state state;
	struct pml_log log;
	struct cli_source tree = { .main = NULL };
	struct pml_policy policy;
	char new_shown[PML_DESCRIBE_MAX], target_shown[PML_DESCRIBE_MAX];
	char *data = NULL, *dir = NULL, *temp = NULL;
	size_t len = 0;
	int fd = -1, dirfd = -1, rc, status = CLI_EXIT_FAIL;
	long page = sysconf(_SC_PAGESIZE);
	sigset_t all, before;

	pml_escape(options->new_file, new_shown, sizeof(new_shown));
	pml_escape(target, target_shown, sizeof(target_shown));
	rc = read_new(options->new_file, &data, &len);
	if (rc == -EINVAL) {
		fprintf(stderr, "memlockctl: %s: not a regular file\n", new_shown);
		return CLI_EXIT_FAIL;
	}
	if (rc < 0)
		return fail("cannot read", options->new_file, rc);
	rc = temp_names(target, &dir, &temp);
	if (rc < 0) {
		free(data);
		return fail("cannot install", target, rc);
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &before);
	/* What the module will read once TEMP is renamed: the files already
	 * installed beside TARGET, with TEMP's bytes in its place.  Messages
	 * about them name NEW, which is what the user wrote and can fix. */
	if (cli_source_tree(target, temp, options->new_file, 0, &tree) != CLI_EXIT_OK)
		goto out;
	fd = mkstemp(temp);
	if (fd < 0) {
		rc = fail("cannot create a file beside", target, -errno);
		goto out;
	}
	/* Owned by root (the loader accepts nothing else) and 0644, whatever
	 * the umask and NEW's own owner and mode. */
	if (fchown(fd, 0, 0) < 0 || fchmod(fd, 0644) < 0 ||
	    (rc = write_all(fd, data, len)) < 0 || fsync(fd) < 0) {
		rc = fail("cannot write", temp, rc < 0 ? rc : -errno);
		goto out_unlink;
	}
	if (close(fd) < 0) {
		fd = -1;
		rc = fail("cannot write", temp, -errno);
		goto out_unlink;
	}
	fd = -1;
	/* The bytes on disk, through the module's loader and its checks. */
	cli_log_init(&log, &state);
	rc = pml_policy_load(&tree.source, page > 0 ? (uint64_t)page : 4096, &log,
			     &policy);
	if (rc < 0) {
		if (rc == -ENOMEM)
			fprintf(stderr, "memlockctl: out of memory\n");
		else
			fprintf(stderr,
				"memlockctl: %s%s%s: invalid (%u %s): %s left as it was\n",
				new_shown, tree.source.given ? "" : " as ",
				tree.source.given ? "" : target_shown, state.errors,
				cli_plural(state.errors, "error", "errors"), target_shown);
		goto out_unlink;
	}
	pml_policy_free(&policy);
	if (rename(temp, target) < 0) {
		rc = fail("cannot rename the new file over", target, -errno);
		goto out_unlink;
	}
	/* The rename itself on disk. */
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || fsync(dirfd) < 0)
		fprintf(stderr, "memlockctl: warning: cannot fsync %s: %s\n",
			dir, strerror(errno));
	if (dirfd >= 0)
		close(dirfd);
	printf("%s: installed from %s\n", target_shown, new_shown);
	status = cli_finish_output(CLI_EXIT_OK);
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(temp);
out:
	/* A signal held back is delivered here, with nothing left behind. */
	sigprocmask(SIG_SETMASK, &before, NULL);
	cli_source_free(&tree);
	free(data);
	free(dir);
	free(temp);
	return status;
}
