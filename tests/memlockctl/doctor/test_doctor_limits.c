/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's models of what sets a session's start and its limit, on their
 * own: pam_limits (doctor/limits.c) as each release's reads limits.conf
 * and limits.d, systemd's limit values and unit files (units.c), and the
 * /proc reader, on files written to a private root.  No NSS: users are
 * made up, and no line names a group by name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_tree.h"
#include "harness.h"
#include "doctor/limits.h"
#include "dirfd/dirfd.h"
#include "doctor/units.h"

static char root[64];
static bool model_debian;
static enum doc_libpam_dialect model_dialect;

/* Writes TEXT to PATH under the fake root. */
static void put(const char *path, const char *text)
{
	pml_tree_put(root, path, text);
}

static void setup(void)
{
	pml_tree_new(root, sizeof(root), "doctor-limits");
	model_debian = true;
	model_dialect = DOC_LIBPAM_1_5;
}

static void teardown(void)
{
	pml_tree_remove(root);
}

/* --- pam_limits. */

static gid_t alice_groups[] = { 1000, 27 };
static const struct doc_user alice = { "alice", 1000, 1000, alice_groups, 2 };
static const struct doc_user root_user = { "root", 0, 0, NULL, 0 };

/* The pam_limits the next limits() models: Debian 12's (setup). */

static struct doc_limits_result limits(const struct doc_user *user, bool set_all)
{
	struct doc_limits_request rq = {
		.root = root,
		.set_all = set_all,
		.root_exempt = model_debian,
		.dialect = model_dialect,
		.user = user,
		.pid1_soft = { 100 << 20, true },
		.pid1_hard = { 200 << 20, true },
		.soft = { 64 << 10, true },
		.hard = { 64 << 10, true },
	};
	struct doc_limits_result r;

	ck_assert_int_eq(doc_limits_eval(&rq, &r), 0);
	return r;
}

START_TEST(limits_precedence)
{
	struct doc_limits_result r;

	put("/etc/security/limits.conf", "alice soft memlock 1024\n* - memlock 2048\n");
	put("/etc/security/limits.d/10-a.conf", "* hard memlock 4096\n");
	put("/etc/security/limits.d/20-b.conf", "@27: hard memlock 8\n");
	r = limits(&alice, false);
	ck_assert(r.sets);
	/* The user's line wins over the later "*" one... */
	ck_assert_int_eq(r.soft.rank, DOC_RANK_USER);
	ck_assert_str_eq(r.soft.file, "/etc/security/limits.conf");
	/* ...and a group's (gid 27, supplementary) over "*" in any file. */
	ck_assert_uint_eq(r.hard.value.bytes, 8 * 1024);
	ck_assert_str_eq(r.hard.file, "/etc/security/limits.d/20-b.conf");
	/* pam_limits lowers soft (1 MiB) to hard. */
	ck_assert_uint_eq(r.soft.value.bytes, 8 * 1024);
	doc_limits_free(&r);
	/* Debian's root gets neither "*" nor groups; upstream's gets "*". */
	r = limits(&root_user, false);
	ck_assert(!r.sets);
	doc_limits_free(&r);
	model_debian = false;
	r = limits(&root_user, false);
	ck_assert(r.sets);
	ck_assert_int_eq(r.hard.rank, DOC_RANK_DEFAULT);
	ck_assert_uint_eq(r.hard.value.bytes, 4096 * 1024);
	doc_limits_free(&r);
}
END_TEST

START_TEST(limits_ranges_quirk_and_exemption)
{
	struct doc_limits_result r;

	put("/etc/security/limits.conf",
	    "1000:1999 soft memlock 16\n"	/* uid range: the user's rank */
	    "@1000: - memlock 32\n");		/* gid range: soft is stronger, so hard stays too */
	r = limits(&alice, false);
	ck_assert_uint_eq(r.soft.value.bytes, 16 * 1024);
	ck_assert_int_eq(r.hard.rank, DOC_RANK_NONE);
	ck_assert_uint_eq(r.hard.value.bytes, 64 << 10);
	doc_limits_free(&r);
	put("/etc/security/limits.conf", "alice -\n* - memlock 1\n");
	r = limits(&alice, true);
	ck_assert(r.exempt && !r.sets);
	ck_assert_uint_eq(r.exempt_line, 1);
	doc_limits_free(&r);
}
END_TEST

