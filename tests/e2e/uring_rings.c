/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * uring_rings: a real io_uring client, through liburing, to hold
 * `memlockctl measure`'s numbers against: it opens RINGS rings of ENTRIES
 * entries, registers one page-aligned buffer of BUFFER bytes with the first
 * (0: none), and mlock()s MLOCK bytes (0: none).
 *
 *   uring_rings [--liburing] RINGS ENTRIES BUFFER MLOCK
 *
 * Each ring is set up as measure measures it, with the submission queue's
 * index array, then mapped by liburing (io_uring_queue_mmap()).  With
 * --liburing, io_uring_queue_init() sets it up as it likes: from liburing
 * 2.5 on Linux 6.6 and later without the array (IORING_SETUP_NO_SQARRAY),
 * which needs less, never more.
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
#include <sys/syscall.h>
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

/* A ring with the index array, as measure sets one up: its fd, or -errno.
 * (liburing 2.9's io_uring_queue_mmap() maps the ring but leaves the
 * struct's fd unset: the fd is the caller's to keep.) */
static int ring_with_array(unsigned entries, struct io_uring *ring)
{
	struct io_uring_params p = { .flags = 0 };
	int fd, rc;

	fd = (int)syscall(__NR_io_uring_setup, entries, &p);
	if (fd < 0)
		return -errno;
	rc = io_uring_queue_mmap(fd, &p, ring);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

int main(int argc, char **argv)
{
	unsigned long long rings, entries, buffer, locked, i;
	struct io_uring *ring;
	struct iovec iov;
	int first_fd = -1;
	int as_liburing_likes = argc > 1 && strcmp(argv[1], "--liburing") == 0;
	int rc;

	argv += as_liburing_likes;
	argc -= as_liburing_likes;
	if (argc != 5) {
		fprintf(stderr, "usage: uring_rings [--liburing] RINGS ENTRIES BUFFER MLOCK\n");
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
		rc = as_liburing_likes ? io_uring_queue_init((unsigned)entries, &ring[i], 0)
				       : ring_with_array((unsigned)entries, &ring[i]);
		if (rc < 0)
			return failed("ring", i + 1, -rc);
		if (i == 0)
			first_fd = as_liburing_likes ? ring[0].ring_fd : rc;
	}
	if (buffer > 0) {
		iov.iov_base = touched((size_t)buffer);
		iov.iov_len = (size_t)buffer;
		if (iov.iov_base == NULL)
			return failed("mmap", 0, errno);
		if (first_fd < 0)
			return failed("buffer", 0, EINVAL);
		if (syscall(__NR_io_uring_register, first_fd, IORING_REGISTER_BUFFERS, &iov, 1) < 0)
			return failed("buffer", 0, errno);
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
