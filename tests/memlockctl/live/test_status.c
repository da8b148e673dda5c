/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What memlockctl status and apply read, on trees written by hand: the
 * parsers of /proc/PID/{stat,status,limits,cgroup} and of logind's session files,
 * a process read whole, one that vanished midway, one the caller may not
 * read, and a scan of a whole tree with its verdicts and its order.
 * Users are root and nobody, which every system has.
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fake_tree.h"
#include "harness.h"
#include "live/index.h"
#include "live/live.h"
#include "log_buffer.h"
#include "live/procs.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)

static char root[64];
static struct pml_log_buffer logged;
static const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_DEBUG };

/* Writes TEXT to PATH under the fake root. */
static void put(const char *path, const char *text)
{
	pml_tree_put(root, path, text);
}

static const char limits_fmt[] =
	"Limit                     Soft Limit           Hard Limit           Units     \n"
	"Max cpu time              unlimited            unlimited            seconds   \n"
	"Max locked memory         %s %s bytes     \n"
	"Max address space         unlimited            unlimited            bytes     \n";

/*
 * A process as the kernel shows it: PID with COMM, real UID, VmLck and
 * VmPin in kB, the limits as /proc writes them, and LOGINUID/SESSION
 * ("4294967295" for none).
 */
static void put_process(int pid, const char *comm, unsigned uid, unsigned lck_kb,
			unsigned pin_kb, const char *soft, const char *hard,
			const char *loginuid, const char *session)
{
	char path[64], text[2048];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	snprintf(text, sizeof(text),
		 "%d (%s) S 1 %d %d 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 %d 1000 10 "
		 "18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n",
		 pid, comm, pid, pid, 5000 + pid);
	put(path, text);
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	snprintf(text, sizeof(text),
		 "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t%d\n"
		 "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t0\t0\t0\n"
		 "VmPeak:\t    5000 kB\nVmLck:\t%8u kB\nVmPin:\t%8u kB\nVmRSS:\t 100 kB\n",
		 comm, pid, uid, uid + 1, uid + 1, uid + 1, uid + 7, lck_kb, pin_kb);
	put(path, text);
	snprintf(path, sizeof(path), "/proc/%d/limits", pid);
	snprintf(text, sizeof(text), limits_fmt, soft, hard);
	put(path, text);
	snprintf(path, sizeof(path), "/proc/%d/loginuid", pid);
	put(path, loginuid);
	snprintf(path, sizeof(path), "/proc/%d/sessionid", pid);
	put(path, session);
}

static void setup(void)
{
	pml_tree_new(root, sizeof(root), "status");
	logged.text[0] = '\0';
}

static void teardown(void)
{
	pml_tree_remove(root);
}

START_TEST(stat_comm_with_spaces_and_parentheses)
{
	char comm[PROC_COMM_MAX];
	bool kthread = true;
	uint64_t start = 0;

	ck_assert_int_eq(proc_parse_stat(
				 "42 (a) b (c)) R 1 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 1 1\n",
				 comm, sizeof(comm), &kthread, &start),
			 0);
	ck_assert_str_eq(comm, "a) b (c)");
	ck_assert(!kthread);
	ck_assert_uint_eq(start, 987654);
}
END_TEST

START_TEST(stat_kernel_thread_and_malformed)
{
	char comm[PROC_COMM_MAX];
	bool kthread = false;
	uint64_t start;

	ck_assert_int_eq(proc_parse_stat(
				 "2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 3 0 0\n",
				 comm, sizeof(comm), &kthread, &start),
			 0);
	ck_assert(kthread);
	ck_assert_uint_eq(start, 3);
	ck_assert_int_eq(proc_parse_stat("2 (x) S 0 0 0\n", comm, sizeof(comm),
					 &kthread, &start),
			 -EINVAL);
	ck_assert_int_eq(proc_parse_stat("2 x S 0 0 0\n", comm, sizeof(comm),
					 &kthread, &start),
			 -EINVAL);
}
END_TEST

