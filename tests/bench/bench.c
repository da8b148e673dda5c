/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The session-cost benchmark: pam_memlock against pam_permit
 * alone (the baseline), pam_limits with the equivalent policy, and
 * ref_libconfig (libconfig's parse of the same file and a setrlimit: the
 * floor any libconfig-based module stands on).
 *
 * Every session goes through the real libpam with a private service file
 * (pam_start_confdir) and a fresh handle: pam_start + pam_open_session are
 * timed, pam_close_session + pam_end follow.  Modules take turns within
 * each round, so that a machine that slows down slows every row alike.
 * Instructions come from callgrind (one module at a time, counting only
 * the sessions), which is stable where times are not.  Users and groups
 * come from nss_wrapper: the machine's own files are never read or touched.
 *
 *   bench [--quick] [--rules N] [--rounds N] [--sessions N] [--keep]
 *         [--loop PATH] [--nss-loop PATH] [--no-callgrind] [--memlockctl PATH]
 *         [--ctl-rules N]
 *         --memlock PATH --ref PATH [--limits PATH]
 *   bench setup [options]     (writes the fixture only, prints its directory)
 *
 * Instructions are counted by running tests/bench/loop (N sessions of one
 * service) under callgrind, with the same fixture and nss_wrapper.
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
#include "fixture.h"
#include "session.h"

#define NSS_WRAPPER "libnss_wrapper.so"
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

static struct cell cells[BENCH_POLICY_COUNT][BENCH_MODULE_COUNT];
/* pam_memlock's NSS lookup alone (the user and their groups), per session. */
static double nss_instructions = -1;
static char work_dir[256], confdir[300];

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t session(const char *service)
{
	return bench_session(confdir, service);
}

static bool is_slow(int policy, int module)
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

static void time_policy(const struct options *o, int policy)
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
static void measure_memory(int policy, int module, unsigned n)
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

static void measure_instructions(const struct options *o, int policy)
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

static int by_value(const void *a, const void *b);

/* ---- memlockctl check on big policies ---- */

struct ctl_run {
	int status;		/* exit status, -1 if it did not exit */
	char said[256];		/* its first line: stdout on success, else stderr */
};

