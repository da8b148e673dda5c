/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The value parser: sizes, shares of RAM, floors; strict and locale-proof. */
#include <locale.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hints.h"
#include "policy.h"
#include "size.h"
#include "output/text.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)
#define TiB ((uint64_t)1 << 40)

struct good {
	const char *text;
	uint64_t bytes;
};

static const struct good good_sizes[] = {
	{ "0", 0 },
	{ "1", 1 },
	{ "65536", 65536 },
	{ "8B", 8 },
	{ "8 B", 8 },
	{ "64K", 64 * KiB },
	{ "64 KiB", 64 * KiB },
	{ "8M", 8 * MiB },
	{ "8 MiB", 8 * MiB },
	{ "8MiB", 8 * MiB },
	{ "2 G", 2 * GiB },
	{ "2 GiB", 2 * GiB },
	{ "3T", 3 * TiB },
	{ "3 TiB", 3 * TiB },
	{ "1.5 GiB", GiB + GiB / 2 },
	{ "0.5 KiB", 512 },
	{ "1.5 B", 1 },			/* rounded down to a byte */
	{ "1.999 B", 1 },
	{ "0.001 KiB", 1 },		/* 1.024 bytes */
	{ "0.1 MiB", 104857 },		/* 104857.6 */
	{ "007 KiB", 7 * KiB },
	{ "1.000000001 GiB", GiB + 1 },	/* 1.073741824 -> 1 */
	{ "16777215 TiB", 16777215 * TiB },
	{ "18446744073709551614", UINT64_MAX - 1 },
	/* The edges of the 64-bit arithmetic: 2^64-2 is the largest size,
	 * and nine decimals of a TiB are below a byte's worth of error. */
	{ "18446744073709551614 B", UINT64_MAX - 1 },
	{ "18446744073709551614.999999999", UINT64_MAX - 1 },
	{ "17179869183.999999999 GiB", UINT64_MAX - 1 },	/* + 2^30 - 2 */
	{ "16777215.999999999 TiB", UINT64_MAX - 1099 },	/* + 2^40 - 1100 */
	{ "0.000000001 TiB", 1099 },			/* 1099.511627776 */
	{ "1.123456789 TiB", 1235253802809 },
	{ "unlimited", PML_UNLIMITED },
	{ "infinity", PML_UNLIMITED },
};

START_TEST(parses_good_size)
{
	const struct good *g = &good_sizes[_i];
	struct pml_amount a;
	const char *why = NULL;

	ck_assert_msg(pml_parse_size(g->text, &a, &why) == 0,
		      "\"%s\" refused: %s", g->text, why);
	ck_assert_int_eq(a.kind, PML_AMOUNT_BYTES);
	ck_assert_msg(a.bytes == g->bytes, "\"%s\" gave %llu, want %llu", g->text,
		      (unsigned long long)a.bytes, (unsigned long long)g->bytes);
}
END_TEST

struct bad {
	const char *text;
	const char *why;
};