START_TEST(status_real_uid_locked_and_pinned)
{
	uid_t uid = 0;
	gid_t gid = 0;
	uint64_t locked = 1, pinned = 1;

	ck_assert_int_eq(proc_parse_status(
				 "Name:\tx\nUid:\t1000\t0\t0\t0\nGid:\t100\t0\t0\t0\n"
				 "VmLck:\t    1024 kB\nVmPin:\t    2048 kB\n",
				 &uid, &gid, &locked, &pinned),
			 0);
	ck_assert_uint_eq(uid, 1000);
	ck_assert_uint_eq(gid, 100);
	ck_assert_uint_eq(locked, 1 * MiB);
	ck_assert_uint_eq(pinned, 2 * MiB);
	/* A kernel without VmPin (before 3.2): none pinned. */
	ck_assert_int_eq(proc_parse_status("Uid:\t5\t5\t5\t5\nGid:\t5\t5\t5\t5\nVmLck:\t4 kB\n",
					   &uid, &gid, &locked, &pinned),
			 0);
	ck_assert_uint_eq(locked, 4 * KiB);
	ck_assert_uint_eq(pinned, 0);
	ck_assert_int_eq(proc_parse_status("Name:\tx\n", &uid, &gid, &locked, &pinned),
			 -EINVAL);
	ck_assert_int_eq(proc_parse_status("Uid:\t5\nGid:\t5\nVmLck:\tlots kB\n", &uid,
					   &gid, &locked, &pinned),
			 -EINVAL);
}
END_TEST

START_TEST(limits_numbers_and_unlimited)
{
	struct pml_limits l;
	char text[1024];

	snprintf(text, sizeof(text), limits_fmt, "65536               ", "8388608             ");
	ck_assert_int_eq(proc_parse_limits(text, &l), 0);
	ck_assert_uint_eq(l.soft, 64 * KiB);
	ck_assert_uint_eq(l.hard, 8 * MiB);
	snprintf(text, sizeof(text), limits_fmt, "8388608             ", "unlimited           ");
	ck_assert_int_eq(proc_parse_limits(text, &l), 0);
	ck_assert_uint_eq(l.soft, 8 * MiB);
	ck_assert_uint_eq(l.hard, PML_UNLIMITED);
	ck_assert_int_eq(proc_parse_limits("Max cpu time unlimited unlimited\n", &l),
			 -EINVAL);
}
END_TEST

START_TEST(session_file_service)
{
	char service[PROC_SERVICE_MAX];

	ck_assert_int_eq(proc_parse_session_service(
				 "# This is private data. Do not parse.\nUID=1000\nUSER=alice\n"
				 "ACTIVE=1\nSERVICE=sshd\nTYPE=tty\n",
				 service, sizeof(service)),
			 0);
	ck_assert_str_eq(service, "sshd");
	ck_assert_int_eq(proc_parse_session_service("UID=1000\n", service,
						    sizeof(service)),
			 0);
	ck_assert_str_eq(service, "");
	put("/run/systemd/sessions/7", "UID=0\nSERVICE=login\n");
	ck_assert_int_eq(proc_session_service(root, 7, service, sizeof(service)), 0);
	ck_assert_str_eq(service, "login");
	ck_assert_int_eq(proc_session_service(root, 8, service, sizeof(service)),
			 -ENOENT);
}
END_TEST

START_TEST(read_a_whole_process)
{
	struct proc_info p;
	const char *file;

	put_process(300, "my prog", 65534, 1024, 2048, "65536               ",
		    "8388608             ", "1000", "3");
	ck_assert_int_eq(proc_read(root, 300, &p, &file), 0);
	ck_assert_int_eq(p.pid, 300);
	ck_assert_str_eq(p.comm, "my prog");
	ck_assert_uint_eq(p.uid, 65534); /* the real uid, not the effective */
	ck_assert_uint_eq(p.gid, 65541); /* the real gid */
	ck_assert_uint_eq(p.locked, 1 * MiB);
	ck_assert_uint_eq(p.pinned, 2 * MiB);
	ck_assert_uint_eq(p.limits.soft, 64 * KiB);
	ck_assert_uint_eq(p.limits.hard, 8 * MiB);
	ck_assert(p.has_login);
	ck_assert_uint_eq(p.loginuid, 1000);
	ck_assert(p.has_session);
	ck_assert_uint_eq(p.session, 3);
	ck_assert_uint_eq(p.start, 5300);
	ck_assert(!p.kernel_thread);

	put_process(301, "daemon", 0, 0, 0, "unlimited           ",
		    "unlimited           ", "4294967295", "4294967295");
	ck_assert_int_eq(proc_read(root, 301, &p, &file), 0);
	ck_assert(!p.has_login);
	ck_assert(!p.has_session);
}
END_TEST

