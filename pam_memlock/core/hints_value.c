/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What to write instead of a key or value that is nearly right: the
 * nearest word, the size in the units this policy takes.
 */
#include "hints.h"

#include "size.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define WORD_MAX 64

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

/* What people write for a unit, and the unit they mean.  Arrays, not
 * pointers: pointers would be relocated in every session's dlopen. */
static const struct {
	char written[6]; /* lower case */
	char unit[4];
} unit_spellings[] = {
	{ "b", "B" },
	{ "byte", "B" },
	{ "bytes", "B" },
	{ "k", "KiB" },
	{ "kb", "KiB" },
	{ "ki", "KiB" },
	{ "kib", "KiB" },
	{ "m", "MiB" },
	{ "mb", "MiB" },
	{ "mi", "MiB" },
	{ "mib", "MiB" },
	{ "g", "GiB" },
	{ "gb", "GiB" },
	{ "gi", "GiB" },
	{ "gib", "GiB" },
	{ "t", "TiB" },
	{ "tb", "TiB" },
	{ "ti", "TiB" },
	{ "tib", "TiB" },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

const char *pml_size_hint(const char *text, char *buf, size_t size)
{
	const char *p = text, *unit, *why;
	struct pml_amount amount;
	char written[8];
	size_t digits, i;
	int n;

	if (pml_parse_size(text, &amount, &why) == 0)
		return NULL;
	while (is_digit(*p))
		p++;
	if (p > text && *p == '.' && is_digit(p[1]))
		for (p++; is_digit(*p); p++)
			;
	digits = (size_t)(p - text);
	if (digits == 0)
		return NULL;
	while (*p == ' ' || *p == '\t')
		p++;
	unit = p;
	if (strlen(unit) >= sizeof(written) || lower(unit, written, sizeof(written)) == 0)
		return NULL;
	for (i = 0; i < sizeof(unit_spellings) / sizeof(unit_spellings[0]); i++) {
		if (strcmp(written, unit_spellings[i].written) != 0)
			continue;
		n = snprintf(buf, size, "%.*s %s", (int)digits, text, unit_spellings[i].unit);
		return n > 0 && (size_t)n < size && pml_parse_size(buf, &amount, &why) == 0
			       ? buf
			       : NULL;
	}
	return NULL;
}
