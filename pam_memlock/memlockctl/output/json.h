/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A small JSON writer for memlockctl --json: objects, arrays, strings,
 * integers, booleans and null, pretty-printed two spaces per level.
 *
 * Strings may hold any byte (a user name may hold whatever NSS allows),
 * and the output must still be valid JSON:
 *   - '"' and '\\' are escaped as \" and \\;
 *   - control characters (below 0x20, and 0x7f) as \u00XX;
 *   - well-formed UTF-8 is copied as it is;
 *   - any other byte of 0x80 or more (not part of well-formed UTF-8) as
 *     \u00XX, XX being the byte: a reader sees that byte as the Latin-1
 *     character of the same number.  This is documented in memlockctl(8).
 */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_JSON_DEPTH_MAX 16

struct cli_json {
	FILE *out;
	unsigned depth;
	bool first[CLI_JSON_DEPTH_MAX]; /* nothing written yet at that depth */
	bool after_key;			/* the next value follows "key": */
};

void cli_json_start(struct cli_json *json, FILE *out);
/* Ends the document with a newline. */
void cli_json_finish(struct cli_json *json);

void cli_json_open_object(struct cli_json *json);
void cli_json_close_object(struct cli_json *json);
void cli_json_open_array(struct cli_json *json);
void cli_json_close_array(struct cli_json *json);

void cli_json_key(struct cli_json *json, const char *key);

/* NULL writes null. */
void cli_json_string(struct cli_json *json, const char *value);
void cli_json_uint(struct cli_json *json, uint64_t value);
/* A limit: an integer in bytes, or the string "unlimited". */
void cli_json_bytes(struct cli_json *json, uint64_t bytes);
void cli_json_bool(struct cli_json *json, bool value);
void cli_json_null(struct cli_json *json);
/*
 * Members of an object: KEY, then its value as the call without
 * "member_" writes it (cli_json_member_object and _array open one).
 */
void cli_json_member_string(struct cli_json *json, const char *key, const char *value);
void cli_json_member_uint(struct cli_json *json, const char *key, uint64_t value);
void cli_json_member_bytes(struct cli_json *json, const char *key, uint64_t bytes);
void cli_json_member_bool(struct cli_json *json, const char *key, bool value);
void cli_json_member_null(struct cli_json *json, const char *key);
void cli_json_member_object(struct cli_json *json, const char *key);
void cli_json_member_array(struct cli_json *json, const char *key);
/* KEY with VALUE when KNOWN, else with null. */
void cli_json_uint_or_null(struct cli_json *json, const char *key, bool known, uint64_t value);
/* KEY with TEXT, or with null when TEXT is empty. */
void cli_json_text_or_null(struct cli_json *json, const char *key, const char *text);

/* Writes VALUE as a JSON string literal, quotes included. */
void cli_json_write_string(FILE *out, const char *value);

#endif
