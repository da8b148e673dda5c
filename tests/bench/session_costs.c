/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The session-cost benchmark's measurements of sessions (bench.h): time,
 * page faults and allocations with the modules taking turns, memory, and
 * instructions under callgrind.
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

uint64_t session(const char *service)
{
	return bench_session(confdir, service);
}

bool is_slow(int policy, int module)
{
	/* pam_limits checks each @group line with its own NSS lookups. */
	return policy == BENCH_GROUPS && module == BENCH_LIMITS;
}

/* ---- timing, page faults and allocations, interleaved ---- */

static void run_batch(int policy, int module, unsigned n, struct cell *c)
{
	char service[64];
	struct rusage before, after;
	struct bench_alloc_counts a0, a1;
	uint64_t total = 0;
	unsigned i;

	bench_service(module, policy, service, sizeof(service));
	getrusage(RUSAGE_SELF, &before);
	bench_alloc_get(&a0);
	for (i = 0; i < n; i++)
		total += session(service);
	bench_alloc_get(&a1);
	getrusage(RUSAGE_SELF, &after);
	c->ns[c->n_rounds++] = (double)total / n;
	c->minflt += (double)(after.ru_minflt - before.ru_minflt);
	c->allocs += (double)(a1.allocs - a0.allocs);
	c->sessions += n;
}

void time_policy(const struct options *o, int policy)
{
	unsigned r, k;
	int m;

	/* One warm-up session each: first-use costs are not per-session costs. */
	for (m = 0; m < BENCH_MODULE_COUNT; m++) {
		char service[64];

		bench_service(m, policy, service, sizeof(service));
		session(service);
	}
	for (r = 0; r < o->rounds; r++) {
		for (k = 0; k < BENCH_MODULE_COUNT; k++) {
			m = (int)((k + r) % BENCH_MODULE_COUNT);
			if (!is_slow(policy, m))
				run_batch(policy, m, o->sessions, &cells[policy][m]);
			else if (r < o->slow_rounds)
				run_batch(policy, m, o->slow_sessions, &cells[policy][m]);
		}
		fprintf(stderr, ".");
	}
	for (m = 0; m < BENCH_MODULE_COUNT; m++) {
		struct cell *c = &cells[policy][m];

		c->slow = is_slow(policy, m);
		c->minflt /= (double)c->sessions;
		c->allocs /= (double)c->sessions;
	}
}

/* ---- memory: peak RSS, and whether anything grows with the sessions ---- */

struct memory_sample {
	long rss1, rss2;
	long long live1, live2;
};

static void sample(struct memory_sample *s, bool second)
{
	struct rusage ru;
	struct bench_alloc_counts a;

	getrusage(RUSAGE_SELF, &ru);
	bench_alloc_get(&a);
	if (second) {
		s->rss2 = ru.ru_maxrss;
		s->live2 = a.live;
	} else {
		s->rss1 = ru.ru_maxrss;
		s->live1 = a.live;
	}
}

/* In a child, so that ru_maxrss is this module's: N sessions, then N more. */
void measure_memory(int policy, int module, unsigned n)
{
	struct memory_sample s;
	struct cell *c = &cells[policy][module];
	char service[64];
	int fds[2], status;
	unsigned i;
	pid_t pid;

	bench_service(module, policy, service, sizeof(service));
	if (pipe(fds) < 0 || (pid = fork()) < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		for (i = 0; i < n; i++)
			session(service);
		sample(&s, false);
		for (i = 0; i < n; i++)
			session(service);
		sample(&s, true);
		_exit(write(fds[1], &s, sizeof(s)) == (ssize_t)sizeof(s) ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &s, sizeof(s)) != (ssize_t)sizeof(s))
		die("memory child for %s failed", service);
	close(fds[0]);
	waitpid(pid, &status, 0);
	c->peak_rss_kib = s.rss2;
	c->rss_growth_kib = s.rss2 - s.rss1;
	c->live_growth = s.live2 - s.live1;
}

/* ---- instructions: callgrind on tests/bench/loop ---- */

/* Total instructions counted by callgrind, or -1. */
static double callgrind_total(const char *loop, const char *service, unsigned n)
{
	char out[512], count[16], arg[600], line[256];
	double total = -1;
	int status;
	pid_t pid;
	FILE *f;

	snprintf(out, sizeof(out), "%s/callgrind.%s.out", work_dir, service);
	snprintf(arg, sizeof(arg), "--callgrind-out-file=%s", out);
	snprintf(count, sizeof(count), "%u", n);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		if (freopen("/dev/null", "w", stderr) == NULL)
			_exit(127);
		execlp("valgrind", "valgrind", "--tool=callgrind",
		       "--collect-atstart=no", arg, loop, service, count,
		       (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -1;
	f = fopen(out, "re");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "summary: ", 9) == 0 || strncmp(line, "totals: ", 8) == 0)
			total = strtod(strchr(line, ' ') + 1, NULL);
	fclose(f);
	return total;
}

void measure_instructions(const struct options *o, int policy)
{
	double base;
	char service[64];
	int m;

	for (m = 0; m < BENCH_MODULE_COUNT; m++) {
		unsigned n = is_slow(policy, m) ? o->cg_slow_sessions : o->cg_sessions;

		bench_service(m, policy, service, sizeof(service));
		cells[policy][m].instructions = callgrind_total(o->loop, service, n) / n;
		fprintf(stderr, "+");
	}
	if (policy == BENCH_GROUPS) {
		nss_instructions = callgrind_total(o->nss_loop, "nss-lookup", o->cg_sessions);
		if (nss_instructions >= 0)
			nss_instructions /= o->cg_sessions;
	}
	base = cells[policy][BENCH_PERMIT].instructions;
	for (m = 0; m < BENCH_MODULE_COUNT; m++)
		if (m != BENCH_PERMIT && cells[policy][m].instructions >= 0 && base >= 0)
			cells[policy][m].instructions -= base;
}
