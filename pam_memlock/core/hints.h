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
 * "a comma is missing between two rules", or "write the value in quotes:
 * limit = \"8 MiB\";" for what stands on that line, written into BUF.
 * Returns BUF, or NULL when none fits.
 */
const char *pml_syntax_hint(const char *text, size_t len, unsigned line,
			    const char *error, char *buf, size_t size);

/*
 * The word of WORDS (NULL-terminated) closest to TEXT: the same but for
 * case, or one edit away (a letter left out, added, changed or two
 * swapped), two for a TEXT of five letters or more.  NULL when none is
 * that close, or when TEXT is one of them.
 */
const char *pml_nearest_word(const char *text, const char *const *words);

/*
 * A size TEXT that pml_parse_size refuses for its unit, written so that it
 * takes it: "8 MB", "8MB", "8 mb" and "8  MiB" are "8 MiB", "8192 bytes"
 * is "8192 B".  Into BUF; NULL when TEXT is no such size.
 */
const char *pml_size_hint(const char *text, char *buf, size_t size);

/*
 * The setting name libconfig calls a "duplicate setting name" at LINE of
 * TEXT: the first name on that line, into BUF.  Returns BUF, or NULL.
 */
const char *pml_name_on_line(const char *text, size_t len, unsigned line,
			     char *buf, size_t size);

#endif