START_TEST(limits_set_all_and_any_user)
{
	struct doc_limits_result r;

	put("/etc/security/limits.conf", "# nothing\nbob - memlock unlimited\n");
	r = limits(&alice, true);
	ck_assert(r.sets);
	ck_assert_uint_eq(r.soft.value.bytes, 100 << 20);
	ck_assert_uint_eq(r.hard.value.bytes, 200 << 20);
	doc_limits_free(&r);
	r = limits(NULL, false);
	ck_assert(!r.sets && r.depends_on_user);
	ck_assert_uint_eq(r.user_line, 2);
	doc_limits_free(&r);
}
END_TEST

START_TEST(limits_bad_lines_and_unreadable_files)
{
	struct doc_limits_result r;

	put("/etc/security/limits.conf", "alice soft memlock lots\n");
	r = limits(&alice, false);
	ck_assert(!r.sets && !r.failed);
	ck_assert_uint_eq(r.problem_line, 1);
	doc_limits_free(&r);
	/* No limits.conf: pam_limits 1.5.2 fails the session; from 1.6.0 a
	 * missing default file is none. */
	unlink(strcat(strcpy((char[512]){ 0 }, root), "/etc/security/limits.conf"));
	r = limits(&alice, true);
	ck_assert(r.failed && !r.sets);
	doc_limits_free(&r);
	model_dialect = DOC_LIBPAM_1_6;
	r = limits(&alice, true);
	ck_assert(!r.failed && r.sets);
	doc_limits_free(&r);
}
END_TEST

/* A line of more than 1,023 bytes: pam_limits 1.5 reads its second piece
 * as a line of its own, 1.6 reads it whole. */
START_TEST(limits_long_lines_as_each_release_reads_them)
{
	char text[2048];
	struct doc_limits_result r;
	int pad = 1023 - (int)strlen("alice hard memlock 4096 ");

	snprintf(text, sizeof(text), "alice hard memlock 4096 %*s alice hard memlock 1024\n", pad, "");
	put("/etc/security/limits.conf", text);
	r = limits(&alice, false);
	ck_assert_uint_eq(r.hard.value.bytes, 1024 * 1024);
	ck_assert_uint_eq(r.hard.line, 1);
	doc_limits_free(&r);
	model_dialect = DOC_LIBPAM_1_6;
	r = limits(&alice, false);
	ck_assert_uint_eq(r.hard.value.bytes, 4096 * 1024);
	doc_limits_free(&r);
	/* 1.6's value is the rest of the line: "unlimited junk" is no value. */
	put("/etc/security/limits.conf", "alice hard memlock unlimited junk\n");
	r = limits(&alice, false);
	ck_assert(!r.sets);
	doc_limits_free(&r);
	model_dialect = DOC_LIBPAM_1_5;
	r = limits(&alice, false);
	ck_assert(r.sets && r.hard.value.bytes == DOC_UNLIMITED);
	doc_limits_free(&r);
}
END_TEST

/* --- systemd values and /proc. */

START_TEST(systemd_values)
{
	struct doc_value s, h;
	bool empty;

	ck_assert(doc_parse_systemd_limit("8M", &s, &h, &empty) && !empty);
	ck_assert_uint_eq(s.bytes, 8 << 20);
	ck_assert_uint_eq(h.bytes, 8 << 20);
	ck_assert(doc_parse_systemd_limit("1K:infinity", &s, &h, &empty));
	ck_assert_uint_eq(s.bytes, 1024);
	ck_assert_uint_eq(h.bytes, DOC_UNLIMITED);
	ck_assert(doc_parse_systemd_limit("", &s, &h, &empty) && empty);
	ck_assert(!doc_parse_systemd_limit("lots", &s, &h, &empty));
	ck_assert_uint_eq(doc_kernel_default("5.15.0-91-generic"), 64 << 10);
	ck_assert_uint_eq(doc_kernel_default("5.16.0"), 8 << 20);
	ck_assert_uint_eq(doc_kernel_default("6.1.0-18-amd64"), 8 << 20);
	ck_assert(doc_parse_proc_limits("Limit  Soft Limit  Hard Limit  Units\n"
					"Max locked memory  8388608  unlimited  bytes\n",
					&s, &h) == 0);
	ck_assert_uint_eq(s.bytes, 8 << 20);
	ck_assert_uint_eq(h.bytes, DOC_UNLIMITED);
}
END_TEST

