/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The race of tests/module/test_races.c: a writer process rewrites the default
 * policy file or a drop-in beside it, in a private mount namespace, while
 * 32 worker processes open 1,000 sessions through the real module, each
 * session in a forked child.  Every helper here that cannot go on exits the
 * process it runs in, or fails the case.
 */
#ifndef PML_TEST_POLICY_RACE_H
#define PML_TEST_POLICY_RACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The limits each session starts from; a refusal leaves them. */
#define SOFT0 (64u << 10)
#define HARD0 (8u << 20)
#define MAX_VALUES 1024

/* The two versions of the main file, and the drop-in 50-d.conf. */
extern const char policy_a[], policy_b[], dropin_d[];
/* The default file, and 50-d.conf in memlock.d/ beside it. */
extern char main_file[PATH_MAX + 16];
extern char dropin_file[PATH_MAX + 32];

/* What one session gave: its return code and RLIMIT_MEMLOCK after it. */
struct value {
	int rc;
	uint64_t soft, hard;
};

/* The results a race may give, each with what it stands for. */
struct allowed {
	struct value v[MAX_VALUES];
	const char *why[MAX_VALUES];
	size_t n;
};

/* How the writer changes the policy, one version, then the other. */
enum writer_kind { BY_RENAME, BY_INSTALL, IN_PLACE, DROPIN_RENAME, DROPIN_IN_PLACE };

/* In the case's own process: the shared page, a private mount namespace
 * with an empty default directory and memlock.d/, a private PAM directory
 * whose service runs the module without conf=, and the starting limits. */
void race_setup(void);
/* Replaces PATH by rename(2) from a temporary file beside it. */
void put_by_rename(const char *path, const char *text);
/* V joins SET as WHY, unless SET already has it. */
void allow(struct allowed *set, struct value v, const char *why);
/* What the module makes of each prefix of TEXT put at PATH: the
 * results that are not refusals join SET as WHY. */
void allow_prefixes(struct allowed *set, const char *path, const char *text,
		    const char *why);
/* The result of the whole of TEXT at the main file (drop-ins as they are). */
struct value value_of(const char *text);
/* The race itself, the writer of KIND against the workers: every session
 * must give a result in SET (named NAME in the log, with the counts). */
void race(enum writer_kind kind, const struct allowed *set, const char *name);

#endif
