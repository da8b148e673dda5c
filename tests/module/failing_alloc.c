/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The failing allocator of tests/module/test_alloc_fail.c (failing_alloc.h).  Not
 * in an ASan build: its allocator must see every allocation, and the cases
 * skip there.
 */
#include "failing_alloc.h"

#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);

bool armed;
unsigned long counted;
unsigned long fail_at;
bool failed;
long live;
char *site;
static bool in_trace;	/* inside note_site: its own allocations never fail */

/* OBJECT:FUNCTION (or OBJECT:+OFFSET) of a return address. */
static int describe(void *frame, char *out, size_t len)
{
	Dl_info info;
	const char *base;

	if (dladdr(frame, &info) == 0 || info.dli_fname == NULL)
		return snprintf(out, len, "?");
	base = strrchr(info.dli_fname, '/');
	base = base != NULL ? base + 1 : info.dli_fname;
	if (info.dli_sname != NULL)
		return snprintf(out, len, "%s:%s", base, info.dli_sname);
	return snprintf(out, len, "%s:+%#lx", base,
			(unsigned long)((char *)frame - (char *)info.dli_fbase));
}

/*
 * The site of the failed allocation: "CALLER" (who called malloc), or
 * "CALLER in USER" when the caller is libc (strdup, fopen, NSS) and USER
 * the first frame above it outside libc.
 */
__attribute__((noinline)) static void note_site(void)
{
	void *frames[16];
	int n, i, used;

	in_trace = true;
	n = backtrace(frames, 16);
	/* frames[0] is here, [1] fail_now, [2] malloc, [3] its caller. */
	used = n > 3 ? describe(frames[3], site, SITE_MAX) : snprintf(site, SITE_MAX, "?");
	if (strncmp(site, "libc.so", 7) == 0) {
		for (i = 4; i < n && used > 0 && used < SITE_MAX; i++) {
			char above[128];

			describe(frames[i], above, sizeof(above));
			if (strncmp(above, "libc.so", 7) != 0) {
				snprintf(site + used, SITE_MAX - (size_t)used, " in %s", above);
				break;
			}
		}
	}
	in_trace = false;
}

/* True when this allocation must fail. */
__attribute__((noinline)) static bool fail_now(void)
{
	if (!armed || in_trace)
		return false;
	if (++counted != fail_at)
		return false;
	failed = true;
	note_site();
	errno = ENOMEM;
	return true;
}

static void *track(void *ptr)
{
	if (ptr != NULL)
		live++;
	return ptr;
}

#ifndef __SANITIZE_ADDRESS__
void *malloc(size_t size)
{
	return fail_now() ? NULL : track(__libc_malloc(size));
}

void *calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : track(__libc_calloc(n, size));
}

void *realloc(void *ptr, size_t size)
{
	void *moved;

	if (ptr == NULL)
		return fail_now() ? NULL : track(__libc_realloc(NULL, size));
	if (size == 0) {
		live--;
		return __libc_realloc(ptr, 0);
	}
	if (fail_now())
		return NULL;
	moved = __libc_realloc(ptr, size);
	return moved;
}

void free(void *ptr)
{
	if (ptr != NULL)
		live--;
	__libc_free(ptr);
}

void *memalign(size_t align, size_t size)
{
	return fail_now() ? NULL : track(__libc_memalign(align, size));
}

void *aligned_alloc(size_t align, size_t size)
{
	return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
	void *ptr = memalign(align, size);

	if (ptr == NULL)
		return ENOMEM;
	*out = ptr;
	return 0;
}

void *valloc(size_t size)
{
	return memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return memalign(page, (size + page - 1) / page * page);
}
#endif

bool site_is(const char *object)
{
	char in[64];

	snprintf(in, sizeof(in), " in %s", object);
	return strncmp(site, object, strlen(object)) == 0 ||
	       (strncmp(site, "libc.so", 7) == 0 && strstr(site, in) != NULL);
}

bool failing_alloc_init(void)
{
	void *frames[2];

	site = mmap(NULL, SITE_MAX, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (site == MAP_FAILED)
		return false;
	/* Warm up backtrace (it loads libgcc_s on first use). */
	backtrace(frames, 2);
	return true;
}
