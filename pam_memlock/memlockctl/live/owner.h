/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Changing a running process's RLIMIT_MEMLOCK as its owner: root forks a
 * child that takes the process's real uid and gid as its real, effective
 * and saved ids, with no supplementary groups and so no capabilities, and
 * the child makes the module's call (pml_apply_to).
 *
 * prlimit(2) then reaches only a process whose ids are all the child's.
 * Should the pid have passed to another process since it was read (a
 * root process above all), the kernel refuses the call with EPERM instead
 * of changing that process.
 *
 * The child runs as the process's owner, who may stop or slow it at any
 * moment, after its answer too: it is awaited until a deadline, then
 * killed, and reaped in a bounded wait.
 */
#ifndef CLI_OWNER_H
#define CLI_OWNER_H

#include <stdbool.h>

#include "apply.h"
#include "procs.h"

/* The most one child is awaited, and all of one run's together. */
#define OWNER_WAIT_SECONDS 5
#define OWNER_RUN_SECONDS 60
/* The most a killed child is awaited before it is left to init. */
#define OWNER_REAP_MS 1000

/* CLOCK_MONOTONIC, in milliseconds: the clock of the deadlines. */
long long owner_clock_ms(void);

/*
 * pml_apply_to on INFO's process, from a child with INFO's uid and gid,
 * awaited until DEADLINE (owner_clock_ms) at most.  Returns what the
 * child's call returned (0, -EPERM, -ESRCH...), -ETIMEDOUT when the child
 * did not answer in time, or another -errno (the child could not be made,
 * or died).  *KILLED: the child had to be killed, before or after its
 * answer (its owner stopped it, most likely).  The caller must be root.
 */
int owner_apply(const struct proc_info *info,
		const struct pml_decision *decision, bool dry_run,
		long long deadline, struct pml_outcome *out, bool *killed);

#endif
