/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The module's call, made as the process's owner (see owner.h). */
#include "owner.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the child reports through the pipe. */
struct report {
	int rc;
	struct pml_outcome outcome;
};

long long owner_clock_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/*
 * Reads the report from FD until the child hangs up (it exits: its end of
 * the pipe closes) or DEADLINE passes (*late).  Returns the bytes read, or
 * -errno.
 */
static ssize_t read_report(int fd, long long deadline, struct report *report,
			   bool *late)
{
	char buf[sizeof(*report) + 1];
	size_t got = 0;

	*late = false;
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		long long left = deadline - owner_clock_ms();
		ssize_t n;
		int ready;

		if (left <= 0) {
			*late = true;
			break;
		}
		ready = poll(&p, 1, (int)left);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready < 0)
			return -errno;
		if (ready == 0)
			continue;
		n = read(fd, buf + got, sizeof(buf) - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		/* More than a report is no report: read on to the hangup. */
		got = got + (size_t)n < sizeof(buf) ? got + (size_t)n : sizeof(buf) - 1;
	}
	if (got == sizeof(*report))
		memcpy(report, buf, sizeof(*report));
	return (ssize_t)got;
}

/* Sleeps US microseconds: the poll of reap(). */
static void pause_us(long us)
{
	struct timespec t = { .tv_nsec = us * 1000 };

	nanosleep(&t, NULL);
}

/* Has CHILD ended and been reaped?  ECHILD too: nothing is left to wait for. */
static bool reaped(pid_t child)
{
	int status;
	pid_t r = waitpid(child, &status, WNOHANG);

	return r == child || (r < 0 && errno != EINTR);
}

/* Polls until CHILD is reaped or the clock reaches UNTIL: every wait here
 * is bounded, whatever the child does. */
static bool reaped_by(pid_t child, long long until)
{
	long us = 20;

	while (!reaped(child)) {
		if (owner_clock_ms() >= until)
			return false;
		pause_us(us);
		us = us < 1000 ? us * 2 : us;
	}
	return true;
}

/*
 * Reaps CHILD, killing it at DEADLINE (0: now): its owner may stop it at
 * any moment, after its report too, and SIGKILL ends a stopped process
 * as well.  Should even the killed child linger (a sleep the kernel does
 * not interrupt), it is left to init after OWNER_REAP_MS.  Returns true
 * if the child ended by itself.
 */
static bool reap(pid_t child, long long deadline)
{
	if (deadline > 0 && reaped_by(child, deadline))
		return true;
	kill(child, SIGKILL);
	reaped_by(child, owner_clock_ms() + OWNER_REAP_MS);
	return false;
}

int owner_apply(const struct proc_info *info,
		const struct pml_decision *decision, bool dry_run,
		long long deadline, struct pml_outcome *out, bool *killed)
{
	struct report report = { .rc = -EIO };
	int fds[2];
	ssize_t got;
	pid_t child;
	bool late;

	*killed = false;
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
	got = read_report(fds[0], deadline, &report, &late);
	close(fds[0]);
	/* Hung up, the child has only to finish its exit, in what is left of
	 * its time. */
	*killed = !reap(child, late ? 0 : deadline);
	if (got < 0)
		return (int)got;
	if (late && got != (ssize_t)sizeof(report))
		return -ETIMEDOUT;
	if (got != (ssize_t)sizeof(report))
		return -EIO;
	*out = report.outcome;
	return report.rc;
}
