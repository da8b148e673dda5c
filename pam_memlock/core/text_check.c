/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "text_check.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* The newline that ends the line I is on, or LEN. */
static size_t skip_line(const char *text, size_t len, size_t i)
{
	const char *nl = memchr(text + i, '\n', len - i);

	return nl != NULL ? (size_t)(nl - text) : len;
}

/* LINE plus the newlines in [FROM, TO).  Only messages need line numbers. */
static unsigned count_lines(unsigned line, const char *from, const char *to)
{
	while ((from = memchr(from, '\n', (size_t)(to - from))) != NULL) {
		line++;
		from++;
	}
	return line;
}

/* The line POS is on. */
static unsigned line_at(const char *text, size_t pos)
{
	return count_lines(1, text, text + pos);
}

/*
 * A line whose first non-blank text is @include is refused wherever it
 * stands, inside a string or a comment too: libconfig's scanner matches it
 * at the start of any line, and refusing it everywhere is simpler to trust.
 * Only the '@'s are looked at (memchr), each with the blanks before it.
 */
static int check_includes(const char *name, const char *text, size_t len,
			  const struct pml_log *log)
{
	static const char directive[] = "@include";
	const char *at = text, *end = text + len, *counted = text;
	unsigned line = 1;
	int bad = 0;

	while ((at = memchr(at, '@', (size_t)(end - at))) != NULL) {
		const char *p = at;

		while (p > text && is_blank(p[-1]))
			p--;
		if ((p == text || p[-1] == '\n') &&
		    (size_t)(end - at) >= sizeof(directive) - 1 &&
		    strncmp(at, directive, sizeof(directive) - 1) == 0) {
			/* From the last one on: a file of @include lines stays linear. */
			line = count_lines(line, counted, at);
			counted = at;
			pml_log_at(log, LOG_ERR, name, line,
				   "@include is not supported: put extra policy in memlock.d/ instead");
			bad = -EINVAL;
		}
		at++;
	}
	return bad;
}

static int check_nul(const char *name, const char *text, size_t len,
		     const struct pml_log *log)
{
	const char *nul = memchr(text, '\0', len);

	if (nul == NULL)
		return 0;
	pml_log_at(log, LOG_ERR, name, line_at(text, (size_t)(nul - text)),
		   "NUL byte in the file (is it a text file?)");
	return -EINVAL;
}

/* What check_structure stops at outside strings and comments. */
enum lexeme {
	OTHER,
	QUOTE,
	SLASH,
	HASH,
	OPEN,
	CLOSE
};

static const unsigned char lexemes[256] = {
	['"'] = QUOTE,
	['/'] = SLASH,
	['#'] = HASH,
	['{'] = OPEN,
	['('] = OPEN,
	['['] = OPEN,
	['}'] = CLOSE,
	[')'] = CLOSE,
	[']'] = CLOSE,
};

/* Just past the string whose opening quote is before I, or 0. */
static size_t skip_string(const char *text, size_t len, size_t i)
{
	while (i < len) {
		char c = text[i];

		if (c == '"')
			return i + 1;
		if (c != '\\')
			i++;
		else /* an escape takes the next character, but never a newline */
			i += i + 1 < len && text[i + 1] != '\n' ? 2 : 1;
	}
	return 0;
}

/* Just past the "*" "/" that closes a comment opened before I, or 0. */
static size_t skip_comment(const char *text, size_t len, size_t i)
{
	const char *star;

	while (i < len && (star = memchr(text + i, '*', len - i)) != NULL) {
		i = (size_t)(star - text) + 1;
		if (i < len && text[i] == '/')
			return i + 1;
	}
	return 0;
}

