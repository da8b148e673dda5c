/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "text_check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
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

/* What walk() stops at outside strings and comments. */
enum lexeme {
	OTHER,
	QUOTE,
	SLASH,
	HASH,
	OPEN,
	CLOSE,
	COMMA,
	NUMBER,
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
	[','] = COMMA,
	['0' ... '9'] = NUMBER,
	['-'] = NUMBER,
	['+'] = NUMBER,
	['.'] = NUMBER,
};

/* What a quoted string may follow, besides a comma in a list. */
static const bool before_string[256] = {
	['='] = true,
	[':'] = true,
	['('] = true,
	['['] = true,
	['"'] = true,
};

/*
 * Just past the string whose opening quote is before I, or 0.  *NUL is 1 +
 * where the string holds the escape \x00 (libconfig 1.7 ends the value at
 * that NUL and 1.5 drops it: one file, two values), or 0.
 */
static size_t skip_string(const char *text, size_t len, size_t i, size_t *nul)
{
	*nul = 0;
	while (i < len) {
		char c = text[i];

		if (c == '"')
			return i + 1;
		if (c != '\\') {
			i++;
			continue;
		}
		if (*nul == 0 && i + 3 < len && text[i + 1] == 'x' && text[i + 2] == '0' &&
		    text[i + 3] == '0')
			*nul = i + 1;
		/* An escape takes the next character, but never a newline. */
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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* What libconfig's scanner takes into a name after its first letter. */
static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
	       c == '_' || c == '*' || c == '-';
}

static size_t skip_digits(const char *text, size_t len, size_t i)
{
	while (i < len && is_digit(text[i]))
		i++;
	return i;
}

static bool is_hex_digit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Just past the exponent ("e-3") at I, or I if there is none. */
static size_t exponent_end(const char *text, size_t len, size_t i)
{
	size_t j = i + 1;

	if (i >= len || (text[i] != 'e' && text[i] != 'E'))
		return i;
	if (j < len && (text[j] == '-' || text[j] == '+'))
		j++;
	return j < len && is_digit(text[j]) ? skip_digits(text, len, j) : i;
}

/*
 * The token that starts at I with a digit, a sign or a point, as
 * libconfig's scanner reads it: a decimal integer ([-+]?[0-9]+: *INTEGER
 * is set), a float ("1.5", ".5", "1e3"), a hex or 64-bit integer ("0x1F",
 * "5L"), or a lone sign.  Returns where the token ends.
 */
static size_t number_end(const char *text, size_t len, size_t i, bool *integer)
{
	size_t start = i, digits, end;

	*integer = false;
	if (text[i] == '-' || text[i] == '+')
		i++;
	digits = skip_digits(text, len, i);
	if (digits < len && text[digits] == '.')
		return exponent_end(text, len, skip_digits(text, len, digits + 1));
	if (digits == i)
		return start + 1;
	end = exponent_end(text, len, digits);
	if (end != digits)
		return end;
	if (i == start && digits == start + 1 && text[start] == '0' &&
	    digits + 1 < len && (text[digits] == 'x' || text[digits] == 'X') &&
	    is_hex_digit(text[digits + 1])) {
		for (end = digits + 1; end < len && is_hex_digit(text[end]); end++)
			;
		digits = end;
	} else if (digits >= len || text[digits] != 'L') {
		*integer = true;
		return digits;
	}
	/* A hex or 64-bit integer, and its "L" or "LL". */
	for (end = digits; end < len && end < digits + 2 && text[end] == 'L'; end++)
		;
	return end;
}

/* The first problem walk() found that does not stop it at once. */
struct problem {
	size_t at; /* 1 + where */
	const char *why;
};

static void note(struct problem *first, size_t at, const char *why)
{
	if (first->at == 0) {
		first->at = at + 1;
		first->why = why;
	}
}

/*
 * Walks strings and comments the way libconfig's scanner does, to find a
 * comment or string that never ends, brackets nested too deep, commas
 * that 1.5 and 1.7.3 read differently, and a quoted string where none can
 * stand.  libconfig 1.5's parser leaks a string that is the token of its
 * syntax error (it has no %destructor for strings; 1.7.3 has): 64 bytes
 * or more per session on `limit "8 MiB";`.  A string is valid only after
 * =, :, (, [, another string (concatenation), or a comma inside ( ) or
 * [ ] (elsewhere a comma ends a setting), so any other one is refused here
 * as the syntax error it is.  A string never closed is refused too: both
 * releases drop one that opens where a setting name belongs and read on
 * as if the file were fine.
 *
 * With MASK (a copy of TEXT), it writes each bare decimal integer there as
 * zeros ("-0000" for "-1234"), which both libconfig releases read as 0,
 * instead of refusing anything; *INTEGERS says whether there was one.
 *
 * This runs on every session over the whole file, so it stops only at the
 * characters in lexemes[], none of which a valid policy has outside
 * strings and comments but brackets and the commas of lists; it skips
 * strings and comments whole, and counts lines only for a message.
 */
static int walk(const char *name, const char *text, size_t len,
		const struct pml_log *log, char *mask, bool *integers)
{
	unsigned depth = 0;
	char last = '\0';		/* the last character outside blanks and comments */
	char open[PML_NESTING_MAX + 1]; /* the brackets open at each depth */
	bool in_list, integer;
	size_t i = 0, j, k, nul, token_end = 0, comma = 0;
	struct problem first = { 0, NULL };

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
		case NUMBER:
			if (is_name_char(text[i]) && i > 0 && i != token_end &&
			    is_name_char(text[i - 1])) {
				/* Inside a name ("a-1"): the rest of it. */
				while (++i < len && is_name_char(text[i]))
					;
			} else {
				j = i;
				i = token_end = number_end(text, len, i, &integer);
				for (; integer && mask != NULL && j < i; j++)
					if (is_digit(mask[j]))
						mask[j] = '0';
				*integers |= integer;
			}
			last = text[i - 1];
			break;
		case QUOTE:
			in_list = last == ',' && depth > 0 && open[depth - 1] != '{';
			if (!in_list && !before_string[(unsigned char)last])
				note(&first, i, "syntax error: a quoted value must follow =, :, (, [ or a comma in a list");
			j = skip_string(text, len, i + 1, &nul);
			if (j == 0) {
				pml_log_at(log, LOG_ERR, name, line_at(text, i),
					   "quoted string is never closed");
				return -EINVAL;
			}
			if (nul != 0) {
				pml_log_at(log, LOG_ERR, name, line_at(text, nul - 1),
					   "\\x00 in a quoted value: a NUL byte, which no value holds");
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
			/* libconfig 1.7.3 takes "( a, )" and "[ a, ]"; 1.5 does not. */
			if (last == ',' && depth > 0 && open[depth - 1] != '{' &&
			    text[i] != '}')
				note(&first, comma,
				     text[i] == ')' ? "syntax error: remove the comma before \")\": no comma follows the last element of a list"
						    : "syntax error: remove the comma before \"]\": no comma follows the last element of an array");
			last = text[i];
			if (depth > 0)
				depth--;
			i++;
			break;
		case COMMA:
			/* 1.7.3 also takes "[ a,, b ]"; neither takes "[ , a ]". */
			if ((last == ',' || last == '(' || last == '[') && depth > 0 &&
			    open[depth - 1] != '{')
				note(&first, i, "syntax error: remove this comma: no element stands before it");
			last = ',';
			comma = i++;
			break;
		}
	}
	if (first.at != 0) {
		pml_log_at(log, LOG_ERR, name, line_at(text, first.at - 1), "%s",
			   first.why);
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

/* Everything but the text's own copy: NUL bytes, a byte order mark,
 * @include, then the walk. */
static int check(const char *name, const char *text, size_t len,
		 const struct pml_log *log, bool *integers)
{
	int nul = check_nul(name, text, len, log);

	*integers = false;
	if (nul == 0 && check_bom(name, text, len, log) < 0)
		return -EINVAL;
	int include = check_includes(name, text, len, log);
	/* An @include line would also be a misplaced string: report it once. */
	int structure = nul == 0 && include == 0
				? walk(name, text, len, log, NULL, integers)
				: 0;

	if (nul != 0)
		return nul;
	return include != 0 ? include : structure;
}

int pml_text_check(const char *name, const char *text, size_t len,
		   const struct pml_log *log)
{
	bool integers;

	return check(name, text, len, log, &integers);
}

int pml_text_prepare(const char *name, const char *text, size_t len,
		     const struct pml_log *log, struct pml_prepared *out)
{
	bool integers, newline = len > 0 && text[len - 1] != '\n';
	int rc = check(name, text, len, log, &integers);
	char *copy;

	*out = (struct pml_prepared){ .text = text };
	if (rc < 0 || (!integers && !newline))
		return rc;
	copy = malloc(len + 2);
	if (copy == NULL)
		return -ENOMEM;
	/* Not memcpy: the module would import it, and libpam binds every
	 * import again in each session.  The check refused NUL bytes. */
	snprintf(copy, len + 2, "%.*s%s", (int)len, text, newline ? "\n" : "");
	/* The check found nothing to refuse: this walk only writes. */
	if (integers)
		walk(name, text, len, log, copy, &integers);
	*out = (struct pml_prepared){ .text = copy, .copy = copy, .newline_added = newline };
	return 0;
}

void pml_prepared_free(struct pml_prepared *prepared)
{
	free(prepared->copy);
	prepared->copy = NULL;
}
