/*
 * From "this user opens a session of this service" to a decision: load the
 * policy, look the user up if a rule needs it, decide.  The module and
 * `memlockctl explain` both start here.
 */
#ifndef PML_EVALUATE_H
#define PML_EVALUATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "decide.h"
#include "log.h"
#include "policy.h"

struct pml_request {
	const char *conf;	/* the main policy file */
	bool conf_given;	/* chosen by conf= or --conf, not the default */
	const char *user;
	const char *service;	/* may be NULL */
	uid_t owner;		/* who must own the policy files: 0 */
};

struct pml_evaluation {
	struct pml_policy policy;
	struct pml_identity identity;
	struct pml_machine machine;
	struct pml_decision decision;
};

/*
 * Returns 0 with *out filled (free it with pml_evaluation_free), or
 * -EINVAL (the policy is missing, unsafe or invalid: logged), -ESRCH (the
 * user is unknown and a rule needs their uid or groups: logged), -ENOMEM,
 * or another -errno.  On error *out holds nothing to free.
 */
int pml_evaluate(const struct pml_request *request, const struct pml_log *log,
		 struct pml_evaluation *out);

void pml_evaluation_free(struct pml_evaluation *evaluation);

/* "rule FILE:LINE", "top level" and the like, for logs and explain. */
void pml_describe_origin(const struct pml_policy *policy,
			 const struct pml_setting *setting,
			 char *buf, size_t len);

#endif
