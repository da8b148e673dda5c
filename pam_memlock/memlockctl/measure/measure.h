/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What io_uring and mlock cost against RLIMIT_MEMLOCK on the running
 * kernel, measured: each answer is the smallest limit, to the page, at
 * which a real unprivileged process succeeds (probe.h), found by
 * bisection (bisect.h).  Nothing here models the kernel.
 *
 * Each try runs as a uid of its own, never used twice: the uids are drawn
 * at random from 0x70000000-0x7ffdffff, above systemd's container range
 * and below its foreign range, so that no account, container or earlier
 * or concurrent run has a charge on them.  Only root can do that; root
 * itself would measure nothing, since CAP_IPC_LOCK exempts it.
 */
#ifndef MEASURE_H
#define MEASURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/utsname.h>

#include "probe.h"

/* The ring `explain` and `check` count in: a size io_uring programs use,
 * and on kernels that charge rings, one whose cost a small limit shows. */
#define MEASURE_DEFAULT_ENTRIES 4096u
/* The largest limit searched when the hard limit is unlimited. */
#define MEASURE_SEARCH_MAX (UINT64_C(1) << 32)
#define MEASURE_IN_USE_MAX 64

struct measure_session {
	struct utsname kernel;
	uint64_t page;
	/* kernel.io_uring_disabled: 0, 1 (only members of io_uring_group)
	 * or 2; -1 where the kernel has no such setting (before 6.6). */
	int io_uring_disabled;
	/* What io_uring_setup of one small ring said at the hard limit:
	 * 0, or -ENOSYS (no io_uring), -EPERM (disabled), ... */
	int io_uring;
	uint64_t hard; /* the most a try may have: the caller's hard limit */
	struct measure_identity id;
	uid_t first_uid, next_uid, end_uid;
	uid_t in_use[MEASURE_IN_USE_MAX]; /* processes' uids in the range */
	size_t n_in_use;
	unsigned tries;
};

/*
 * Reads the kernel's facts and picks the uids.  -EPERM when not root;
 * -EACCES when a child cannot become an unprivileged uid here (a user
 * namespace without the range mapped, CAP_SETUID missing).
 */
int measure_start(struct measure_session *session);

/*
 * The smallest RLIMIT_MEMLOCK, in bytes, at which PROBE succeeds.  0 and
 * *BYTES; -E2BIG when the hard limit is not enough; another -errno when
 * the kernel refused the calls for another reason.
 */
int measure_need(struct measure_session *session,
		 const struct measure_probe *probe, uint64_t *bytes);

/* Does PROBE succeed at exactly LIMIT bytes?  0, -ENOMEM or -errno. */
int measure_try(struct measure_session *session,
		const struct measure_probe *probe, uint64_t limit);

/* What one small ring and one ring of MEASURE_DEFAULT_ENTRIES cost on
 * the kernel RELEASE: what explain and check show. */
struct measure_rings {
	/* 0; -ENOSYS (no io_uring) or -EPERM (io_uring refused), as measured;
	 * -ENOENT: no measurement saved for RELEASE */
	int status;
	uint64_t small, large;
	uint64_t page;
	char release[sizeof(((struct utsname *)0)->release)];
};

/* Where measure keeps what it found (saved.c): the directory given in
 * the environment's MEMLOCKCTL_MEASURED_DIR, else the built-in one. */
const char *measure_saved_dir(void);

/*
 * The figures measure saved for the kernel RELEASE, read and nothing
 * more: no process, no uid switch, no io_uring call.  Status -ENOENT
 * where none is saved, and where the file is not root's alone or not
 * what measure writes (then said on standard error).
 */
void measure_saved_rings(struct measure_rings *rings, const char *release);

/* Saves RINGS for its release, in one rename, into PATH (LEN bytes):
 * 0 or -errno. */
int measure_save_rings(const struct measure_rings *rings, char *path, size_t len);

/*
 * What a soft limit of LIMIT bytes holds on this kernel, for explain:
 * "holds 20 io_uring rings of 4096 entries (404 KiB each), or 8184 KiB of
 * registered buffers beside one 8-entry ring, on Linux 6.18.44 (measured)",
 * or that nothing is measured, and how to measure.  One line, no newline.
 */
void measure_print_fits(FILE *out, const struct measure_rings *rings, uint64_t limit);

struct cli_json;
/* The same as a JSON object: rings and buffer_bytes (null for unlimited),
 * or null when it was not measured. */
void measure_json_fits(struct cli_json *json, const struct measure_rings *rings,
		       uint64_t limit);

#endif
