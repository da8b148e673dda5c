/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "hints.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

static bool is_name_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*';
}

/* Appends what FMT makes to BUF at *USED; false once it no longer fits. */
static bool append(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool append(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *used)
		return false;
	*used += (size_t)n;
	return true;
}

/* [*S, *S + *N) without the blanks at either end. */
static void trim(const char **s, size_t *n)
{
	while (*n > 0 && is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && is_blank((*s)[*n - 1]))
		(*n)--;
}

/* Where the value that starts at P ends: at ; , } or a comment. */
static const char *value_end(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == ';' || *p == ',' || *p == '}' || *p == '#' ||
		    (*p == '/' && p + 1 < end && p[1] == '/'))
			break;
	return p;
}

/*
 * KEY = and the list at P ("[" or "(") with every element in double
 * quotes, into BUF; false when every element already is, or when the list
 * does not end on this line.
 */
static bool quote_list(const char *key, size_t key_len, const char *p,
		       const char *end, char *buf, size_t size)
{
	char close = *p == '[' ? ']' : ')';
	const char *stop = memchr(p, close, (size_t)(end - p)), *e, *next;
	bool changed = false, first = true;
	size_t used = 0, n;

	if (stop == NULL ||
	    !append(buf, size, &used, "write each name in quotes: %.*s = %c",
		    (int)key_len, key, *p))
		return false;
	for (e = p + 1; e < stop; e = next + 1) {
		next = memchr(e, ',', (size_t)(stop - e));
		if (next == NULL)
			next = stop;
		n = (size_t)(next - e);
		trim(&e, &n);
		if (n == 0)
			continue;
		changed |= *e != '"';
		if (!append(buf, size, &used, *e == '"' ? "%s%.*s" : "%s\"%.*s\"",
			    first ? "" : ", ", (int)n, e))
			return false;
		first = false;
	}
	return changed && append(buf, size, &used, "%c;", close);
}

/*
 * "limit = 8 MiB;", "group = rdma;", "user = [alice, bob];": the first
 * setting on the line [S, S + N) whose value is not quoted, written with
 * quotes into BUF.
 */
static bool unquoted_value(const char *s, size_t n, char *buf, size_t size)
{
	const char *p = s, *end = s + n, *key, *v;
	size_t key_len, used = 0, len;

	while (p < end) {
		if (*p == '"') { /* a quoted value: past it */
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			p++;
			continue;
		}
		if (*p == '#' || (*p == '/' && p + 1 < end && p[1] == '/'))
			return false;
		if (!is_name_start(*p) || (p > s && is_name_char(p[-1]))) {
			p++;
			continue;
		}
		for (key = p; p < end && is_name_char(*p); p++)
			;
		key_len = (size_t)(p - key);
		for (v = p; v < end && is_blank(*v); v++)
			;
		if (v >= end || (*v != '=' && *v != ':'))
			continue;
		for (v++; v < end && is_blank(*v); v++)
			;
		if (v < end && *v == '"') { /* quoted: skipped above */
			p = v;
			continue;
		}
		if (v >= end || *v == '{') { /* a rule: its keys in turn */
			p = v + 1;
			continue;
		}
		if (*v == '[' || *v == '(') {
			for (p = v + 1; p < end && is_blank(*p); p++)
				;
			/* A list of names, not of rules. */
			if (p < end && strchr("{([", *p) == NULL &&
			    quote_list(key, key_len, v, end, buf, size))
				return true;
			continue;
		}
		len = (size_t)(value_end(v, end) - v);
		trim(&v, &len);
		/* "limit == ..." or "limit = = ...": no value to quote. */
		for (p = v; p < v + len && strchr("\"=:{}()[]", *p) == NULL; p++)
			;
		return len > 0 && p == v + len &&
		       append(buf, size, &used, "write the value in quotes: %.*s = \"%.*s\";",
			      (int)key_len, key, (int)len, v);
	}
	return false;
}

/* The blank-separated words of [S, S + N) before a comment: their
 * count, of which at most MAX are stored. */
