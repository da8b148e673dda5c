/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The evaluation's second entry, for memlockctl: the same loader and the
 * same decision as the module's (evaluate.h), reading what the module
 * never reads (policy_from.h: a candidate file, a root's directory) or
 * assuming another host's facts (--ram, --page-size), and seeing further:
 * every group a rule names, the cgroup of another process.  The module
 * and the generator never include this header (tests/project/layering.sh): their
 * contract is evaluate.h alone.
 */
#ifndef PML_EVALUATE_FROM_H
#define PML_EVALUATE_FROM_H

#include <stdint.h>
#include <sys/types.h>

#include "evaluate.h"
#include "policy_from.h"

/*
 * Machine facts taken as given, not read here: "on a host of 512 GiB"
 * (--ram, --page-size).  Zero: read this machine's.  Given RAM is a host
 * of its own: no cgroup of this one limits "available" there.
 */
struct pml_assume {
	uint64_t ram;
	uint64_t page_size;
};

/*
 * How far a decision looks.  All zero (or NULL where a scope is taken) is
 * the module's: the groups the decision needs, and the cgroup of this very
 * process.  memlockctl asks for more: every group a rule names (to list
 * every rule that matches), and the cgroup of another process, or none
 * (the user's slice).
 */
struct pml_scope {
	enum pml_groups_scope groups;
	struct pml_assume assume;      /* all zero: this machine */
	const struct pml_files *files; /* how cgroups are read; NULL: by path */
	pid_t pid;		       /* whose cgroup: 0 this process, or PML_NO_PROCESS */
};

/* pml_load of evaluate.h, reading FROM, with the facts of ASSUME in place
 * of this machine's (either may be NULL). */
int pml_load_from(const struct pml_source *source, const struct pml_from *from,
		  const struct pml_assume *assume, const struct pml_log *log,
		  struct pml_policy *policy, struct pml_machine *machine);

/* pml_evaluate of evaluate.h, reading FROM, as far as SCOPE says (either
 * may be NULL). */
int pml_evaluate_from(const struct pml_request *request, const struct pml_from *from,
		      const struct pml_scope *scope, const struct pml_log *log,
		      struct pml_evaluation *out);

/*
 * What pml_evaluate does once the policy is loaded, for callers that decide
 * for many users under one policy (memlockctl status and apply): looks
 * IDENTITY's user up if a rule needs it, probes "available" memory into
 * *MACHINE if the decision takes a share of it, and decides, as far as
 * SCOPE says.  Logs a warning when a group's member list names the user
 * and getgrouplist did not.  Returns 0 (free *identity with
 * pml_identity_free), -ESRCH or another -errno (logged; *identity then
 * holds nothing to free).
 */
int pml_decide_loaded(const struct pml_policy *policy,
		      struct pml_identity *identity,
		      const struct pml_scope *scope, struct pml_machine *machine,
		      const struct pml_log *log, struct pml_decision *decision);

#endif
