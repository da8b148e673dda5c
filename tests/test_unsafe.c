/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Every refusal of the safe open (pam_memlock(8), FILES), each in its
 * own forked child with a timeout, so that a FIFO that hangs the open, or a
 * crash, fails one case instead of the run.
 *
 * The main file through the real module (conf=PATH): exactly
 * PAM_SERVICE_ERR, limits untouched, exactly one LOG_ERR line naming the
 * reason, no descriptor left open.  The drop-in directory memlock.d/ is read
 * only beside the default file, which a test cannot move, so the drop-ins
 * go through the loader itself (pml_policy_load, source.given false) on a
 * private directory: exactly -EINVAL, nothing of the policy kept, exactly
 * the expected lines.  Files that are not drop-ins by name are ignored
 * however unsafe they are.
 *
 * Needs root: the files must be root-owned to pass, and chown() makes the
 * "not owned by root" cases.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "log_buffer.h"
#include "pam_session.h"
#include "policy.h"
#include "safe_read.h"
#include "syslog_capture.h"

#define KiB ((uint64_t)1 << 10)
#define PREFIX "<3> pam_memlock(" PML_TEST_SERVICE ":session): "
#define GOOD_POLICY "limit = \"8 MiB\";\n"
#define OTHER_UID 1234

static struct pml_pam_env env;
static uint64_t start_hard;

static void write_sized(const char *path, size_t size, mode_t mode)
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

static void write_policy(const char *path, mode_t mode)
{
	FILE *f = fopen(path, "we");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(GOOD_POLICY, f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static void make_socket(const char *path)
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

static void teardown(void)
{
	pml_pam_env_remove(&env);
}

/* ---- The main file, through the module. */

/* A service whose module line is "conf=CONF" (%s is the private dir). */
static void make_env(const char *conf_arg)
{
	char args[256];

	snprintf(args, sizeof(args), "conf=%s", conf_arg);
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  NULL), 0);
}

/* "%s" in NAME is the private directory.  Two calls may share a statement. */
static const char *in_dir(const char *name)
{
	static char paths[2][512];
	static int next;
	char *path = paths[next++ % 2];

	snprintf(path, sizeof(paths[0]), name, env.dir);
	return path;
}

/* Runs one session; it must be refused with exactly LINE, limits untouched. */
static void assert_refused(const char *line_fmt)
{
	char want[1024];
	uint64_t soft, hard;
	int fds, rc;

	snprintf(want, sizeof(want), line_fmt, env.dir);
	ck_assert_int_eq(pml_memlock_set(64 * KiB, start_hard), 0);
	pml_capture_reset();
	fds = pml_count_fds();
	rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	ck_assert_int_eq(pml_count_fds(), fds);
	pml_memlock_get(&soft, &hard);
	ck_assert_msg(rc == PAM_SERVICE_ERR, "pam_open_session gave %d (%s); log:\n%s",
		      rc, pam_strerror(NULL, rc), pml_capture_text());
	ck_assert_uint_eq(soft, 64 * KiB);
	ck_assert_uint_eq(hard, start_hard);
	ck_assert_str_eq(pml_capture_text(), want);
}

START_TEST(relative_conf_path)
{
	make_env("memlock.conf");
	/* Even with the file right there in the working directory. */
	ck_assert_int_eq(chdir(env.dir), 0);
	write_policy(in_dir("%s/memlock.conf"), 0644);
	assert_refused(PREFIX "memlock.conf: refused: is not an absolute path\n");
}
END_TEST

START_TEST(symlink_to_a_good_file)
{
	make_env("%s/link.conf");
	write_policy(in_dir("%s/memlock.conf"), 0644);
	ck_assert_int_eq(symlink("memlock.conf", in_dir("%s/link.conf")), 0);
	assert_refused(PREFIX "%s/link.conf: refused: is a symbolic link\n");
}
END_TEST