/* A file of a saved process that is not a regular file (a link, out of
 * the tree or not; a FIFO) is never opened: the process is refused, and
 * the file named.  A session file linked out of the tree is read inside
 * it. */
START_TEST(odd_files_are_not_read)
{
	static const struct {
		const char *file;
		bool fifo;
		const char *link_to;
	} cases[] = {
		{ .file = "cgroup", .link_to = "/dev/null" },
		{ .file = "cgroup", .fifo = true },
		{ .file = "status", .link_to = "../300/status" },
		{ .file = "limits", .fifo = true },
	};
	char path[256], service[64];
	struct proc_info p;
	const char *file;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t pid = (pid_t)(310 + i);

		put_process(pid, "odd", 65534, 0, 0, "65536               ",
			    "65536               ", "1000", "3");
		put_process(300, "plain", 65534, 0, 0, "65536               ",
			    "65536               ", "1000", "3");
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
		put(path, "0::/\n");
		snprintf(path, sizeof(path), "%s/proc/%d/%s", root, (int)pid, cases[i].file);
		ck_assert_int_eq(unlink(path), 0);
		if (cases[i].fifo)
			ck_assert_int_eq(mkfifo(path, 0600), 0);
		else
			ck_assert_int_eq(symlink(cases[i].link_to, path), 0);
		ck_assert_int_eq(proc_read(root, pid, &p, &file), -EINVAL);
		ck_assert_str_eq(file, cases[i].file);
	}
	snprintf(path, sizeof(path), "%s/run/systemd/sessions/9", root);
	put("/run/systemd/sessions/8", "SERVICE=login\n");
	ck_assert_int_eq(symlink("/run/systemd/sessions/8", path), 0);
	ck_assert_int_eq(proc_session_service(root, 9, service, sizeof(service)), 0);
	ck_assert_str_eq(service, "login");
}
END_TEST

START_TEST(a_vanished_process_is_gone)
{
	struct proc_info p;
	const char *file;
	uint64_t start;

	put("/proc/400/loginuid", "1000"); /* the directory, and no stat */
	ck_assert_int_eq(proc_read(root, 400, &p, &file), -ESRCH);
	ck_assert_int_eq(proc_read(root, 401, &p, &file), -ESRCH);
	ck_assert_int_eq(proc_start_time(root, 401, &start), -ESRCH);
}
END_TEST

/* The scan runs as nobody (root reads everything whatever the modes say),
 * in a child, so that the teardown still runs as root. */
START_TEST(an_unreadable_process_is_counted)
{
	struct live_selection all = { .which = LIVE_ALL };
	struct pml_source source = { .path = "/nonexistent/memlock.conf" };
	struct live_scan scan;
	char path[128];
	int status;
	pid_t child;

	put_process(500, "secret", 0, 0, 0, "65536               ",
		    "65536               ", "0", "1");
	put_process(501, "open", 65534, 0, 0, "65536               ",
		    "65536               ", "65534", "2");
	snprintf(path, sizeof(path), "%s/proc/500/status", root);
	ck_assert_int_eq(chmod(path, 0400), 0);
	child = fork();
	ck_assert_int_ge(child, 0);
	if (child == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0 ||
		    live_scan(root, &source, &all, NULL, &log_to_buffer, &scan) < 0)
			_exit(2);
		_exit(scan.n_procs == 1 && scan.procs[0].info.pid == 501 &&
				      scan.unreadable == 1
			      ? 0
			      : 1);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "as nobody: want pid 501 listed and 1 unreadable (status %d)",
		      status);
}
END_TEST

/* What apply asks before and after each change. */
START_TEST(a_reused_pid_is_not_the_same_process)
{
	struct proc_info p;
	const char *file;

	put_process(600, "first", 65534, 0, 0, "65536 ", "65536 ", "65534", "1");
	ck_assert_int_eq(proc_read(root, 600, &p, &file), 0);
	ck_assert(proc_still(root, 600, p.start));
	/* The process ends; another gets its pid, later. */
	put("/proc/600/stat",
	    "600 (second) S 1 600 600 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 99999 1 1\n");
	ck_assert(!proc_still(root, 600, p.start));
	ck_assert(proc_still(root, 600, 99999));
	/* Gone altogether. */
	ck_assert(!proc_still(root, 601, p.start));
}
END_TEST

