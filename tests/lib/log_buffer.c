/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "log_buffer.h"

#include <stdio.h>
#include <string.h>

/* MESSAGE with every "STRIP/" taken out, into BUF. */
static const char *stripped(const char *message, const char *strip, char *buf, size_t len)
{
	size_t n = strlen(strip), used = 0;

	while (*message != '\0' && used + 1 < len) {
		if (strncmp(message, strip, n) == 0 && message[n] == '/')
			message += n + 1;
		else
			buf[used++] = *message++;
	}
	buf[used] = '\0';
	return buf;
}

void pml_log_buffer_emit(void *ctx, int priority, const char *message)
{
	struct pml_log_buffer *buffer = ctx;
	size_t used = strlen(buffer->text);
	char plain[4096];

	if (buffer->strip != NULL)
		message = stripped(message, buffer->strip, plain, sizeof(plain));
	if (buffer->tag_priority)
		snprintf(buffer->text + used, sizeof(buffer->text) - used,
			 "<%d> %s\n", priority, message);
	else
		snprintf(buffer->text + used, sizeof(buffer->text) - used,
			 "%s\n", message);
}
