/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "hints.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WORD_MAX 64

/* The start of LINE (1-based) in TEXT, and its length through *LINE_LEN. */
static const char *find_line(const char *text, size_t len, unsigned line,
			     size_t *line_len)
{
	const char *p = text, *end = text + len, *nl;

	while (line > 1 && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			return NULL;
		p = nl + 1;
		line--;
	}
	if (line != 1 || p > end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	*line_len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static bool is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '*';
}

static bool contains(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; i + k <= n; i++)
		if (strncmp(s + i, needle, k) == 0)
			return true;
	return false;
}

/* The last character before LINE that is not blank and not in a comment
 * running to the end of its line ('#' or '//'), or '\0'. */
static char last_char_before(const char *text, const char *line_start)
{
	const char *p = line_start;

	while (p > text) {
		const char *start = p - 1, *q, *stop;

		while (start > text && start[-1] != '\n')
			start--;
		stop = p - 1; /* the newline that ends this line */
		for (q = start; q < stop; q++)
			if (*q == '#' || (*q == '/' && q + 1 < stop && q[1] == '/'))
				break;
		stop = q;
		while (stop > start && is_blank(stop[-1]))
			stop--;
		if (stop > start)
			return stop[-1];
		p = start;
	}
	return '\0';
}

/* "uid = 1000-59999" with no quotes. */
static bool unquoted_range(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		if (s[i] == '=' || s[i] == ':') {
			size_t j = i + 1;

			while (j < n && is_blank(s[j]))
				j++;
			if (j < n && s[j] >= '0' && s[j] <= '9') {
				while (j < n && s[j] >= '0' && s[j] <= '9')
					j++;
				if (j < n && s[j] == '-')
					return true;
			}
		}
	}
	return false;
}

const char *pml_syntax_hint(const char *text, size_t len, unsigned line,
			    const char *error)
{
	const char *s, *first;
	size_t n;

	if (error == NULL || strcmp(error, "syntax error") != 0)
		return NULL;
	s = find_line(text, len, line, &n);
	if (s == NULL)
		return NULL;
	if (memchr(s, '\'', n) != NULL)
		return "strings take double quotes: limit = \"8 MiB\";";
	if (unquoted_range(s, n))
		return "quote a uid range: uid = \"1000-59999\";";
	for (first = s; first < s + n && is_blank(*first); first++)
		;
	if (contains(s, n, "} {") || contains(s, n, "}{") ||
	    (first < s + n && *first == '{' && last_char_before(text, s) == '}'))
		return "a comma is missing between two rules: rules = ( { ... }, { ... } );";
	return NULL;
}

static size_t lower(const char *s, char *out, size_t size)
{
	size_t i;

	for (i = 0; s[i] != '\0' && i + 1 < size; i++)
		out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
	out[i] = '\0';
	return i;
}

/* Optimal string alignment distance, capped: 3 means "3 or more". */
static unsigned distance(const char *a, size_t na, const char *b, size_t nb)
{
	unsigned d[WORD_MAX + 1][WORD_MAX + 1];
	size_t i, j;

	if (na > WORD_MAX || nb > WORD_MAX)
		return 3;
	for (i = 0; i <= na; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= nb; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			unsigned cost = a[i - 1] != b[j - 1];
			unsigned best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[na][nb] < 3 ? d[na][nb] : 3;
}

const char *pml_nearest_word(const char *text, const char *const *words)
{
	char a[WORD_MAX + 2], b[WORD_MAX + 2];
	const char *best = NULL;
	unsigned best_d = 3;
	size_t na;

	if (strlen(text) > WORD_MAX)
		return NULL;
	na = lower(text, a, sizeof(a));
	for (; *words != NULL; words++) {
		size_t nb = lower(*words, b, sizeof(b));
		unsigned d;

		if (strcmp(text, *words) == 0)
			return NULL;
		d = distance(a, na, b, nb);
		/* Two edits turn a short word into too many others ("foo"
		 * into "floor"): short words get one. */
		if (d < best_d && d <= (na < 5 ? 1u : 2u) && d < na) {
			best = *words;
			best_d = d;
		}
	}
	return best;
}

const char *pml_name_on_line(const char *text, size_t len, unsigned line,
			     char *buf, size_t size)
{
	const char *s, *p, *first = NULL, *twice = NULL;
	size_t n, first_len = 0, twice_len = 0;

	s = find_line(text, len, line, &n);
	if (s == NULL)
		return NULL;
	/* Each "NAME =" or "NAME :" on the line; a name that stands twice is
	 * the duplicate, else (it repeats one of an earlier line) the first. */
	for (p = s; p < s + n;) {
		const char *start = p, *q;
		size_t k;

		if (*p == '"' || *p == '#' || (*p == '/' && p + 1 < s + n && p[1] == '/'))
			break;
		if (!is_name_char(*p)) {
			p++;
			continue;
		}
		while (p < s + n && is_name_char(*p))
			p++;
		k = (size_t)(p - start);
		for (q = p; q < s + n && is_blank(*q); q++)
			;
		if (q >= s + n || (*q != '=' && *q != ':'))
			continue;
		if (first == NULL) {
			first = start;
			first_len = k;
		} else if (twice == NULL) {
			const char *r;

			for (r = first; r < start; r++)
				if ((r == s || !is_name_char(r[-1])) &&
				    strncmp(r, start, k) == 0 && !is_name_char(r[k]))
					break;
			if (r < start) {
				twice = start;
				twice_len = k;
			}
		}
		/* Skip the value: strings may hold anything. */
		while (p < s + n && *p != ';' && *p != ',') {
			if (*p == '"') {
				for (p++; p < s + n && *p != '"'; p++)
					if (*p == '\\')
						p++;
			}
			p++;
		}
	}
	if (twice != NULL) {
		first = twice;
		first_len = twice_len;
	}
	if (first == NULL || first_len + 1 > size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)first_len, first);
	return buf;
}
