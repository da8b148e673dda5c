/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "bisect.h"

#include <errno.h>

int measure_bisect(uint64_t max, measure_fits_fn fits, void *ctx, uint64_t *pages)
{
	uint64_t no = 0, yes = max, mid;
	int rc;

	rc = fits(max, ctx);
	if (rc < 0)
		return rc == -ENOMEM ? -E2BIG : rc;
	if (max == 0 || (rc = fits(0, ctx)) == 0) {
		*pages = 0;
		return 0;
	}
	if (rc != -ENOMEM)
		return rc;
	/* Invariant: NO pages are too few, YES pages are enough. */
	while (yes - no > 1) {
		mid = no + (yes - no) / 2;
		rc = fits(mid, ctx);
		if (rc == 0)
			yes = mid;
		else if (rc == -ENOMEM)
			no = mid;
		else
			return rc;
	}
	*pages = yes;
	return 0;
}
