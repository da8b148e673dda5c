/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Preloaded into memlockctl by tests/memlockctl/live/apply.sh: what it sends to syslog
 * goes to the file $PML_SYSLOG_FILE instead, one "<priority> message" line
 * each, so that the test can read the line apply logs on a machine that
 * may have no syslog daemon.  The priority includes the facility, as on
 * the wire: LOG_AUTHPRIV|LOG_NOTICE is 85.  syslog() and the fortified __syslog_chk()
 * both end here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <syslog.h>

void openlog(const char *ident, int option, int facility);
void closelog(void);
void syslog(int priority, const char *format, ...);
void __syslog_chk(int priority, int flag, const char *format, ...);

/* openlog's facility, for messages that name none (as syslog(3) does). */
static int default_facility = LOG_USER;

void openlog(const char *ident, int option, int facility)
{
	(void)ident;
	(void)option;
	if (facility != 0)
		default_facility = facility;
}

void closelog(void)
{
}

static void put(int priority, const char *format, va_list ap)
{
	const char *path = getenv("PML_SYSLOG_FILE");
	FILE *f = path != NULL ? fopen(path, "a") : NULL;

	if (f == NULL)
		return;
	if ((priority & LOG_FACMASK) == 0)
		priority |= default_facility;
	fprintf(f, "<%d> ", priority);
	vfprintf(f, format, ap);
	fputc('\n', f);
	fclose(f);
}

void syslog(int priority, const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	put(priority, format, ap);
	va_end(ap);
}

void __syslog_chk(int priority, int flag, const char *format, ...)
{
	va_list ap;

	(void)flag;
	va_start(ap, format);
	put(priority, format, ap);
	va_end(ap);
}
