/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The failing allocator of tests/module/test_alloc_fail.c: failing_alloc.c defines
 * malloc, calloc, realloc, free and the aligned allocators for the whole
 * program (libpam, the module it dlopen()s, libconfig, glibc's NSS all bind
 * to them first).  While ARMED, allocation number FAIL_AT (counted from 1)
 * fails with ENOMEM.  In an ASan build it defines none of them: ASan's
 * allocator must see every allocation.
 */
#ifndef PML_TEST_FAILING_ALLOC_H
#define PML_TEST_FAILING_ALLOC_H

#include <stdbool.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define __SANITIZE_ADDRESS__ 1
#endif
#endif

extern bool armed;		/* counting: inside pam_open_session */
extern unsigned long counted;	/* allocations while armed */
extern unsigned long fail_at;	/* fail the allocation of this number; 0: none */
extern bool failed;		/* one was failed */
extern long live;		/* allocations not yet freed, all the time */
/* Who asked for the failed allocation, as OBJECT:FUNCTION (or
 * OBJECT:+OFFSET), followed by " in USER" when the caller is libc: in a
 * page shared with the parent, which reads it even when the child died. */
extern char *site;
#define SITE_MAX 256

/* Maps SITE and loads what backtrace needs, before any case arms the
 * allocator; false when the page cannot be mapped. */
bool failing_alloc_init(void);

/* The failed allocation was OBJECT's: its own call, or libc's for it. */
bool site_is(const char *object);

#endif