START_TEST(unit_dropins_override_the_unit)
{
	struct doc_start st;

	put("/lib/systemd/system/ssh.service", "[Service]\nLimitMEMLOCK=16M\n");
	put("/etc/systemd/system/ssh.service.d/10-x.conf", "[Service]\nLimitMEMLOCK=1M:2M\n");
	doc_session_start(root, "sshd", &st);
	ck_assert_str_eq(st.unit, "ssh.service");
	ck_assert_uint_eq(st.value.soft.bytes, 1 << 20);
	ck_assert_uint_eq(st.value.hard.bytes, 2 << 20);
	ck_assert_uint_eq(st.value.line, 2);
	put("/etc/systemd/system/ssh.service.d/10-x.conf", "[Service]\nLimitMEMLOCK=\n");
	put("/etc/systemd/system.conf", "[Manager]\nDefaultLimitMEMLOCK=3M\n");
	doc_session_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 3 << 20);
	doc_session_start(root, "su", &st);
	ck_assert(!st.has_unit && !st.value.set);
}
END_TEST

/* Unit files as systemd reads them: a padded line of any length, a
 * continued one (a comment inside skipped), a ';' comment, and a file
 * systemd refuses (a broken section header) setting nothing. */
START_TEST(unit_lines_as_systemd_reads_them)
{
	char text[4096];
	struct doc_start st;

	snprintf(text, sizeof(text), "[Service]\n%600sLimitMEMLOCK=infinity%600s\n", "", "");
	put("/lib/systemd/system/ssh.service", text);
	doc_session_start(root, "sshd", &st);
	ck_assert(st.value.set && st.value.soft.bytes == DOC_UNLIMITED);
	put("/lib/systemd/system/ssh.service",
	    "[Service]\nLimitMEMLOCK=\\\n# a comment inside\n  16M\n;LimitMEMLOCK=1M\n");
	doc_session_start(root, "sshd", &st);
	ck_assert(st.value.set);
	ck_assert_uint_eq(st.value.soft.bytes, 16 << 20);
	ck_assert_uint_eq(st.value.line, 2);
	put("/lib/systemd/system/ssh.service", "[Service]\nLimitMEMLOCK=16M\n[Broken\n");
	put("/etc/systemd/system.conf", "[Manager]\nDefaultLimitMEMLOCK=3M\n");
	doc_session_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 3 << 20);
}
END_TEST

/* /proc files report a size of 0: dirfd_read reads them to the end, so that
 * doctor sees PID 1's limits (it once read nothing and called them unknown). */
START_TEST(proc_files_are_read_to_the_end)
{
	struct dirfd_text t;
	struct doc_value s, h;
	char *big;
	FILE *f;
	char path[128];

	ck_assert_int_eq(dirfd_read("", "/proc/self/limits", &t), 0);
	ck_assert_ptr_nonnull(strstr(t.data, "Max locked memory"));
	ck_assert_int_eq(doc_parse_proc_limits(t.data, &s, &h), 0);
	ck_assert(s.known && h.known);
	dirfd_text_free(&t);
	/* A regular file of exactly DIRFD_FILE_MAX bytes is read; one more is too large. */
	big = malloc(DIRFD_FILE_MAX + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, 'x', DIRFD_FILE_MAX + 1);
	snprintf(path, sizeof(path), "%s/big", root);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(big, 1, DIRFD_FILE_MAX, f), DIRFD_FILE_MAX);
	fclose(f);
	ck_assert_int_eq(dirfd_read(root, "/big", &t), 0);
	ck_assert_uint_eq(t.len, DIRFD_FILE_MAX);
	dirfd_text_free(&t);
	f = fopen(path, "a");
	ck_assert_ptr_nonnull(f);
	fputc('x', f);
	fclose(f);
	ck_assert_int_eq(dirfd_read(root, "/big", &t), -EFBIG);
	free(big);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor-limits");
	TCase *tc = tcase_create("doctor-limits");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, limits_precedence);
	tcase_add_test(tc, limits_long_lines_as_each_release_reads_them);
	tcase_add_test(tc, limits_ranges_quirk_and_exemption);
	tcase_add_test(tc, limits_set_all_and_any_user);
	tcase_add_test(tc, limits_bad_lines_and_unreadable_files);
	tcase_add_test(tc, systemd_values);
	tcase_add_test(tc, unit_dropins_override_the_unit);
	tcase_add_test(tc, unit_lines_as_systemd_reads_them);
	tcase_add_test(tc, proc_files_are_read_to_the_end);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
