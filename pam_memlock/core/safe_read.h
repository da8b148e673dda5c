/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Reads a policy file that root trusts, or refuses it.  A policy file sets
 * limits for every login, so it must be a regular file (never a FIFO that
 * would hang sshd, a device or a directory), reached without following a
 * final symlink, owned by root and writable by nobody else, and small.
 */
#ifndef PML_SAFE_READ_H
#define PML_SAFE_READ_H

#include <stddef.h>
#include <sys/types.h>

/* Policy files are a few lines; anything larger is a mistake or an attack. */
#define PML_FILE_MAX 65536

/* Reads of one file, at most, to find two in a row that agree. */
#define PML_READ_TRIES 4

/*
 * As an OWNER: any owner and any mode, for a candidate file that is not
 * installed yet (memlockctl check --conf).  The module never uses it.
 * (-1) in parentheses: clang-format 19 takes a bare "(uid_t)-1" in a macro
 * for a subtraction, 14 for a cast; both leave this form as it is.
 */
#define PML_ANY_OWNER ((uid_t)(-1))

struct pml_text {
	char *data; /* NUL-terminated; may hold NULs before len */
	size_t len;
};

/*
 * Opens NAME relative to DIRFD (AT_FDCWD for an absolute path) and reads it:
 * the text two reads in a row agree on (-EAGAIN, with *why, when none of
 * PML_READ_TRIES did).  OWNER is the uid that must own the file: 0, except
 * in tests run unprivileged.
 * Returns 0; -ENOENT when it does not exist; -ENOMEM; or another -errno with
 * *why set to a static reason ("is a symbolic link", "is not owned by root"...)
 * or to NULL when strerror says it all.
 */
int pml_read_file_at(int dirfd, const char *name, uid_t owner,
		     struct pml_text *out, const char **why);

/* The same checks on an already open directory. */
int pml_check_dir_fd(int fd, uid_t owner, const char **why);

void pml_text_free(struct pml_text *text);

#endif
