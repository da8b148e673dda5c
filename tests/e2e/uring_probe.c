/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * uring_probe: register one fixed buffer of SIZE bytes with io_uring, the
 * thing a 64 KiB RLIMIT_MEMLOCK breaks for ordinary users.
 *
 *   uring_probe SIZE
 *
 * Prints one word on stdout and exits with a code the e2e scripts test:
 *   "registered"   0  io_uring_register_buffers succeeded
 *   "ENOMEM"       2  the buffer did not fit under RLIMIT_MEMLOCK
 *   "unusable: ."  3  io_uring itself is not available here (disabled by
 *                     sysctl, seccomp, an old kernel): the caller skips
 *   "error: ..."   1  anything else
 * Registered buffers are charged to the user's locked memory unless the
 * process has CAP_IPC_LOCK, so run it as an unprivileged user.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include <liburing.h>

int main(int argc, char **argv)
{
	struct io_uring ring;
	struct iovec iov;
	struct rlimit limit;
	char *end = NULL;
	unsigned long long size;
	void *buffer = NULL;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s SIZE\n", argv[0]);
		return 1;
	}
	errno = 0;
	size = strtoull(argv[1], &end, 10);
	if (errno != 0 || end == argv[1] || *end != '\0' || size == 0) {
		fprintf(stderr, "uring_probe: bad size \"%s\"\n", argv[1]);
		return 1;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &limit) == 0)
		fprintf(stderr, "uring_probe: uid %u, RLIMIT_MEMLOCK soft %llu hard %llu\n",
			(unsigned)getuid(), (unsigned long long)limit.rlim_cur,
			(unsigned long long)limit.rlim_max);

	rc = io_uring_queue_init(4, &ring, 0);
	if (rc < 0) {
		printf("unusable: io_uring_queue_init: %s\n", strerror(-rc));
		return 3;
	}
	/* Page-aligned and touched, so the kernel pins real pages. */
	rc = posix_memalign(&buffer, (size_t)sysconf(_SC_PAGESIZE), (size_t)size);
	if (rc != 0) {
		printf("error: posix_memalign: %s\n", strerror(rc));
		return 1;
	}
	memset(buffer, 0x5a, (size_t)size);
	iov.iov_base = buffer;
	iov.iov_len = (size_t)size;

	rc = io_uring_register_buffers(&ring, &iov, 1);
	if (rc == -ENOMEM) {
		printf("ENOMEM\n");
		rc = 2;
	} else if (rc < 0) {
		printf("error: io_uring_register_buffers: %s\n", strerror(-rc));
		rc = 1;
	} else {
		printf("registered\n");
		io_uring_unregister_buffers(&ring);
		rc = 0;
	}
	io_uring_queue_exit(&ring);
	free(buffer);
	return rc;
}
