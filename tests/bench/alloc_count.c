/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Counts every heap allocation in the process: the bench executable
 * defines malloc and friends, so libpam, the modules, libconfig and the
 * dynamic loader all call these (an executable's symbols come first in
 * the lookup order), and they hand the work to glibc's own allocator.
 * Single-threaded, like the benchmark.
 */
#include "alloc_count.h"

#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);

static struct bench_alloc_counts counts;

void bench_alloc_get(struct bench_alloc_counts *out)
{
	*out = counts;
}

static void *counted(void *ptr)
{
	if (ptr != NULL) {
		counts.allocs++;
		counts.live++;
	}
	return ptr;
}

void *malloc(size_t size)
{
	return counted(__libc_malloc(size));
}

void *calloc(size_t n, size_t size)
{
	return counted(__libc_calloc(n, size));
}

void *realloc(void *ptr, size_t size)
{
	void *moved;

	if (ptr == NULL)
		return counted(__libc_realloc(NULL, size));
	moved = __libc_realloc(ptr, size);
	if (size == 0) {
		counts.live--;	/* glibc frees on realloc(p, 0) */
	} else if (moved != NULL) {
		counts.allocs++;	/* a call that may copy: count it */
	}
	return moved;
}

void free(void *ptr)
{
	if (ptr != NULL)
		counts.live--;
	__libc_free(ptr);
}

void *memalign(size_t align, size_t size)
{
	return counted(__libc_memalign(align, size));
}

void *aligned_alloc(size_t align, size_t size)
{
	return counted(__libc_memalign(align, size));
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *ptr = counted(__libc_memalign(align, size));

	if (ptr == NULL)
		return ENOMEM;
	*out = ptr;
	return 0;
}
