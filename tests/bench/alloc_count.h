/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* Heap allocation counters for the benchmark (see alloc_count.c). */
#ifndef BENCH_ALLOC_COUNT_H
#define BENCH_ALLOC_COUNT_H

struct bench_alloc_counts {
	unsigned long long allocs;	/* malloc, calloc, realloc, memalign calls */
	long long live;			/* blocks allocated and not yet freed */
};

void bench_alloc_get(struct bench_alloc_counts *out);

#endif