static const struct bad bad_sizes[] = {
	{ "", "empty value" },
	{ "-1", "a size has no sign" },
	{ "+8 MiB", "a size has no sign" },
	{ " 8 MiB", "unexpected blank at the start" },
	{ "8 MiB ", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "8 ", "trailing blank" },
	{ "8  MiB", "only one space may stand before the unit" },
	{ "8 MB", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "8 mib", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "8 MiBs", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "0x10", "expected a plain decimal number" },
	{ "1e6", "expected a plain decimal number" },
	{ "1E6", "expected a plain decimal number" },
	{ "1e+6", "expected a plain decimal number" },
	{ "16 EiB", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "16 E", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "1 PiB", "unknown unit (use B, K/KiB, M/MiB, G/GiB or T/TiB; all are powers of 1024)" },
	{ "1.5.1", "expected a plain decimal number" },
	{ "1.", "expected a digit after the decimal point" },
	{ ".5", "expected a number" },
	{ "1,5 GiB", "use a decimal point, not a comma" },
	{ "0.0000000001", "too many decimals (at most 9)" },
	{ "nan", "expected a number" },
	{ "inf", "expected a number" },
	{ "Unlimited", "expected a number" },
	{ "18446744073709551615", "too large (for no limit write \"unlimited\")" },
	{ "18446744073709551616", "too large (for no limit write \"unlimited\")" },
	{ "99999999999999999999999", "too large (for no limit write \"unlimited\")" },
	{ "16777216 TiB", "too large (for no limit write \"unlimited\")" },
	{ "17179869184 GiB", "too large (for no limit write \"unlimited\")" },
	/* 2^44-1 MiB and a fraction that carries it to exactly 2^64-1. */
	{ "17592186044415.999999999 MiB", "too large (for no limit write \"unlimited\")" },
	{ "18446744073709551615.5", "too large (for no limit write \"unlimited\")" },
	{ "16777215.9999999999 TiB", "too many decimals (at most 9)" },
	{ "5%", "a share of RAM is not allowed here" },
	{ "8\tMiB", "only one space may stand before the unit" },
};

START_TEST(refuses_bad_size)
{
	const struct bad *b = &bad_sizes[_i];
	struct pml_amount a;
	const char *why = NULL;

	ck_assert_msg(pml_parse_size(b->text, &a, &why) < 0, "\"%s\" accepted", b->text);
	ck_assert_str_eq(why, b->why);
}
END_TEST

struct good_share {
	const char *text;
	uint32_t share;
};

static const struct good_share good_shares[] = {
	{ "1%", 1000 },
	{ "100%", 100000 },
	{ "0.001%", 1 },
	{ "2.5%", 2500 },
	{ "12.25%", 12250 },
	{ "99.999%", 99999 },
	{ "100.000%", 100000 },
	{ "050%", 50000 },
};

/* What "did you mean" offers for a size: the unit this policy takes. */
static const struct {
	const char *text, *hint; /* NULL: no hint */
} size_hints[] = {
	{ "8 MB", "8 MiB" },	    { "1GB", "1 GiB" },	      { "8 mib", "8 MiB" },
	{ "8  MiB", "8 MiB" },	    { "8\tMiB", "8 MiB" },    { "1.5gb", "1.5 GiB" },
	{ "8192 bytes", "8192 B" }, { "64 kB", "64 KiB" },    { "4 k", "4 KiB" },
	{ "2 Ti", "2 TiB" },	    { "8 MiB", NULL },	      { "8M", NULL },
	{ "16 EiB", NULL },	    { "8 MiBs", NULL },	      { "MB", NULL },
	{ ".5 GB", NULL },	    { "unlimited", NULL },    { "", NULL },
};

START_TEST(hints_the_unit_meant)
{
	char buf[48];
	const char *got = pml_size_hint(size_hints[_i].text, buf, sizeof(buf));

	if (size_hints[_i].hint == NULL)
		ck_assert_msg(got == NULL, "\"%s\": hint \"%s\", want none",
			      size_hints[_i].text, got);
	else
		ck_assert_msg(got != NULL && strcmp(got, size_hints[_i].hint) == 0,
			      "\"%s\": hint \"%s\", want \"%s\"", size_hints[_i].text,
			      got != NULL ? got : "(none)", size_hints[_i].hint);
}
END_TEST

START_TEST(parses_good_share)
{
	const struct good_share *g = &good_shares[_i];
	struct pml_amount a;
	const char *why = NULL;

	ck_assert_msg(pml_parse_limit(g->text, &a, &why) == 0, "\"%s\": %s", g->text, why);
	ck_assert_int_eq(a.kind, PML_AMOUNT_SHARE);
	ck_assert_uint_eq(a.share, g->share);
}
END_TEST