START_TEST(dangling_symlink)
{
	make_env("%s/link.conf");
	ck_assert_int_eq(symlink("/nonexistent/memlock.conf", in_dir("%s/link.conf")), 0);
	assert_refused(PREFIX "%s/link.conf: refused: is a symbolic link\n");
}
END_TEST

/* O_NONBLOCK: opening a FIFO with no writer must not wait (the timeout). */
START_TEST(fifo_does_not_hang)
{
	make_env("%s/fifo.conf");
	ck_assert_int_eq(mkfifo(in_dir("%s/fifo.conf"), 0644), 0);
	assert_refused(PREFIX "%s/fifo.conf: refused: is not a regular file\n");
}
END_TEST

START_TEST(directory)
{
	make_env("%s/dir.conf");
	ck_assert_int_eq(mkdir(in_dir("%s/dir.conf"), 0755), 0);
	assert_refused(PREFIX "%s/dir.conf: refused: is a directory\n");
}
END_TEST

START_TEST(dev_null)
{
	make_env("/dev/null");
	assert_refused(PREFIX "/dev/null: refused: is not a regular file\n");
}
END_TEST

START_TEST(character_device_node)
{
	make_env("%s/null.conf");
	ck_assert_int_eq(mknod(in_dir("%s/null.conf"), S_IFCHR | 0644, makedev(1, 3)), 0);
	assert_refused(PREFIX "%s/null.conf: refused: is not a regular file\n");
}
END_TEST

/* A socket is refused by its type, seen before anything opens it. */
START_TEST(unix_socket)
{
	make_env("%s/sock.conf");
	make_socket(in_dir("%s/sock.conf"));
	assert_refused(PREFIX "%s/sock.conf: refused: is not a regular file\n");
}
END_TEST

START_TEST(not_owned_by_root)
{
	make_env("%s/memlock.conf");
	write_policy(in_dir("%s/memlock.conf"), 0644);
	ck_assert_int_eq(chown(in_dir("%s/memlock.conf"), OTHER_UID, OTHER_UID), 0);
	assert_refused(PREFIX "%s/memlock.conf: refused: is not owned by root\n");
}
END_TEST

/* Root-owned but group 1234: the group may not write either. */
START_TEST(group_writable)
{
	make_env("%s/memlock.conf");
	write_policy(in_dir("%s/memlock.conf"), 0664);
	ck_assert_int_eq(chown(in_dir("%s/memlock.conf"), 0, OTHER_UID), 0);
	assert_refused(PREFIX "%s/memlock.conf: refused: is writable by group or others\n");
}
END_TEST

START_TEST(world_writable)
{
	make_env("%s/memlock.conf");
	write_policy(in_dir("%s/memlock.conf"), 0646);
	assert_refused(PREFIX "%s/memlock.conf: refused: is writable by group or others\n");
}
END_TEST

START_TEST(larger_than_64_kib)
{
	make_env("%s/memlock.conf");
	write_sized(in_dir("%s/memlock.conf"), PML_FILE_MAX + 1, 0644);
	assert_refused(PREFIX "%s/memlock.conf: refused: is larger than 64 KiB\n");
}
END_TEST

/* The boundary: exactly 64 KiB is still a policy file. */
START_TEST(exactly_64_kib_is_accepted)
{
	uint64_t soft, hard;
	int rc;

	make_env("%s/memlock.conf dry_run");
	write_sized(in_dir("%s/memlock.conf"), PML_FILE_MAX, 0644);
	pml_capture_reset();
	rc = pml_pam_open_close(&env, PML_TEST_SERVICE, "root");
	pml_memlock_get(&soft, &hard);
	ck_assert_msg(rc == PAM_SUCCESS, "gave %d; log:\n%s", rc, pml_capture_text());
	ck_assert_ptr_null(strstr(pml_capture_text(), "<3> "));
}
END_TEST

/* ---- The drop-in directory, through the loader. */

static struct pml_log_buffer logged;

static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_WARNING };

