/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "log.h"

#include <stdio.h>
#include <string.h>

/* Long enough for a path, a line number and a quoted value. */
#define PML_LOG_MAX 1024

static bool is_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/*
 * Writes the byte C as \xNN at OUT (5 bytes with the NUL).  Raw control
 * bytes would let a name forge a second log line or act on a terminal, and
 * syslog and journald store a line with bytes of 0x7f and above as binary.
 */
static size_t escape_byte(unsigned char c, char *out, size_t room)
{
	static const char hex[] = "0123456789abcdef";

	if (room < 5)
		return 0;
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 0xf];
	out[4] = '\0';
	return 4;
}

static void emit_va(const struct pml_log *log, int priority,
		    const char *prefix, const char *fmt, va_list ap)
{
	char raw[PML_LOG_MAX], message[PML_LOG_MAX];
	size_t in, out = 0;
	int used;

	if (log == NULL || log->emit == NULL || priority > log->max_priority)
		return;
	used = snprintf(raw, sizeof(raw), "%s", prefix);
	if (used < 0 || (size_t)used >= sizeof(raw))
		used = 0;
	vsnprintf(raw + used, sizeof(raw) - (size_t)used, fmt, ap);
	/* Names are quoted where they are written (pml_quote); this is the
	 * last guard, for what reaches a message unquoted, such as the file
	 * name before "FILE:LINE:". */
	for (in = 0; raw[in] != '\0' && out + 1 < sizeof(message); in++) {
		unsigned char c = (unsigned char)raw[in];
		size_t n;

		if (is_plain(c)) {
			message[out++] = (char)c;
			continue;
		}
		n = escape_byte(c, message + out, sizeof(message) - out);
		if (n == 0)
			break;
		out += n;
	}
	message[out] = '\0';
	log->emit(log->ctx, priority, message);
}

void pml_log(const struct pml_log *log, int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_va(log, priority, "", fmt, ap);
	va_end(ap);
}

void pml_log_at(const struct pml_log *log, int priority, const char *file,
		unsigned line, const char *fmt, ...)
{
	char prefix[PML_LOG_MAX / 2];
	va_list ap;

	if (line > 0)
		snprintf(prefix, sizeof(prefix), "%s:%u: ", file, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", file);
	va_start(ap, fmt);
	emit_va(log, priority, prefix, fmt, ap);
	va_end(ap);
}

/* VALUE into BUF, escaped; in double quotes when QUOTED. */
static const char *escape_into(const char *value, char *buf, size_t len,
			       bool quoted)
{
	size_t i = 0;

	if (quoted)
		buf[i++] = '"';
	/* Room for one escape, "..." and the closing quote and NUL. */
	for (; *value != '\0' && i + 9 < len; value++) {
		unsigned char c = (unsigned char)*value;

		if (!is_plain(c) || c == '"' || c == '\\')
			i += escape_byte(c, buf + i, len - i);
		else
			buf[i++] = (char)c;
	}
	if (*value != '\0') {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	if (quoted)
		buf[i++] = '"';
	buf[i] = '\0';
	return buf;
}

const char *pml_quote(const char *value, char *buf, size_t len)
{
	return escape_into(value, buf, len, true);
}

const char *pml_escape(const char *value, char *buf, size_t len)
{
	return escape_into(value, buf, len, false);
}
