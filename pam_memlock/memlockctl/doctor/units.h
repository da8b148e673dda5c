/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Where a session's RLIMIT_MEMLOCK starts, before PAM: the systemd unit
 * its service runs in (unit file and drop-ins in /etc, /run, /usr/lib and
 * /lib), else the manager's DefaultLimitMEMLOCK (system.conf and
 * system.conf.d), else systemd's documented built-in default, else the
 * kernel's (64 KiB before Linux 5.16, 8 MiB since).  Also the user
 * manager's DefaultLimitMEMLOCK (user.conf, user.conf.d), which the
 * user's services get whatever the session had.
 */
#ifndef DOC_UNITS_H
#define DOC_UNITS_H

#include <stdbool.h>

#include "limits.h"

#define DOC_PATH_MAX 4096

/* One resolved value and where it comes from. */
struct doc_setting {
	bool set; /* found at all */
	struct doc_value soft, hard;
	char file[DOC_PATH_MAX]; /* "" for a built-in value */
	unsigned line;
	char what[512]; /* "ssh.service: LimitMEMLOCK=8M" */
};

struct doc_start {
	const char *unit;	  /* the unit found, or NULL */
	bool has_unit;		  /* the service maps to a unit at all */
	struct doc_setting value; /* value.soft/hard unknown without a unit */
};

/* The systemd units a PAM service's sessions start in, NULL-terminated;
 * NULL for a service that no unit starts (su, sudo: their caller's). */
const char *const *doc_service_units(const char *service);

/* Fills *out for SERVICE under ROOT.  Never fails: what it cannot read it
 * leaves out, as systemd would. */
void doc_session_start(const char *root, const char *service, struct doc_start *out);

/* The user manager's DefaultLimitMEMLOCK, if user.conf(.d) sets one. */
void doc_user_manager_default(const char *root, struct doc_setting *out);

/* The kernel default for RELEASE ("6.1.0-18-amd64"): 8 MiB from 5.16. */
uint64_t doc_kernel_default(const char *release);

/* Parses a systemd limit value: "8M", "infinity", "1K:2K".  False when
 * systemd would refuse it; *empty for an empty assignment (a reset). */
bool doc_parse_systemd_limit(const char *text, struct doc_value *soft,
			     struct doc_value *hard, bool *empty);

#endif
