/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlock_hold: lock and pin memory, then wait to be killed, so that
 * memlockctl status has a running process to see.
 *
 *   memlock_hold LOCK PIN
 *
 * mlock()s LOCK bytes (VmLck) and registers a PIN-byte io_uring buffer
 * (VmPin, charged to the user as a whole), then prints one line on stdout
 * and sleeps until a signal ends it:
 *   "ready"           both done (or 0 asked)
 *   "unusable: ..."   io_uring is not usable here (disabled, seccomp, built
 *                     without liburing): the memory is locked, not pinned
 *   "error: ..."      anything else; it exits 1
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef PML_HAVE_LIBURING
#include <liburing.h>
#endif

static void *touched(size_t size)
{
	void *p = NULL;

	if (posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), size) != 0)
		return NULL;
	memset(p, 0x5a, size);
	return p;
}

/* Returns 0, or 3 with the line printed when io_uring is unusable. */
static int pin(size_t size)
{
#ifdef PML_HAVE_LIBURING
	static struct io_uring ring;
	struct iovec iov;
	int rc;

	rc = io_uring_queue_init(4, &ring, 0);
	if (rc < 0) {
		printf("unusable: io_uring_queue_init: %s\n", strerror(-rc));
		return 3;
	}
	iov.iov_base = touched(size);
	iov.iov_len = size;
	if (iov.iov_base == NULL) {
		printf("error: out of memory\n");
		exit(1);
	}
	rc = io_uring_register_buffers(&ring, &iov, 1);
	if (rc < 0) {
		printf("error: io_uring_register_buffers: %s\n", strerror(-rc));
		exit(1);
	}
	return 0;
#else
	(void)size;
	printf("unusable: built without liburing\n");
	return 3;
#endif
}

int main(int argc, char **argv)
{
	unsigned long lock, pinned;
	void *p;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LOCK PIN\n", argv[0]);
		return 1;
	}
	lock = strtoul(argv[1], NULL, 10);
	pinned = strtoul(argv[2], NULL, 10);
	if (lock > 0) {
		p = touched(lock);
		if (p == NULL || mlock(p, lock) < 0) {
			printf("error: mlock: %s\n", strerror(errno));
			return 1;
		}
	}
	if (pinned == 0 || pin(pinned) == 0)
		printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
