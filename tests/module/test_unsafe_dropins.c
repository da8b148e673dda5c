/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Every refusal of the safe open (pam_memlock(8), FILES) for the drop-in
 * directory memlock.d/ and the files in it.  The module reads it only
 * beside the default file, which a test cannot move, so the drop-ins go
 * through the loader itself (pml_policy_load, source.given false) on a
 * private directory: exactly -EINVAL, nothing of the policy kept, exactly
 * the expected lines.  Files that are not drop-ins by name are ignored
 * however unsafe they are.  Each case runs in its own forked child with a
 * timeout; the main file's refusals are tests/module/test_unsafe.c.
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

#include "harness.h"
#include "log_buffer.h"
#include "pam_session.h"
#include "policy.h"
#include "safe_read.h"
#include "unsafe_files.h"

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
	const TTest *const cases[] = {
		dropins_good_directory_loads,
		dropin_dir_is_a_symlink,
		dropin_dir_is_a_file,
		dropin_dir_is_a_fifo,
		dropin_dir_not_owned_by_root,
		dropin_dir_group_writable,
		dropin_dir_world_writable,
		dropin_symlink,
		dropin_fifo_does_not_hang,
		dropin_directory,
		dropin_character_device,
		dropin_socket,
		dropin_not_owned_by_root,
		dropin_group_writable,
		dropin_world_writable,
		dropin_larger_than_64_kib,
		every_bad_dropin_is_reported,
		unsafe_main_file_with_good_dropins,
		non_dropin_names_are_ignored,
	};

	return run_unsafe_cases("unsafe_dropins", cases, sizeof(cases) / sizeof(cases[0]), dropin_character_device);
}