/* A private directory with a good memlock.conf and memlock.d/ (0755). */
static void make_dropin_dir(void)
{
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), "", GOOD_POLICY), 0);
	ck_assert_int_eq(chmod(env.policy, 0644), 0);
	ck_assert_int_eq(mkdir(in_dir("%s/memlock.d"), 0755), 0);
	write_policy(in_dir("%s/memlock.d/10-good.conf"), 0644);
}

/* Loads as the module would without conf=; returns the return code. */
static int load_default(struct pml_policy *policy)
{
	struct pml_source source = { .path = env.policy, .given = false, .owner = 0 };
	int fds = pml_count_fds(), rc;

	logged.text[0] = '\0';
	rc = pml_policy_load(&source, 4096, &log_to_buffer, policy);
	ck_assert_int_eq(pml_count_fds(), fds);
	return rc;
}

static void assert_load_refused(const char *line_fmt)
{
	struct pml_policy policy;
	char want[1024];
	int rc;

	/* Every %s in LINE_FMT is the private directory (three at most). */
	snprintf(want, sizeof(want), line_fmt, env.dir, env.dir, env.dir);
	rc = load_default(&policy);
	ck_assert_msg(rc == -EINVAL, "load gave %d; log:\n%s", rc, logged.text);
	ck_assert_uint_eq(policy.n_files, 0);
	ck_assert_ptr_null(policy.files);
	ck_assert_ptr_null(policy.rules);
	ck_assert_str_eq(logged.text, want);
}

START_TEST(dropins_good_directory_loads)
{
	struct pml_policy policy;

	make_dropin_dir();
	ck_assert_int_eq(load_default(&policy), 0);
	ck_assert_str_eq(logged.text, "");
	ck_assert_uint_eq(policy.n_files, 2);
	pml_policy_free(&policy);
}
END_TEST

START_TEST(dropin_dir_is_a_symlink)
{
	make_dropin_dir();
	ck_assert_int_eq(rename(in_dir("%s/memlock.d"), in_dir("%s/real.d")), 0);
	ck_assert_int_eq(symlink("real.d", in_dir("%s/memlock.d")), 0);
	assert_load_refused("%s/memlock.d: refused: is a symbolic link\n");
}
END_TEST

START_TEST(dropin_dir_is_a_file)
{
	make_dropin_dir();
	ck_assert_int_eq(unlink(in_dir("%s/memlock.d/10-good.conf")), 0);
	ck_assert_int_eq(rmdir(in_dir("%s/memlock.d")), 0);
	write_policy(in_dir("%s/memlock.d"), 0644);
	assert_load_refused("%s/memlock.d: refused: is not a directory\n");
}
END_TEST

START_TEST(dropin_dir_is_a_fifo)
{
	make_dropin_dir();
	ck_assert_int_eq(unlink(in_dir("%s/memlock.d/10-good.conf")), 0);
	ck_assert_int_eq(rmdir(in_dir("%s/memlock.d")), 0);
	ck_assert_int_eq(mkfifo(in_dir("%s/memlock.d"), 0755), 0);
	assert_load_refused("%s/memlock.d: refused: is not a directory\n");
}
END_TEST

START_TEST(dropin_dir_not_owned_by_root)
{
	make_dropin_dir();
	ck_assert_int_eq(chown(in_dir("%s/memlock.d"), OTHER_UID, OTHER_UID), 0);
	assert_load_refused("%s/memlock.d: refused: is not owned by root\n");
}
END_TEST

START_TEST(dropin_dir_group_writable)
{
	make_dropin_dir();
	ck_assert_int_eq(chmod(in_dir("%s/memlock.d"), 0775), 0);
	assert_load_refused("%s/memlock.d: refused: is writable by group or others\n");
}
END_TEST

/* The sticky bit does not make a world-writable directory safe. */
START_TEST(dropin_dir_world_writable)
{
	make_dropin_dir();
	ck_assert_int_eq(chmod(in_dir("%s/memlock.d"), 01777), 0);
	assert_load_refused("%s/memlock.d: refused: is writable by group or others\n");
}
END_TEST

