/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A PAM configuration file read as libpam reads it: logical lines (comments
 * cut, backslash continuations joined, blank lines skipped), tokens (a
 * bracketed control is one), and controls ("required", or
 * "[success=2 default=ignore]") as the actions libpam's dispatcher takes.
 */
#ifndef PML_DOC_PAMLINE_H
#define PML_DOC_PAMLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "pamstack.h"
#include "rootfs.h"

/*
 * The next logical line of TEXT from *pos: a '#' starts a comment, a
 * backslash before the newline continues the line.  Returns a malloc'd
 * line (NULL at the end; *oom on failure) and its first physical line.
 * A NUL byte ends the line's text where it is, as it ends libpam's.
 */
char *doc_next_line(const struct doc_text *text, size_t *pos, unsigned *lineno,
		    unsigned *first, bool *oom);

/* Splits off the next token of *cursor, NUL-terminating it in place; NULL
 * at the end. */
char *doc_token(char **cursor);

/* The simple controls, as libpam spells them out. */
struct doc_simple_control {
	const char *name;
	int success, otherwise;
};
extern const struct doc_simple_control doc_simple_controls[];
extern const size_t doc_n_simple_controls;

/* "[success=2 default=ignore]" into ACTIONS; false when libpam would balk,
 * with the offending item described in BAD. */
bool doc_parse_control(const char *control, int actions[DOC_RET_COUNT], char *bad,
		       size_t bad_len);

#endif
