/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "log_buffer.h"

#include <stdio.h>
#include <string.h>

void pml_log_buffer_emit(void *ctx, int priority, const char *message)
{
	struct pml_log_buffer *buffer = ctx;
	size_t used = strlen(buffer->text), strip;

	if (buffer->strip != NULL) {
		strip = strlen(buffer->strip);
		if (strncmp(message, buffer->strip, strip) == 0 && message[strip] == '/')
			message += strip + 1;
	}
	if (buffer->tag_priority)
		snprintf(buffer->text + used, sizeof(buffer->text) - used,
			 "<%d> %s\n", priority, message);
	else
		snprintf(buffer->text + used, sizeof(buffer->text) - used,
			 "%s\n", message);
}
