/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * How much memory a session can use: the base of a share of RAM when the
 * policy says share_of = "available".  Inside a container or a
 * memory-limited user slice, MemTotal is the host's RAM, not what the
 * session may use; the cgroups' memory limits say that.
 */
#ifndef PML_MEMORY_H
#define PML_MEMORY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "log.h"

#define PML_BASE_FROM_MAX 512

/* "No process": a base for a user before any session of theirs exists. */
#define PML_NO_PROCESS ((pid_t)(-1)) /* (-1): as PML_ANY_OWNER, for clang-format 14 and 19 */

/*
 * How the cgroup files are read, where not by their paths on this machine
 * (memlockctl reads a saved tree, never outside it).
 */
struct pml_files {
	/* PATH (absolute, as the system names it) into BUF, NUL-terminated,
	 * at most SIZE - 1 bytes: its length, or -errno. */
	ssize_t (*read)(const struct pml_files *files, const char *path,
			char *buf, size_t size);
	/* Is PATH there? */
	bool (*exists)(const struct pml_files *files, const char *path);
	/* DIR's entries ending in SUFFIX, sorted, into *NAMES (each and the
	 * array malloc'd): 0 (none for a missing DIR) or -errno.  Only the
	 * unit reader lists; cgroup readers may leave it NULL. */
	int (*list)(const struct pml_files *files, const char *dir, const char *suffix,
		    char ***names, size_t *n);
	const char *shown_under; /* put before a path in messages and .from */
};

/* Whose cgroups bound the base. */
struct pml_base_query {
	const struct pml_files *files; /* NULL: this machine's, by path */
	pid_t pid;		       /* the process: 0 this one, or PML_NO_PROCESS */
	bool uid_known;		       /* for the user's slice */
	uid_t uid;
};

/* Which cgroups were walked up from. */
enum pml_base_scope {
	PML_BASE_PROCESS,    /* the process's own cgroup */
	PML_BASE_USER_SLICE, /* no process: the user's slice, user-UID.slice */
	PML_BASE_TOP,	     /* no process, and no user slice to start from */
};

/* The smallest memory limit found, and the file that set it. */
struct pml_available {
	uint64_t bytes;
	char from[PML_BASE_FROM_MAX]; /* "" when nothing was below RAM */
	enum pml_base_scope scope;
};

/*
 * The smallest of RAM and the memory limits of:
 *   - the process's cgroup and each of its ancestors up to the root the
 *     reader can see (a container's root, in a cgroup namespace): v2
 *     memory.max, v1 memory.limit_in_bytes.  Without a process
 *     (PML_NO_PROCESS), the user's slice stands in for its cgroup where it
 *     exists, else the root alone;
 *   - user.slice and user.slice/user-UID.slice, where systemd's layout is
 *     there and the uid is known.
 * The cgroup file systems are found where systemd, LXC and Docker mount
 * them: /sys/fs/cgroup (v2), /sys/fs/cgroup/unified (v2 beside v1) and
 * /sys/fs/cgroup/memory (v1).  "max", and a limit at or above RAM, are no
 * limit.  An unreadable file is skipped (logged at debug); a malformed one
 * is skipped with a warning.
 */
void pml_available_memory(const struct pml_base_query *query, uint64_t ram,
			  const struct pml_log *log, struct pml_available *out);

/* Is there a user.slice in the cgroup file systems (read by FILES)? */
bool pml_has_user_slice(const struct pml_files *files);

#endif
