#include "log.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/*
 * write(2) rather than stdio: this is linked into the module too, and
 * every symbol the module imports is bound again in every session
 * (libpam loads modules with RTLD_NOW); fprintf and stderr are two.
 */
const char *pml_quote(const char *value, char *buf, size_t len)
{
	size_t i = 0;

	buf[i++] = '"';
	/* Room for one escape, "..." and the closing quote and NUL. */
	for (; *value != '\0' && i + 9 < len; value++) {
		unsigned char c = (unsigned char)*value;

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			i += (size_t)snprintf(buf + i, len - i, "\\x%02x", c);
		else
			buf[i++] = (char)c;
	}
	if (*value != '\0') {
		memcpy(buf + i, "...", 3);
		i += 3;
	}
	buf[i++] = '"';
	buf[i] = '\0';
	return buf;
}

void pml_log_stderr(void *ctx, int priority, const char *message)
{
	const char *program = ctx != NULL ? ctx : "pam_memlock";
	const char *level = priority <= LOG_ERR ? "error: "
			    : priority == LOG_WARNING ? "warning: " : "";
	char line[PML_LOG_MAX + 64];
	int len = snprintf(line, sizeof(line), "%s: %s%s\n", program, level,
			   message);

	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line)) {
		len = (int)sizeof(line) - 1;
		line[len - 1] = '\n';
	}
	if (write(STDERR_FILENO, line, (size_t)len) < 0)
		return;	/* nowhere left to report it */
}