START_TEST(dropin_symlink)
{
	make_dropin_dir();
	ck_assert_int_eq(symlink("10-good.conf", in_dir("%s/memlock.d/20-link.conf")), 0);
	assert_load_refused("%s/memlock.d/20-link.conf: refused: is a symbolic link\n");
}
END_TEST

START_TEST(dropin_fifo_does_not_hang)
{
	make_dropin_dir();
	ck_assert_int_eq(mkfifo(in_dir("%s/memlock.d/20-fifo.conf"), 0644), 0);
	assert_load_refused("%s/memlock.d/20-fifo.conf: refused: is not a regular file\n");
}
END_TEST

START_TEST(dropin_directory)
{
	make_dropin_dir();
	ck_assert_int_eq(mkdir(in_dir("%s/memlock.d/20-dir.conf"), 0755), 0);
	assert_load_refused("%s/memlock.d/20-dir.conf: refused: is a directory\n");
}
END_TEST

START_TEST(dropin_character_device)
{
	make_dropin_dir();
	ck_assert_int_eq(mknod(in_dir("%s/memlock.d/20-null.conf"), S_IFCHR | 0644,
			       makedev(1, 3)), 0);
	assert_load_refused("%s/memlock.d/20-null.conf: refused: is not a regular file\n");
}
END_TEST

START_TEST(dropin_socket)
{
	make_dropin_dir();
	make_socket(in_dir("%s/memlock.d/20-sock.conf"));
	assert_load_refused("%s/memlock.d/20-sock.conf: refused: is not a regular file\n");
}
END_TEST

START_TEST(dropin_not_owned_by_root)
{
	make_dropin_dir();
	write_policy(in_dir("%s/memlock.d/20-other.conf"), 0644);
	ck_assert_int_eq(chown(in_dir("%s/memlock.d/20-other.conf"), OTHER_UID, 0), 0);
	assert_load_refused("%s/memlock.d/20-other.conf: refused: is not owned by root\n");
}
END_TEST

START_TEST(dropin_group_writable)
{
	make_dropin_dir();
	write_policy(in_dir("%s/memlock.d/20-group.conf"), 0620);
	assert_load_refused("%s/memlock.d/20-group.conf: refused: is writable by group or others\n");
}
END_TEST

START_TEST(dropin_world_writable)
{
	make_dropin_dir();
	write_policy(in_dir("%s/memlock.d/20-world.conf"), 0666);
	assert_load_refused("%s/memlock.d/20-world.conf: refused: is writable by group or others\n");
}
END_TEST

START_TEST(dropin_larger_than_64_kib)
{
	make_dropin_dir();
	write_sized(in_dir("%s/memlock.d/20-big.conf"), PML_FILE_MAX + 1, 0644);
	assert_load_refused("%s/memlock.d/20-big.conf: refused: is larger than 64 KiB\n");
}
END_TEST

/* Every bad drop-in is reported, in name order, and none of them is used. */
START_TEST(every_bad_dropin_is_reported)
{
	make_dropin_dir();
	ck_assert_int_eq(symlink("10-good.conf", in_dir("%s/memlock.d/30-link.conf")), 0);
	ck_assert_int_eq(mkfifo(in_dir("%s/memlock.d/20-fifo.conf"), 0644), 0);
	write_policy(in_dir("%s/memlock.d/40-world.conf"), 0666);
	assert_load_refused("%s/memlock.d/20-fifo.conf: refused: is not a regular file\n"
			    "%s/memlock.d/30-link.conf: refused: is a symbolic link\n"
			    "%s/memlock.d/40-world.conf: refused: is writable by group or others\n");
}
END_TEST

/* An unsafe main file stops the drop-ins from counting too. */
START_TEST(unsafe_main_file_with_good_dropins)
{
	make_dropin_dir();
	ck_assert_int_eq(chmod(env.policy, 0666), 0);
	assert_load_refused("%s/memlock.conf: refused: is writable by group or others\n");
}
END_TEST

