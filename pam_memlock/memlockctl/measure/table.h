/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What `memlockctl measure` found, and how it is printed: a table of what
 * rings, registered buffers and mlock need on this kernel, or the answer
 * for one workload.  Collected by command.c, written by report.c, which
 * calls nothing of command.c.
 */
#ifndef MEASURE_TABLE_H
#define MEASURE_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "measure.h"

#define MEASURE_ENTRIES_MAX 16

/* One answer: RC 0 and BYTES, or -E2BIG (more than the hard limit), or the
 * error the kernel gave at any limit. */
struct measure_result {
	int rc;
	uint64_t bytes;
};

struct measure_workload {
	unsigned rings, entries;
	uint64_t buffer;		    /* bytes registered, 0 for none */
	struct measure_result ring;	    /* one ring of ENTRIES */
	struct measure_result buffer_total; /* BUFFER beside a small ring */
	uint64_t need;			    /* RINGS x ring + the buffer's share */
	/* The whole workload tried at NEED (0) and a page below (-ENOMEM):
	 * VERIFY_RC is 0 when both came out so, -ENOTSUP when it could not be
	 * tried here (WHY says why), -EPROTO when the kernel disagreed,
	 * -ENODATA when a part could not be measured (and NEED is unknown). */
	int verify_rc;
	int at_need, below_need;
	const char *why;
};

struct measure_table {
	struct measure_session session;
	bool workload_mode;
	unsigned entries[MEASURE_ENTRIES_MAX];
	size_t n_entries;
	struct measure_result ring[MEASURE_ENTRIES_MAX], no_mmap[MEASURE_ENTRIES_MAX];
	struct measure_result small_ring; /* what a buffer is registered beside */
	uint64_t bytes;			  /* the buffer and mlock size */
	/* [0] page-aligned, [1] MEASURE_UNALIGNED_OFFSET past a page. */
	struct measure_result buffer[2], mlock[2];
	struct measure_workload workload;
};

/* The share of a buffer measured beside the small ring: 0 and *BYTES, or
 * the error of either measurement. */
int measure_buffer_share(const struct measure_result *total,
			 const struct measure_result *small_ring, uint64_t *bytes);

void measure_print_text(FILE *out, const struct measure_table *table);
void measure_print_json(FILE *out, const struct measure_table *table);

#endif
