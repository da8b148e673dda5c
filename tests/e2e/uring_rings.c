/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * uring_rings: a real io_uring client, through liburing, to hold
 * `memlockctl measure`'s numbers against: it opens RINGS rings of ENTRIES
 * entries with io_uring_queue_init(), registers one page-aligned buffer of
 * BUFFER bytes with the first (0: none), and mlock()s MLOCK bytes (0: none).
 *
 *   uring_rings RINGS ENTRIES BUFFER MLOCK
 *
 * Prints one line on stdout and exits with:
 *   "ok"                        0  everything succeeded
 *   "ring N: ENOMEM"            2  the Nth ring (from 1) did not fit
 *   "buffer: ENOMEM"            2  the buffer did not fit
 *   "mlock: ENOMEM"             2  the mlock did not fit
 *   "ring N: <error>" etc.      1  anything else
 * Run it as a uid without CAP_IPC_LOCK, whose charges are its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include <liburing.h>

static unsigned long long number(const char *text)
{
	char *end = NULL;
	unsigned long long n;

	errno = 0;
	n = strtoull(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0') {
		fprintf(stderr, "uring_rings: bad number \"%s\"\n", text);
		exit(1);
	}
	return n;
}

static int failed(const char *what, unsigned long long n, int err)
{
	if (n > 0)
		printf("%s %llu: %s\n", what, n, err == ENOMEM ? "ENOMEM" : strerror(err));
	else
		printf("%s: %s\n", what, err == ENOMEM ? "ENOMEM" : strerror(err));
	return err == ENOMEM ? 2 : 1;
}

/* Page-aligned and touched, so that the kernel pins real pages. */
static void *touched(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, size);
	return p;
}

int main(int argc, char **argv)
{
	unsigned long long rings, entries, buffer, locked, i;
	struct io_uring *ring;
	struct iovec iov;
	int rc;

	if (argc != 5) {
		fprintf(stderr, "usage: %s RINGS ENTRIES BUFFER MLOCK\n", argv[0]);
		return 1;
	}
	rings = number(argv[1]);
	entries = number(argv[2]);
	buffer = number(argv[3]);
	locked = number(argv[4]);
	ring = calloc(rings > 0 ? rings : 1, sizeof(*ring));
	if (ring == NULL)
		return failed("calloc", 0, errno);
	for (i = 0; i < rings; i++) {
		rc = io_uring_queue_init((unsigned)entries, &ring[i], 0);
		if (rc < 0)
			return failed("ring", i + 1, -rc);
	}
	if (buffer > 0) {
		iov.iov_base = touched((size_t)buffer);
		iov.iov_len = (size_t)buffer;
		if (iov.iov_base == NULL)
			return failed("mmap", 0, errno);
		rc = rings > 0 ? io_uring_register_buffers(&ring[0], &iov, 1) : -EINVAL;
		if (rc < 0)
			return failed("buffer", 0, -rc);
	}
	if (locked > 0) {
		void *p = touched((size_t)locked);

		if (p == NULL)
			return failed("mmap", 0, errno);
		if (mlock(p, (size_t)locked) < 0)
			return failed("mlock", 0, errno);
	}
	printf("ok\n");
	return 0;
}
