/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl apply [USER...] [--all] [--service S] [--dry-run] [--json]:
 * brings running processes to what the policy gives them now, with
 * prlimit(2), through the module's own plan (pml_apply_to): raise never
 * lowers, set applies exactly, a refused hard raise takes soft as far as
 * the hard limit allows.
 *
 * Never touched: this process, PID 1, root's processes unless root is
 * named, and a process whose session's service is unknown where a rule
 * with a service key could apply (the module would have known it).
 *
 * A pid may pass to another process between the scan and the change.
 * Root therefore changes another user's process as that user (owner.c):
 * the kernel lets that call reach no process of anyone else, root's
 * least of all.  Root's own call is left for what only CAP_SYS_RESOURCE
 * may do (raising a hard limit; a process whose ids are mixed, as a
 * set-uid program's), made only while a pidfd shows the process that was
 * read still alive; a pidfd that still names a live process after the
 * call proves the call reached it.  Without pidfds (Linux before 5.3),
 * the start time is compared instead.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <syslog.h>
#include <unistd.h>

#include "apply.h"
#include "live.h"
#include "output/json.h"
#include "output/text.h"
#include "owner.h"

enum result {
	RESULT_UNCHANGED, /* already what the policy gives */
	RESULT_CHANGED,	  /* (--dry-run: would change) */
	RESULT_FAILED,
	RESULT_SKIPPED, /* see the reason */
	RESULT_GONE,	/* ended (or its pid was reused) before the
				 * change: not listed */
};

static const char *const result_names[] = {
	[RESULT_UNCHANGED] = "unchanged",
	[RESULT_CHANGED] = "changed",
	[RESULT_FAILED] = "failed",
	[RESULT_SKIPPED] = "skipped",
	[RESULT_GONE] = "gone",
};

struct change {
	enum result result;
	const char *reason; /* why skipped or failed */
	int error;	    /* -errno of a failure */
	bool cut_short;	    /* see struct budget */
	struct pml_outcome outcome;
};

struct tally {
	unsigned counts[RESULT_GONE + 1];
	unsigned hard_refused;
	unsigned cut_short; /* skipped for want of time, or a killed child */
};

/*
 * What bounds a run against owners who stop the children that act as
 * them: a child is awaited OWNER_WAIT_SECONDS at most, the whole run
 * OWNER_RUN_SECONDS, and once a child had to be killed, its uid's other
 * processes are left alone, so that one user costs one wait.
 */
struct budget {
	long long deadline; /* owner_clock_ms */
	uid_t *stalled;	    /* uids whose child had to be killed */
	size_t n_stalled;
};

/* A pidfd for PID, or -1 where the kernel has none (-errno in *rc). */
static int pidfd_for(pid_t pid, int *rc)
{
#ifdef SYS_pidfd_open
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);

	*rc = fd < 0 ? -errno : 0;
	return fd;
#else
	(void)pid;
	*rc = -ENOSYS;
	return -1;
#endif
}

/* Is the process FD names still there (a zombie counts: it keeps its pid)? */
static bool pidfd_alive(int fd)
{
#ifdef SYS_pidfd_send_signal
	return syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0) == 0;
#else
	(void)fd;
	return false;
#endif
}

/* Is P still the process the scan read?  FD is its pidfd, or -1. */
static bool still_there(const struct live_proc *p, int fd)
{
	return (fd < 0 || pidfd_alive(fd)) && proc_still("", p->info.pid, p->info.start);
}

/*
 * The module's plan on process P (see the top of this file): as its owner
 * where root changes another user's process, then root's own call for
 * what the owner could not do.
 */
static int apply_to(const struct live_proc *p, int fd,
		    const struct pml_decision *decision, bool dry_run,
		    long long deadline, struct pml_outcome *out, bool *killed)
{
	struct pml_outcome direct;
	int rc;

	*killed = false;
	if (geteuid() != 0 || p->info.uid == 0)
		return pml_apply_to(p->info.pid, decision, dry_run, out);
	rc = owner_apply(&p->info, decision, dry_run, deadline, out, killed);
	if (rc != -EPERM && !(rc == 0 && out->hard_refused))
		return rc;
	if (!still_there(p, fd))
		return -ESRCH;
	/* Without CAP_SYS_RESOURCE root can do no more than the owner. */
	if (pml_apply_to(p->info.pid, decision, dry_run, &direct) < 0)
		return rc;
	if (rc == 0)
		direct.before = out->before;
	*out = direct;
	return 0;
}

