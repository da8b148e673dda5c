/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Values of the policy file: sizes ("8 MiB", "1.5 GiB", "unlimited"),
 * shares of RAM ("2.5%") and the floor keyword "page".  Parsed by hand,
 * never with strtod or strtoull, so that the locale, signs, hex, exponents
 * and silent wrap-around cannot change what a value means.
 */
#ifndef PML_SIZE_H
#define PML_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest byte count a size may name; UINT64_MAX is RLIM_INFINITY. */
#define PML_BYTES_MAX (UINT64_MAX - 1)
#define PML_UNLIMITED UINT64_MAX

/* A share is kept in thousandths of a percent: 100% is 100000. */
#define PML_SHARE_FULL 100000u

enum pml_amount_kind {
	PML_AMOUNT_BYTES, /* bytes, or PML_UNLIMITED */
	PML_AMOUNT_SHARE, /* share of physical RAM */
	PML_AMOUNT_PAGE,  /* one page (floor only) */
};

struct pml_amount {
	enum pml_amount_kind kind;
	uint64_t bytes; /* PML_AMOUNT_BYTES */
	uint32_t share; /* PML_AMOUNT_SHARE, 1..PML_SHARE_FULL */
	/* PML_AMOUNT_BYTES written without a unit ("8192"), for the lint:
	 * limits.conf counts memlock in KiB. */
	bool unitless;
};

/*
 * Each returns 0, or -EINVAL with *why set to a static explanation.
 *   size:  a byte count or "unlimited"/"infinity"      (ceiling)
 *   limit: a size or a share of RAM                     (limit, soft, hard)
 *   floor: a byte count or "page"                       (floor)
 */
int pml_parse_size(const char *text, struct pml_amount *out, const char **why);
int pml_parse_limit(const char *text, struct pml_amount *out, const char **why);
int pml_parse_floor(const char *text, struct pml_amount *out, const char **why);

/*
 * Writes a byte count the way a person reads it: "8 MiB", "1.5 GiB",
 * "1024 TiB", "12345 bytes", "unlimited".  Exact: a count that is not a
 * whole number of a unit to three decimals is printed in bytes.  Units go
 * up to TiB only, the largest the parser takes, so that every output but
 * the " bytes" suffix reads back as the same count.
 */
void pml_format_bytes(uint64_t bytes, char *buf, size_t len);

/*
 * A byte count for people, in the largest unit it has at least one of:
 * exact where that takes three decimals at most ("8 MiB", "1.5 GiB",
 * "512 B"), else three significant digits ("5.89 GiB", "118 MiB") and,
 * when WITH_BYTES, the exact count beside it: "5.89 GiB (6319017984
 * bytes)".  Every unit is one the parser takes.
 */
void pml_format_size(uint64_t bytes, bool with_bytes, char *buf, size_t len);

/* "2.5%" for a share. */
void pml_format_share(uint32_t share, char *buf, size_t len);

#endif
