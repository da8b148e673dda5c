/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * libFuzzer target: the value parser (sizes, shares of RAM, floors).
 * Beyond "no crash, no undefined behaviour", checks what memlock.conf(5) promises
 * of every value that parses: a byte count below 2^64-1 or RLIM_INFINITY, a
 * share in (0%, 100%], "page" only as a floor, and that a value printed by
 * pml_format_bytes or pml_format_share reads back as the same value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

static void check_amount(const struct pml_amount *a, int allow_share,
			 int allow_page)
{
	switch (a->kind) {
	case PML_AMOUNT_BYTES:
		if (a->bytes == PML_UNLIMITED || a->bytes <= PML_BYTES_MAX)
			return;
		break;
	case PML_AMOUNT_SHARE:
		if (allow_share && a->share > 0 && a->share <= PML_SHARE_FULL)
			return;
		break;
	case PML_AMOUNT_PAGE:
		if (allow_page)
			return;
		break;
	}
	abort();
}

/* What pml_format_bytes prints must parse back exactly. */
static void round_trip_bytes(uint64_t bytes)
{
	struct pml_amount back;
	const char *why;
	char text[64];
	size_t len;

	pml_format_bytes(bytes, text, sizeof(text));
	len = strlen(text);
	/* "N bytes" is for people; without the suffix it is the file's form. */
	if (len > 6 && strcmp(text + len - 6, " bytes") == 0)
		text[len - 6] = '\0';
	if (pml_parse_size(text, &back, &why) != 0 || back.kind != PML_AMOUNT_BYTES ||
	    back.bytes != bytes)
		abort();
}

static void round_trip_share(uint32_t share)
{
	struct pml_amount back;
	const char *why;
	char text[32];

	pml_format_share(share, text, sizeof(text));
	if (pml_parse_limit(text, &back, &why) != 0 || back.kind != PML_AMOUNT_SHARE ||
	    back.share != share)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pml_amount a;
	const char *why;
	char *text = malloc(size + 1);

	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	why = NULL;
	if (pml_parse_size(text, &a, &why) == 0) {
		check_amount(&a, 0, 0);
		round_trip_bytes(a.bytes);
	} else if (why == NULL) {
		abort();	/* every refusal says why */
	}
	why = NULL;
	if (pml_parse_limit(text, &a, &why) == 0) {
		check_amount(&a, 1, 0);
		if (a.kind == PML_AMOUNT_SHARE)
			round_trip_share(a.share);
		else
			round_trip_bytes(a.bytes);
	} else if (why == NULL) {
		abort();
	}
	why = NULL;
	if (pml_parse_floor(text, &a, &why) == 0) {
		check_amount(&a, 0, 1);
		if (a.kind == PML_AMOUNT_BYTES && a.bytes == PML_UNLIMITED)
			abort();	/* a floor cannot be unlimited */
	} else if (why == NULL) {
		abort();
	}
	/* Any 8 bytes of input as a byte count, for the formatter alone. */
	if (size >= 8) {
		uint64_t bytes;

		memcpy(&bytes, data, sizeof(bytes));
		round_trip_bytes(bytes > PML_BYTES_MAX ? PML_BYTES_MAX : bytes);
	}
	free(text);
	return 0;
}