/* Why apply leaves P alone, or NULL. */
static const char *never_touched(const struct live_scan *scan,
				 const struct live_selection *selection,
				 const struct live_proc *p)
{
	const struct live_answer *a = &scan->answers[p->answer];

	if (p->info.pid == getpid())
		return "memlockctl itself";
	if (p->info.pid == 1)
		return "PID 1";
	if (p->info.uid == 0 && !selection->root_named)
		return "root's, and root is not named";
	if (a->rc != 0)
		return "no answer for this user (see above)";
	if (a->service_rule_could_apply)
		return "the session's service is unknown, and a rule with a service key could apply";
	return NULL;
}

static bool stalled(const struct budget *b, uid_t uid)
{
	size_t i;

	for (i = 0; i < b->n_stalled; i++)
		if (b->stalled[i] == uid)
			return true;
	return false;
}

/* Why the budget leaves P alone, or NULL. */
static const char *out_of_time(const struct budget *b, const struct live_proc *p)
{
	if (geteuid() != 0 || p->info.uid == 0)
		return NULL;
	if (stalled(b, p->info.uid))
		return "a child acting as this user earlier in the run had to be killed (stopped?): the user's other processes are left alone";
	if (owner_clock_ms() >= b->deadline)
		return "the run's time for children acting as owners is spent";
	return NULL;
}

static void note_stalled(struct budget *b, uid_t uid)
{
	uid_t *grown = realloc(b->stalled, (b->n_stalled + 1) * sizeof(*grown));

	/* Out of memory: the run's deadline still bounds it. */
	if (grown == NULL)
		return;
	b->stalled = grown;
	b->stalled[b->n_stalled++] = uid;
}

static bool same(struct pml_limits a, struct pml_limits b)
{
	return a.soft == b.soft && a.hard == b.hard;
}

static void change_one(const struct live_scan *scan,
		       const struct live_selection *selection,
		       const struct live_proc *p, bool dry_run,
		       struct budget *b, struct change *c)
{
	const struct live_answer *a = &scan->answers[p->answer];
	long long deadline = owner_clock_ms() + OWNER_WAIT_SECONDS * 1000LL;
	int fd, fd_rc, rc;
	bool killed;

	*c = (struct change){ .result = RESULT_SKIPPED };
	c->reason = never_touched(scan, selection, p);
	if (c->reason != NULL)
		return;
	c->reason = out_of_time(b, p);
	if (c->reason != NULL) {
		c->cut_short = true;
		return;
	}
	fd = pidfd_for(p->info.pid, &fd_rc);
	if ((fd < 0 && fd_rc == -ESRCH) || !proc_still("", p->info.pid, p->info.start)) {
		if (fd >= 0)
			close(fd);
		c->result = RESULT_GONE;
		return;
	}
	rc = apply_to(p, fd, &a->decision, dry_run,
		      deadline < b->deadline ? deadline : b->deadline, &c->outcome,
		      &killed);
	if (killed) {
		note_stalled(b, p->info.uid);
		c->cut_short = true;
	}
	if (rc == 0 && !dry_run && !still_there(p, fd)) {
		/* Gone by now: if it ended before the change and its pid went to
		 * another process of the same user, that one may have been
		 * changed. */
		uint64_t start;

		if (proc_start_time("", p->info.pid, &start) == 0) {
			rc = -ESRCH;
			c->reason = "its pid was reused during the change: the process now holding it may have been changed";
		}
	}
	if (fd >= 0)
		close(fd);
	if (rc == -ESRCH && c->reason == NULL) {
		c->result = RESULT_GONE;
		return;
	}
	if (rc == -ETIMEDOUT)
		c->reason = "the child acting as the process's owner did not answer in time (stopped?), and was killed";
	if (rc < 0) {
		c->result = RESULT_FAILED;
		c->error = rc;
		return;
	}
	/* What the process has now, not what was asked: a refused hard raise
	 * can leave it as it was. */
	c->result = same(dry_run ? c->outcome.wanted : c->outcome.after, c->outcome.before)
			    ? RESULT_UNCHANGED
			    : RESULT_CHANGED;
}

