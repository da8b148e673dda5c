/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "json.h"

#include "text.h"
#include "size.h"

void cli_json_start(struct cli_json *json, FILE *out)
{
	json->out = out;
	json->depth = 0;
	json->first[0] = true;
	json->after_key = false;
}

void cli_json_finish(struct cli_json *json)
{
	putc('\n', json->out);
}

static void indent(struct cli_json *json)
{
	unsigned i;

	putc('\n', json->out);
	for (i = 0; i < json->depth; i++)
		fputs("  ", json->out);
}

/* Before a key, or a value that is not an object's: comma and new line. */
static void next_item(struct cli_json *json)
{
	if (json->after_key) {
		json->after_key = false;
		return;
	}
	if (json->depth == 0)
		return;
	if (!json->first[json->depth])
		putc(',', json->out);
	json->first[json->depth] = false;
	indent(json);
}

static void open_container(struct cli_json *json, char c)
{
	next_item(json);
	putc(c, json->out);
	/* Deeper than this is a bug in memlockctl, not in the input. */
	if (json->depth + 1 < CLI_JSON_DEPTH_MAX)
		json->depth++;
	json->first[json->depth] = true;
}

static void close_container(struct cli_json *json, char c)
{
	bool empty = json->first[json->depth];

	if (json->depth > 0)
		json->depth--;
	if (!empty)
		indent(json);
	putc(c, json->out);
}

void cli_json_open_object(struct cli_json *json)
{
	open_container(json, '{');
}

void cli_json_close_object(struct cli_json *json)
{
	close_container(json, '}');
}

void cli_json_open_array(struct cli_json *json)
{
	open_container(json, '[');
}

void cli_json_close_array(struct cli_json *json)
{
	close_container(json, ']');
}

void cli_json_write_string(FILE *out, const char *value)
{
	const unsigned char *p = (const unsigned char *)value;

	putc('"', out);
	while (*p != '\0') {
		size_t n = cli_utf8_sequence(p);

		if (*p == '"' || *p == '\\') {
			putc('\\', out);
			putc(*p, out);
			n = 1;
		} else if (*p < 0x20 || *p == 0x7f || n == 0) {
			/* A control, or a byte that is not UTF-8: its own number. */
			fprintf(out, "\\u%04x", *p);
			n = 1;
		} else {
			fwrite(p, 1, n, out);
		}
		p += n;
	}
	putc('"', out);
}

void cli_json_key(struct cli_json *json, const char *key)
{
	next_item(json);
	cli_json_write_string(json->out, key);
	fputs(": ", json->out);
	json->after_key = true;
}

void cli_json_string(struct cli_json *json, const char *value)
{
	if (value == NULL) {
		cli_json_null(json);
		return;
	}
	next_item(json);
	cli_json_write_string(json->out, value);
}

void cli_json_uint(struct cli_json *json, uint64_t value)
{
	next_item(json);
	fprintf(json->out, "%llu", (unsigned long long)value);
}

void cli_json_uint_or_null(struct cli_json *json, const char *key, bool known, uint64_t value)
{
	cli_json_key(json, key);
	if (known)
		cli_json_uint(json, value);
	else
		cli_json_null(json);
}

void cli_json_text_or_null(struct cli_json *json, const char *key, const char *text)
{
	cli_json_key(json, key);
	cli_json_string(json, text[0] != '\0' ? text : NULL);
}

void cli_json_bytes(struct cli_json *json, uint64_t bytes)
{
	if (bytes == PML_UNLIMITED)
		cli_json_string(json, "unlimited");
	else
		cli_json_uint(json, bytes);
}

void cli_json_bool(struct cli_json *json, bool value)
{
	next_item(json);
	fputs(value ? "true" : "false", json->out);
}

void cli_json_null(struct cli_json *json)
{
	next_item(json);
	fputs("null", json->out);
}

void cli_json_member_string(struct cli_json *json, const char *key, const char *value)
{
	cli_json_key(json, key);
	cli_json_string(json, value);
}

void cli_json_member_uint(struct cli_json *json, const char *key, uint64_t value)
{
	cli_json_key(json, key);
	cli_json_uint(json, value);
}

void cli_json_member_bytes(struct cli_json *json, const char *key, uint64_t bytes)
{
	cli_json_key(json, key);
	cli_json_bytes(json, bytes);
}

void cli_json_member_bool(struct cli_json *json, const char *key, bool value)
{
	cli_json_key(json, key);
	cli_json_bool(json, value);
}

void cli_json_member_null(struct cli_json *json, const char *key)
{
	cli_json_key(json, key);
	cli_json_null(json);
}

void cli_json_member_object(struct cli_json *json, const char *key)
{
	cli_json_key(json, key);
	cli_json_open_object(json);
}

void cli_json_member_array(struct cli_json *json, const char *key)
{
	cli_json_key(json, key);
	cli_json_open_array(json);
}
