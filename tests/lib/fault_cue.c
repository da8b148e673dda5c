/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Preloaded into memlockctl by tests/memlockctl/live/apply.sh and tests/memlockctl/policy/install-cmd.sh:
 * makes happen on cue the moments a test cannot hit by timing.  Each is
 * asked for by an environment variable; without any, nothing changes.
 *
 *   PML_CUE_PRLIMIT_PID=PID, PML_CUE_HOLD=PATH
 *       the first prlimit(2) on PID, in whichever process makes it,
 *       creates PATH.ready and waits (20 s at most) for PATH.go: the
 *       test changes the world in between (the pid passes to another
 *       process).
 *   PML_CUE_STOP_UNPRIVILEGED=1
 *       a process whose real uid is not 0 stops itself (SIGSTOP) before
 *       its prlimit(2): as the owner of a process that apply changes can
 *       stop the child apply made to act as that owner.
 *   PML_CUE_STOP_AFTER_WRITE=1
 *       a process whose real uid is not 0 stops itself (SIGSTOP) after
 *       each write(2): the owner stopping apply's child once it has sent
 *       its report, before it exits.
 *   PML_CUE_FSYNC_SIGNAL=N
 *       the first fsync(2) raises signal N before it syncs: a Ctrl-C or
 *       a kill between install's mkstemp and its rename.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int fsync(int fd);

static void hold(pid_t pid)
{
	const char *cue = getenv("PML_CUE_PRLIMIT_PID"), *path = getenv("PML_CUE_HOLD");
	char ready[4096], go[4096];
	int i, fd;

	if (cue == NULL || path == NULL || atoi(cue) != (int)pid)
		return;
	snprintf(ready, sizeof(ready), "%s.ready", path);
	snprintf(go, sizeof(go), "%s.go", path);
	if (access(go, F_OK) == 0)
		return; /* released already: only the first call waits */
	fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	for (i = 0; i < 2000 && access(go, F_OK) != 0; i++)
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
}

static void cue_prlimit(pid_t pid)
{
	const char *stop = getenv("PML_CUE_STOP_UNPRIVILEGED");

	if (stop != NULL && getuid() != 0)
		raise(SIGSTOP);
	hold(pid);
}

/*
 * The call itself goes straight to the kernel: where off_t and rlim_t are
 * 64-bit (the build asks for that on 32-bit targets too), glibc's
 * prlimit is prlimit64, and struct rlimit is the syscall's own layout.
 */
_Static_assert(sizeof(rlim_t) == 8, "rlim_t must be 64-bit (large file support)");

int prlimit(pid_t pid, enum __rlimit_resource resource,
	    const struct rlimit *new_limit, struct rlimit *old_limit)
{
	cue_prlimit(pid);
	return (int)syscall(SYS_prlimit64, pid, resource, new_limit, old_limit);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	static ssize_t (*next)(int, const void *, size_t);
	ssize_t n;

	if (next == NULL)
		next = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	n = next(fd, buf, len);
	if (getenv("PML_CUE_STOP_AFTER_WRITE") != NULL && getuid() != 0)
		raise(SIGSTOP);
	return n;
}

int fsync(int fd)
{
	static int raised;
	const char *cue = getenv("PML_CUE_FSYNC_SIGNAL");
	int (*next)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");

	if (cue != NULL && !raised) {
		raised = 1;
		raise(atoi(cue));
	}
	return next(fd);
}