static const struct bad bad_shares[] = {
	{ "0%", "a share of RAM must be more than 0%" },
	{ "0.000%", "a share of RAM must be more than 0%" },
	{ "100.001%", "a share of RAM is at most 100%" },
	{ "101%", "a share of RAM is at most 100%" },
	{ "1000000000000000000000%", "a share of RAM is at most 100%" },
	{ "1.2345%", "a share has at most three decimals" },
	{ "-5%", "a share has no sign" },
	{ "5 %", "no space may stand before %" },
	{ "%", "expected a number before %" },
	{ "5%%", "expected a plain decimal number before %" },
	{ "5% ", "expected a plain decimal number before %" },
	{ "5.%", "expected a digit after the decimal point" },
	{ "1e1%", "expected a plain decimal number before %" },
};

START_TEST(refuses_bad_share)
{
	const struct bad *b = &bad_shares[_i];
	struct pml_amount a;
	const char *why = NULL;

	ck_assert_msg(pml_parse_limit(b->text, &a, &why) < 0, "\"%s\" accepted", b->text);
	ck_assert_str_eq(why, b->why);
}
END_TEST

START_TEST(limit_takes_sizes_too)
{
	struct pml_amount a;
	const char *why;

	ck_assert_int_eq(pml_parse_limit("8 MiB", &a, &why), 0);
	ck_assert_int_eq(a.kind, PML_AMOUNT_BYTES);
	ck_assert_uint_eq(a.bytes, 8 * MiB);
	ck_assert_int_eq(pml_parse_limit("unlimited", &a, &why), 0);
	ck_assert_uint_eq(a.bytes, PML_UNLIMITED);
}
END_TEST

START_TEST(floor_is_page_or_size)
{
	struct pml_amount a;
	const char *why = NULL;

	ck_assert_int_eq(pml_parse_floor("page", &a, &why), 0);
	ck_assert_int_eq(a.kind, PML_AMOUNT_PAGE);
	ck_assert_int_eq(pml_parse_floor("64 KiB", &a, &why), 0);
	ck_assert_uint_eq(a.bytes, 64 * KiB);
	ck_assert_int_lt(pml_parse_floor("unlimited", &a, &why), 0);
	ck_assert_str_eq(why, "a floor cannot be unlimited");
	ck_assert_int_lt(pml_parse_floor("1%", &a, &why), 0);
	ck_assert_str_eq(why, "a share of RAM is not allowed here");
	ck_assert_int_lt(pml_parse_floor("pages", &a, &why), 0);
}
END_TEST

/* login and su call setlocale(); a German LC_NUMERIC reads "1.5" as 1.
 * The build compiles the locale into tests/locale (see Makefile.am), so
 * that no system locale is needed; a system one is the fallback. */
#define GERMAN "de_DE.UTF-8"

static bool german_locale_available(void)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/tests/locale", pml_test_env("PML_BUILDDIR"));
	setenv("LOCPATH", dir, 1);
	if (setlocale(LC_ALL, GERMAN) != NULL)
		return true;
	unsetenv("LOCPATH");
	return setlocale(LC_ALL, GERMAN) != NULL;
}

START_TEST(ignores_the_locale)
{
	struct pml_amount a;
	const char *why;

	ck_assert_ptr_nonnull(setlocale(LC_ALL, GERMAN));
	ck_assert_str_eq(localeconv()->decimal_point, ",");
	ck_assert_int_eq(pml_parse_size("1.5 GiB", &a, &why), 0);
	ck_assert_uint_eq(a.bytes, GiB + GiB / 2);
	ck_assert_int_eq(pml_parse_limit("12.5%", &a, &why), 0);
	ck_assert_uint_eq(a.share, 12500);
	ck_assert_int_lt(pml_parse_size("1,5 GiB", &a, &why), 0);
}
END_TEST

struct formatted {
	uint64_t bytes;
	const char *text;
};

