/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Every refusal of the safe open (pam_memlock(8), FILES) for the main
 * file, through the real module (conf=PATH): exactly PAM_SERVICE_ERR,
 * limits untouched, exactly one LOG_ERR line naming the reason, no
 * descriptor left open.  Each case runs in its own forked child with a
 * timeout, so that a FIFO that hangs the open, or a crash, fails one case
 * instead of the run.  The drop-ins' refusals are
 * tests/module/test_unsafe_dropins.c.
 *
 * Needs root: the files must be root-owned to pass, and chown() makes the
 * "not owned by root" cases.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <security/pam_appl.h>

#include "harness.h"
#include "pam_session.h"
#include "safe_read.h"
#include "syslog_capture.h"
#include "unsafe_files.h"

#define PREFIX "<3> pam_memlock(" PML_TEST_SERVICE ":session): "

/* A service whose module line is "conf=CONF" (%s is the private dir). */
static void make_env(const char *conf_arg)
{
	char args[256];

	snprintf(args, sizeof(args), "conf=%s", conf_arg);
	ck_assert_int_eq(pml_pam_env_make(&env, pml_test_env("PML_MODULE"), args,
					  NULL), 0);
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

int main(void)
{
	const TTest *const cases[] = {
		relative_conf_path,
		symlink_to_a_good_file,
		dangling_symlink,
		fifo_does_not_hang,
		directory,
		dev_null,
		character_device_node,
		unix_socket,
		not_owned_by_root,
		group_writable,
		world_writable,
		larger_than_64_kib,
		exactly_64_kib_is_accepted,
	};

	return run_unsafe_cases("unsafe", cases, sizeof(cases) / sizeof(cases[0]), character_device_node);
}
