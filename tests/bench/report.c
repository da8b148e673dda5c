/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The session-cost benchmark's report (bench.h): the machine, the table
 * of overheads, and the goals.
 */
#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "alloc_count.h"
#include "bench.h"
#include "fixture.h"
#include "session.h"

/* ---- the report ---- */

int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median, min and max over rounds of (module - baseline) in microseconds. */
static void overhead(int policy, int module, double *med, double *lo, double *hi)
{
	const struct cell *c = &cells[policy][module];
	const struct cell *base = &cells[policy][BENCH_PERMIT];
	double v[MAX_ROUNDS];
	unsigned r, n = c->n_rounds;

	/* A slow module's rounds are the first ones: compare each to its own. */
	for (r = 0; r < n; r++)
		v[r] = (c->ns[r] - (module == BENCH_PERMIT ? 0 : base->ns[r])) / 1000.0;
	qsort(v, n, sizeof(v[0]), by_value);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*lo = v[0];
	*hi = v[n - 1];
}

void print_machine(void)
{
	char line[512], model[256] = "unknown";
	struct utsname u;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "model name", 10) == 0) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	}
	if (f != NULL)
		fclose(f);
	uname(&u);
	printf("machine: %ld CPUs, %s, Linux %s\n", sysconf(_SC_NPROCESSORS_ONLN),
	       model, u.release);
}

void print_table(const struct options *o)
{
	static const char *const label[BENCH_MODULE_COUNT] = {
		"pam_permit (baseline)", "pam_memlock", "pam_limits", "ref_libconfig (floor)"
	};
	int p, m;

	printf("\n| policy | module | time/session over baseline, us: median [min..max] (rounds) "
	       "| instructions/session | minor faults/session | allocations/session "
	       "| peak RSS KiB | RSS growth KiB | live blocks growth |\n");
	printf("|---|---|---|---|---|---|---|---|---|\n");
	for (p = 0; p < BENCH_POLICY_COUNT; p++) {
		for (m = 0; m < BENCH_MODULE_COUNT; m++) {
			const struct cell *c = &cells[p][m], *b = &cells[p][BENCH_PERMIT];
			double med, lo, hi;
			char instr[32];

			overhead(p, m, &med, &lo, &hi);
			if (c->instructions >= 0)
				snprintf(instr, sizeof(instr), "%.0f", c->instructions);
			else
				snprintf(instr, sizeof(instr), "n/a");
			printf("| %s | %s | %s%.1f [%.1f..%.1f] (%u) | %s%s | %.1f | %.1f | %ld | %ld | %lld |\n",
			       bench_policy_name(p), label[m],
			       m == BENCH_PERMIT ? "(absolute) " : "", med, lo, hi,
			       c->n_rounds, m == BENCH_PERMIT ? "(absolute) " : "", instr,
			       m == BENCH_PERMIT ? c->minflt : c->minflt - b->minflt,
			       m == BENCH_PERMIT ? c->allocs : c->allocs - b->allocs,
			       c->peak_rss_kib, c->rss_growth_kib, c->live_growth);
		}
	}
	(void)o;
}

static double instr(int p, int m)
{
	return cells[p][m].instructions;
}

/* A ratio of two instruction counts; -1 when either was not measured. */
static double instr_ratio(int p, int m, int n)
{
	double a = cells[p][m].instructions, b = cells[p][n].instructions;

	return a <= 0 || b <= 0 ? -1 : a / b;
}

static void goal(const char *what, double value, const char *op, double limit)
{
	bool met = strcmp(op, "<=") == 0 ? value <= limit : value >= limit;

	if (value != value || value <= 0)
		printf("- %s: not measured\n", what);
	else
		printf("- %s: %.2f (goal %s %.2f): %s\n", what, value, op, limit,
		       met ? "met" : "NOT met");
}

void print_goals(void)
{
	double mem, lim, ref, lo, hi;

	printf("\nBudgets:\n");
	overhead(BENCH_ONE, BENCH_MEMLOCK, &mem, &lo, &hi);
	overhead(BENCH_ONE, BENCH_LIMITS, &lim, &lo, &hi);
	overhead(BENCH_ONE, BENCH_REF, &ref, &lo, &hi);
	goal("one rule, time: pam_memlock / (pam_limits + floor)", mem / (lim + ref), "<=", 1.0);
	goal("one rule, instructions: pam_memlock / floor",
	     instr_ratio(BENCH_ONE, BENCH_MEMLOCK, BENCH_REF), "<=", 1.30);
	goal("user rules, instructions: pam_memlock / floor",
	     instr_ratio(BENCH_USERS, BENCH_MEMLOCK, BENCH_REF), "<=", 1.15);
	goal("group rules, instructions: pam_memlock / floor",
	     instr_ratio(BENCH_GROUPS, BENCH_MEMLOCK, BENCH_REF), "<=", 1.15);
	if (nss_instructions > 0 && instr(BENCH_GROUPS, BENCH_REF) > 0) {
		printf("  (of which its one NSS lookup of the user and groups: %.0f instructions)\n",
		       nss_instructions);
		goal("group rules, instructions without that NSS lookup: pam_memlock / floor",
		     (instr(BENCH_GROUPS, BENCH_MEMLOCK) - nss_instructions) /
		     instr(BENCH_GROUPS, BENCH_REF), "<=", 1.15);
	}
	overhead(BENCH_GROUPS, BENCH_MEMLOCK, &mem, &lo, &hi);
	overhead(BENCH_GROUPS, BENCH_LIMITS, &lim, &lo, &hi);
	goal("group rules, time: pam_limits / pam_memlock", lim / mem, ">=", 100);
}