START_TEST(list_is_numeric_and_sorted)
{
	pid_t *pids;
	size_t n;

	put("/proc/1000/stat", "");
	put("/proc/20/stat", "");
	put("/proc/self/stat", "");
	put("/proc/3x/stat", "");
	put("/proc/meminfo", "");
	ck_assert_int_eq(proc_list(root, &pids, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(pids[0], 20);
	ck_assert_int_eq(pids[1], 1000);
	free(pids);
}
END_TEST

/* A policy file in ROOT (root-owned, as the loader insists). */
static struct pml_source policy(const char *text)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/memlock.conf", root);
	put("/memlock.conf", text);
	chmod(path, 0644);
	return (struct pml_source){ .path = path, .given = true, .owner = 0 };
}

static const struct live_proc *find(const struct live_scan *scan, pid_t pid)
{
	size_t i;

	for (i = 0; i < scan->n_procs; i++)
		if (scan->procs[i].info.pid == pid)
			return &scan->procs[i];
	ck_abort_msg("pid %d not in the scan", (int)pid);
	return NULL;
}

START_TEST(scan_decides_per_user_and_service)
{
	struct live_selection all = { .which = LIVE_ALL };
	struct pml_source source = policy(
		"limit = \"8 MiB\";\n"
		"rules = ( { service = \"sshd\"; limit = \"2 MiB\"; mode = \"set\"; } );\n");
	struct live_scan scan;
	const struct live_proc *p;
	const struct live_answer *a;

	if (getuid() != 0)
		return; /* the policy must be root's */
	put("/run/systemd/sessions/3", "UID=65534\nSERVICE=sshd\n");
	put("/run/systemd/sessions/4", "UID=65534\nSERVICE=login\n");
	/* sshd session: 2 MiB set; at 2 MiB: ok. */
	put_process(10, "a", 65534, 0, 0, "2097152             ",
		    "2097152             ", "65534", "3");
	/* login session: 8 MiB raise; at 64 KiB: below. */
	put_process(11, "b", 65534, 512, 0, "65536               ",
		    "8388608             ", "65534", "4");
	/* login session, higher: above. */
	put_process(12, "c", 65534, 0, 1024, "unlimited           ",
		    "unlimited           ", "65534", "4");
	/* No session: the sshd rule could apply: unknown. */
	put_process(13, "d", 65534, 0, 0, "8388608             ",
		    "8388608             ", "4294967295", "4294967295");
	/* root, login session, exactly 8 MiB: ok. */
	put_process(14, "e", 0, 0, 0, "8388608             ",
		    "8388608             ", "0", "4");
	/* A kernel thread is never listed. */
	put_process(15, "kworker/0:1", 0, 0, 0, "65536               ",
		    "65536               ", "4294967295", "4294967295");
	put("/proc/15/stat", "15 (kworker/0:1) I 2 0 0 0 -1 69238880 0 0 0 0 0 0 0 0 20 0 1 0 9 0 0\n");

	ck_assert_int_eq(live_scan(root, &source, &all, NULL, &log_to_buffer, &scan), 0);
	ck_assert_uint_eq(scan.n_procs, 5);
	p = find(&scan, 10);
	ck_assert_str_eq(p->service, "sshd");
	a = live_answer_of(&scan, p);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->decision.soft.bytes, 2 * MiB);
	ck_assert_int_eq(a->decision.mode->mode, PML_MODE_SET);
	ck_assert_str_eq(live_verdict_name(p->verdict), "ok");
	ck_assert_str_eq(live_verdict_name(find(&scan, 11)->verdict), "below");
	ck_assert_str_eq(live_verdict_name(find(&scan, 12)->verdict), "above");
	p = find(&scan, 13);
	ck_assert_ptr_null(p->service);
	ck_assert_ptr_null(live_answer_of(&scan, p));
	ck_assert_str_eq(live_verdict_name(p->verdict), "unknown");
	ck_assert_str_eq(live_verdict_name(find(&scan, 14)->verdict), "ok");
	/* One answer per (user, service): nobody/sshd, nobody/login,
	 * nobody/none, root/login. */
	ck_assert_uint_eq(scan.n_answers, 4);
	/* By user, then locked+pinned descending, then pid. */
	ck_assert_str_eq(scan.procs[0].user, getpwuid(65534)->pw_name);
	ck_assert_str_eq(scan.procs[4].user, getpwuid(0)->pw_name);
	ck_assert_int_eq(scan.procs[0].info.pid, 12); /* nobody, 1 MiB */
	ck_assert_int_eq(scan.procs[1].info.pid, 11); /* nobody, 512 KiB */
	ck_assert_int_eq(scan.procs[2].info.pid, 10);
	ck_assert_int_eq(scan.procs[3].info.pid, 13);
	ck_assert_int_eq(scan.procs[4].info.pid, 14); /* root */
	live_scan_free(&scan);
}
END_TEST

