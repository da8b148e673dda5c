/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A pml_log that appends each message, one per line, to a buffer, so that
 * tests can assert the exact lines the library logged.
 */
#ifndef PML_TEST_LOG_BUFFER_H
#define PML_TEST_LOG_BUFFER_H

#include <stdbool.h>

struct pml_log_buffer {
	char text[16384];
	const char *strip;	/* drop it and its '/' wherever (a temp dir) */
	bool tag_priority;	/* start each line with "<PRIORITY> " */
};

/* The emit function of a struct pml_log whose ctx is a pml_log_buffer. */
void pml_log_buffer_emit(void *ctx, int priority, const char *message);

#endif
