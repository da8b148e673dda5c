#include "log.h"

#include <stdio.h>

/* Long enough for a path, a line number and a quoted value. */
#define PML_LOG_MAX 1024

static void emit_va(const struct pml_log *log, int priority,
		    const char *prefix, const char *fmt, va_list ap)
{
	char message[PML_LOG_MAX];
	int used;

	if (log == NULL || log->emit == NULL || priority > log->max_priority)
		return;
	used = snprintf(message, sizeof(message), "%s", prefix);
	if (used < 0 || (size_t)used >= sizeof(message))
		used = 0;
	vsnprintf(message + used, sizeof(message) - (size_t)used, fmt, ap);
	log->emit(log->ctx, priority, message);
}

void pml_log(const struct pml_log *log, int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	emit_va(log, priority, "", fmt, ap);
	va_end(ap);
}

void pml_log_at(const struct pml_log *log, int priority, const char *file,
		unsigned line, const char *fmt, ...)
{
	char prefix[PML_LOG_MAX / 2];
	va_list ap;

	if (line > 0)
		snprintf(prefix, sizeof(prefix), "%s:%u: ", file, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", file);
	va_start(ap, fmt);
	emit_va(log, priority, prefix, fmt, ap);
	va_end(ap);
}

void pml_log_stderr(void *ctx, int priority, const char *message)
{
	const char *program = ctx != NULL ? ctx : "pam_memlock";
	const char *level = priority <= LOG_ERR ? "error: "
			    : priority == LOG_WARNING ? "warning: " : "";

	fprintf(stderr, "%s: %s%s\n", program, level, message);
}
