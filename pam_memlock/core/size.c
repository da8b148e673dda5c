/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "size.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* More fraction digits than this cannot change a size by a byte below 2^64. */
#define FRACTION_DIGITS_MAX 9

struct unit {
	const char *name;
	unsigned shift;
};

static const struct unit units[] = {
	{ "B", 0 },
	{ "K", 10 },
	{ "KiB", 10 },
	{ "M", 20 },
	{ "MiB", 20 },
	{ "G", 30 },
	{ "GiB", 30 },
	{ "T", 40 },
	{ "TiB", 40 },
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int fail(const char **why, const char *reason)
{
	*why = reason;
	return -EINVAL;
}

/* Reads [0-9]+ into *value; -ERANGE past UINT64_MAX. */
static int read_digits(const char **p, uint64_t *value, unsigned *count)
{
	uint64_t v = 0;
	unsigned n = 0;

	for (; is_digit(**p); (*p)++, n++) {
		unsigned d = (unsigned)(**p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*value = v;
	*count = n;
	return 0;
}

static const char *sign_or_junk(char c)
{
	if (c == '-' || c == '+')
		return "a size has no sign";
	if (c == ' ' || c == '\t')
		return "unexpected blank at the start";
	if (c == '\0')
		return "empty value";
	return "expected a number";
}

static int parse_bytes(const char *text, struct pml_amount *out,
		       const char **why)
{
	const char *p = text;
	uint64_t whole, fraction = 0, scale = 1;
	unsigned digits, fraction_digits = 0, shift = 0;
	uint64_t total, part = 0, rest;
	size_t i;

	if (!is_digit(*p))
		return fail(why, sign_or_junk(*p));
	if (read_digits(&p, &whole, &digits) < 0)
		return fail(why, "too large (for no limit write \"unlimited\")");
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return fail(why, "expected a digit after the decimal point");
		if (read_digits(&p, &fraction, &fraction_digits) < 0 ||
		    fraction_digits > FRACTION_DIGITS_MAX)
			return fail(why, "too many decimals (at most 9)");
		for (i = 0; i < fraction_digits; i++)
			scale *= 10;
	} else if (*p == ',') {
		return fail(why, "use a decimal point, not a comma");
	}
	if (*p == ' ')
		p++;
	if (*p != '\0') {
		/* The first byte before a call: every size of every rule
		 * comes here in each session. */
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (p[0] == units[i].name[0] && strcmp(p, units[i].name) == 0)
				break;
		if (i == sizeof(units) / sizeof(units[0])) {
			if (*p == ' ' || *p == '\t')
				return fail(why, "only one space may stand before the unit");
			/* "1e6", but "16 EiB" is a unit, if not ours. */
			if (is_digit(*p) || *p == '.' || *p == 'x' ||
			    ((*p == 'e' || *p == 'E') &&
			     (is_digit(p[1]) || p[1] == '-' || p[1] == '+')))
				return fail(why, "expected a plain decimal number");
			if (*p == '%')
				return fail(why, "a share of RAM is not allowed here");
			return fail(why, "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)");
		}
		shift = units[i].shift;
	} else if (p > text && p[-1] == ' ') {
		return fail(why, "trailing blank");
	}

	/* (whole << shift) + (fraction << shift) / scale, exact, in 64 bits.
	 * fraction < scale <= 10^9 < 2^30, but fraction << 40 is not: shift
	 * one bit at a time, keeping quotient and remainder, so that part
	 * ends as floor(fraction * 2^shift / scale) < 2^shift.  A whole
	 * number of units, as most sizes are, has nothing to shift. */
	for (rest = fraction, i = 0; fraction != 0 && i < shift; i++) {
		rest <<= 1;
		part = part << 1 | (rest >= scale);
		if (rest >= scale)
			rest -= scale;
	}
	if (whole > UINT64_MAX >> shift ||
	    __builtin_add_overflow(whole << shift, part, &total) ||
	    total > PML_BYTES_MAX)
		return fail(why, "too large (for no limit write \"unlimited\")");
	*out = (struct pml_amount){ .kind = PML_AMOUNT_BYTES, .bytes = total, .unitless = *p == '\0' };
	return 0;
}

static bool is_unlimited(const char *text)
{
	/* A number is neither word: no call for the usual size. */
	return !is_digit(text[0]) &&
	       (strcmp(text, "unlimited") == 0 || strcmp(text, "infinity") == 0);
}

int pml_parse_size(const char *text, struct pml_amount *out, const char **why)
{
	if (is_unlimited(text)) {
		out->kind = PML_AMOUNT_BYTES;
		out->bytes = PML_UNLIMITED;
		out->share = 0;
		return 0;
	}
	return parse_bytes(text, out, why);
}

/* "N%" with up to three decimals, 0 < N <= 100. */
static int parse_share(const char *text, struct pml_amount *out,
		       const char **why)
{
	const char *p = text;
	uint64_t whole, fraction = 0;
	unsigned digits, fraction_digits = 0;
	uint64_t share;

	if (!is_digit(*p))
		return fail(why, *p == '-' || *p == '+' ? "a share has no sign"
							: "expected a number before %");
	if (read_digits(&p, &whole, &digits) < 0 || whole > 100)
		return fail(why, "a share of RAM is at most 100%");
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return fail(why, "expected a digit after the decimal point");
		if (read_digits(&p, &fraction, &fraction_digits) < 0 ||
		    fraction_digits > 3)
			return fail(why, "a share has at most three decimals");
		while (fraction_digits++ < 3)
			fraction *= 10;
	}
	if (*p == ' ')
		return fail(why, "no space may stand before %");
	if (p[0] != '%' || p[1] != '\0')
		return fail(why, "expected a plain decimal number before %");
	share = whole * 1000 + fraction;
	if (share == 0)
		return fail(why, "a share of RAM must be more than 0%");
	if (share > PML_SHARE_FULL)
		return fail(why, "a share of RAM is at most 100%");
	out->kind = PML_AMOUNT_SHARE;
	out->bytes = 0;
	out->share = (uint32_t)share;
	return 0;
}

int pml_parse_limit(const char *text, struct pml_amount *out, const char **why)
{
	if (strchr(text, '%') != NULL)
		return parse_share(text, out, why);
	return pml_parse_size(text, out, why);
}

int pml_parse_floor(const char *text, struct pml_amount *out, const char **why)
{
	if (strcmp(text, "page") == 0) {
		out->kind = PML_AMOUNT_PAGE;
		out->bytes = 0;
		out->share = 0;
		return 0;
	}
	if (is_unlimited(text))
		return fail(why, "a floor cannot be unlimited");
	return parse_bytes(text, out, why);
}

void pml_format_bytes(uint64_t bytes, char *buf, size_t len)
{
	/* Only units the parser takes, so that what show and explain print
	 * reads back: 1 PiB prints as "1024 TiB". */
	static const char *const names[] = { "KiB", "MiB", "GiB", "TiB" };
	int i;

	if (bytes == PML_UNLIMITED) {
		snprintf(buf, len, "unlimited");
		return;
	}
	/* The largest unit in which the value is exact to three decimals. */
	for (i = 3; i >= 0; i--) {
		unsigned shift = 10 * (unsigned)(i + 1);
		uint64_t unit = (uint64_t)1 << shift;
		uint64_t whole = bytes >> shift;
		uint64_t rest = bytes & (unit - 1);
		/* rest < 2^40: rest * 1000 < 2^50 fits. */
		uint64_t milli = rest * 1000 >> shift;

		if (whole == 0 || milli << shift != rest * 1000)
			continue;
		if (milli == 0)
			snprintf(buf, len, "%llu %s", (unsigned long long)whole, names[i]);
		else if (milli % 100 == 0)
			snprintf(buf, len, "%llu.%llu %s", (unsigned long long)whole,
				 (unsigned long long)(milli / 100), names[i]);
		else if (milli % 10 == 0)
			snprintf(buf, len, "%llu.%02llu %s", (unsigned long long)whole,
				 (unsigned long long)(milli / 10), names[i]);
		else
			snprintf(buf, len, "%llu.%03llu %s", (unsigned long long)whole,
				 (unsigned long long)milli, names[i]);
		return;
	}
	snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
}

void pml_format_size(uint64_t bytes, bool with_bytes, char *buf, size_t len)
{
	static const char *const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	char exact[32];
	uint64_t half, v;
	unsigned i, shift;

	if (bytes < 1024) {
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
		return;
	}
	for (i = 4; (bytes >> (10 * i)) == 0; i--)
		;
	/* Exact and in this unit ("1.5 GiB", not "1536 MiB"): as it is. */
	pml_format_bytes(bytes, exact, sizeof(exact));
	if (bytes == PML_UNLIMITED ||
	    strcmp(exact + strlen(exact) - strlen(names[i]), names[i]) == 0) {
		snprintf(buf, len, "%s", exact);
		return;
	}
	shift = 10 * i;
	half = (uint64_t)1 << (shift - 1);
	/* Below 100 units, BYTES < 100 << 40: times 100 cannot overflow. */
	if ((bytes >> shift) < 10 && (v = (bytes * 100 + half) >> shift) < 1000)
		snprintf(buf, len, "%llu.%02llu %s", (unsigned long long)(v / 100),
			 (unsigned long long)(v % 100), names[i]);
	else if ((bytes >> shift) < 100 && (v = (bytes * 10 + half) >> shift) < 1000)
		snprintf(buf, len, "%llu.%llu %s", (unsigned long long)(v / 10),
			 (unsigned long long)(v % 10), names[i]);
	else
		snprintf(buf, len, "%llu %s",
			 (unsigned long long)((bytes >> shift) + ((bytes >> (shift - 1)) & 1)),
			 names[i]);
	if (with_bytes) {
		size_t used = strlen(buf);

		snprintf(buf + used, len > used ? len - used : 0, " (%llu bytes)",
			 (unsigned long long)bytes);
	}
}

void pml_format_share(uint32_t share, char *buf, size_t len)
{
	unsigned whole = share / 1000, milli = share % 1000;

	if (milli == 0)
		snprintf(buf, len, "%u%%", whole);
	else if (milli % 100 == 0)
		snprintf(buf, len, "%u.%u%%", whole, milli / 100);
	else if (milli % 10 == 0)
		snprintf(buf, len, "%u.%02u%%", whole, milli / 10);
	else
		snprintf(buf, len, "%u.%03u%%", whole, milli);
}