/*
 * Walks strings and comments the way libconfig's scanner does, to find a
 * comment that never ends, brackets nested too deep, and a quoted string
 * where none can stand.  libconfig 1.5's parser leaks a string that is the
 * token of its syntax error (it has no %destructor for strings): 64 bytes
 * or more per session on `limit "8 MiB";`.  A string is valid only after
 * =, :, (, [, another string (concatenation), or a comma inside ( ) or
 * [ ] (elsewhere a comma ends a setting), so any other one is refused here
 * as the syntax error it is.  A string never closed is refused too: 1.5
 * drops one that opens where a setting name belongs and reads on as if the
 * file were fine.
 *
 * This runs on every session over the whole file, so it stops only at the
 * characters in lexemes[], skips strings and comments whole, and counts
 * lines only for a message.
 */
static int check_structure(const char *name, const char *text, size_t len,
			   const struct pml_log *log)
{
	unsigned depth = 0;
	char last = '\0';		/* the last character outside blanks and comments */
	char open[PML_NESTING_MAX + 1]; /* the brackets open at each depth */
	bool list_comma;
	size_t i = 0, j, k, misplaced = 0; /* 1 + where a string is misplaced */

	while (i < len) {
		switch (lexemes[(unsigned char)text[i]]) {
		case OTHER:
			j = i;
			while (++i < len && lexemes[(unsigned char)text[i]] == OTHER)
				;
			/* The run's last character that is not blank. */
			for (k = i; k > j; k--) {
				if (!is_blank(text[k - 1]) && text[k - 1] != '\n') {
					last = text[k - 1];
					break;
				}
			}
			break;
		case QUOTE:
			list_comma = last == ',' && depth > 0 && open[depth - 1] != '{';
			if (!list_comma && misplaced == 0 &&
			    (last == '\0' || strchr("=:([\"", last) == NULL))
				misplaced = i + 1;
			j = skip_string(text, len, i + 1);
			if (j == 0) {
				pml_log_at(log, LOG_ERR, name, line_at(text, i),
					   "quoted string is never closed");
				return -EINVAL;
			}
			i = j;
			last = '"';
			break;
		case SLASH:
			if (i + 1 < len && text[i + 1] == '*') {
				j = skip_comment(text, len, i + 2);
				if (j == 0) {
					pml_log_at(log, LOG_ERR, name, line_at(text, i),
						   "comment opened with /* is never closed");
					return -EINVAL;
				}
				i = j;
			} else if (i + 1 < len && text[i + 1] == '/') {
				i = skip_line(text, len, i);
			} else {
				last = '/';
				i++;
			}
			break;
		case HASH:
			i = skip_line(text, len, i);
			break;
		case OPEN:
			last = text[i];
			open[depth] = last;
			if (++depth > PML_NESTING_MAX) {
				pml_log_at(log, LOG_ERR, name, line_at(text, i),
					   "nested deeper than %d levels", PML_NESTING_MAX);
				return -EINVAL;
			}
			i++;
			break;
		case CLOSE:
			last = text[i];
			if (depth > 0)
				depth--;
			i++;
			break;
		}
	}
	if (misplaced != 0) {
		pml_log_at(log, LOG_ERR, name, line_at(text, misplaced - 1),
			   "syntax error: a quoted value must follow =, :, (, [ or a comma in a list");
		return -EINVAL;
	}
	return 0;
}

/* Editors on other systems add one; libconfig only says "syntax error". */
static int check_bom(const char *name, const char *text, size_t len,
		     const struct pml_log *log)
{
	if (len < 3 || memcmp(text, "\xef\xbb\xbf", 3) != 0)
		return 0;
	pml_log_at(log, LOG_ERR, name, 1,
		   "the file starts with a UTF-8 byte order mark: save it without one");
	return -EINVAL;
}

int pml_text_check(const char *name, const char *text, size_t len,
		   const struct pml_log *log)
{
	int nul = check_nul(name, text, len, log);

	if (nul == 0 && check_bom(name, text, len, log) < 0)
		return -EINVAL;
	int include = check_includes(name, text, len, log);
	/* An @include line would also be a misplaced string: report it once. */
	int structure = nul == 0 && include == 0
				? check_structure(name, text, len, log)
				: 0;

	if (nul != 0)
		return nul;
	return include != 0 ? include : structure;
}
