/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What pam_memlock and pam_limits do at their step of a path (modules.c):
 * one step each, SOFT and HARD the session's memlock before and after;
 * *last_is_memlock tells whether pam_memlock had the last word.
 */
#ifndef DOC_MODULES_H
#define DOC_MODULES_H

#include <stdbool.h>

#include "pamstack.h"
#include "record.h"

void doc_run_memlock(const struct doctor *d, struct doc_path *p, const struct doc_handler *h,
		     struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock);
/* *overrider: the pam_limits line that took the last word from pam_memlock. */
void doc_run_limits(const struct doctor *d, struct doc_path *p, const struct doc_handler *h,
		    struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock,
		    const struct doc_handler **overrider);

#endif
