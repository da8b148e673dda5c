/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Turning a decision into RLIMIT_MEMLOCK.  Planning is pure; the syscall
 * (prlimit) lives in apply.c and nowhere else.
 */
#ifndef PML_APPLY_H
#define PML_APPLY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "decide.h"

/* Both sides in bytes; PML_UNLIMITED is RLIM_INFINITY. */
struct pml_limits {
	uint64_t soft, hard;
};

struct pml_outcome {
	struct pml_limits before; /* what the session had */
	struct pml_limits wanted; /* what the policy asks for, after mode */
	struct pml_limits after;  /* what the session has now */
	bool hard_refused;	  /* raising hard needs CAP_SYS_RESOURCE */
};

/* raise: each side max(current, target); set: the target. */
struct pml_limits pml_plan(enum pml_mode mode, struct pml_limits current,
			   struct pml_limits target);

/* When raising hard is refused: hard stays, soft goes as far as it allows. */
struct pml_limits pml_plan_within_hard(struct pml_limits current,
				       struct pml_limits wanted);

/*
 * Reads the current limits, plans, and (unless DRY_RUN) sets them.
 * Returns 0 (also when the hard raise was refused: see out->hard_refused)
 * or -errno from prlimit(2).
 */
int pml_apply(const struct pml_decision *decision, bool dry_run,
	      struct pml_outcome *out);

/*
 * pml_apply for the running process PID (0: this one) through prlimit(2):
 * the same plan, and the same soft-only fallback when the hard raise is
 * refused.  Besides pml_apply's errors: -ESRCH (PID is gone), -EPERM (not
 * the caller's to change).
 */
int pml_apply_to(pid_t pid, const struct pml_decision *decision,
		 bool dry_run, struct pml_outcome *out);

#endif
