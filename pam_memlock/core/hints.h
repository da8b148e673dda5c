/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Hints for the mistakes people make most in a policy file, so that a bare
 * "syntax error" or "unknown setting" says what to write instead.  Pure
 * functions of the text: they only ever add words to a message that is
 * already an error, and never decide whether something is one.
 */
#ifndef PML_HINTS_H
#define PML_HINTS_H

#include <stddef.h>

/*
 * For libconfig's ERROR at LINE of TEXT (LEN bytes): a hint such as
 * "a comma is missing between two rules", or NULL when none fits.  The
 * hint is static text.
 */
const char *pml_syntax_hint(const char *text, size_t len, unsigned line,
			    const char *error);

/*
 * The word of WORDS (NULL-terminated) closest to TEXT: the same but for
 * case, or one edit away (a letter left out, added, changed or two
 * swapped), two for a TEXT of five letters or more.  NULL when none is
 * that close, or when TEXT is one of them.
 */
const char *pml_nearest_word(const char *text, const char *const *words);

/*
 * The setting name libconfig calls a "duplicate setting name" at LINE of
 * TEXT: the first name on that line, into BUF.  Returns BUF, or NULL.
 */
const char *pml_name_on_line(const char *text, size_t len, unsigned line,
			     char *buf, size_t size);

#endif
