/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Reading the files of a system that may not be this one, through
 * directory descriptors: every path doctor, status, metrics and nagios
 * read goes through here, as the checked system names it
 * ("/etc/pam.d/sshd"), with ROOT the directory that system lives in (""
 * for this machine).  Nothing here writes or executes anything.
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
 * unless it is the same file).  A FIFO cannot hang a reader, and a device
 * node is never opened.  Files are at most DIRFD_FILE_MAX bytes.
 */
#ifndef CLI_DIRFD_H
#define CLI_DIRFD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "memory.h"

#define DIRFD_FILE_MAX (4u << 20)

/* The most symbolic links one path may go through, as Linux's MAXSYMLINKS. */
#define DIRFD_LINKS_MAX 40

struct dirfd_text {
	char *data; /* NUL-terminated; NUL bytes inside are kept */
	size_t len;
};

/*
 * ROOT as doctor should treat it: "" (this machine, /proc read) for NULL or
 * for a directory that is this machine's "/" ("--root /", "--root /./"),
 * else ROOT itself.
 */
const char *dirfd_root_canonical(const char *root);

/*
 * PATH (absolute, as the checked system names it) resolved inside ROOT.
 * Returns an O_PATH descriptor (close it) and fills *st, or -errno:
 * -ENOENT, -ENOTDIR, -ELOOP, -EACCES, -ENAMETOOLONG, -ENOMEM.  With
 * NOFOLLOW a final symbolic link is not followed: *st then says it is one.
 */
int dirfd_open_path(const char *root, const char *path, bool nofollow, struct stat *st);

/* The same by the walk of user space, whatever the kernel has: for the
 * tests, which hold both ways to one answer. */
int dirfd_open_path_walk(const char *root, const char *path, bool nofollow,
			 struct stat *st);

/* Directory DIR inside ROOT, opened O_RDONLY|O_DIRECTORY (close it), or
 * -errno (-ENOTDIR for anything but a directory). */
int dirfd_open_dir(const char *root, const char *dir);

/* The directory that holds PATH, opened as dirfd_open_dir opens it. */
int dirfd_open_parent(const char *root, const char *path);

/*
 * Reads ROOT/PATH into *out (free it with dirfd_text_free).  Returns 0, or
 * -errno: -ENOENT, -EACCES, -ELOOP, -EISDIR, -EINVAL (not a regular file:
 * a FIFO, a device, a socket), -EFBIG (larger than DIRFD_FILE_MAX), -ENOMEM.
 */
int dirfd_read(const char *root, const char *path, struct dirfd_text *out);
void dirfd_text_free(struct dirfd_text *text);

/*
 * Reads NAME, one component, below the directory DIR (a descriptor: a
 * process's /proc/PID, whose files fail with ESRCH once the process is
 * gone, not another's), into BUF, NUL-terminated, at most LEN - 1 bytes.
 * A symbolic link is not followed.  Returns 0, or -errno: -ENOENT,
 * -EACCES, -ESRCH, -EINVAL (not a regular file: a symbolic link, a FIFO,
 * a device, a socket, a directory; never opened for reading).
 */
int dirfd_read_at(int dir, const char *name, char *buf, size_t len);

/* The core's reader of cgroup files (struct pml_files), reading inside a
 * root this way. */
struct dirfd_files {
	struct pml_files files;
	const char *root;
};

/* FILES reads inside ROOT, and shows ROOT before the paths it names. */
void dirfd_files_init(struct dirfd_files *files, const char *root);

/* Is ROOT/PATH there (as anything, following links inside the root)? */
bool dirfd_exists(const char *root, const char *path);

/*
 * The names in directory ROOT/DIR that end in SUFFIX (NULL: any) and do not
 * start with '.', sorted in byte order (the "C" collation that pam_limits
 * and systemd use).  *names is a malloc'd array of malloc'd strings; free
 * it with dirfd_names_free.  Returns 0 (also when the directory is absent:
 * no names), or -errno.
 */
int dirfd_list_dir(const char *root, const char *dir, const char *suffix,
		   char ***names, size_t *n);
void dirfd_names_free(char **names, size_t n);

#endif