/* "64 KiB/64 KiB" */
static void pair(struct pml_limits l, char *buf, size_t len)
{
	char soft[CLI_SHORT_MAX], hard[CLI_SHORT_MAX];

	cli_format_short(l.soft, soft, sizeof(soft));
	cli_format_short(l.hard, hard, sizeof(hard));
	snprintf(buf, len, "%s/%s", soft, hard);
}

static void print_text_line(const struct live_proc *p, const struct change *c,
			    bool dry_run)
{
	char user[256], comm[PROC_COMM_MAX * 4], before[40], after[40];

	pml_escape(p->user, user, sizeof(user));
	pml_escape(p->info.comm, comm, sizeof(comm));
	printf("%7d %-12s %-15s ", (int)p->info.pid, user, comm);
	switch (c->result) {
	case RESULT_SKIPPED:
		printf("skipped: %s\n", c->reason);
		return;
	case RESULT_FAILED:
		/* The limits may not even have been read. */
		printf("failed: %s\n", c->reason != NULL ? c->reason : strerror(-c->error));
		return;
	default:
		break;
	}
	pair(c->outcome.before, before, sizeof(before));
	pair(dry_run ? c->outcome.wanted : c->outcome.after, after, sizeof(after));
	printf("%s -> %s  %s%s\n", before, after,
	       c->result == RESULT_UNCHANGED ? "unchanged"
	       : dry_run		     ? "would change"
					     : "changed",
	       !c->outcome.hard_refused	       ? ""
	       : c->result == RESULT_UNCHANGED ? " (raising hard needs CAP_SYS_RESOURCE)"
					       : " (soft only: raising hard needs CAP_SYS_RESOURCE)");
}

static void json_limits(struct cli_json *j, const char *key, struct pml_limits l)
{
	cli_json_member_object(j, key);
	cli_json_member_bytes(j, "soft", l.soft);
	cli_json_member_bytes(j, "hard", l.hard);
	cli_json_close_object(j);
}

static void json_line(struct cli_json *j, const struct live_scan *scan,
		      const struct live_proc *p, const struct change *c, bool dry_run)
{
	bool planned = c->result == RESULT_CHANGED || c->result == RESULT_UNCHANGED;

	cli_json_open_object(j);
	live_json_process(j, p);
	cli_json_member_string(j, "mode",
			       planned ? pml_mode_name(scan->answers[p->answer]
							       .decision.mode->mode)
				       : NULL);
	if (planned) {
		json_limits(j, "before", c->outcome.before);
		json_limits(j, "wanted", c->outcome.wanted);
		json_limits(j, "after", dry_run ? c->outcome.before : c->outcome.after);
	} else {
		cli_json_member_null(j, "before");
		cli_json_member_null(j, "wanted");
		cli_json_member_null(j, "after");
	}
	cli_json_member_string(j, "result",
			       c->result == RESULT_CHANGED && dry_run ? "would change"
								      : result_names[c->result]);
	cli_json_member_bool(j, "hard_refused", c->outcome.hard_refused);
	cli_json_member_string(j, "reason",
			       c->result == RESULT_FAILED && c->reason == NULL
				       ? strerror(-c->error)
				       : c->reason);
	cli_json_close_object(j);
}

static void warn_hard_refused(const struct live_proc *p, const struct change *c)
{
	char wanted[CLI_SHORT_MAX], got[CLI_SHORT_MAX];

	cli_format_short(c->outcome.wanted.hard, wanted, sizeof(wanted));
	cli_format_short(c->outcome.after.soft, got, sizeof(got));
	fprintf(stderr,
		"memlockctl: process %d: raising the hard limit to %s needs CAP_SYS_RESOURCE; soft went to %s\n",
		(int)p->info.pid, wanted, got);
}

