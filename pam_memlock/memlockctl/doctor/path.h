/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's session paths: path.c walks a resolved stack (pamstack.h) into
 * a path's record (record.h), asking modules.c what pam_memlock and
 * pam_limits do at their step; report.c prints paths as text or JSON, and
 * doctor.c checks every path a run names.
 */
#ifndef DOC_PATH_H
#define DOC_PATH_H

#include <stdbool.h>

#include "record.h"

struct cli_json;

/* The paths' verdicts, counted, and what to do first. */
struct doc_summary {
	unsigned count[DOC_V_ERROR + 1];
	char first[DOC_MSG_MAX]; /* "SERVICE: FIX", "" when every path is ok */
	unsigned first_rank;	 /* its precedence: lower goes first */
};

/* Counts P into S.  Precedence for the first thing to do: installing
 * the module, then an error, then the family's tool, then any fix. */
void doc_summary_add(struct doc_summary *s, const struct doctor *d, const struct doc_path *p);

/* --- path.c */

/* Fills *p for SERVICE from its resolved and walked stack. */
void doc_check_path(const struct doctor *d, const char *service, struct doc_path *p,
		    struct doc_stack *st);

/* --- doctor.c */

/* What one run of doctor hands on: the machine once (HEAD may be NULL),
 * then each path as it is checked, LAST true for the final one. */
struct doc_visitor {
	void (*head)(const struct doctor *d, void *ctx);
	void (*path)(const struct doc_path *p, bool last, void *ctx);
	void *ctx;
};

/*
 * Checks every path OPTIONS names (--service, else every service with a
 * session stack, under --root, for USER), handing each to V.  Returns
 * CLI_EXIT_OK with *ALL_OK false when a path is not ok, or CLI_EXIT_FAIL
 * with a message (an unknown user, out of memory) before any path.
 */
int doc_run(const struct cli_options *options, const struct doc_visitor *v, bool *all_ok);

/* --- report.c */

void doc_print_text_head(const struct doctor *d);
void doc_print_text_path(const struct doc_path *p);
void doc_print_json_head(struct cli_json *j, const struct doctor *d);
void doc_print_json_path(struct cli_json *j, const struct doc_path *p);
/* "summary: ..." as the last line; a "summary" object. */
void doc_print_text_summary(const struct doc_summary *s);
void doc_print_json_summary(struct cli_json *j, const struct doc_summary *s);

#endif
