/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A PAM configuration file read as libpam reads it, byte for byte: logical
 * lines (pam_handlers.c's reader up to 1.5.3, pam_line.c's from 1.6.0),
 * tokens (pam_misc.c's tokenizer: a bracketed control is one, its brackets
 * gone) and controls (_pam_parse_control: "[success=2 default=ignore]" as
 * the actions libpam's dispatcher takes).
 *
 * The two readers differ where doctor must follow the system's own:
 *  - up to 1.5.3 a line is read in pieces of at most 1,023 bytes, each piece
 *    a line of its own; a continued line skips blank and comment lines; a
 *    logical line of 1,024 bytes or more fails the file, and one whose
 *    backslash lands on its 1,023rd byte makes libpam read nothing, forever;
 *  - from 1.6.0 a line has any length, and a blank or comment line ends a
 *    continued line.
 * In both, a line still continued at the end of the file fails the file,
 * '#' starts a comment anywhere, a backslash followed by blanks still
 * continues the line, and only space, tab and newline separate tokens (a
 * carriage return is part of the token before it).
 */
#ifndef DOC_PAMLINE_H
#define DOC_PAMLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "pamstack.h"
#include "dirfd/dirfd.h"

struct doc_reader {
	const struct dirfd_text *text;
	enum doc_libpam_dialect dialect;
	size_t pos;	 /* the next byte to read */
	unsigned lineno; /* physical lines read so far */
};

/* Results of doc_next_line besides 1 (a line) and 0 (the end). */
enum {
	DOC_READ_FAILS = -1, /* libpam's reader fails: the file is an error */
	DOC_READ_HANGS = -2, /* libpam 1.5 reads the same nothing forever */
	DOC_READ_NOMEM = -3,
};

/*
 * The next logical line of the file: 1 with *line (malloc'd, NUL-terminated
 * where libpam's string ends) and *first, the physical line it starts on;
 * 0 at the end; or one of the DOC_READ_ results above.
 */
int doc_next_line(struct doc_reader *r, char **line, unsigned *first);

/* The next token of *cursor, as libpam's tokenizer splits it (in place);
 * NULL when none is left. */
char *doc_token(char **cursor);

/* The simple controls, as libpam spells them out. */
struct doc_simple_control {
	const char *name;
	int success, otherwise;
};
extern const struct doc_simple_control doc_simple_controls[];
extern const size_t doc_n_simple_controls;

/*
 * A control other than the simple ones ("success=2 default=ignore", the
 * tokenizer having taken the brackets off) into ACTIONS, as
 * _pam_parse_control reads it: return values and actions matched by
 * prefix, case-sensitively, what is left unset bad.  False when libpam
 * balks: every action is then bad, and BAD says where.
 */
bool doc_parse_control(const char *control, int actions[DOC_RET_COUNT], char *bad,
		       size_t bad_len);

#endif