static const struct formatted formats[] = {
	{ 8 * MiB, "8 MiB" },
	{ 64 * KiB, "64 KiB" },
	{ GiB + GiB / 2, "1.5 GiB" },
	{ GiB + GiB / 4, "1.25 GiB" },
	{ 4096, "4 KiB" },
	{ 1000, "1000 bytes" },
	{ 1152, "1.125 KiB" },
	{ 104857, "104857 bytes" },
	{ UINT64_MAX - 1, "18446744073709551614 bytes" },
	{ 16777215 * TiB, "16777215 TiB" },
	{ 16777215 * TiB + TiB / 8, "16777215.125 TiB" },
	{ PML_UNLIMITED, "unlimited" },
};

START_TEST(formats_bytes_exactly)
{
	char buf[32];

	pml_format_bytes(formats[_i].bytes, buf, sizeof(buf));
	ck_assert_str_eq(buf, formats[_i].text);
}
END_TEST

/* For people: exact where that is short, else three significant digits in
 * a unit the parser takes, and the exact count beside it when asked. */
START_TEST(formats_sizes_for_people)
{
	static const struct {
		uint64_t bytes;
		const char *text, *with_bytes;
	} cases[] = {
		{ 8 * MiB, "8 MiB", "8 MiB" },
		{ 3 * GiB / 2, "1.5 GiB", "1.5 GiB" },
		{ 512, "512 B", "512 B" },
		{ 1536 * MiB, "1.5 GiB", "1.5 GiB" },
		{ 6319017984ULL, "5.89 GiB", "5.89 GiB (6319017984 bytes)" },
		{ 1025, "1.00 KiB", "1.00 KiB (1025 bytes)" },
		{ 10 * MiB + 1, "10.0 MiB", "10.0 MiB (10485761 bytes)" },
		{ 123456789, "118 MiB", "118 MiB (123456789 bytes)" },
		{ 10 * GiB - 1, "10.0 GiB", "10.0 GiB (10737418239 bytes)" },
		{ 100 * MiB - 1, "100 MiB", "100 MiB (104857599 bytes)" },
		{ UINT64_MAX - 1, "16777216 TiB", "16777216 TiB (18446744073709551614 bytes)" },
		{ UINT64_MAX, "unlimited", "unlimited" },
	};
	char buf[96];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pml_format_size(cases[i].bytes, false, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].text);
		pml_format_size(cases[i].bytes, true, buf, sizeof(buf));
		ck_assert_str_eq(buf, cases[i].with_bytes);
	}
}
END_TEST

/* What pml_format_size prints reads back, within half a unit of its last
 * digit (0.5% at the most). */
START_TEST(sizes_for_people_read_back_close)
{
	uint64_t x = 88172645463325252ULL;
	int i;

	for (i = 0; i < 100000; i++) {
		struct pml_amount a;
		const char *why;
		char buf[96];
		uint64_t v, diff;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 64);
		if (v == UINT64_MAX)
			continue;
		pml_format_size(v, false, buf, sizeof(buf));
		ck_assert_msg(pml_parse_size(buf, &a, &why) == 0, "%s: %s", buf, why);
		diff = a.bytes > v ? a.bytes - v : v - a.bytes;
		ck_assert_msg(diff <= v / 200 + 1, "%llu printed as %s, reads %llu",
			      (unsigned long long)v, buf, (unsigned long long)a.bytes);
	}
}
END_TEST

