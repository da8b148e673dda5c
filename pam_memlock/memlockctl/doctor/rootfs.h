/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Reading the files of a system that may not be this one: every path doctor
 * reads goes through here, as the checked system names it ("/etc/pam.d/sshd"),
 * with ROOT the directory that system lives in ("" for this machine).
 * Nothing here writes or executes anything.
 *
 * An image handed to root (a container's root file system, a CI artifact, a
 * user's chroot) may be hostile, so every path is resolved inside ROOT as
 * if ROOT were "/": symbolic links are followed, as Linux-PAM and systemd
 * follow them on that system, but an absolute link starts again at ROOT and
 * ".." stops there.  Nothing outside ROOT is ever opened, so nothing of this
 * machine can be quoted back.  Two ways, with the same result:
 *  - openat2(2) with RESOLVE_IN_ROOT, the kernel's own (Linux 5.6 and later);
 *  - where the kernel lacks it (ENOSYS, or EPERM from a seccomp filter), a
 *    walk in user space: one component at a time, opened O_PATH|O_NOFOLLOW
 *    below the directory before it, a symbolic link read and its target
 *    walked again from ROOT (absolute) or from where it is, ".." popping the
 *    walk's own stack of directories, never asking the file system for
 *    "..", and at most 40 links, as the kernel allows.
 * What is found is opened O_PATH and fstat'd first; only a regular file is
 * then opened for reading, through /proc/self/fd so that it is the very
 * file that was checked (without /proc: opened again by name, and refused
 * unless it is the same file).  A FIFO cannot hang doctor, and a device
 * node is never opened.  Files are at most DOC_FILE_MAX bytes.
 */
#ifndef PML_DOC_ROOTFS_H
#define PML_DOC_ROOTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#define DOC_FILE_MAX (4u << 20)

/* The most symbolic links one path may go through, as Linux's MAXSYMLINKS. */
#define DOC_LINKS_MAX 40

struct doc_text {
	char *data; /* NUL-terminated; NUL bytes inside are kept */
	size_t len;
};

/*
 * ROOT as doctor should treat it: "" (this machine, /proc read) for NULL or
 * for a directory that is this machine's "/" ("--root /", "--root /./"),
 * else ROOT itself.
 */
const char *doc_root_canonical(const char *root);

/*
 * PATH (absolute, as the checked system names it) resolved inside ROOT.
 * Returns an O_PATH descriptor (close it) and fills *st, or -errno:
 * -ENOENT, -ENOTDIR, -ELOOP, -EACCES, -ENAMETOOLONG, -ENOMEM.  With
 * NOFOLLOW a final symbolic link is not followed: *st then says it is one.
 */
int doc_open_path(const char *root, const char *path, bool nofollow, struct stat *st);

/* The same by the walk of user space, whatever the kernel has: for the
 * tests, which hold both ways to one answer. */
int doc_open_path_walk(const char *root, const char *path, bool nofollow,
		       struct stat *st);

/* Directory DIR inside ROOT, opened O_RDONLY|O_DIRECTORY (close it), or
 * -errno (-ENOTDIR for anything but a directory). */
int doc_open_dir(const char *root, const char *dir);

/* The directory that holds PATH, opened as doc_open_dir opens it. */
int doc_open_parent(const char *root, const char *path);

/*
 * Reads ROOT/PATH into *out (free it with doc_text_free).  Returns 0, or
 * -errno: -ENOENT, -EACCES, -ELOOP, -EISDIR, -EINVAL (not a regular file:
 * a FIFO, a device, a socket), -EFBIG (larger than DOC_FILE_MAX), -ENOMEM.
 */
int doc_read(const char *root, const char *path, struct doc_text *out);
void doc_text_free(struct doc_text *text);

/* Is ROOT/PATH there (as anything, following links inside the root)? */
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
