/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A libconfig tree -> additions to a pml_policy.  Every problem is logged
 * as "FILE:LINE: message" and counted; the caller throws the whole policy
 * away if any was found.
 */
#ifndef PML_POLICY_PARSE_H
#define PML_POLICY_PARSE_H

#include <libconfig.h>

#include "policy.h"

/*
 * Adds what ROOT, the tree of POLICY's file number FILE, says to POLICY.
 * Returns 0, -ENOMEM, or -EINVAL after logging every problem.
 */
int pml_parse_tree(struct pml_policy *policy, unsigned file,
		   const config_setting_t *root, const struct pml_log *log);

/*
 * Room for N elements of SIZE bytes (a rule's names or uid ranges, not
 * zeroed) that POLICY frees with itself; NULL when out of memory.
 */
void *pml_policy_room(struct pml_policy *policy, size_t n, size_t size);

#endif
