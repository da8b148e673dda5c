/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The race of tests/module/test_races.c (policy_race.h): the writers, the workers
 * and the sessions they run, in a private mount namespace.
 */
#include "policy_race.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"

#define WORKERS 32
/* The load, not the odds of one torn read, which test_safe_read scripts:
 * the old read(2) tore up to one read in 24,000, so no affordable count of
 * sessions here would catch it every run. */
#define SESSIONS 1000
#define WRITE_PAUSE_US 2000	/* between two rewrites */
#define PIECE 16		/* bytes per write() of the in-place writer */
#define SESSION_SECONDS 60	/* one session longer than this is a hang (the
				 * workers run SCHED_IDLE: other tests first) */

const char policy_a[] =
	"# policy A\n"
	"mode = \"set\";\n"
	"soft = \"1 MiB\";   # A's soft\n"
	"hard = \"3 MiB\";   # A's hard\n";
const char policy_b[] =
	"# policy B\n"
	"mode = \"set\";\n"
	"soft = \"2 MiB\";   # B's soft\n"
	"hard = \"5 MiB\";   # B's hard\n";
const char dropin_d[] =
	"# drop-in D\n"
	"soft = \"6 MiB\";\n"
	"hard = \"7 MiB\";\n";

struct shared {
	unsigned next;			/* the next session to run */
	unsigned done_workers;
	struct value got[SESSIONS];
	bool stop;			/* the writer stops */
	unsigned rewrites;
};

static struct shared *sh;
static struct pml_pam_env env;
static char dir[PATH_MAX];		/* the default file's directory */
char main_file[PATH_MAX + 16];
static char dropin_dir[PATH_MAX + 16];
char dropin_file[PATH_MAX + 32];

/* --- Files. */

static void write_pieces(int fd, const char *text, bool slowly)
{
	size_t len = strlen(text), off = 0;

	while (off < len) {
		size_t n = slowly && len - off > PIECE ? PIECE : len - off;
		ssize_t put = write(fd, text + off, n);

		if (put <= 0)
			_exit(20);
		off += (size_t)put;
		if (slowly)
			usleep(50);
	}
}

void put_by_rename(const char *path, const char *text)
{
	char temp[PATH_MAX + 64];
	int fd;

	snprintf(temp, sizeof(temp), "%s/.pml-race.tmp", dir);
	fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(21);
	write_pieces(fd, text, false);
	if (fchmod(fd, 0644) < 0 || close(fd) < 0 || rename(temp, path) < 0)
		_exit(22);
}

/* Truncates PATH (creating it) and writes TEXT in pieces. */
static void put_in_place(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		_exit(23);
	write_pieces(fd, text, true);
	if (close(fd) < 0)
		_exit(24);
}

/* memlockctl install TEXT (from a file outside the policy directory). */
static void put_by_install(const char *text)
{
	static char source[sizeof(env.dir) + 16];
	pid_t pid;
	int status, fd;

	snprintf(source, sizeof(source), "%s/policy.new", env.dir);
	fd = open(source, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(25);
	write_pieces(fd, text, false);
	close(fd);
	pid = fork();
	if (pid == 0) {
		char ctl[PATH_MAX];
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		snprintf(ctl, sizeof(ctl), "%s/memlockctl", pml_test_env("PML_BUILDDIR"));
		execl(ctl, "memlockctl", "install", source, "--conf", main_file, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		_exit(26);
}

/* --- The private policy directory. */

static void private_policy_dir(void)
{
	char point[PATH_MAX], *p;
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", PML_DEFAULT_CONF);
	*strrchr(dir, '/') = '\0';
	snprintf(point, sizeof(point), "%s", dir);
	while (stat(point, &st) < 0 && (p = strrchr(point, '/')) != NULL && p != point)
		*p = '\0';
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_int_eq(mount("pml-races", point, "tmpfs", MS_NOSUID | MS_NODEV,
			       "mode=0755"), 0);
	for (p = dir + strlen(point); *p == '/'; p = strchr(p + 1, '/')) {
		char *next = strchr(p + 1, '/');

		if (next != NULL)
			*next = '\0';
		ck_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
		if (next == NULL)
			break;
		*next = '/';
	}
	snprintf(main_file, sizeof(main_file), "%s/memlock.conf", dir);
	snprintf(dropin_dir, sizeof(dropin_dir), "%s/memlock.d", dir);
	snprintf(dropin_file, sizeof(dropin_file), "%s/50-d.conf", dropin_dir);
	ck_assert_int_eq(mkdir(dropin_dir, 0755), 0);
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), "", NULL), 0);
}

