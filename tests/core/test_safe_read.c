/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * core/safe_read.c: a file rewritten while it is read.  The kernel can
 * hand one read the start of one version and the end of the next, so the
 * reader takes a text only when two reads in a row agree.  What each read
 * sees is scripted here: this program's own pread() stands in for libc's,
 * the one the core's static library calls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "safe_read.h"

#define MAX_READS 8

static const char *script[MAX_READS]; /* what each read sees, in turn */
static unsigned reads;

ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	const char *text = reads < MAX_READS ? script[reads] : NULL;
	size_t len;

	(void)fd;
	reads++;
	if (text == NULL || offset != 0) {
		errno = EIO; /* more reads than scripted */
		return -1;
	}
	len = strlen(text) < count ? strlen(text) : count;
	memcpy(buf, text, len);
	return (ssize_t)len;
}

/* Built with _FORTIFY_SOURCE (as Debian builds the package), the core may
 * call glibc's checked entry instead: it reads the same script. */
ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen);

ssize_t __pread_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen)
{
	(void)buflen;
	return pread(fd, buf, count, offset);
}

ssize_t __pread64_chk(int fd, void *buf, size_t count, off_t offset, size_t buflen)
{
	(void)buflen;
	return pread(fd, buf, count, offset);
}

#define A "soft = \"1 MiB\";\nhard = \"3 MiB\";\n"
#define B "soft = \"2 MiB\";\nhard = \"5 MiB\";\n"
#define TORN "soft = \"1 MiB\";\nhard = \"5 MiB\";\n" /* A's start, B's end */

static const struct {
	const char *name;
	const char *reads[MAX_READS];
	int rc;		  /* 0 or -errno */
	const char *text; /* what is taken, when rc is 0 */
	unsigned n_reads;
} cases[] = {
	{ "a file that holds still is read twice", { A, A }, 0, A, 2 },
	{ "a torn read is read again until two agree", { TORN, A, A }, 0, A, 3 },
	{ "a rewrite between two reads: the newer text, once it holds", { A, B, B }, 0, B, 3 },
	{ "a file truncated between two reads", { A, "", "" }, 0, "", 3 },
	{ "two torn reads never make a text", { TORN, A, TORN, B }, -EAGAIN, NULL, 4 },
	{ "a file that keeps changing is refused after four reads", { A, B, A, B }, -EAGAIN, NULL, 4 },
};

START_TEST(reads_until_two_agree)
{
	char path[] = "/tmp/pml-safe-read-XXXXXX";
	struct pml_text text = { 0 };
	const char *why = NULL;
	int fd = mkstemp(path), rc;

	ck_assert_int_ge(fd, 0);
	/* The file's own size is what fstat says: a real file, scripted reads. */
	ck_assert_int_eq(write(fd, A, strlen(A)), (int)strlen(A));
	close(fd);
	memcpy(script, cases[_i].reads, sizeof(script));
	reads = 0;
	rc = pml_read_file_at(AT_FDCWD, path, PML_ANY_OWNER, &text, &why);
	unlink(path);
	ck_assert_msg(rc == cases[_i].rc, "%s: rc %d, want %d", cases[_i].name, rc, cases[_i].rc);
	ck_assert_msg(reads == cases[_i].n_reads, "%s: %u reads, want %u", cases[_i].name, reads,
		      cases[_i].n_reads);
	if (rc == 0) {
		ck_assert_str_eq(text.data, cases[_i].text);
		ck_assert_uint_eq(text.len, strlen(cases[_i].text));
	} else {
		ck_assert_ptr_null(text.data);
		ck_assert_str_eq(why, "changed while it was read: is it being written in place?");
	}
	pml_text_free(&text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("safe_read");
	TCase *tc = tcase_create("rewritten while read");

	tcase_add_loop_test(tc, reads_until_two_agree, 0, (int)(sizeof(cases) / sizeof(cases[0])));
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
