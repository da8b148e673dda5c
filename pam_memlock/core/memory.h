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

/* The smallest memory limit found, and the file that set it. */
struct pml_available {
	uint64_t bytes;
	char from[PML_BASE_FROM_MAX]; /* "" when nothing was below RAM */
};

/*
 * The smallest of RAM and the memory limits of:
 *   - this process's cgroup and each of its ancestors up to the root this
 *     process can see (a container's root, in a cgroup namespace): v2
 *     memory.max, v1 memory.limit_in_bytes;
 *   - user.slice and user.slice/user-UID.slice, where systemd's layout is
 *     there and UID_KNOWN.
 * The cgroup file systems are found where systemd, LXC and Docker mount
 * them: /sys/fs/cgroup (v2), /sys/fs/cgroup/unified (v2 beside v1) and
 * /sys/fs/cgroup/memory (v1).  "max", and a limit at or above RAM, are no
 * limit.  An unreadable file is skipped (logged at debug); a malformed one
 * is skipped with a warning.  ROOT prefixes every path read ("" for the
 * running system; the tests give a tree of their own).
 */
void pml_available_memory(const char *root, uint64_t ram, bool uid_known,
			  uid_t uid, const struct pml_log *log,
			  struct pml_available *out);

/* Is there a user.slice under ROOT's cgroup file systems? */
bool pml_has_user_slice(const char *root);

#endif