/* The first line of FILE into BUF ("" when there is none). */
static void first_line(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");

	buf[0] = '\0';
	if (f != NULL) {
		if (fgets(buf, (int)len, f) == NULL)
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * Runs `memlockctl check [--conf CONF]` in a child, its output into files.
 * With BIND_SRC, the child first gets a mount namespace of its own where
 * BIND_SRC is mounted over BIND_DST: memlockctl then reads the default
 * path, drop-ins and all, from the benchmark's directory, and the
 * machine's own files stay untouched.  Returns the wall time in ns.
 */
static uint64_t ctl_once(const struct options *o, const char *conf,
			 const char *bind_src, const char *bind_dst,
			 struct ctl_run *run)
{
	char out[600], err[600];
	uint64_t start;
	int status;
	pid_t pid;

	snprintf(out, sizeof(out), "%s/ctl.out", work_dir);
	snprintf(err, sizeof(err), "%s/ctl.err", work_dir);
	start = bench_now_ns();
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		if (freopen(out, "w", stdout) == NULL || freopen(err, "w", stderr) == NULL)
			_exit(127);
		if (bind_src != NULL &&
		    (unshare(CLONE_NEWNS) < 0 ||
		     mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		     mount(bind_src, bind_dst, NULL, MS_BIND, NULL) < 0)) {
			fprintf(stderr, "mount namespace: %s\n", strerror(errno));
			_exit(126);
		}
		if (conf != NULL)
			execl(o->memlockctl, "memlockctl", "check", "--conf", conf,
			      (char *)NULL);
		else
			execl(o->memlockctl, "memlockctl", "check", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	start = bench_now_ns() - start;
	run->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	first_line(run->status == 0 ? out : err, run->said, sizeof(run->said));
	return start;
}

static void ctl_measure(const struct options *o, const char *what,
			const char *conf, const char *bind_src,
			const char *bind_dst)
{
	double ms[5];
	struct ctl_run run;
	unsigned i;

	for (i = 0; i < 5; i++)
		ms[i] = (double)ctl_once(o, conf, bind_src, bind_dst, &run) / 1e6;
	qsort(ms, 5, sizeof(ms[0]), by_value);
	printf("| %s | %.2f [%.2f..%.2f] | %d | %s |\n", what, ms[2], ms[0], ms[4],
	       run.status, run.said);
}

/* DIR/etc/security/memlock.conf and memlock.d/ with N_FILES drop-ins. */
static int write_dropin_tree(const char *dir, unsigned n_rules, unsigned n_files)
{
	char path[600];
	unsigned f, per = n_rules / n_files;
	FILE *out;

	snprintf(path, sizeof(path), "%s/etc", dir);
	if (mkdir(path, 0755) < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/etc/security", dir);
	if (mkdir(path, 0755) < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/etc/security/memlock.d", dir);
	if (mkdir(path, 0755) < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/etc/security/memlock.conf", dir);
	if ((out = fopen(path, "we")) == NULL)
		return -errno;
	fchmod(fileno(out), 0644);
	fprintf(out, "limit = \"8 MiB\";\n");
	fclose(out);
	for (f = 0; f < n_files; f++) {
		snprintf(path, sizeof(path), "%s/etc/security/memlock.d/%02u-rules.conf",
			 dir, f);
		if (bench_write_user_rules(path, per, 1024) < 0)
			return -EIO;
	}
	return 0;
}

static void time_memlockctl(const struct options *o)
{
	char path[600], what[1024], etc[600], dst[600];
	unsigned files = (o->ctl_rules + 999) / 1000;

	printf("\n`memlockctl check`, wall time of the whole command in ms "
	       "(median [min..max] of 5), exit status, and its first line "
	       "(stdout when it passed, stderr when not):\n\n");
	if (o->memlockctl == NULL || access(o->memlockctl, X_OK) != 0) {
		printf("not measured: memlockctl is not built\n");
		return;
	}
	printf("| policy | ms | exit | says |\n|---|---|---|---|\n");
	snprintf(path, sizeof(path), "%s/memlock-one.conf", work_dir);
	ctl_measure(o, "one line (--conf)", path, NULL, NULL);
	snprintf(path, sizeof(path), "%s/memlock-users.conf", work_dir);
	snprintf(what, sizeof(what), "%u user rules, one file (--conf)", o->rules);
	ctl_measure(o, what, path, NULL, NULL);
	snprintf(path, sizeof(path), "%s/ctl-%u.conf", work_dir, o->ctl_rules);
	if (bench_write_user_rules(path, o->ctl_rules, 1024) < 0)
		die("cannot write %s", path);
	snprintf(what, sizeof(what), "%u user rules, one file (--conf)", o->ctl_rules);
	ctl_measure(o, what, path, NULL, NULL);
	/* The default path's directory, two levels up from memlock.conf. */
	if (o->ctl_default_conf == NULL) {
		printf("(drop-ins not measured: give --ctl-default-conf)\n");
		return;
	}
	snprintf(dst, sizeof(dst), "%s", o->ctl_default_conf);
	*strrchr(dst, '/') = '\0';
	*strrchr(dst, '/') = '\0';
	snprintf(etc, sizeof(etc), "%s/etc", work_dir);
	if (write_dropin_tree(work_dir, o->ctl_rules, files) < 0)
		die("cannot write the drop-ins");
	snprintf(what, sizeof(what), "%u user rules in %u drop-ins of %u (default path, %s mounted over %s)",
		 o->ctl_rules, files, o->ctl_rules / files, "a private etc", dst);
	ctl_measure(o, what, NULL, etc, dst);
}

/* ---- the report ---- */

static int by_value(const void *a, const void *b)
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

static void print_machine(void)
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

static void print_table(const struct options *o)
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

static void print_goals(void)
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

/* ---- set-up ---- */

static void usage(void)
{
	fprintf(stderr,
		"usage: bench --memlock PATH --ref PATH [--limits PATH] [--quick]\n"
		"             [--rules N] [--rounds N] [--sessions N] [--slow-rounds N]\n"
		"             [--loop PATH] [--nss-loop PATH] [--callgrind-sessions N]\n"
		"             [--no-callgrind]\n"
		"             [--memlockctl PATH] [--ctl-default-conf PATH] [--ctl-rules N]\n"
		"             [--keep]\n");
	exit(2);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int i;

	*o = (struct options){
		.paths = { NULL, "/lib/x86_64-linux-gnu/security/pam_limits.so", NULL },
		.rules = 1000, .rounds = 7, .sessions = 100,
		.slow_rounds = 3, .slow_sessions = 1,
		.cg_sessions = 20, .cg_slow_sessions = 1,
		.callgrind = true, .ctl_rules = 10000,
	};
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--quick") == 0) {
			o->rules = 10, o->rounds = 2, o->sessions = 3;
			o->slow_rounds = 1, o->cg_sessions = 2, o->ctl_rules = 100;
		} else if (strcmp(a, "--no-callgrind") == 0) {
			o->callgrind = false;
		} else if (strcmp(a, "--keep") == 0) {
			o->keep = true;
		} else if (v == NULL) {
			usage();
		} else if (strcmp(a, "--memlock") == 0) {
			o->paths.memlock = argv[++i];
		} else if (strcmp(a, "--ref") == 0) {
			o->paths.ref = argv[++i];
		} else if (strcmp(a, "--limits") == 0) {
			o->paths.limits = argv[++i];
		} else if (strcmp(a, "--loop") == 0) {
			o->loop = argv[++i];
		} else if (strcmp(a, "--nss-loop") == 0) {
			o->nss_loop = argv[++i];
		} else if (strcmp(a, "--ctl-default-conf") == 0) {
			o->ctl_default_conf = argv[++i];
		} else if (strcmp(a, "--memlockctl") == 0) {
			o->memlockctl = argv[++i];
		} else if (strcmp(a, "--rules") == 0) {
			o->rules = (unsigned)atoi(argv[++i]);
		} else if (strcmp(a, "--rounds") == 0) {
			o->rounds = (unsigned)atoi(argv[++i]);
		} else if (strcmp(a, "--sessions") == 0) {
			o->sessions = (unsigned)atoi(argv[++i]);
		} else if (strcmp(a, "--slow-rounds") == 0) {
			o->slow_rounds = (unsigned)atoi(argv[++i]);
		} else if (strcmp(a, "--callgrind-sessions") == 0) {
			o->cg_sessions = (unsigned)atoi(argv[++i]);
		} else if (strcmp(a, "--ctl-rules") == 0) {
			o->ctl_rules = (unsigned)atoi(argv[++i]);
		} else {
			usage();
		}
	}
	if (o->paths.memlock == NULL || o->paths.ref == NULL || o->rules < 2 ||
	    o->rounds < 1 || o->rounds > MAX_ROUNDS || o->sessions < 1 ||
	    o->slow_rounds < 1 || o->cg_sessions < 1)
		usage();
	if (o->slow_rounds > o->rounds)
		o->slow_rounds = o->rounds;
	if (o->loop == NULL || o->nss_loop == NULL)
		o->callgrind = false;
}

/* The limit every policy sets: what the session has, so nothing changes. */
static unsigned long long steady_limit_kib(void)
{
	struct rlimit rl;

	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (rl.rlim_max == RLIM_INFINITY)
		rl.rlim_max = 8 << 20;
	rl.rlim_max -= rl.rlim_max % 1024;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_MEMLOCK, &rl) < 0)
		die("setrlimit: %s", strerror(errno));
	return rl.rlim_max / 1024;
}

/* Writes the fixture into a fresh directory under /tmp. */
static void set_up(const struct options *o)
{
	if (geteuid() != 0)
		die("run as root: pam_memlock trusts only root-owned policy files");
	snprintf(work_dir, sizeof(work_dir), "/tmp/pml-bench-XXXXXX");
	if (mkdtemp(work_dir) == NULL)
		die("mkdtemp: %s", strerror(errno));
	if (bench_fixture_write(work_dir, &o->paths, o->rules, steady_limit_kib()) < 0)
		die("cannot write the fixture in %s", work_dir);
}

/* Writes the fixture, then runs again with nss_wrapper preloaded. */
static void set_up_and_reexec(const struct options *o, char **argv)
{
	char path[512];

	set_up(o);
	setenv("BENCH_DIR", work_dir, 1);
	snprintf(path, sizeof(path), "%s/passwd", work_dir);
	setenv("NSS_WRAPPER_PASSWD", path, 1);
	snprintf(path, sizeof(path), "%s/group", work_dir);
	setenv("NSS_WRAPPER_GROUP", path, 1);
	setenv("LD_PRELOAD", NSS_WRAPPER, 1);
	execv("/proc/self/exe", argv);
	die("exec: %s", strerror(errno));
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* The process that removes the directory at exit, failed or not. */
static pid_t cleaner;

static void remove_work_dir(void)
{
	if (getpid() == cleaner && work_dir[0] != '\0')
		nftw(work_dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int main(int argc, char **argv)
{
	struct options o;
	int p, m;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "setup") == 0) {
		/* For tests/bench/callgrind.sh: the fixture alone, kept. */
		parse_options(argc - 1, argv + 1, &o);
		set_up(&o);
		printf("%s\n", work_dir);
		return 0;
	}
	parse_options(argc, argv, &o);
	if (getenv("BENCH_DIR") == NULL)
		set_up_and_reexec(&o, argv);
	snprintf(work_dir, sizeof(work_dir), "%s", getenv("BENCH_DIR"));
	snprintf(confdir, sizeof(confdir), "%s/pam.d", work_dir);
	if (!o.keep) {
		cleaner = getpid();
		atexit(remove_work_dir);
	}
	steady_limit_kib();

	print_machine();
	printf("%u rules; %u rounds of %u sessions (pam_limits with @group lines: %u of %u)\n",
	       o.rules, o.rounds, o.sessions, o.slow_rounds, o.slow_sessions);
	for (p = 0; p < BENCH_POLICY_COUNT; p++) {
		for (m = 0; m < BENCH_MODULE_COUNT; m++)
			cells[p][m].instructions = -1;
		time_policy(&o, p);
		for (m = 0; m < BENCH_MODULE_COUNT; m++)
			measure_memory(p, m, is_slow(p, m) ? o.slow_sessions : o.sessions);
		if (o.callgrind)
			measure_instructions(&o, p);
	}
	fprintf(stderr, "\n");
	print_table(&o);
	print_goals();
	time_memlockctl(&o);
	if (o.keep)
		printf("\nfiles kept in %s\n", work_dir);
	return 0;
}