static size_t words_of(const char *s, size_t n, const char **word,
		       size_t *word_len, size_t max)
{
	const char *p = s, *end = s + n;
	size_t count = 0;

	while (p < end && *p != '#') {
		if (is_blank(*p)) {
			p++;
			continue;
		}
		if (count < max)
			word[count] = p;
		while (p < end && !is_blank(*p) && *p != '#')
			p++;
		if (count < max)
			word_len[count] = (size_t)(p - word[count]);
		count++;
	}
	return count;
}

static bool word_is(const char *word, size_t len, const char *what)
{
	return len == strlen(what) && strncmp(word, what, len) == 0;
}

static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/*
 * The match key of a limits.conf domain, into BUF: "@rdma" is a group,
 * "1000:2000" a uid range, "*" everyone (nothing), a name a user; false
 * for what this policy has no key for (%group, @gid ranges).
 */
static bool limits_domain(const char *d, size_t n, char *buf, size_t size,
			  size_t *used)
{
	const char *colon = memchr(d, ':', n);
	size_t before = colon != NULL ? (size_t)(colon - d) : n;

	if (word_is(d, n, "*"))
		return true;
	if (d[0] == '@' && n > 1 && colon == NULL)
		return append(buf, size, used, "group = \"%.*s\"; ", (int)n - 1, d + 1);
	if (colon != NULL && n > 1 && all_digits(d, before) &&
	    all_digits(colon + 1, n - before - 1))
		return append(buf, size, used, "uid = \"%.*s-%.*s\"; ", (int)before, d,
			      (int)(n - before - 1), colon + 1);
	if (is_name_start(d[0]) || d[0] == '_')
		return append(buf, size, used, "user = \"%.*s\"; ", (int)n, d);
	return false;
}

/*
 * A limits.conf line, "@rdma hard memlock unlimited", as this policy says
 * it, into BUF.  limits.conf counts memlock in KiB, and this policy in
 * bytes unless a unit is given: the hint gives the unit.
 */
static bool limits_line(const char *s, size_t n, char *buf, size_t size)
{
	const char *w[4], *key;
	size_t len[4], used = 0;
	bool everyone;
	char value[32];

	if (words_of(s, n, w, len, 4) != 4 || !word_is(w[2], len[2], "memlock"))
		return false;
	if (word_is(w[1], len[1], "-"))
		key = "limit";
	else if (word_is(w[1], len[1], "soft") || word_is(w[1], len[1], "hard"))
		key = w[1][0] == 's' ? "soft" : "hard";
	else
		return false;
	if (word_is(w[3], len[3], "unlimited") || word_is(w[3], len[3], "infinity") ||
	    word_is(w[3], len[3], "-1"))
		snprintf(value, sizeof(value), "unlimited");
	else if (len[3] > 0 && len[3] < 20 && all_digits(w[3], len[3]))
		snprintf(value, sizeof(value), "%.*s KiB", (int)len[3], w[3]);
	else
		return false;
	everyone = word_is(w[0], len[0], "*");
	return append(buf, size, &used, "a limits.conf line; in memlock.conf it reads %s",
		      everyone ? "" : "rules = ( { ") &&
	       limits_domain(w[0], len[0], buf, size, &used) &&
	       append(buf, size, &used, "%s = \"%s\";%s", key, value,
		      everyone ? "" : " } );");
}

const char *pml_syntax_hint(const char *text, size_t len, unsigned line,
			    const char *error, char *buf, size_t size)
{
	const char *s, *first;
	size_t n;

	if (error == NULL || strcmp(error, "syntax error") != 0 || size == 0)
		return NULL;
	s = find_line(text, len, line, &n);
	if (s == NULL)
		return NULL;
	for (first = s; first < s + n && is_blank(*first); first++)
		;
	if (memchr(s, '\'', n) != NULL)
		snprintf(buf, size, "strings take double quotes: limit = \"8 MiB\";");
	else if (limits_line(s, n, buf, size))
		;
	else if (contains(s, n, "} {") || contains(s, n, "}{") ||
		 (first < s + n && *first == '{' && last_char_before(text, s) == '}'))
		snprintf(buf, size, "a comma is missing between two rules: rules = ( { ... }, { ... } );");
	else if (!unquoted_value(s, n, buf, size))
		return NULL;
	return buf;
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
