/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Reading the files of a system that may not be this one: every path doctor
 * reads goes through here, prefixed with --root (the empty string for this
 * machine).  Nothing here writes or executes anything.
 *
 * Files are opened O_NONBLOCK and must be regular (a FIFO in /etc/pam.d
 * must not hang doctor) and at most DOC_FILE_MAX bytes.  Symbolic links are
 * followed, as Linux-PAM and systemd follow them; an absolute link target
 * is read on this machine, not under the root.
 */
#ifndef PML_DOC_ROOTFS_H
#define PML_DOC_ROOTFS_H

#include <stdbool.h>
#include <stddef.h>

#define DOC_FILE_MAX (4u << 20)

struct doc_text {
	char *data; /* NUL-terminated; NUL bytes inside are kept */
	size_t len;
};

/* ROOT followed by PATH, malloc'd (the caller frees); NULL when out of memory. */
char *doc_root_path(const char *root, const char *path);

/*
 * Reads ROOT/PATH into *out (free it with doc_text_free).  Returns 0, or
 * -errno: -ENOENT, -EACCES, -EISDIR or -EINVAL (not a regular file),
 * -EFBIG (larger than DOC_FILE_MAX), -ENOMEM.
 */
int doc_read(const char *root, const char *path, struct doc_text *out);
void doc_text_free(struct doc_text *text);

/* Is ROOT/PATH there (as anything, following links)? */
bool doc_exists(const char *root, const char *path);

/*
 * The names in directory ROOT/DIR that end in SUFFIX (NULL: any) and do not
 * start with '.', sorted in byte order (the "C" collation that pam_limits
 * and systemd use).  *names is a malloc'd array of malloc'd strings; free
 * it with doc_names_free.  Returns 0 (also when the directory is absent:
 * no names), or -errno.
 */
int doc_list_dir(const char *root, const char *dir, const char *suffix,
		 char ***names, size_t *n);
void doc_names_free(char **names, size_t n);

#endif