/* Slurm's cgroup names: v2 (NODE_ on Debian, built for several slurmd per
 * host), v1 (a line per hierarchy); and what is not a job. */
START_TEST(cgroup_slurm_job)
{
	static const struct {
		const char *text;
		unsigned job; /* 0: not a job */
	} cases[] = {
		{ "0::/system.slice/node1_slurmstepd.scope/job_1234/step_batch/user/task_0\n", 1234 },
		{ "0::/system.slice/slurmstepd.scope/job_7/step_0/slurm\n", 7 },
		{ "12:pids:/\n4:memory:/slurm_node1/uid_4242/job_99/step_0/task_0\n", 99 },
		{ "4:freezer:/slurm/uid_0/job_4294967295/step_extern\n", 4294967295u },
		{ "0::/user.slice/user-1000.slice/session-3.scope\n", 0 },
		{ "0::/system.slice/node1_slurmstepd.scope/system\n", 0 },
		{ "0::/system.slice/job_12/step_0\n", 0 },
		{ "0::/system.slice/node1_slurmstepd.scope/job_12x/step_0\n", 0 },
		{ "0::/system.slice/node1_slurmstepd.scope/job_/step_0\n", 0 },
		{ "0::/system.slice/node1_slurmstepd.scope/job_4294967296\n", 0 },
		{ "4:memory:/uid_4242/job_99\n", 0 },
		{ "", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool has = cases[i].job == 0;
		unsigned job = 0;

		ck_assert_int_eq(proc_parse_slurm_job(cases[i].text, &has, &job), 0);
		ck_assert_msg(has == (cases[i].job != 0) && job == cases[i].job, "%s",
			      cases[i].text);
	}
}
END_TEST

START_TEST(selection_sessions_and_users)
{
	struct live_selection sessions = { .which = LIVE_SESSIONS };
	struct live_selection users = { .which = LIVE_USERS, .uids = { 0 }, .n_uids = 1 };
	struct pml_source source = policy("limit = \"8 MiB\";\n");
	struct live_scan scan;

	if (getuid() != 0)
		return;
	put_process(20, "in", 65534, 0, 0, "65536 ", "65536 ", "65534", "5");
	put_process(21, "out", 65534, 0, 0, "65536 ", "65536 ", "4294967295",
		    "4294967295");
	put_process(22, "rootd", 0, 0, 0, "65536 ", "65536 ", "4294967295",
		    "4294967295");
	ck_assert_int_eq(live_scan(root, &source, &sessions, NULL, &log_to_buffer, &scan), 0);
	ck_assert_uint_eq(scan.n_procs, 1);
	ck_assert_int_eq(scan.procs[0].info.pid, 20);
	/* Session 5 has no logind file: the service is unknown, and no rule
	 * has a service key, so the answer stands. */
	ck_assert_ptr_nonnull(live_answer_of(&scan, &scan.procs[0]));
	live_scan_free(&scan);
	ck_assert_int_eq(live_scan(root, &source, &users, NULL, &log_to_buffer, &scan), 0);
	ck_assert_uint_eq(scan.n_procs, 1);
	ck_assert_int_eq(scan.procs[0].info.pid, 22);
	live_scan_free(&scan);
}
END_TEST

START_TEST(invalid_policy_fails_the_scan)
{
	struct live_selection all = { .which = LIVE_ALL };
	struct pml_source source = policy("limit = 8;\n");
	struct live_scan scan;

	if (getuid() != 0)
		return;
	ck_assert_int_eq(live_scan(root, &source, &all, NULL, &log_to_buffer, &scan), -EINVAL);
}
END_TEST

/* The keys of the index cases: "key N" at position N. */
#define INDEX_KEYS 20000
static char index_keys[INDEX_KEYS][16];

static bool same_key(const void *context, size_t at)
{
	return strcmp(index_keys[at], context) == 0;
}

/* The hash of key I, or one hash for every key (the worst a user could
 * contrive). */
static uint64_t key_hash(const struct live_index *index, const char *key, bool one)
{
	return one ? 7 : live_index_hash(index, key, strlen(key));
}

/* Every key added is found at its position, a key never added is not,
 * through the index's growth from empty; and where every hash is the
 * same, still each at its own position. */
START_TEST(index_finds_each_key_at_its_position)
{
	static const bool one_hash[] = { false, true };
	size_t k;

	for (k = 0; k < sizeof(one_hash) / sizeof(one_hash[0]); k++) {
		size_t n = one_hash[k] ? 500 : INDEX_KEYS, i;
		struct live_index index;

		live_index_init(&index);
		ck_assert_uint_eq(live_index_find(&index, 1, same_key, "key 0"), SIZE_MAX);
		for (i = 0; i < n; i++) {
			snprintf(index_keys[i], sizeof(index_keys[i]), "key %zu", i);
			ck_assert_int_eq(live_index_add(&index, key_hash(&index, index_keys[i], one_hash[k]), i), 0);
		}
		ck_assert_uint_eq(index.n, n);
		ck_assert_uint_le(index.n * 2, index.n_slots);
		for (i = 0; i < n; i++)
			ck_assert_uint_eq(live_index_find(&index, key_hash(&index, index_keys[i], one_hash[k]),
							  same_key, index_keys[i]),
					  i);
		ck_assert_uint_eq(live_index_find(&index, key_hash(&index, "key x", one_hash[k]),
						  same_key, "key x"),
				  SIZE_MAX);
		live_index_free(&index);
	}
}
END_TEST

/* Equal bytes hash alike in one index, other bytes not; the mix of a hash
 * with a value depends on the value. */
START_TEST(index_hash_is_of_the_bytes)
{
	struct live_index index;
	char a[] = "0::/c/2", b[] = "0::/c/2";

	live_index_init(&index);
	ck_assert_uint_eq(live_index_hash(&index, a, strlen(a)), live_index_hash(&index, b, strlen(b)));
	ck_assert_uint_ne(live_index_hash(&index, a, strlen(a)), live_index_hash(&index, "0::/c/3", 7));
	ck_assert_uint_ne(live_index_mix(1, 2), live_index_mix(1, 3));
	live_index_free(&index);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("status");
	TCase *tc = tcase_create("status");
	struct pml_skip skips[4];
	size_t n_skips = 0;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, stat_comm_with_spaces_and_parentheses);
	tcase_add_test(tc, stat_kernel_thread_and_malformed);
	tcase_add_test(tc, status_real_uid_locked_and_pinned);
	tcase_add_test(tc, limits_numbers_and_unlimited);
	tcase_add_test(tc, session_file_service);
	tcase_add_test(tc, cgroup_slurm_job);
	tcase_add_test(tc, read_a_whole_process);
	tcase_add_test(tc, odd_files_are_not_read);
	tcase_add_test(tc, a_vanished_process_is_gone);
	tcase_add_test(tc, a_reused_pid_is_not_the_same_process);
	tcase_add_test(tc, list_is_numeric_and_sorted);
	tcase_add_test(tc, index_finds_each_key_at_its_position);
	tcase_add_test(tc, index_hash_is_of_the_bytes);
	if (getuid() == 0) {
		tcase_add_test(tc, an_unreadable_process_is_counted);
		tcase_add_test(tc, scan_decides_per_user_and_service);
		tcase_add_test(tc, selection_sessions_and_users);
		tcase_add_test(tc, invalid_policy_fails_the_scan);
	} else {
		static const char why[] = "needs root: policy files must be root's, and "
					  "only root can become nobody";

		skips[n_skips++] = (struct pml_skip){ "an_unreadable_process_is_counted", why };
		skips[n_skips++] = (struct pml_skip){ "scan_decides_per_user_and_service", why };
		skips[n_skips++] = (struct pml_skip){ "selection_sessions_and_users", why };
		skips[n_skips++] = (struct pml_skip){ "invalid_policy_fails_the_scan", why };
	}
	suite_add_tcase(s, tc);
	return pml_run_tap(s, skips, n_skips);
}
