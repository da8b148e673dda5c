/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's PAM stack model on its own: the reader and the walk
 * (doctor/pamline.c, pamstack_read.c, pamstack_walk.c) and the lookup
 * libpam does, on stacks written to a private root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_tree.h"
#include "harness.h"
#include "doctor/pamstack.h"
#include "dirfd/dirfd.h"

static char root[64];

static const struct doc_libpam libpam_15 = { .dialect = DOC_LIBPAM_1_5 };
static const struct doc_libpam libpam_16 = { .dialect = DOC_LIBPAM_1_6 };

/* Writes TEXT to PATH under the fake root. */
static void put(const char *path, const char *text)
{
	pml_tree_put(root, path, text);
}

static void setup(void)
{
	pml_tree_new(root, sizeof(root), "doctor-stack");
	put("/usr/lib/security/pam_permit.so", "");
	put("/usr/lib/security/pam_deny.so", "");
	put("/usr/lib/security/pam_limits.so", "");
	put("/usr/lib/security/pam_memlock.so", "");
}

static void teardown(void)
{
	pml_tree_remove(root);
}

/* The names of the handlers that ran, space-separated. */
static const char *ran(struct doc_stack *s)
{
	static char buf[4096];
	size_t i;

	buf[0] = '\0';
	doc_stack_walk(s);
	for (i = 0; i < s->n; i++)
		if (s->h[i].ran) {
			strcat(buf, buf[0] != '\0' ? " " : "");
			strcat(buf, s->h[i].name);
		}
	return buf;
}

