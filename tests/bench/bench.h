/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What the parts of the session-cost benchmark share: bench.c (options,
 * set-up, main), session_costs.c (time, page faults, allocations, memory
 * and instructions of sessions), ctl_check.c (memlockctl check on big
 * policies) and report.c (the tables and the goals).
 */
#ifndef PML_BENCH_BENCH_H
#define PML_BENCH_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "fixture.h"

#define MAX_ROUNDS 64

struct options {
	struct bench_paths paths;
	unsigned rules, rounds, sessions;
	unsigned slow_rounds, slow_sessions;	/* pam_limits with @group lines */
	unsigned cg_sessions, cg_slow_sessions;
	bool callgrind, keep;
	const char *loop;		/* tests/bench/loop, for callgrind */
	const char *nss_loop;		/* tests/bench/nss_loop, likewise */
	const char *memlockctl;
	const char *ctl_default_conf;	/* memlockctl's built-in main file */
	unsigned ctl_rules;
};

/* One (policy, module) cell of the results. */
struct cell {
	bool slow;
	unsigned n_rounds;
	double ns[MAX_ROUNDS];		/* per session, each round */
	double minflt, allocs;		/* per session, over all rounds */
	unsigned long long sessions;
	double instructions;		/* per session; < 0: not measured */
	long peak_rss_kib, rss_growth_kib;
	long long live_growth;		/* blocks not freed between snapshots */
};

/* The results, filled by session_costs.c, read by report.c. */
extern struct cell cells[BENCH_POLICY_COUNT][BENCH_MODULE_COUNT];
/* pam_memlock's NSS lookup alone (the user and their groups), per session;
 * < 0: not measured. */
extern double nss_instructions;
/* The fixture's directory, and its pam.d. */
extern char work_dir[256], confdir[300];

/* Prints "bench: " and the message on stderr, and exits 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* qsort's order of doubles, ascending. */
int by_value(const void *a, const void *b);

/* One session of SERVICE from the fixture; returns its nanoseconds. */
uint64_t session(const char *service);
/* Is this module slow on this policy (fewer rounds and sessions)? */
bool is_slow(int policy, int module);
/* Time, page faults and allocations of every module on POLICY,
 * interleaved round by round. */
void time_policy(const struct options *o, int policy);
/* Peak RSS, and what grows over N sessions, in a child of its own. */
void measure_memory(int policy, int module, unsigned n);
/* Instructions per session from callgrind on tests/bench/loop. */
void measure_instructions(const struct options *o, int policy);

/* `memlockctl check` on big policies: a table on stdout. */
void time_memlockctl(const struct options *o);

void print_machine(void);
void print_table(const struct options *o);
void print_goals(void);

#endif
