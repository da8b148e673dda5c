/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Text helpers shared by memlockctl's commands: policy values written the
 * way the policy file spells them, names quoted so that no byte of them
 * can act on a terminal, and UTF-8 recognised for both.
 */
#ifndef CLI_TEXT_H
#define CLI_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "policy.h"

#define CLI_VALUE_MAX 48

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence at S, or 0 when
 * the bytes there are not one (overlong forms, surrogates and code points
 * above U+10FFFF are not well-formed).  S is NUL-terminated.
 */
size_t cli_utf8_sequence(const unsigned char *s);

/*
 * A setting's value as the policy file would spell it, without quotes:
 * "8 MiB", "1048577", "unlimited", "2.5%", "page", "available", "raise".
 * Any value it writes reads back as the same value.
 */
void cli_format_value(const struct pml_setting *setting, char *buf, size_t len);

/*
 * Writes NAME in double quotes, the way libconfig reads strings: '"' and
 * '\\' escaped, control characters, DEL, C1 controls and bytes that are
 * not well-formed UTF-8 as \xNN.  Well-formed printable UTF-8 is kept.
 */
void cli_print_quoted(FILE *out, const char *name);

/* The same without the quotes: for file names in comments and messages. */
void cli_print_escaped(FILE *out, const char *name);

/*
 * TEXT as it is, quotes and backslashes kept (a message that quotes a line
 * to add), but no byte that could act on a terminal: control characters,
 * DEL, C1 controls and bytes that are not well-formed UTF-8 as \xNN.
 */
void cli_print_text(FILE *out, const char *text);

/*
 * A byte count for a table column, at most 10 characters: "0", "512 B",
 * "64 KiB", "1.5 MiB", "unlimited".  Rounded down to a tenth of the unit
 * (JSON output has the exact count).
 */
#define CLI_SHORT_MAX 16
void cli_format_short(uint64_t bytes, char *buf, size_t len);

/* "1 file", "2 files". */
const char *cli_plural(size_t n, const char *one, const char *many);

#endif
