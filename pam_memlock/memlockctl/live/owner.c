/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The module's call, made as the process's owner (see owner.h). */
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the child reports through the pipe. */
struct report {
	int rc;
	struct pml_outcome outcome;
};

static long long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads the report from FD until it is whole, the child hangs up, or the
 * deadline passes.  Returns the bytes read, or -ETIMEDOUT. */
static ssize_t read_report(int fd, struct report *report)
{
	long long deadline = now_ms() + OWNER_WAIT_SECONDS * 1000LL;
	size_t got = 0;

	while (got < sizeof(*report)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;
		int ready;

		if (left <= 0)
			return -ETIMEDOUT;
		ready = poll(&p, 1, (int)left);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			return ready == 0 ? -ETIMEDOUT : -errno;
		n = read(fd, (char *)report + got, sizeof(*report) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

int owner_apply(const struct proc_info *info,
		const struct pml_decision *decision, bool dry_run,
		struct pml_outcome *out)
{
	struct report report = { .rc = -EIO };
	int fds[2], status;
	ssize_t got;
	pid_t child;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	child = fork();
	if (child < 0) {
		int rc = -errno;

		close(fds[0]);
		close(fds[1]);
		return rc;
	}
	if (child == 0) {
		close(fds[0]);
		report.rc = -EPERM;
		if (setgroups(0, NULL) == 0 &&
		    setresgid(info->gid, info->gid, info->gid) == 0 &&
		    setresuid(info->uid, info->uid, info->uid) == 0)
			report.rc = pml_apply_to(info->pid, decision, dry_run,
						 &report.outcome);
		_exit(write(fds[1], &report, sizeof(report)) == (ssize_t)sizeof(report)
			      ? 0
			      : 1);
	}
	close(fds[1]);
	got = read_report(fds[0], &report);
	close(fds[0]);
	/* Stopped or stuck: a stopped process still dies of SIGKILL. */
	if (got == -ETIMEDOUT)
		kill(child, SIGKILL);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (got < 0)
		return (int)got;
	if (got != (ssize_t)sizeof(report))
		return -EIO;
	*out = report.outcome;
	return report.rc;
}
