/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The base of share_of = "available" over fake cgroup trees: a directory
 * stands in for / (proc/self/cgroup and sys/fs/cgroup under it, read
 * through the core's reader hook), so every
 * layout can be built here: v2, v1, both (hybrid), nested limits, the
 * user slice, "max", garbage and missing files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_tree.h"
#include "harness.h"
#include "log_buffer.h"
#include "memory.h"

#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)
#define RAM (16 * GiB)

static char root[64];
static struct pml_log_buffer logged = { .tag_priority = true };
static const struct pml_log log_to_buffer = {
	.emit = pml_log_buffer_emit,
	.ctx = &logged,
	.max_priority = LOG_DEBUG,
};

/* Writes TEXT to PATH under the fake root. */
static void put(const char *path, const char *text)
{
	pml_tree_put(root, path, text);
}

static void setup(void)
{
	pml_tree_new(root, sizeof(root), "memory");
	logged.text[0] = '\0';
}

static void teardown(void)
{
	pml_tree_remove(root);
}

/* The fake root's files, read by path under it: the reader a caller of
 * the core gives for a tree that is not this machine. */
static ssize_t tree_read(const struct pml_files *files, const char *path,
			 char *buf, size_t size)
{
	char full[4096];
	ssize_t len;
	int fd, err;

	(void)files;
	snprintf(full, sizeof(full), "%s%s", root, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	err = errno;
	close(fd);
	if (len < 0)
		return -err;
	buf[len] = '\0';
	return len;
}

static bool tree_exists(const struct pml_files *files, const char *path)
{
	char full[4096];

	(void)files;
	snprintf(full, sizeof(full), "%s%s", root, path);
	return access(full, F_OK) == 0;
}

static const struct pml_files tree = {
	.read = tree_read,
	.exists = tree_exists,
	.shown_under = root,
};

static struct pml_available probe_of(pid_t pid, bool uid_known, uid_t uid)
{
	struct pml_base_query query = {
		.files = &tree,
		.pid = pid,
		.uid_known = uid_known,
		.uid = uid,
	};
	struct pml_available out;

	pml_available_memory(&query, RAM, &log_to_buffer, &out);
	return out;
}

/* This process's cgroup (proc/self/cgroup under the fake root). */
static struct pml_available probe(bool uid_known, uid_t uid)
{
	return probe_of(0, uid_known, uid);
}

/* OUT.from, without the fake root in front. */
static const char *from(const struct pml_available *out)
{
	size_t n = strlen(root);

	return strncmp(out->from, root, n) == 0 ? out->from + n : out->from;
}

static void v2_layout(const char *own)
{
	char line[256];

	snprintf(line, sizeof(line), "0::%s\n", own);
	put("proc/self/cgroup", line);
	put("sys/fs/cgroup/cgroup.controllers", "cpu memory pids\n");
}

START_TEST(no_cgroup_file_system_is_ram)
{
	struct pml_available out;

	put("proc/self/cgroup", "0::/\n");
	out = probe(true, 1000);
	ck_assert_uint_eq(out.bytes, RAM);
	ck_assert_str_eq(out.from, "");
}
END_TEST

START_TEST(v2_own_cgroup_limit)
{
	struct pml_available out;

	v2_layout("/system.slice/ssh.service");
	put("sys/fs/cgroup/system.slice/ssh.service/memory.max", "268435456\n");
	put("sys/fs/cgroup/system.slice/memory.max", "max\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, 256 * MiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/system.slice/ssh.service/memory.max");
}
END_TEST

START_TEST(v2_the_smallest_ancestor_wins)
{
	struct pml_available out;

	v2_layout("/a/b/c");
	put("sys/fs/cgroup/a/b/c/memory.max", "max\n");
	put("sys/fs/cgroup/a/b/memory.max", "1073741824\n");
	put("sys/fs/cgroup/a/memory.max", "536870912\n");
	put("sys/fs/cgroup/memory.max", "4294967296\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, 512 * MiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/a/memory.max");
}
END_TEST

/* In a cgroup namespace the process sees its own cgroup as "/", and the
 * file system's root is the container's: its memory.max counts. */
START_TEST(v2_container_root_counts)
{
	struct pml_available out;

	v2_layout("/");
	put("sys/fs/cgroup/memory.max", "4294967296\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, 4 * GiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/memory.max");
}
END_TEST

START_TEST(v1_memory_hierarchy)
{
	struct pml_available out;

	put("proc/self/cgroup", "5:cpu,cpuacct:/x\n4:memory:/docker/abc\n0::/\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "2147483648\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, 2 * GiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes");
}
END_TEST

/* v1 controllers share a line: "memory" must be one of the names. */
START_TEST(v1_memory_among_other_controllers)
{
	struct pml_available out;

	put("proc/self/cgroup", "3:memory_x:/no\n4:cpu,memory:/yes\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/yes/memory.limit_in_bytes", "1073741824\n");
	put("sys/fs/cgroup/memory/no/memory.limit_in_bytes", "1048576\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, GiB);
}
END_TEST

/* systemd's hybrid layout: v1 controllers, v2 at /sys/fs/cgroup/unified. */
START_TEST(hybrid_reads_both)
{
	struct pml_available out;

	put("proc/self/cgroup", "4:memory:/user.slice\n0::/user.slice/session-1.scope\n");
	put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
	put("sys/fs/cgroup/memory/user.slice/memory.limit_in_bytes", "3221225472\n");
	put("sys/fs/cgroup/unified/cgroup.controllers", "\n");
	put("sys/fs/cgroup/unified/user.slice/session-1.scope/memory.max", "2147483648\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, 2 * GiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/unified/user.slice/session-1.scope/memory.max");
}
END_TEST

/* At session open sshd's child is still in ssh.service: the user's slice
 * limits it only later, so it is read by uid. */
START_TEST(user_slice_by_uid)
{
	struct pml_available out;

	v2_layout("/system.slice/ssh.service");
	put("sys/fs/cgroup/user.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/user-1000.slice/memory.max", "209715200\n");
	out = probe(true, 1000);
	ck_assert_uint_eq(out.bytes, 200 * MiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/user.slice/user-1000.slice/memory.max");
	out = probe(true, 1001);
	ck_assert_uint_eq(out.bytes, RAM);
	out = probe(false, 1000);
	ck_assert_uint_eq(out.bytes, RAM);
	ck_assert(pml_has_user_slice(&tree));
}
END_TEST

START_TEST(no_user_slice_without_systemd)
{
	v2_layout("/");
	ck_assert(!pml_has_user_slice(&tree));
}
END_TEST

/* "max", and limits at or above RAM, are no limit. */
START_TEST(limits_at_or_above_ram_are_none)
{
	struct pml_available out;
	char text[32];

	v2_layout("/a/b");
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)RAM);
	put("sys/fs/cgroup/a/b/memory.max", text);
	put("sys/fs/cgroup/a/memory.max", "max\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, RAM);
	ck_assert_str_eq(out.from, "");
}
END_TEST

START_TEST(garbage_is_skipped_with_a_warning)
{
	static const char *const bad[] = {
		"lots\n",
		"-1\n",
		"18446744073709551616\n",
		"12 34\n",
		"",
		"0x10\n",
	};
	struct pml_available out;
	size_t i;

	v2_layout("/a");
	put("sys/fs/cgroup/memory.max", "1073741824\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		logged.text[0] = '\0';
		put("sys/fs/cgroup/a/memory.max", bad[i]);
		out = probe(false, 0);
		ck_assert_msg(out.bytes == GiB, "%s: %llu", bad[i], (unsigned long long)out.bytes);
		ck_assert_msg(strstr(logged.text, "/sys/fs/cgroup/a/memory.max: not a memory limit, skipped") != NULL,
			      "%s: log was %s", bad[i], logged.text);
		ck_assert_ptr_nonnull(strstr(logged.text, "<4> "));
	}
}
END_TEST

START_TEST(unreadable_file_is_skipped_quietly)
{
	struct pml_available out;

	v2_layout("/a");
	put("sys/fs/cgroup/memory.max", "1073741824\n");
	put("sys/fs/cgroup/a/memory.max/x", ""); /* a directory: EISDIR */
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, GiB);
	ck_assert_ptr_null(strstr(logged.text, "<4> "));
	ck_assert_ptr_nonnull(strstr(logged.text, "<7> "));
}
END_TEST

START_TEST(no_proc_self_cgroup_still_reads_the_root)
{
	struct pml_available out;

	put("sys/fs/cgroup/cgroup.controllers", "\n");
	put("sys/fs/cgroup/memory.max", "1073741824\n");
	out = probe(false, 0);
	ck_assert_uint_eq(out.bytes, RAM);
}
END_TEST

/* memlockctl status: each process's own cgroup, not the reader's. */
START_TEST(another_process_has_its_own_cgroup)
{
	struct pml_available out;

	v2_layout("/system.slice/admin.scope");
	put("sys/fs/cgroup/system.slice/admin.scope/memory.max", "1073741824\n");
	put("proc/4242/cgroup", "0::/machine.slice/box/payload\n");
	put("sys/fs/cgroup/machine.slice/box/memory.max", "268435456\n");
	out = probe_of(4242, false, 0);
	ck_assert_uint_eq(out.bytes, 256 * MiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/machine.slice/box/memory.max");
	ck_assert_int_eq(out.scope, PML_BASE_PROCESS);
	/* A process that is gone has no cgroup to read. */
	out = probe_of(4243, false, 0);
	ck_assert_uint_eq(out.bytes, RAM);
}
END_TEST

/* memlockctl explain: no process yet; the user's slice stands in for
 * the session's cgroup, and the reader's own cgroup plays no part. */
START_TEST(no_process_starts_from_the_user_slice)
{
	struct pml_available out;

	v2_layout("/system.slice/admin.scope");
	put("sys/fs/cgroup/system.slice/admin.scope/memory.max", "104857600\n");
	put("sys/fs/cgroup/user.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/user-1000.slice/memory.max", "max\n");
	put("sys/fs/cgroup/user.slice/user-1000.slice/session-4.scope/memory.max", "1048576\n");
	out = probe_of(PML_NO_PROCESS, true, 1000);
	ck_assert_uint_eq(out.bytes, RAM);
	ck_assert_int_eq(out.scope, PML_BASE_USER_SLICE);
	put("sys/fs/cgroup/user.slice/memory.max", "2147483648\n");
	out = probe_of(PML_NO_PROCESS, true, 1000);
	ck_assert_uint_eq(out.bytes, 2 * GiB);
	ck_assert_str_eq(from(&out), "/sys/fs/cgroup/user.slice/memory.max");
	/* A user without a slice: the top alone. */
	put("sys/fs/cgroup/memory.max", "4294967296\n");
	out = probe_of(PML_NO_PROCESS, true, 1001);
	ck_assert_uint_eq(out.bytes, 2 * GiB);
	ck_assert_int_eq(out.scope, PML_BASE_TOP);
	out = probe_of(PML_NO_PROCESS, false, 0);
	ck_assert_uint_eq(out.bytes, 4 * GiB);
	ck_assert_int_eq(out.scope, PML_BASE_TOP);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("memory");
	TCase *tc = tcase_create("memory");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, no_cgroup_file_system_is_ram);
	tcase_add_test(tc, v2_own_cgroup_limit);
	tcase_add_test(tc, v2_the_smallest_ancestor_wins);
	tcase_add_test(tc, v2_container_root_counts);
	tcase_add_test(tc, v1_memory_hierarchy);
	tcase_add_test(tc, v1_memory_among_other_controllers);
	tcase_add_test(tc, hybrid_reads_both);
	tcase_add_test(tc, user_slice_by_uid);
	tcase_add_test(tc, no_user_slice_without_systemd);
	tcase_add_test(tc, limits_at_or_above_ram_are_none);
	tcase_add_test(tc, garbage_is_skipped_with_a_warning);
	tcase_add_test(tc, unreadable_file_is_skipped_quietly);
	tcase_add_test(tc, no_proc_self_cgroup_still_reads_the_root);
	tcase_add_test(tc, another_process_has_its_own_cgroup);
	tcase_add_test(tc, no_process_starts_from_the_user_slice);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
