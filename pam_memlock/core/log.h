/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A small logger, so that the policy code never needs a pam_handle_t:
 * the module hands it pam_syslog, memlockctl and the tests hand it stderr
 * or a capture buffer.
 */
#ifndef PML_LOG_H
#define PML_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <syslog.h>

struct pml_log {
	/* Receives one finished message, without a trailing newline. */
	void (*emit)(void *ctx, int priority, const char *message);
	void *ctx;
	/* Messages less important than this (numerically greater) are dropped. */
	int max_priority;
};

void pml_log(const struct pml_log *log, int priority, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Both format the message and hand it to log->emit as one line: any byte
 * outside printable ASCII in the result is written as \xNN.
 */

/* "FILE:LINE: message"; line 0 leaves the line out. */
void pml_log_at(const struct pml_log *log, int priority, const char *file,
		unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * VALUE in double quotes for a log line, at most LEN bytes with the NUL:
 * control characters, quotes, backslashes and bytes of 0x7f and above as
 * \xNN (syslog and journald treat raw ones as binary), and "..." where it
 * had to be cut.  Returns BUF.
 */
const char *pml_quote(const char *value, char *buf, size_t len);

/* The same without the quotes: for file names before ":LINE". */
const char *pml_escape(const char *value, char *buf, size_t len);

#endif
