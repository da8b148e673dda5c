/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * From "this user opens a session of this service" to a decision: load the
 * policy, look the user up if a rule needs it, decide.  The module and
 * `memlockctl explain` both start here.
 */
#ifndef PML_EVALUATE_H
#define PML_EVALUATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "decide.h"
#include "log.h"
#include "memory.h"
#include "policy.h"

/*
 * Machine facts taken as given, not read here: memlockctl's "on a host of
 * 512 GiB" (--ram, --page-size).  Zero: read this machine's.  Given RAM
 * is a host of its own: no cgroup of this one limits "available" there.
 */
struct pml_assume {
	uint64_t ram;
	uint64_t page_size;
};

/*
 * How far a decision looks.  All zero is the module's: the groups the
 * decision needs, and the cgroup of this very process.  memlockctl asks
 * for more: every group a rule names (to list every rule that matches),
 * and the cgroup of another process, or none (the user's slice).
 */
struct pml_scope {
	enum pml_groups_scope groups;
	struct pml_assume assume;      /* all zero: this machine */
	const struct pml_files *files; /* how cgroups are read; NULL: by path */
	pid_t pid;		       /* whose cgroup: 0 this process, or PML_NO_PROCESS */
};

struct pml_request {
	struct pml_source source;
	const char *user;
	const char *service; /* may be NULL */
	struct pml_scope scope;
};

struct pml_evaluation {
	struct pml_policy policy;
	struct pml_identity identity;
	struct pml_machine machine;
	struct pml_decision decision;
};

/*
 * Probes MACHINE and loads the policy from SOURCE, as the module does.
 * Returns 0 with *policy filled (free it with pml_policy_free), -EINVAL
 * (the policy is missing, unsafe or invalid: logged), -ENOMEM (logged), or
 * another -errno (logged).  On error *policy holds nothing to free.
 */
int pml_load(const struct pml_source *source, const struct pml_log *log,
	     struct pml_policy *policy, struct pml_machine *machine);

/* pml_load with the facts of ASSUME (may be NULL) in place of this
 * machine's. */
int pml_load_assuming(const struct pml_source *source, const struct pml_assume *assume,
		      const struct pml_log *log, struct pml_policy *policy,
		      struct pml_machine *machine);

/*
 * Returns 0 with *out filled (free it with pml_evaluation_free), or an
 * error of pml_load, -ESRCH (the user is unknown and a rule needs their
 * uid or groups: logged), or another -errno (logged; among them: the user
 * database could not be read).  On error *out holds nothing to free.
 */
int pml_evaluate(const struct pml_request *request, const struct pml_log *log,
		 struct pml_evaluation *out);

/* pml_evaluate, the policy read as pml_policy_load_at reads it: through
 * DIR_FD, for memlockctl doctor --root. */
int pml_evaluate_at(int dir_fd, const struct pml_request *request,
		    const struct pml_log *log, struct pml_evaluation *out);

void pml_evaluation_free(struct pml_evaluation *evaluation);

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

/* Room for any "FILE:LINE" of pml_describe_at. */
#define PML_DESCRIBE_MAX 4200

/* "FILE:LINE", the file name escaped (pml_escape), for logs and explain. */
void pml_describe_at(const struct pml_policy *policy, struct pml_origin at,
		     char *buf, size_t len);

/* pml_describe_at of SETTING, or "built-in default". */
void pml_describe_origin(const struct pml_policy *policy,
			 const struct pml_setting *setting,
			 char *buf, size_t len);

#endif
