/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Atomic replace: new bytes in place of a file in one rename(2), so that a
 * reader (a PAM session, node_exporter's textfile collector) opens the old
 * file or the new one, never half of one.  The bytes go to a temporary
 * file beside the target, named ".NAME.memlockctl-XXXXXX": it starts with
 * a dot and ends in neither ".conf" nor ".prom", so neither the policy
 * loader nor the collector ever reads it.  It is written whole and
 * fsynced; the rename is fsynced through the directory.
 *
 * From before the temporary file is made until it is renamed or removed,
 * signals are held back: a Ctrl-C or a kill takes effect once it is gone,
 * and leaves nothing behind.  Only SIGKILL, which nothing can hold back,
 * or a crash of the machine can leave it.
 */
#ifndef CLI_REPLACE_H
#define CLI_REPLACE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How the new file is made. */
struct replace_how {
	mode_t mode;	 /* its mode, whatever the umask */
	bool root_owned; /* chown to root:root (the policy loader wants it) */
};

/* One replacement under way, between replace_write and its end. */
struct replace {
	const char *target;
	char *temp; /* the temporary file's name */
	sigset_t before;
};

/*
 * Writes LEN bytes of DATA to a new temporary file beside TARGET, as HOW
 * says, and fsyncs it; signals are held back from here on.  Returns 0,
 * then end it with replace_commit or replace_abort; or -errno with
 * nothing left and signals as they were, and *WHAT the step that failed
 * ("create a file beside", "write").
 */
int replace_write(struct replace *r, const char *target, const void *data, size_t len,
		  struct replace_how how, const char **what);

/*
 * Renames the temporary file over TARGET and fsyncs TARGET's directory.
 * Returns 0, or -errno with the temporary file removed (*WHAT as above:
 * "rename the new file over").  A directory that cannot be fsynced after
 * the rename is warned about on stderr, not an error: the file is there.
 * Either way signals are delivered again.
 */
int replace_commit(struct replace *r, const char **what);

/* Removes the temporary file; signals are delivered again. */
void replace_abort(struct replace *r);

/* replace_write then replace_commit. */
int replace_file(const char *target, const void *data, size_t len, struct replace_how how,
		 const char **what);

#endif
