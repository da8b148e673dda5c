/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* One PAM session of the benchmark, with a fresh handle. */
#ifndef BENCH_SESSION_H
#define BENCH_SESSION_H

#include <stdint.h>

/* Nanoseconds on CLOCK_MONOTONIC. */
uint64_t bench_now_ns(void);

/*
 * pam_start_confdir(SERVICE, the bench user, CONFDIR) and pam_open_session
 * (returned: the nanoseconds these two took), then pam_close_session and
 * pam_end.  A session that fails ends the process with a message: numbers
 * from a module that did not do its job would mean nothing.
 */
uint64_t bench_session(const char *confdir, const char *service);

#endif
