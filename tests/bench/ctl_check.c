/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The session-cost benchmark's `memlockctl check` on big policies
 * (bench.h): one file, and drop-ins under a private etc.
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

void time_memlockctl(const struct options *o)
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
