/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * From "this user opens a session of this service" to a decision: load the
 * policy, look the user up if a rule needs it, decide.  The module starts
 * here; `memlockctl explain` takes the same path through evaluate_from.h,
 * which reads what the module never reads and sees further.
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

struct pml_request {
	struct pml_source source;
	const char *user;
	const char *service; /* may be NULL */
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

/*
 * Returns 0 with *out filled (free it with pml_evaluation_free), or an
 * error of pml_load, -ESRCH (the user is unknown and a rule needs their
 * uid or groups: logged), or another -errno (logged; among them: the user
 * database could not be read).  On error *out holds nothing to free.
 */
int pml_evaluate(const struct pml_request *request, const struct pml_log *log,
		 struct pml_evaluation *out);

void pml_evaluation_free(struct pml_evaluation *evaluation);

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
