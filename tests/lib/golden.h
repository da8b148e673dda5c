/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The golden policy files under tests/data: listing them and reading them
 * byte for byte (they may hold NULs on purpose).
 */
#ifndef PML_TEST_GOLDEN_H
#define PML_TEST_GOLDEN_H

#include <stddef.h>

#define PML_GOLDEN_MAX 512

/* The *.conf names in tests/data/KIND, sorted; exits 99 if it is missing. */
int pml_golden_list(const char *kind, char **names);

/* The whole of PATH, NUL-terminated; *len (if not NULL) gets its size.
 * The caller frees it.  A missing file fails the running case. */
char *pml_golden_read(const char *path, size_t *len);

#endif
