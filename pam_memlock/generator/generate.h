/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The systemd generator's work, apart from its command line: load the
 * policy with the module's loader and, for each unit a unit rule matches,
 * write the LimitMEMLOCK= drop-in pml_unit_decide says.  An invalid or
 * unsafe policy writes nothing and logs one line.
 */
#ifndef PML_GENERATE_H
#define PML_GENERATE_H

#include "policy.h"

struct gen_request {
	struct pml_source source; /* the policy */
	const char *normal_dir;	  /* systemd's normal-dir: below /etc */
	const char *unit_path;	  /* $SYSTEMD_UNIT_PATH, or NULL */
	const char *kmsg;	  /* where log lines go: /dev/kmsg */
};

struct gen_result {
	bool policy_ok;
	unsigned units;	  /* unit names looked at */
	unsigned matched; /* ... that a unit rule matches */
	unsigned written; /* drop-ins written */
	unsigned failed;  /* drop-ins that could not be written (logged) */
};

/*
 * Does the work.  Returns 0 (whatever the policy: an invalid one is
 * result->policy_ok false, logged) or -ENOMEM (logged).
 */
int gen_run(const struct gen_request *request, struct gen_result *result);

#endif
