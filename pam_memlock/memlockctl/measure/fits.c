/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What a limit holds on this kernel, for explain: whole rings of the
 * default size, or registered buffers beside one small ring.  Both come
 * from what `memlockctl measure` saved (measure_saved_rings); the buffers are counted by the page, which
 * is what `memlockctl measure` shows a page-aligned buffer costs.
 */
#include "measure.h"

#include <errno.h>
#include <inttypes.h>

#include "output/json.h"
#include "size.h"

/* Registered bytes that fit beside the small ring: whole pages. */
static uint64_t buffer_room(const struct measure_rings *r, uint64_t limit)
{
	uint64_t paged = limit / r->page * r->page;

	return paged > r->small ? paged - r->small : 0;
}

void measure_print_fits(FILE *out, const struct measure_rings *r, uint64_t limit)
{
	if (r->status == -ENOENT) {
		fprintf(out, "not measured for Linux %s: `memlockctl measure` (as root) measures and saves it",
			r->release);
		return;
	}
	if (r->status < 0) {
		fprintf(out, "no io_uring: Linux %s %s (measured)", r->release,
			r->status == -ENOSYS ? "has none" : "refuses it");
		return;
	}
	if (limit == PML_UNLIMITED) {
		fprintf(out, "any number of io_uring rings and registered buffers");
		return;
	}
	if (r->large == 0)
		fprintf(out, "any number of io_uring rings (Linux %s charges them to no limit), and ",
			r->release);
	else
		fprintf(out, "%" PRIu64 " io_uring ring%s of %u entries (%" PRIu64 " KiB each), or ",
			limit / r->large, limit / r->large == 1 ? "" : "s",
			MEASURE_DEFAULT_ENTRIES, r->large / 1024);
	fprintf(out, "%" PRIu64 " KiB of registered buffers beside one %u-entry ring",
		buffer_room(r, limit) / 1024, MEASURE_BUFFER_RING);
	if (r->large > 0)
		fprintf(out, ", on Linux %s", r->release);
	fprintf(out, " (measured; for all of the user's processes together)");
}

void measure_json_fits(struct cli_json *j, const struct measure_rings *r, uint64_t limit)
{
	bool limited = limit != PML_UNLIMITED, rings_known = limited && r->large != 0;

	if (r->status < 0) {
		cli_json_null(j);
		return;
	}
	cli_json_open_object(j);
	cli_json_member_string(j, "kernel", r->release);
	cli_json_member_uint(j, "ring_entries", MEASURE_DEFAULT_ENTRIES);
	cli_json_member_uint(j, "ring_bytes", r->large);
	/* Nothing is divided where the figure is null. */
	cli_json_uint_or_null(j, "rings", rings_known, rings_known ? limit / r->large : 0);
	cli_json_uint_or_null(j, "buffer_bytes", limited, limited ? buffer_room(r, limit) : 0);
	cli_json_close_object(j);
}
