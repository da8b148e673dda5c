/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's verdict on each unit the policy's unit rules match: is the
 * drop-in pam-memlock-generator wrote the one it writes now, and does it
 * have the last word?  What the drop-in should say comes from
 * pml_unit_generate, the generator's own call; the drop-in systemd loaded
 * is read from the generator's output directory, every file inside the
 * root.
 */
#ifndef DOC_UNITRULES_H
#define DOC_UNITRULES_H

#include <limits.h>
#include <stdbool.h>

#include "output/json.h"
#include "record.h"

/* From least to most to do. */
enum doc_unit_verdict {
	DOC_UNIT_OK,	     /* the generator's drop-in, as the policy says, has the last word */
	DOC_UNIT_STALE,	     /* it differs from what the generator writes now */
	DOC_UNIT_OVERRIDDEN, /* a later drop-in, or an admin's of its name, wins */
	DOC_UNIT_ERROR,	     /* the policy is invalid: the generator writes nothing */
};

extern const char *const doc_unit_verdict_names[];

struct doc_unit {
	char name[256];
	enum doc_unit_verdict verdict;
	/* What the policy gives it: "SOFT:HARD" as LimitMEMLOCK= takes it,
	 * and the rule; "" for none. */
	char want[64];
	char rule[PATH_MAX + 32];
	/* The generator's drop-in under the root, as shown; "" for none. */
	char dropin[PATH_MAX + 64];
	/* overridden: the file (and line, 0 for none) that wins. */
	char by[PATH_MAX + 64];
	unsigned by_line;
	char why[DOC_MSG_MAX];
	char fix[DOC_MSG_MAX]; /* "" when there is nothing to do */
};

/* Called for each unit, in name order. */
typedef void doc_unit_visit(const struct doc_unit *u, void *ctx);

/*
 * The verdict of ONLY (doctor --unit; an instance is judged by the
 * drop-in that covers it), or of each unit a unit rule matches when ONLY
 * is NULL, for the policy D's options name, read inside D's root.
 * *ALL_OK false when one is not ok.  Returns 0, or -ENOMEM (said).
 */
int doc_check_units(const struct doctor *d, const char *only, doc_unit_visit *visit,
		    void *ctx, bool *all_ok);

void doc_print_text_unit(const struct doc_unit *u);
void doc_print_json_unit(struct cli_json *j, const struct doc_unit *u);

#endif