/* One line for the system log: who ran it, and how many changed. */
static void log_run(const struct tally *t)
{
	openlog("memlockctl", LOG_PID, LOG_AUTHPRIV);
	syslog(t->counts[RESULT_FAILED] > 0 ? LOG_WARNING : LOG_NOTICE,
	       "apply by uid %u: %u %s changed, %u unchanged, %u failed, %u skipped",
	       (unsigned)getuid(), t->counts[RESULT_CHANGED],
	       cli_plural(t->counts[RESULT_CHANGED], "process", "processes"),
	       t->counts[RESULT_UNCHANGED], t->counts[RESULT_FAILED],
	       t->counts[RESULT_SKIPPED]);
	closelog();
}

int cli_apply(const struct cli_options *options)
{
	struct live_selection selection;
	struct cli_log_state state;
	struct tally t = { .hard_refused = 0 };
	struct budget b = { .stalled = NULL };
	struct live_scan scan;
	struct cli_json j;
	struct pml_log log;
	size_t i;
	int rc;

	cli_log_init(&log, &state);
	rc = live_select(options, &selection);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (live_scan("", &options->source, &selection, options->service, &log,
		      &scan) < 0)
		return CLI_EXIT_FAIL;
	if (options->json) {
		cli_json_start(&j, stdout);
		cli_json_open_object(&j);
		cli_json_member_bool(&j, "dry_run", options->dry_run);
		cli_json_member_array(&j, "files");
		for (i = 0; i < scan.policy.n_files; i++)
			cli_json_string(&j, scan.policy.files[i].name);
		cli_json_close_array(&j);
		cli_json_member_array(&j, "processes");
	}
	b.deadline = owner_clock_ms() + OWNER_RUN_SECONDS * 1000LL;
	for (i = 0; i < scan.n_procs; i++) {
		const struct live_proc *p = &scan.procs[i];
		struct change c;

		change_one(&scan, &selection, p, options->dry_run, &b, &c);
		t.counts[c.result]++;
		t.cut_short += c.cut_short;
		if (c.result == RESULT_GONE)
			continue;
		if (c.outcome.hard_refused) {
			t.hard_refused++;
			warn_hard_refused(p, &c);
		}
		if (options->json)
			json_line(&j, &scan, p, &c, options->dry_run);
		else
			print_text_line(p, &c, options->dry_run);
	}
	if (options->json) {
		cli_json_close_array(&j);
		cli_json_member_uint(&j, options->dry_run ? "would_change" : "changed", t.counts[RESULT_CHANGED]);
		cli_json_member_uint(&j, "unchanged", t.counts[RESULT_UNCHANGED]);
		cli_json_member_uint(&j, "failed", t.counts[RESULT_FAILED]);
		cli_json_member_uint(&j, "skipped", t.counts[RESULT_SKIPPED]);
		cli_json_close_object(&j);
		cli_json_finish(&j);
	} else {
		if (scan.n_procs == 0)
			printf("no process selected: %s\n",
			       live_none_selected(&scan, &selection));
		printf("%s: %u %s, %u unchanged, %u failed, %u skipped\n",
		       options->dry_run ? "dry run" : "applied",
		       t.counts[RESULT_CHANGED],
		       options->dry_run ? "would change" : "changed",
		       t.counts[RESULT_UNCHANGED], t.counts[RESULT_FAILED],
		       t.counts[RESULT_SKIPPED]);
	}
	live_print_notes(&scan);
	if (t.cut_short > 0)
		fprintf(stderr,
			"memlockctl: %u %s cut short: a child acting as the owner had to be killed, or the run's %d seconds were spent\n",
			t.cut_short, cli_plural(t.cut_short, "process", "processes"),
			OWNER_RUN_SECONDS);
	if (!options->dry_run)
		log_run(&t);
	live_scan_free(&scan);
	free(b.stalled);
	return cli_finish_output(t.counts[RESULT_FAILED] > 0 || t.cut_short > 0
					 ? CLI_EXIT_FAIL
					 : CLI_EXIT_OK);
}
