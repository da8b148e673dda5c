/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The smallest limit, in pages, at which something succeeds: a pure
 * search over a question it is handed, so that it can be tested without
 * a kernel.  The kernel compares whole pages (the limit shifted right by
 * the page size), so a search over pages is exact.
 */
#ifndef MEASURE_BISECT_H
#define MEASURE_BISECT_H

#include <stdint.h>

/*
 * Does the workload fit under a limit of PAGES pages?  0 yes, -ENOMEM no,
 * another -errno when it failed for another reason.
 */
typedef int (*measure_fits_fn)(uint64_t pages, void *ctx);

/*
 * Asks FITS at MAX pages, then at 0, then halves the range between the
 * largest "no" and the smallest "yes" until they are one page apart; it
 * assumes what fits under a limit fits under any larger one.  Sets *PAGES
 * and returns 0; -E2BIG when even MAX pages are too few; any other error
 * FITS returned, as soon as it returns one.  At most log2(MAX) + 2 calls.
 */
int measure_bisect(uint64_t max, measure_fits_fn fits, void *ctx, uint64_t *pages);

#endif
