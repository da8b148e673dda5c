/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Checks a policy text before libconfig 1.5 sees it, for what that version
 * gets wrong and cannot be told to refuse: @include directives (which it
 * follows relative to the caller's working directory, and which kill the
 * process on "@include \".\""), NUL bytes (it stops reading at the first
 * one), unterminated comments (it reads them as an empty file) and nesting
 * deep enough to exhaust its parser stack.
 */
#ifndef PML_TEXT_CHECK_H
#define PML_TEXT_CHECK_H

#include <stddef.h>

#include "log.h"

/* Nothing in a valid policy nests deeper than rules = ( { user = [ ] } ). */
#define PML_NESTING_MAX 8

/*
 * Returns 0 when the text may be handed to libconfig, or -EINVAL after
 * logging every problem found as "NAME:LINE: message".
 */
int pml_text_check(const char *name, const char *text, size_t len,
		   const struct pml_log *log);

#endif
