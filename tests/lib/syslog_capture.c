/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#undef _FORTIFY_SOURCE
#include "syslog_capture.h"

#include <stdarg.h>
#include <string.h>
#include <syslog.h>

/* Per thread, so that test_threads can tell its two threads' lines apart. */
static __thread char captured[65536];
static __thread size_t used;
static __thread FILE *echo;

const char *pml_capture_text(void)
{
	return captured;
}

void pml_capture_reset(void)
{
	used = 0;
	captured[0] = '\0';
}

void pml_capture_echo(FILE *out)
{
	echo = out;
}

static void capture(int priority, const char *fmt, va_list ap)
{
	char line[2048];
	int n;

	vsnprintf(line, sizeof(line), fmt, ap);
	if (echo != NULL)
		fprintf(echo, "  log: %s\n", line);
	n = snprintf(captured + used, sizeof(captured) - used, "<%d> %s\n",
		     LOG_PRI(priority), line);
	if (n > 0 && (size_t)n < sizeof(captured) - used)
		used += (size_t)n;
}

void vsyslog(int priority, const char *fmt, va_list ap)
{
	capture(priority, fmt, ap);
}

void syslog(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	capture(priority, fmt, ap);
	va_end(ap);
}

void __syslog_chk(int priority, int flag, const char *fmt, ...);
void __vsyslog_chk(int priority, int flag, const char *fmt, va_list ap);

void __syslog_chk(int priority, int flag, const char *fmt, ...)
{
	va_list ap;

	(void)flag;
	va_start(ap, fmt);
	capture(priority, fmt, ap);
	va_end(ap);
}

void __vsyslog_chk(int priority, int flag, const char *fmt, va_list ap)
{
	(void)flag;
	capture(priority, fmt, ap);
}