START_TEST(formats_shares)
{
	char buf[16];

	pml_format_share(2500, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2.5%");
	pml_format_share(1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.001%");
	pml_format_share(100000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "100%");
}
END_TEST

/*
 * What memlockctl show prints must read back (memlockctl(8) promises that
 * its output is a valid policy), and what explain and the module's log
 * print must read back too, " bytes" aside.  Over the whole range: each
 * value through pml_format_bytes and through show's cli_format_value, then
 * the parser, must give the same bytes.
 */
static void assert_round_trip(uint64_t bytes)
{
	struct pml_setting setting = { .key = PML_KEY_CEILING, .set = true,
				       .amount = { PML_AMOUNT_BYTES, bytes, 0 } };
	struct pml_amount back;
	const char *why = NULL;
	char human[64], shown[64];
	size_t len;

	pml_format_bytes(bytes, human, sizeof(human));
	len = strlen(human);
	if (len > 6 && strcmp(human + len - 6, " bytes") == 0)
		human[len - 6] = '\0';
	ck_assert_msg(pml_parse_size(human, &back, &why) == 0,
		      "%llu prints as \"%s\", which does not parse: %s",
		      (unsigned long long)bytes, human, why);
	ck_assert_msg(back.bytes == bytes, "%llu prints as \"%s\", which reads as %llu",
		      (unsigned long long)bytes, human, (unsigned long long)back.bytes);
	cli_format_value(&setting, shown, sizeof(shown));
	ck_assert_msg(pml_parse_size(shown, &back, &why) == 0 && back.bytes == bytes,
		      "show prints %llu as \"%s\", which does not read back",
		      (unsigned long long)bytes, shown);
}

START_TEST(formatted_bytes_read_back_over_the_whole_range)
{
	uint64_t x = 0x9e3779b97f4a7c15u;	/* a fixed seed: xorshift64 */
	unsigned k, i;

	for (k = 0; k < 64; k++) {
		uint64_t p = (uint64_t)1 << k;

		assert_round_trip(p);
		assert_round_trip(p - 1);
		assert_round_trip(p + 1);
		/* Exact multiples with fractions, for the decimal forms. */
		if (k >= 10) {
			assert_round_trip(p + (p >> 1));
			assert_round_trip(p + (p >> 2) + (p >> 3));
		}
	}
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		assert_round_trip(x == PML_UNLIMITED ? x - 1 : x);
		/* Whole KiB, MiB, GiB or TiB, of every magnitude. */
		assert_round_trip(x >> (x & 63) << (10 * (1 + (x & 3))));
	}
	assert_round_trip(PML_BYTES_MAX);
	assert_round_trip(PML_BYTES_MAX - 1);
	assert_round_trip(PML_UNLIMITED);
	assert_round_trip(1024 * TiB);
	assert_round_trip(PML_BYTES_MAX & ~(TiB - 1));
}
END_TEST

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

int main(void)
{
	Suite *s = suite_create("size");
	TCase *tc = tcase_create("size");
	struct pml_skip skips[1];
	size_t n_skips = 0;

	tcase_add_loop_test(tc, parses_good_size, 0, COUNT(good_sizes));
	tcase_add_loop_test(tc, refuses_bad_size, 0, COUNT(bad_sizes));
	tcase_add_loop_test(tc, hints_the_unit_meant, 0, COUNT(size_hints));
	tcase_add_loop_test(tc, parses_good_share, 0, COUNT(good_shares));
	tcase_add_loop_test(tc, refuses_bad_share, 0, COUNT(bad_shares));
	tcase_add_test(tc, limit_takes_sizes_too);
	tcase_add_test(tc, formats_sizes_for_people);
	tcase_add_test(tc, sizes_for_people_read_back_close);
	tcase_add_test(tc, floor_is_page_or_size);
	if (german_locale_available())
		tcase_add_test(tc, ignores_the_locale);
	else
		skips[n_skips++] = (struct pml_skip){ "ignores_the_locale",
			"locale " GERMAN " could not be built into tests/locale (localedef -i de_DE -f UTF-8 needs the \"locales\" package's sources), nor is it installed" };
	setlocale(LC_ALL, "C");
	tcase_add_loop_test(tc, formats_bytes_exactly, 0, COUNT(formats));
	tcase_add_test(tc, formats_shares);
	tcase_add_test(tc, formatted_bytes_read_back_over_the_whole_range);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, skips, n_skips);
}
