/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Catches what modules send to syslog, so tests can assert log lines.
 * libpam's pam_syslog() ends in syslog() (or __syslog_chk when fortified);
 * this program defines both, and the dynamic linker prefers its definitions
 * to libc's.
 */
#ifndef PML_SYSLOG_CAPTURE_H
#define PML_SYSLOG_CAPTURE_H

#include <stdio.h>

/* Every line this thread logged so far, each ending in '\n':
 * "<priority> message". */
const char *pml_capture_text(void);
void pml_capture_reset(void);

/* Also print each line to OUT as it arrives (the demo), or stop (NULL). */
void pml_capture_echo(FILE *out);

#endif
