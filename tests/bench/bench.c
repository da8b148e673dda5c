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
#include "bench.h"
#include "fixture.h"
#include "session.h"

#define NSS_WRAPPER "libnss_wrapper.so"

struct cell cells[BENCH_POLICY_COUNT][BENCH_MODULE_COUNT];
/* pam_memlock's NSS lookup alone (the user and their groups), per session. */
double nss_instructions = -1;
char work_dir[256], confdir[300];

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
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
