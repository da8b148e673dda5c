/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What libconfig must not see, and what it must see the same way on every
 * supported release: a policy text is checked, and where need be copied,
 * before libconfig 1.5 (Debian 12) or 1.7.3 (Debian 13) reads it, so that
 * one policy gets one verdict and one message on both.
 *
 * Refused, because libconfig gets them wrong and cannot be told to refuse
 * them: @include directives (followed relative to the caller's working
 * directory; "@include \".\"" kills the process), NUL bytes (reading stops
 * at the first one), unterminated comments and strings (read as the end of
 * the file), and nesting deep enough to exhaust the parser's stack.
 *
 * Refused, because 1.7.3 accepts what 1.5 calls a syntax error: a comma
 * that ends a list or array, or stands where an element belongs.  A policy
 * checked on Debian 13 must not be refused whole on Debian 12.
 *
 * Refused, for a clearer message than libconfig's: a quoted string where
 * none can stand (1.5 also leaks it), and a UTF-8 byte order mark.
 *
 * Copied: a text without a final newline gets one (1.5 calls a last line
 * that is a comment without one a syntax error), and every bare decimal
 * integer is handed over as zeros (1.7.3 refuses one that is out of 64-bit
 * range or has a leading 0 and an 8 or 9; 1.5 reads those): no value of
 * the policy is a number, so the parser refuses each one by its type
 * alone, with the same message on both.
 */
#ifndef PML_TEXT_CHECK_H
#define PML_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "log.h"

/* Nothing in a valid policy nests deeper than rules = ( { user = [ ] } ). */
#define PML_NESTING_MAX 8

/*
 * Returns 0 when the text may be handed to libconfig (after
 * pml_text_prepare), or -EINVAL after logging every problem found as
 * "NAME:LINE: message".
 */
int pml_text_check(const char *name, const char *text, size_t len,
		   const struct pml_log *log);

/* What libconfig reads: the text itself, or a copy. */
struct pml_prepared {
	const char *text;   /* NUL-terminated */
	char *copy;	    /* what to free, or NULL */
	bool newline_added; /* errors past the last line belong on it */
};

/*
 * pml_text_check, then *OUT: TEXT itself when it ends with a newline and
 * holds no bare integer (every valid policy), else a copy as above.
 * TEXT must be NUL-terminated where no copy is made.  Returns 0, -EINVAL
 * after logging, or -ENOMEM.
 */
int pml_text_prepare(const char *name, const char *text, size_t len,
		     const struct pml_log *log, struct pml_prepared *out);

void pml_prepared_free(struct pml_prepared *prepared);

#endif