START_TEST(debian_common_session_skips_pam_deny)
{
	struct doc_stack s;

	put("/etc/pam.d/common-session",
	    "session [default=1] pam_permit.so\n"
	    "session requisite pam_deny.so\n"
	    "session required pam_permit.so\n"
	    "session optional pam_memlock.so\n");
	put("/etc/pam.d/svc", "@include common-session\nsession required pam_limits.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 0);
	ck_assert_str_eq(ran(&s), "pam_permit pam_permit pam_memlock pam_limits");
	ck_assert(!s.session_fails);
	ck_assert_str_eq(s.h[3].file, "/etc/pam.d/common-session");
	ck_assert_uint_eq(s.h[3].line, 4);
	doc_stack_free(&s);
}
END_TEST

START_TEST(success_jump_skips_and_default_ignore)
{
	struct doc_stack s;

	put("/etc/pam.d/svc",
	    "session [success=2 default=ignore] pam_permit.so\n"
	    "session required pam_limits.so\n"
	    "session required pam_deny.so\n"
	    "session optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_str_eq(ran(&s), "pam_permit pam_memlock");
	ck_assert_int_eq(s.h[0].actions[DOC_RET_SUCCESS], 2);
	ck_assert_int_eq(s.h[0].actions[DOC_RET_MODULE_UNKNOWN], DOC_ACT_IGNORE);
	doc_stack_free(&s);
}
END_TEST

START_TEST(simple_controls)
{
	struct doc_stack s;

	put("/etc/pam.d/svc",
	    "session sufficient pam_permit.so\n"
	    "session required pam_limits.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	/* sufficient succeeds: done, pam_limits never runs. */
	ck_assert_str_eq(ran(&s), "pam_permit");
	doc_stack_free(&s);
	put("/etc/pam.d/svc",
	    "session requisite pam_deny.so\n"
	    "session optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_str_eq(ran(&s), "pam_deny");
	ck_assert(s.session_fails);
	doc_stack_free(&s);
}
END_TEST

START_TEST(jump_does_not_leave_a_substack)
{
	struct doc_stack s;

	put("/etc/pam.d/sub", "session [success=1 default=ignore] pam_permit.so\n");
	put("/etc/pam.d/svc", "session substack sub\nsession optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_int_eq(s.h[0].kind, DOC_H_SUBSTACK);
	ck_assert_uint_eq(s.h[1].level, 1);
	/* The jump has nowhere to go inside the substack: a bad jump. */
	ck_assert_str_eq(ran(&s), "pam_permit pam_memlock");
	ck_assert(s.session_fails);
	doc_stack_free(&s);
	/* The same through include: the jump skips pam_memlock. */
	put("/etc/pam.d/svc", "session include sub\nsession optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_str_eq(ran(&s), "pam_permit");
	doc_stack_free(&s);
}
END_TEST

START_TEST(a_substack_counts_as_one_for_a_jump)
{
	struct doc_stack s;

	put("/etc/pam.d/sub", "session optional pam_limits.so\nsession optional pam_permit.so\n");
	put("/etc/pam.d/svc",
	    "session [success=1 default=ignore] pam_permit.so\n"
	    "session substack sub\n"
	    "session optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_str_eq(ran(&s), "pam_permit pam_memlock");
	doc_stack_free(&s);
}
END_TEST

START_TEST(dash_hides_a_missing_module_only_from_the_log)
{
	struct doc_stack s;

	put("/etc/pam.d/svc", "-session optional pam_nothere.so\nsession optional pam_gone.so\n"
	    "session optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 1);
	ck_assert_uint_eq(s.problems[0].line, 2);
	ck_assert(s.h[0].silent && !s.h[0].found);
	ck_assert_str_eq(ran(&s), "pam_memlock");
	doc_stack_free(&s);
}
END_TEST

START_TEST(missing_include_and_loop_are_problems)
{
	struct doc_stack s;

	put("/etc/pam.d/svc", "session include nowhere\nsession optional pam_memlock.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 1);
	ck_assert_str_eq(s.problems[0].file, "/etc/pam.d/svc");
	ck_assert_uint_eq(s.problems[0].line, 1);
	ck_assert_int_eq(s.h[0].kind, DOC_H_MUST_FAIL);
	ran(&s);
	ck_assert(s.session_fails);
	doc_stack_free(&s);
	/* A loop: 1.6 stops at 16 nested includes, 1.5 nests until it has no
	 * descriptor left; either way the stack fails. */
	put("/etc/pam.d/a", "session include b\n");
	put("/etc/pam.d/b", "@include a\n");
	put("/etc/pam.d/svc", "session include a\n");
	ck_assert_int_eq(doc_stack_resolve_with(root, &libpam_16, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 1);
	ck_assert_ptr_nonnull(strstr(s.problems[0].message, "more than 16 nested includes"));
	ran(&s);
	ck_assert(s.session_fails);
	doc_stack_free(&s);
	ck_assert_int_eq(doc_stack_resolve_with(root, &libpam_15, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 1);
	ck_assert_ptr_nonnull(strstr(s.problems[0].message, "include loop"));
	ran(&s);
	ck_assert(s.session_fails);
	doc_stack_free(&s);
}
END_TEST

/* An include bomb: 1,600 includes of a file that holds one 1 MiB line.
 * doctor stops at DOC_BYTES_MAX bytes read, with a problem that says so,
 * and shares the line's text between includes: a few MiB of memory, where
 * main took 1.6 GB (a copy of the arguments per include) and 34 s. */
START_TEST(include_bomb_is_bounded_in_bytes)
{
	enum {
		INCLUDES = 1600,
		LINE = 1 << 20
	};
	const char *head = "session optional pam_permit.so ";
	const char *inc = "session include big\n";
	char *big = malloc(strlen(head) + LINE + 2), *svc = malloc(INCLUDES * strlen(inc) + 1);
	struct doc_stack s;
	struct rusage ru;
	size_t i;

	ck_assert_ptr_nonnull(big);
	ck_assert_ptr_nonnull(svc);
	strcpy(big, head);
	memset(big + strlen(head), 'a', LINE);
	strcpy(big + strlen(head) + LINE, "\n");
	put("/etc/pam.d/big", big);
	svc[0] = '\0';
	for (i = 0; i < INCLUDES; i++)
		strcat(svc + i * strlen(inc), inc);
	put("/etc/pam.d/svc", svc);
	free(big);
	free(svc);
	ck_assert_int_eq(doc_stack_resolve_with(root, &libpam_16, "svc", &s), 0);
	ck_assert(s.start_fails);
	ck_assert_uint_le(s.bytes_read, DOC_BYTES_MAX + LINE + 64);
	ck_assert_ptr_nonnull(strstr(s.problems[s.n_problems - 1].message, "more than 16 MiB read"));
	/* Every include's handler shares the one copy of the arguments. */
	ck_assert_uint_ge(s.n, 2);
	ck_assert_ptr_eq(s.h[0].args, s.h[s.n - 1].args);
	doc_stack_free(&s);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	ck_assert_int_lt(ru.ru_maxrss, 128 * 1024); /* KiB */
}
END_TEST

/* pam_succeed_if: a condition on the service is evaluated for the service
 * doctor checks; one on the user is taken to hold, and the stack says so. */
START_TEST(succeed_if_evaluates_the_service_and_marks_the_user)
{
	static const struct {
		const char *service, *condition;
		bool skips, depends_on_user;
	} cases[] = {
		{ "crond", "service in crond quiet use_uid", true, false },
		{ "login", "service in crond quiet use_uid", false, false },
		{ "login", "service notin crond:atd", true, false },
		{ "login", "service != crond", true, false },
		{ "login", "uid < 1000", true, true },
		{ "login", "service = crond user ingroup wheel", false, false },
		{ "login", "user ingroup wheel service = crond", false, true },
	};
	char text[256], name[32];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct doc_stack s;

		snprintf(text, sizeof(text),
			 "session [success=1 default=ignore] pam_succeed_if.so %s\n"
			 "session optional pam_memlock.so\n",
			 cases[i].condition);
		snprintf(name, sizeof(name), "/etc/pam.d/%s", cases[i].service);
		put(name, text);
		put("/usr/lib/security/pam_succeed_if.so", "");
		ck_assert_int_eq(doc_stack_resolve_with(root, &libpam_16, cases[i].service, &s), 0);
		doc_stack_walk(&s);
		ck_assert_msg(s.h[1].ran == !cases[i].skips, "%s: %s", cases[i].service,
			      cases[i].condition);
		ck_assert_msg(s.depends_on_user == cases[i].depends_on_user, "%s: %s",
			      cases[i].service, cases[i].condition);
		doc_stack_free(&s);
	}
}
END_TEST

START_TEST(at_include_reads_etc_only_include_reads_the_vendor_dir)
{
	struct doc_stack s;

	put("/usr/lib/pam.d/vendor", "session optional pam_memlock.so\n");
	put("/etc/pam.d/svc", "session include vendor\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 0);
	doc_stack_free(&s);
	put("/etc/pam.d/svc", "@include vendor\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 1);
	doc_stack_free(&s);
}
END_TEST

/* Debian 13's layout: modules in /usr/lib/TRIPLET/security (this build's
 * triplet), reached through the root's own /lib -> usr/lib. */
START_TEST(modules_in_the_multiarch_directory)
{
	char link[512];
	struct doc_stack s;

	put("/usr/lib/" PML_MULTIARCH "/security/pam_arch.so", "");
	snprintf(link, sizeof(link), "%s/lib", root);
	ck_assert_int_eq(symlink("usr/lib", link), 0);
	put("/etc/pam.d/svc", "session required pam_arch.so\n"
			      "session required /lib/" PML_MULTIARCH "/security/pam_arch.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 0);
	ck_assert(s.h[0].found && s.h[1].found);
	doc_stack_free(&s);
}
END_TEST

/* Links as distributions make them, followed inside the root: authselect's
 * absolute /etc/pam.d/system-auth -> /etc/authselect/system-auth, and
 * pam-config's relative common-session -> common-session-pc. */
START_TEST(distribution_links_resolve_inside_the_root)
{
	char link[512];
	struct doc_stack s;

	put("/etc/authselect/system-auth", "session optional pam_memlock.so\n");
	put("/etc/pam.d/common-session-pc", "session required pam_limits.so\n");
	snprintf(link, sizeof(link), "%s/etc/pam.d/system-auth", root);
	ck_assert_int_eq(symlink("/etc/authselect/system-auth", link), 0);
	snprintf(link, sizeof(link), "%s/etc/pam.d/common-session", root);
	ck_assert_int_eq(symlink("common-session-pc", link), 0);
	put("/etc/pam.d/svc", "session include system-auth\nsession substack common-session\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 0);
	ck_assert_str_eq(ran(&s), "pam_memlock pam_limits");
	ck_assert_str_eq(s.h[0].file, "/etc/pam.d/system-auth");
	doc_stack_free(&s);
}
END_TEST

START_TEST(other_stands_in_for_a_service_without_session_lines)
{
	struct doc_stack s;

	put("/etc/pam.d/other", "session optional pam_memlock.so\n");
	put("/etc/pam.d/svc", "auth required pam_permit.so\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert(s.from_other);
	ck_assert_str_eq(s.file, "/etc/pam.d/other");
	ck_assert(!doc_service_has_session(root, "svc"));
	doc_stack_free(&s);
}
END_TEST

/* Garbage where a type should be: in the service's own file libpam makes
 * it an auth module (no matter to sessions); in a session include, a
 * session module that fails, its bytes escaped in the problem. */
START_TEST(garbage_and_continuations)
{
	static const char text[] = "session optional \\\n  pam_memlock.so conf=/x # c\n"
				   "\x1b[31m\xff garbage\n";
	struct doc_stack s;
	bool present;
	char *v;

	put("/etc/pam.d/svc", text);
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_eq(s.n_problems, 0);
	doc_stack_free(&s);
	put("/etc/pam.d/block", text);
	put("/etc/pam.d/svc", "session include block\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_str_eq(s.h[0].args, "conf=/x");
	ck_assert_uint_eq(s.n_problems, 1);
	ck_assert_uint_eq(s.problems[0].line, 3);
	ck_assert_ptr_null(strchr(s.problems[0].message, 0x1b));
	v = doc_arg_value(s.h[0].args, "conf", &present);
	ck_assert(present);
	ck_assert_str_eq(v, "/x");
	free(v);
	doc_stack_free(&s);
}
END_TEST

/* Both ways of resolving inside the root, openat2's and the walk, land on
 * the same file for each trick, and never outside. */
START_TEST(paths_resolve_inside_the_root_both_ways)
{
	static const char *const tricks[][2] = {
		{ "/abs", "/target" },		       /* absolute link: from the root */
		{ "/dir/rel", "/target" },	       /* relative link: from its directory */
		{ "/../../../../target", "/target" }, /* ".." stops at the root */
		{ "/dir/../dir/./up/target", "/target" },
		{ "/lib/x", "/usr/lib/x" },	       /* the root's own /lib -> usr/lib */
	};
	char outside[128], link[512];
	struct stat want, got, wk;
	size_t i;
	int fd;

	put("/target", "inside\n");
	put("/usr/lib/x", "x\n");
	put("/dir/.keep", "");
	snprintf(link, sizeof(link), "%s/abs", root);
	ck_assert_int_eq(symlink("/target", link), 0);
	snprintf(link, sizeof(link), "%s/dir/rel", root);
	ck_assert_int_eq(symlink("../target", link), 0);
	snprintf(link, sizeof(link), "%s/dir/up", root);
	ck_assert_int_eq(symlink("/../..", link), 0);
	snprintf(link, sizeof(link), "%s/lib", root);
	ck_assert_int_eq(symlink("usr/lib", link), 0);
	for (i = 0; i < sizeof(tricks) / sizeof(tricks[0]); i++) {
		snprintf(link, sizeof(link), "%s%s", root, tricks[i][1]);
		ck_assert_int_eq(stat(link, &want), 0);
		fd = dirfd_open_path(root, tricks[i][0], false, &got);
		ck_assert_int_ge(fd, 0);
		close(fd);
		fd = dirfd_open_path_walk(root, tricks[i][0], false, &wk);
		ck_assert_int_ge(fd, 0);
		close(fd);
		ck_assert(got.st_ino == want.st_ino && wk.st_ino == want.st_ino);
	}
	/* A link out of the root, to a file this machine has: not found. */
	snprintf(outside, sizeof(outside), "%s-outside", root);
	ck_assert_int_eq(mkdir(outside, 0700), 0);
	pml_tree_put(outside, "/secret", "secret\n");
	snprintf(link, sizeof(link), "%s/escape", root);
	snprintf(outside + strlen(outside), sizeof(outside) - strlen(outside), "/secret");
	ck_assert_int_eq(symlink(outside, link), 0);
	ck_assert_int_eq(dirfd_open_path(root, "/escape", false, &got), -ENOENT);
	ck_assert_int_eq(dirfd_open_path_walk(root, "/escape", false, &got), -ENOENT);
	/* Unless the link is not followed: then it is the link. */
	fd = dirfd_open_path_walk(root, "/escape", true, &got);
	ck_assert_int_ge(fd, 0);
	ck_assert(S_ISLNK(got.st_mode));
	close(fd);
	/* A loop of links. */
	snprintf(link, sizeof(link), "%s/loop", root);
	ck_assert_int_eq(symlink("/loop", link), 0);
	ck_assert_int_eq(dirfd_open_path_walk(root, "/loop", false, &got), -ELOOP);
	ck_assert_int_eq(dirfd_open_path(root, "/loop", false, &got), -ELOOP);
	*strrchr(outside, '/') = '\0';
	snprintf(link, sizeof(link), "rm -rf '%s'", outside);
	ck_assert_int_eq(system(link), 0);
}
END_TEST

/* Twelve files, each including the next four times: 4^11 copies of the
 * last one.  doctor stops at DOC_LINES_MAX lines, reads each file once,
 * and stays small; the stack is an error. */
START_TEST(exponential_includes_are_bounded)
{
	struct doc_stack s;
	struct rusage ru;
	char name[32], text[256];
	int i;

	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "/etc/pam.d/x%d", i);
		if (i < 11)
			snprintf(text, sizeof(text), "session include x%d\nsession include x%d\n"
				 "session include x%d\nsession include x%d\n", i + 1, i + 1, i + 1, i + 1);
		else
			snprintf(text, sizeof(text), "session optional pam_permit.so\n");
		put(name, text);
	}
	put("/etc/pam.d/svc", "session include x0\n");
	ck_assert_int_eq(doc_stack_resolve(root, "svc", &s), 0);
	ck_assert_uint_le(s.lines_read, DOC_LINES_MAX + 1);
	ck_assert_uint_le(s.n, DOC_LINES_MAX);
	ck_assert(s.start_fails);
	ck_assert_ptr_nonnull(strstr(s.problems[s.n_problems - 1].message, "more than 10000 lines"));
	ran(&s);
	ck_assert(s.session_fails);
	doc_stack_free(&s);
	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	ck_assert_int_lt(ru.ru_maxrss, 200 * 1024); /* KiB: main took 1 GB */
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor-stack");
	TCase *tc = tcase_create("doctor-stack");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, debian_common_session_skips_pam_deny);
	tcase_add_test(tc, success_jump_skips_and_default_ignore);
	tcase_add_test(tc, simple_controls);
	tcase_add_test(tc, jump_does_not_leave_a_substack);
	tcase_add_test(tc, a_substack_counts_as_one_for_a_jump);
	tcase_add_test(tc, dash_hides_a_missing_module_only_from_the_log);
	tcase_add_test(tc, missing_include_and_loop_are_problems);
	tcase_add_test(tc, paths_resolve_inside_the_root_both_ways);
	tcase_add_test(tc, exponential_includes_are_bounded);
	tcase_add_test(tc, include_bomb_is_bounded_in_bytes);
	tcase_add_test(tc, succeed_if_evaluates_the_service_and_marks_the_user);
	tcase_add_test(tc, at_include_reads_etc_only_include_reads_the_vendor_dir);
	tcase_add_test(tc, modules_in_the_multiarch_directory);
	tcase_add_test(tc, distribution_links_resolve_inside_the_root);
	tcase_add_test(tc, other_stands_in_for_a_service_without_session_lines);
	tcase_add_test(tc, garbage_and_continuations);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