/* --- Sessions. */

/*
 * Each process that runs sessions starts its PAM handle once, and each
 * session is a child forked from it that opens, closes and ends it, as a
 * login program's session process does.  The module reads the policy at
 * open, in the child.  Loading the modules again in every child made up
 * most of a session's cost under the sanitizers, and is not what races.
 */
static pam_handle_t *started;

/* One session in a forked child; a hang or a crash is a failed test. */
static struct value one_session(void)
{
	struct value v = { .rc = -1 };
	struct pollfd p;
	int fds[2], status;
	pid_t pid;

	if (started == NULL &&
	    pml_pam_start(&env, PML_TEST_SERVICE, "root", &started) != PAM_SUCCESS)
		_exit(32);
	if (pipe(fds) < 0)
		_exit(30);
	pid = fork();
	if (pid == 0) {
		struct value r;

		close(fds[0]);
		r.rc = pml_pam_session(started);
		pml_memlock_get(&r.soft, &r.hard);
		_exit(write(fds[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 31);
	}
	close(fds[1]);
	p = (struct pollfd){ .fd = fds[0], .events = POLLIN };
	if (pid < 0 || poll(&p, 1, SESSION_SECONDS * 1000) <= 0) {
		if (pid > 0)
			kill(pid, SIGKILL);
		v.rc = -2;	/* hung */
	} else if (read(fds[0], &v, sizeof(v)) != (ssize_t)sizeof(v)) {
		v.rc = -3;	/* died */
	}
	close(fds[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return v;
}

static bool same(struct value a, struct value b)
{
	return a.rc == b.rc && a.soft == b.soft && a.hard == b.hard;
}

void allow(struct allowed *set, struct value v, const char *why)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (same(set->v[i], v))
			return;
	ck_assert(set->n < MAX_VALUES);
	set->v[set->n] = v;
	set->why[set->n++] = why;
}

static const char *find(const struct allowed *set, struct value v)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (same(set->v[i], v))
			return set->why[i];
	return NULL;
}

void allow_prefixes(struct allowed *set, const char *path, const char *text,
			   const char *why)
{
	size_t len = strlen(text), i;
	char buf[512];

	ck_assert(len < sizeof(buf));
	for (i = 0; i <= len; i++) {
		struct value v;

		memcpy(buf, text, i);
		buf[i] = '\0';
		put_by_rename(path, buf);
		v = one_session();
		ck_assert_msg(v.rc == PAM_SUCCESS || v.rc == PAM_SERVICE_ERR,
			      "prefix %zu of %s: rc %d", i, why, v.rc);
		if (v.rc == PAM_SUCCESS)
			allow(set, v, why);
	}
}

/* --- The race. */

/*
 * The workers yield to everything else: 32 processes
 * forking sessions fill both CPUs of a CI machine, and make check -j runs
 * other tests beside this one, whose check timeouts must still hold.
 */
static void be_nice(void)
{
	struct sched_param none = { .sched_priority = 0 };

	/* SCHED_IDLE: only when no other test wants the CPU (nice 19 still
	 * took enough of it to time out test_size under ASan). */
	if (sched_setscheduler(0, SCHED_IDLE, &none) < 0 && nice(19) < 0 && errno != 0)
		_exit(28);
}

static void writer(enum writer_kind kind)
{
	bool b = false;

	/* Not idle: one process, asleep between rewrites, that must keep
	 * rewriting while 64 idle-class workers run. */
	while (!__atomic_load_n(&sh->stop, __ATOMIC_ACQUIRE)) {
		switch (kind) {
		case BY_RENAME:
			put_by_rename(main_file, b ? policy_b : policy_a);
			break;
		case BY_INSTALL:
			put_by_install(b ? policy_b : policy_a);
			break;
		case IN_PLACE:
			put_in_place(main_file, b ? policy_b : policy_a);
			break;
		case DROPIN_RENAME:
			if (b)
				put_by_rename(dropin_file, dropin_d);
			else if (unlink(dropin_file) < 0 && errno != ENOENT)
				_exit(27);
			break;
		case DROPIN_IN_PLACE:
			if (b)
				put_in_place(dropin_file, dropin_d);
			else if (unlink(dropin_file) < 0 && errno != ENOENT)
				_exit(27);
			break;
		}
		b = !b;
		__atomic_add_fetch(&sh->rewrites, 1, __ATOMIC_RELAXED);
		usleep(WRITE_PAUSE_US);
	}
	_exit(0);
}

static void worker(void)
{
	be_nice();
	for (;;) {
		unsigned i = __atomic_fetch_add(&sh->next, 1, __ATOMIC_RELAXED);

		if (i >= SESSIONS)
			break;
		sh->got[i] = one_session();
	}
	_exit(0);
}

void race(enum writer_kind kind, const struct allowed *set, const char *name)
{
	pid_t writer_pid, workers[WORKERS];
	unsigned counts[MAX_VALUES] = { 0 }, refused = 0, i, bad = 0;
	struct value first_bad = { 0 };
	struct timespec t0, t1;
	int status, w;
	size_t k;

	memset(sh, 0, sizeof(*sh));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	writer_pid = fork();
	ck_assert_int_ge(writer_pid, 0);
	if (writer_pid == 0)
		writer(kind);
	for (w = 0; w < WORKERS; w++) {
		workers[w] = fork();
		ck_assert_int_ge(workers[w], 0);
		if (workers[w] == 0)
			worker();
	}
	for (w = 0; w < WORKERS; w++) {
		ck_assert_int_eq(waitpid(workers[w], &status, 0), workers[w]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "worker %d: status %#x", w, status);
	}
	__atomic_store_n(&sh->stop, true, __ATOMIC_RELEASE);
	ck_assert_int_eq(waitpid(writer_pid, &status, 0), writer_pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the writer failed: status %#x", status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Every session has ended: the PAM stack's directory in /tmp goes
	 * (a case is one race). */
	pml_pam_env_remove(&env);
	for (i = 0; i < SESSIONS; i++) {
		struct value v = sh->got[i];

		ck_assert_msg(v.rc != -2, "%s: session %u hung", name, i);
		ck_assert_msg(v.rc != -3, "%s: session %u died", name, i);
		if (v.rc == PAM_SERVICE_ERR && v.soft == SOFT0 && v.hard == HARD0 &&
		    find(set, (struct value){ .rc = PAM_SERVICE_ERR, .soft = SOFT0,
					       .hard = HARD0 }) != NULL) {
			refused++;
			continue;
		}
		for (k = 0; k < set->n; k++)
			if (same(set->v[k], v))
				break;
		if (k == set->n) {
			if (bad == 0)
				first_bad = v;
			if (bad++ < 5)
				fprintf(stderr, "# %s: session %u: rc %d, limits %llu/%llu: not allowed\n",
					name, i, v.rc, (unsigned long long)v.soft,
					(unsigned long long)v.hard);
			continue;
		}
		counts[k]++;
	}
	fprintf(stderr, "# %s: %u sessions, %d workers, %u rewrites in %.1f s:", name,
		SESSIONS, WORKERS, sh->rewrites,
		(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	for (k = 0; k < set->n; k++)
		if (set->v[k].rc == PAM_SUCCESS)
			fprintf(stderr, " %u %s (%llu/%llu)", counts[k], set->why[k],
				(unsigned long long)set->v[k].soft,
				(unsigned long long)set->v[k].hard);
	fprintf(stderr, ", %u refused, %u not allowed\n", refused, bad);
	/* The first one in the message: CI shows the failure list, not stderr. */
	ck_assert_msg(bad == 0,
		      "%s: %u sessions got a result no version of the policy gives "
		      "(the first: rc %d, limits %llu/%llu)",
		      name, bad, first_bad.rc, (unsigned long long)first_bad.soft,
		      (unsigned long long)first_bad.hard);
	ck_assert_msg(sh->rewrites >= 4, "%s: the writer rewrote the policy only %u times",
		      name, sh->rewrites);
}

struct value value_of(const char *text)
{
	struct value v;

	put_by_rename(main_file, text);
	v = one_session();
	ck_assert_int_eq(v.rc, PAM_SUCCESS);
	return v;
}

void race_setup(void)
{
	/* A new directory and stack: a handle of an earlier case (without
	 * check's fork) has the old one. */
	if (started != NULL) {
		pam_end(started, PAM_SUCCESS);
		started = NULL;
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert(sh != MAP_FAILED);
	private_policy_dir();
	ck_assert_int_eq(pml_memlock_set(SOFT0, HARD0), 0);
}
