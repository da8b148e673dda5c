/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The child's side of a measurement: raw system calls, so that memlockctl
 * needs no liburing and the module gains nothing.  It maps and pins what
 * liburing's io_uring_queue_init() would: the setup call, then the
 * submission ring, the completion ring (unless the kernel shares one
 * mapping) and the submission entries.
 */
#include "probe.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Linux 6.5; older headers (Debian 12's) have neither name. */
#ifndef IORING_SETUP_NO_MMAP
#define IORING_SETUP_NO_MMAP (1U << 14)
#endif
#ifdef HAVE_STRUCT_IO_SQRING_OFFSETS_USER_ADDR
#define USER_ADDR user_addr
#else
#define USER_ADDR resv2
#endif

/* The child's exit status when it could not become an unprivileged uid
 * with the limit asked for: never an errno of a measured call. */
#define EXIT_NO_IDENTITY 255

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

static size_t round_up(size_t n, size_t page)
{
	return (n + page - 1) / page * page;
}

/* Anonymous memory, touched, so that the kernel pins real pages. */
static void *touched(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, len);
	return p;
}

/*
 * With IORING_SETUP_NO_MMAP the rings and entries live in the caller's
 * memory, which must be large enough before the kernel says how large:
 * each is given room to spare (the kernel pins only what it uses).
 */
static int give_memory(unsigned entries, struct io_uring_params *p)
{
	size_t page = page_size();
	size_t rings = round_up((size_t)entries * 2 * 16 + (size_t)entries * 4, page) + 2 * page;
	size_t sqes = round_up((size_t)entries * 64, page);
	void *r = touched(rings), *s = touched(sqes);

	if (r == NULL || s == NULL)
		return -ENOMEM;
	p->cq_off.USER_ADDR = (uint64_t)(uintptr_t)r;
	p->sq_off.USER_ADDR = (uint64_t)(uintptr_t)s;
	return 0;
}

static int map_ring(int fd, size_t len, off_t offset)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       fd, offset);

	return p == MAP_FAILED ? -errno : 0;
}

/* One ring: the fd, or -errno. */
static int ring_open(unsigned entries, bool no_mmap)
{
	struct io_uring_params p = { .flags = no_mmap ? IORING_SETUP_NO_MMAP : 0 };
	size_t sq, cq;
	int fd, rc;

	if (no_mmap && (rc = give_memory(entries, &p)) < 0)
		return rc;
	fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (fd < 0)
		return -errno;
	if (no_mmap)
		return fd;
	sq = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cq = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP)
		sq = cq = sq > cq ? sq : cq;
	rc = map_ring(fd, sq, IORING_OFF_SQ_RING);
	if (rc == 0 && !(p.features & IORING_FEAT_SINGLE_MMAP))
		rc = map_ring(fd, cq, IORING_OFF_CQ_RING);
	if (rc == 0)
		rc = map_ring(fd, p.sq_entries * sizeof(struct io_uring_sqe), IORING_OFF_SQES);
	return rc < 0 ? rc : fd;
}

/* BYTES of touched memory, starting at a page or just past one. */
static void *region(uint64_t bytes, bool unaligned)
{
	size_t offset = unaligned ? MEASURE_UNALIGNED_OFFSET : 0;
	char *p = touched(round_up((size_t)bytes + offset, page_size()));

	return p == NULL ? NULL : p + offset;
}

static int register_buffer(int fd, uint64_t bytes, bool unaligned)
{
	struct iovec iov = { .iov_base = region(bytes, unaligned), .iov_len = (size_t)bytes };

	if (iov.iov_base == NULL)
		return -ENOMEM;
	return syscall(__NR_io_uring_register, fd, IORING_REGISTER_BUFFERS, &iov, 1) < 0
		       ? -errno
		       : 0;
}

static int set_limit(uint64_t bytes)
{
	struct rlimit r = { .rlim_cur = bytes, .rlim_max = bytes };

	return setrlimit(RLIMIT_MEMLOCK, &r) < 0 ? -errno : 0;
}

static int soft_to_hard(void)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_MEMLOCK, &r) < 0)
		return -errno;
	r.rlim_cur = r.rlim_max;
	return setrlimit(RLIMIT_MEMLOCK, &r) < 0 ? -errno : 0;
}

/* What the probe does once it is who it should be.  0 or -errno. */
static int measured_calls(const struct measure_probe *probe, uint64_t limit)
{
	void *buf;
	unsigned i;
	int fd = -1, rc;

	switch (probe->kind) {
	case MEASURE_BUFFER:
		/* The ring first, with the soft limit at the hard one the
		 * child came with; the limit is then lowered for the
		 * registration alone, which the kernel checks against the
		 * uid's whole charge. */
		if ((rc = soft_to_hard()) < 0)
			return rc;
		fd = ring_open(MEASURE_BUFFER_RING, false);
		if (fd < 0)
			return fd;
		return (rc = set_limit(limit)) < 0 ? rc
						   : register_buffer(fd, probe->bytes, probe->unaligned);
	case MEASURE_MLOCK:
		if ((rc = set_limit(limit)) < 0)
			return rc;
		buf = region(probe->bytes, probe->unaligned);
		if (buf == NULL)
			return -ENOMEM;
		/* The system call itself: a sanitizer's mlock() does nothing.
		 * At a limit of 0 it says EPERM where it means "no room". */
		if (syscall(SYS_mlock, buf, (size_t)probe->bytes) < 0)
			return errno == EPERM && limit == 0 ? -ENOMEM : -errno;
		return 0;
	case MEASURE_RING:
	case MEASURE_WORKLOAD:
		if ((rc = set_limit(limit)) < 0)
			return rc;
		for (i = 0; i < (probe->kind == MEASURE_RING ? 1 : probe->rings); i++) {
			rc = ring_open(probe->entries, probe->no_mmap);
			if (rc < 0)
				return rc;
			if (fd < 0)
				fd = rc;
		}
		return probe->kind == MEASURE_WORKLOAD && probe->bytes > 0
			       ? register_buffer(fd, probe->bytes, probe->unaligned)
			       : 0;
	}
	return -EINVAL;
}

/* The capability that would exempt the child from the limit. */
static bool has_ipc_lock(void)
{
	struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &header, data) < 0)
		return true;
	return (data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective & CAP_TO_MASK(CAP_IPC_LOCK)) != 0;
}

static int become(const struct measure_identity *id)
{
	if (setgroups(id->extra_group ? 1 : 0, &id->group) < 0 ||
	    setresgid(id->gid, id->gid, id->gid) < 0 ||
	    setresuid(id->uid, id->uid, id->uid) < 0 || has_ipc_lock())
		return -1;
	return 0;
}

static int child_exit_code(int rc)
{
	return rc == 0 ? 0 : -rc > 0 && -rc < EXIT_NO_IDENTITY ? -rc
							       : EINVAL;
}

int measure_probe_run(const struct measure_probe *probe,
		      const struct measure_identity *id, uint64_t limit)
{
	struct rlimit now;
	pid_t pid;
	int status;

	if (getrlimit(RLIMIT_MEMLOCK, &now) < 0)
		return -errno;
	if (limit > now.rlim_max)
		return -ERANGE;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Not a word on stdout or stderr: the parent reads the exit
		 * status alone. */
		if (become(id) < 0)
			_exit(EXIT_NO_IDENTITY);
		_exit(child_exit_code(measured_calls(probe, limit)));
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -ECHILD;
	if (WEXITSTATUS(status) == EXIT_NO_IDENTITY)
		return -EACCES;
	return -WEXITSTATUS(status);
}