/* Names that are not drop-ins are never opened, however unsafe. */
START_TEST(non_dropin_names_are_ignored)
{
	struct pml_policy policy;

	make_dropin_dir();
	ck_assert_int_eq(mkfifo(in_dir("%s/memlock.d/.hidden.conf"), 0644), 0);
	ck_assert_int_eq(mkfifo(in_dir("%s/memlock.d/20-fifo.conf.bak"), 0644), 0);
	ck_assert_int_eq(symlink("/etc/shadow", in_dir("%s/memlock.d/README")), 0);
	write_policy(in_dir("%s/memlock.d/30-world.conf~"), 0666);
	write_policy(in_dir("%s/memlock.d/.conf"), 0666);
	ck_assert_int_eq(mkdir(in_dir("%s/memlock.d/50-dir"), 0777), 0);
	ck_assert_int_eq(load_default(&policy), 0);
	ck_assert_str_eq(logged.text, "");
	ck_assert_uint_eq(policy.n_files, 2);
	pml_policy_free(&policy);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("unsafe");
	TCase *tc = tcase_create("unsafe");
	struct pml_skip skips[64];
	size_t n_skips = 0;
	uint64_t soft;
	bool root = geteuid() == 0;
	bool mknod_ok = root && can_mknod();

	pml_memlock_get(&soft, &start_hard);
	tcase_add_checked_fixture(tc, NULL, teardown);
	/* A FIFO opened without O_NONBLOCK blocks forever: fail, do not hang. */
	tcase_set_timeout(tc, 10);
#define CASE(fn, ok, why) do { \
		if (ok) tcase_add_test(tc, fn); \
		else skips[n_skips++] = (struct pml_skip){ #fn, why }; \
	} while (0)
#define NEED_ROOT "needs root: policy files must be root-owned, and chown makes the other cases"
#define NEED_MKNOD "needs CAP_MKNOD to make a device node"
	CASE(relative_conf_path, root, NEED_ROOT);
	CASE(symlink_to_a_good_file, root, NEED_ROOT);
	CASE(dangling_symlink, root, NEED_ROOT);
	CASE(fifo_does_not_hang, root, NEED_ROOT);
	CASE(directory, root, NEED_ROOT);
	CASE(dev_null, root, NEED_ROOT);
	CASE(character_device_node, mknod_ok, NEED_MKNOD);
	CASE(unix_socket, root, NEED_ROOT);
	CASE(not_owned_by_root, root, NEED_ROOT);
	CASE(group_writable, root, NEED_ROOT);
	CASE(world_writable, root, NEED_ROOT);
	CASE(larger_than_64_kib, root, NEED_ROOT);
	CASE(exactly_64_kib_is_accepted, root, NEED_ROOT);
	CASE(dropins_good_directory_loads, root, NEED_ROOT);
	CASE(dropin_dir_is_a_symlink, root, NEED_ROOT);
	CASE(dropin_dir_is_a_file, root, NEED_ROOT);
	CASE(dropin_dir_is_a_fifo, root, NEED_ROOT);
	CASE(dropin_dir_not_owned_by_root, root, NEED_ROOT);
	CASE(dropin_dir_group_writable, root, NEED_ROOT);
	CASE(dropin_dir_world_writable, root, NEED_ROOT);
	CASE(dropin_symlink, root, NEED_ROOT);
	CASE(dropin_fifo_does_not_hang, root, NEED_ROOT);
	CASE(dropin_directory, root, NEED_ROOT);
	CASE(dropin_character_device, mknod_ok, NEED_MKNOD);
	CASE(dropin_socket, root, NEED_ROOT);
	CASE(dropin_not_owned_by_root, root, NEED_ROOT);
	CASE(dropin_group_writable, root, NEED_ROOT);
	CASE(dropin_world_writable, root, NEED_ROOT);
	CASE(dropin_larger_than_64_kib, root, NEED_ROOT);
	CASE(every_bad_dropin_is_reported, root, NEED_ROOT);
	CASE(unsafe_main_file_with_good_dropins, root, NEED_ROOT);
	CASE(non_dropin_names_are_ignored, root, NEED_ROOT);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, skips, n_skips);
}
