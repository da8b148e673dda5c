/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl measure's search, without a kernel: the smallest number of
 * pages a made-up workload fits in, found in as few questions as promised,
 * whatever the threshold; and every way the question can go wrong.
 */
#include <errno.h>
#include <stdint.h>

#include "harness.h"
#include "measure/bisect.h"

struct fake {
	uint64_t threshold; /* fits from this many pages on */
	uint64_t fail_at;   /* asked at this count: -EINVAL (0: never) */
	unsigned asked;
};

static int fake_fits(uint64_t pages, void *ctx)
{
	struct fake *f = ctx;

	f->asked++;
	if (f->fail_at != 0 && pages == f->fail_at)
		return -EINVAL;
	return pages >= f->threshold ? 0 : -ENOMEM;
}

static unsigned log2_ceil(uint64_t n)
{
	unsigned bits = 0;

	while (((uint64_t)1 << bits) < n)
		bits++;
	return bits;
}

START_TEST(every_threshold_is_found_exactly)
{
	static const uint64_t maxes[] = { 1, 2, 3, 7, 2048, 16384 };
	size_t i;
	uint64_t t, pages;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		for (t = 0; t <= maxes[i]; t++) {
			struct fake f = { .threshold = t };

			pages = UINT64_MAX;
			ck_assert_int_eq(measure_bisect(maxes[i], fake_fits, &f, &pages), 0);
			ck_assert_uint_eq(pages, t);
			ck_assert_uint_le(f.asked, log2_ceil(maxes[i]) + 2);
		}
	}
}
END_TEST

START_TEST(too_few_pages_is_e2big)
{
	struct fake f = { .threshold = 2049 };
	uint64_t pages = 7;

	ck_assert_int_eq(measure_bisect(2048, fake_fits, &f, &pages), -E2BIG);
	ck_assert_uint_eq(f.asked, 1);
}
END_TEST

START_TEST(another_error_stops_the_search)
{
	/* At the top, at 0, and half way. */
	struct fake top = { .threshold = 5, .fail_at = 2048 };
	struct fake half = { .threshold = 5, .fail_at = 1024 };
	struct fake zero = { .threshold = 5 };
	uint64_t pages;

	ck_assert_int_eq(measure_bisect(2048, fake_fits, &top, &pages), -EINVAL);
	ck_assert_uint_eq(top.asked, 1);
	ck_assert_int_eq(measure_bisect(2048, fake_fits, &half, &pages), -EINVAL);
	ck_assert_uint_eq(half.asked, 3);
	/* fail_at 0 means never: a threshold of 0 fits at once. */
	zero.threshold = 0;
	ck_assert_int_eq(measure_bisect(2048, fake_fits, &zero, &pages), 0);
	ck_assert_uint_eq(pages, 0);
	ck_assert_uint_eq(zero.asked, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("measure");
	TCase *tc = tcase_create("bisect");

	tcase_add_test(tc, every_threshold_is_found_exactly);
	tcase_add_test(tc, too_few_pages_is_e2big);
	tcase_add_test(tc, another_error_stops_the_search);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
