/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * One measurement: a forked child becomes an unprivileged uid, lowers its
 * own RLIMIT_MEMLOCK to a given number of bytes, makes the real system
 * calls a workload makes (io_uring_setup and the ring mappings, buffer
 * registration, mlock), and exits with what the kernel said.
 *
 * The child runs as a uid of its own because io_uring charges a user, not
 * a process: everything that uid has pinned counts against the child's
 * limit, and the rings of an exited process are uncharged later, by a
 * kernel worker.  A uid that no process holds and that no earlier probe
 * used has nothing charged, so what the child sees is its own cost alone.
 */
#ifndef MEASURE_PROBE_H
#define MEASURE_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum measure_kind {
	MEASURE_RING,	  /* rings of ENTRIES entries */
	MEASURE_BUFFER,	  /* one ring of MEASURE_BUFFER_RING entries, then
			   * BYTES registered as one fixed buffer */
	MEASURE_MLOCK,	  /* mlock of BYTES */
	MEASURE_WORKLOAD, /* RINGS rings of ENTRIES entries, and BYTES
			   * registered with the first (if BYTES > 0) */
};

/* The ring a buffer is registered with: the smallest of the table. */
#define MEASURE_BUFFER_RING 8u
/* Where an unaligned buffer starts past a page boundary: malloc's
 * alignment on 64-bit Linux. */
#define MEASURE_UNALIGNED_OFFSET 16u

struct measure_probe {
	enum measure_kind kind;
	unsigned entries;
	unsigned rings;
	uint64_t bytes;
	bool no_mmap;	/* IORING_SETUP_NO_MMAP: the rings in our memory */
	bool unaligned; /* BYTES start MEASURE_UNALIGNED_OFFSET past a page */
};

/* Who the child becomes, and the group io_uring may be limited to. */
struct measure_identity {
	uid_t uid;
	gid_t gid;
	bool extra_group; /* kernel.io_uring_disabled = 1: join GROUP */
	gid_t group;
};

/*
 * Runs PROBE in a child as ID with RLIMIT_MEMLOCK soft and hard at LIMIT
 * bytes (never above the hard limit the caller has: the child only
 * lowers).  Returns 0 when every call succeeded, -ENOMEM when the limit
 * stopped it, another -errno when the kernel refused for another reason
 * (-ENOSYS: no io_uring; -EPERM: io_uring disabled; -EINVAL: a flag the
 * kernel lacks), -ECHILD when the child died, -EACCES when it could not
 * become ID without CAP_IPC_LOCK, -ERANGE for a LIMIT above the caller's
 * hard limit.
 */
int measure_probe_run(const struct measure_probe *probe,
		      const struct measure_identity *id, uint64_t limit);

#endif
