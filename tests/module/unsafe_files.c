/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "unsafe_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "harness.h"

struct pml_pam_env env;
uint64_t start_hard;

void write_sized(const char *path, size_t size, mode_t mode)
{
	/* A valid policy padded with a comment to exactly SIZE bytes. */
	static const char head[] = GOOD_POLICY "#";
	char *text = malloc(size);
	int fd;

	ck_assert_ptr_nonnull(text);
	ck_assert_uint_ge(size, sizeof(head));
	memcpy(text, head, sizeof(head) - 1);
	memset(text + sizeof(head) - 1, 'x', size - sizeof(head));
	text[size - 1] = '\n';
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, text, size), (ssize_t)size);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
	free(text);
}

void write_policy(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "we");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(GOOD_POLICY, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

void make_socket(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_uint_lt(strlen(path), sizeof(addr.sun_path));
	memcpy(addr.sun_path, path, strlen(path) + 1);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	close(fd);
}

/* Can this process make device nodes (no CAP_MKNOD in some containers)? */
static bool can_mknod(void)
{
	char path[] = "/tmp/pml-mknod-XXXXXX";
	char node[64];
	bool ok;

	if (mkdtemp(path) == NULL)
		return false;
	snprintf(node, sizeof(node), "%s/null", path);
	ok = mknod(node, S_IFCHR | 0644, makedev(1, 3)) == 0;
	unlink(node);
	rmdir(path);
	return ok;
}

/* "%s" in NAME is the private directory.  Two calls may share a statement. */
const char *in_dir(const char *name)
{
	static char paths[2][512];
	static int next;
	char *path = paths[next++ % 2];

	snprintf(path, sizeof(paths[0]), name, env.dir);
	return path;
}


static void teardown(void)
{
	pml_pam_env_remove(&env);
}

int run_unsafe_cases(const char *name, const TTest *const *cases, size_t n,
		     const TTest *mknod_case)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	struct pml_skip skips[64];
	size_t n_skips = 0, i;
	uint64_t soft;
	bool root = geteuid() == 0;
	bool mknod_ok = root && can_mknod();

	pml_memlock_get(&soft, &start_hard);
	tcase_add_checked_fixture(tc, NULL, teardown);
	/* A FIFO opened without O_NONBLOCK blocks forever: fail, do not hang. */
	tcase_set_timeout(tc, 10);
	for (i = 0; i < n; i++) {
		const TTest *test = cases[i];
		bool mknod = test == mknod_case;

		if (mknod ? mknod_ok : root)
			tcase_add_test(tc, test);
		else
			skips[n_skips++] = (struct pml_skip){
				.name = test->name,
				.reason = mknod ?
					"needs CAP_MKNOD to make a device node" :
					"needs root: policy files must be root-owned, and chown makes the other cases",
			};
	}
	suite_add_tcase(s, tc);
	return pml_run_tap(s, skips, n_skips);
}
