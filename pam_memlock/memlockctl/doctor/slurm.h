/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Slurm's part of the path of service "slurm".  With UsePAM=1 in
 * slurm.conf, slurmstepd opens a session of that service for each job
 * step, as root, from slurmd's limits (Debian's slurmd.service has
 * LimitMEMLOCK=infinity, which units.c reads as the start); then, where
 * slurm.conf propagates MEMLOCK (PropagateResourceLimits, ALL by
 * default), each task's soft limit becomes the submitting shell's, held to
 * the session's hard limit.  doctor checks the path as for any service
 * first; doc_slurm_check then adds slurm.conf's step and what only Slurm
 * makes wrong.
 */
#ifndef DOC_SLURM_H
#define DOC_SLURM_H

#include <stdbool.h>

#include "path.h"

#define DOC_SLURM_SERVICE "slurm"

/* What slurm.conf says about PAM and memlock. */
struct doc_slurm_conf {
	bool use_pam;		 /* UsePAM is on */
	unsigned use_pam_line;	 /* the line that says so; 0: not set */
	bool memlock_propagated; /* MEMLOCK reaches the tasks from the shell */
	unsigned propagate_line; /* the line that decides; 0: the default, ALL */
};

/* Reads slurm.conf TEXT: "Key=Value" lines, keys in any case, "#" to the
 * end of a line a comment, the last of a key's lines deciding. */
void doc_slurm_parse(const char *text, struct doc_slurm_conf *out);

/* For the path P of service "slurm", walked from ST: slurm.conf's step,
 * and the verdict and fix where UsePAM is off, the stack is "other", raise
 * mode keeps slurmd's higher limit, or MEMLOCK is propagated.  A path that
 * is an error already keeps its problem. */
void doc_slurm_check(const struct doctor *d, const struct doc_stack *st, struct doc_path *p);

#endif
