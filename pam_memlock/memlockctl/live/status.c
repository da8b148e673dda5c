/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl status [USER...] [--all] [--service S] [--json]: running
 * processes, their RLIMIT_MEMLOCK, the memory they lock and pin, what the
 * policy gives their user now, and per user the totals the kernel charges
 * io_uring and RDMA against.  It only reads.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "output/json.h"
#include "live.h"
#include "output/text.h"

/* The widest escaped name a column shows; longer ones are cut, with "+". */
#define NAME_COLUMN 12
#define CELL_MAX (PROC_SERVICE_MAX * 4 + 1)

static const char *const which_names[] = {
	[LIVE_SESSIONS] = "sessions",
	[LIVE_USERS] = "users",
	[LIVE_ALL] = "all",
};

/* NAME escaped (no byte of it can act on a terminal), cut to WIDTH. */
static const char *cell(const char *name, size_t width, char *buf, size_t len)
{
	if (name == NULL)
		return "-";
	pml_escape(name, buf, len);
	if (strlen(buf) > width) {
		buf[width - 1] = '+';
		buf[width] = '\0';
	}
	return buf;
}

/* "8 MiB/8 MiB raise", or "?" without an answer. */
static void policy_cell(const struct live_answer *a, char *buf, size_t len)
{
	char soft[CLI_SHORT_MAX], hard[CLI_SHORT_MAX];

	if (a == NULL) {
		snprintf(buf, len, "?");
		return;
	}
	cli_format_short(a->decision.soft.bytes, soft, sizeof(soft));
	cli_format_short(a->decision.hard.bytes, hard, sizeof(hard));
	snprintf(buf, len, "%s/%s %s", soft, hard,
		 pml_mode_name(a->decision.mode->mode));
}

void live_user_total(const struct live_scan *scan, size_t first,
		     struct live_user_total *t)
{
	size_t i;

	*t = (struct live_user_total){ .first = first, .smallest_soft = PML_UNLIMITED };
	for (i = first; i < scan->n_procs &&
			scan->procs[i].user == scan->procs[first].user;
	     i++) {
		const struct proc_info *p = &scan->procs[i].info;

		t->locked += p->locked;
		t->pinned += p->pinned;
		if (p->limits.soft < t->smallest_soft)
			t->smallest_soft = p->limits.soft;
	}
	t->end = i;
}

/* The service, in parentheses where --service stood in for logind. */
static const char *service_cell(const struct live_proc *p, char *buf, size_t len)
{
	char given[CELL_MAX];

	if (!p->service_given)
		return cell(p->service, 10, buf, len);
	snprintf(given, sizeof(given), "(%s)", p->service);
	return cell(given, 10, buf, len);
}

/* Which layer set the limit, and where: "session FILE:LINE", "unit NAME
 * FILE:LINE" (with the rule a generator's drop-in names), "inherited". */
static void layer_cell(const struct live_proc *p, char *buf, size_t len)
{
	const char *rule = p->layer_rule != NULL ? p->layer_rule : "";

	snprintf(buf, len, "%s%s%s%s%s%s%s", live_layer_name(p->layer),
		 p->layer_unit != NULL ? " " : "", p->layer_unit != NULL ? p->layer_unit : "",
		 p->layer_from != NULL ? " " : "", p->layer_from != NULL ? p->layer_from : "",
		 rule[0] != '\0' ? " rule " : "", rule);
}

static void print_process(const struct live_scan *scan, const struct live_proc *p)
{
	char layer[2 * PATH_MAX + 320], shown[4 * sizeof(layer)];
	char user[CELL_MAX], comm[CELL_MAX], service[CELL_MAX], session[16];
	char locked[CLI_SHORT_MAX], pinned[CLI_SHORT_MAX], soft[CLI_SHORT_MAX];
	char hard[CLI_SHORT_MAX], policy[64];

	if (p->info.has_session)
		snprintf(session, sizeof(session), "%u", p->info.session);
	else if (p->info.has_job)
		snprintf(session, sizeof(session), "job %u", p->info.job);
	else
		snprintf(session, sizeof(session), "-");
	cli_format_short(p->info.locked, locked, sizeof(locked));
	cli_format_short(p->info.pinned, pinned, sizeof(pinned));
	cli_format_short(p->info.limits.soft, soft, sizeof(soft));
	cli_format_short(p->info.limits.hard, hard, sizeof(hard));
	policy_cell(live_answer_of(scan, p), policy, sizeof(policy));
	layer_cell(p, layer, sizeof(layer));
	printf("%7d %-12s %-15s %7s %-10s %9s %9s %9s %9s  %-22s %-7s %s\n",
	       (int)p->info.pid, cell(p->user, NAME_COLUMN, user, sizeof(user)),
	       cell(p->info.comm, 15, comm, sizeof(comm)), session,
	       service_cell(p, service, sizeof(service)),
	       locked, pinned, soft, hard, policy, live_verdict_name(p->verdict),
	       pml_escape(layer, shown, sizeof(shown)));
}

static void print_text(const struct live_scan *scan,
		       const struct live_selection *selection)
{
	struct live_user_total t;
	size_t i;

	if (scan->n_procs == 0) {
		printf("no process selected: %s\n", live_none_selected(scan, selection));
		return;
	}
	printf("%7s %-12s %-15s %7s %-10s %9s %9s %9s %9s  %-22s %-7s %s\n", "PID",
	       "USER", "COMMAND", "SESSION", "SERVICE", "LOCKED", "PINNED", "SOFT", "HARD",
	       "POLICY", "VERDICT", "LAYER");
	for (i = 0; i < scan->n_procs; i++)
		print_process(scan, &scan->procs[i]);
	printf("\n%-12s %9s %9s %9s %13s\n", "USER", "PROCESSES", "LOCKED", "PINNED",
	       "SMALLEST SOFT");
	for (i = 0; i < scan->n_procs; i = t.end) {
		char user[CELL_MAX], locked[CLI_SHORT_MAX], pinned[CLI_SHORT_MAX];
		char soft[CLI_SHORT_MAX];

		live_user_total(scan, i, &t);
		cli_format_short(t.locked, locked, sizeof(locked));
		cli_format_short(t.pinned, pinned, sizeof(pinned));
		cli_format_short(t.smallest_soft, soft, sizeof(soft));
		printf("%-12s %9zu %9s %9s %13s\n",
		       cell(scan->procs[i].user, NAME_COLUMN, user, sizeof(user)),
		       t.end - t.first, locked, pinned, soft);
	}
	printf("\nThe kernel charges io_uring registered buffers and RDMA pins to the user\n"
	       "as a whole: a registration fails once the user's total would pass the\n"
	       "soft limit of the process that registers.\n");
}

static void json_policy(struct cli_json *j, const struct live_scan *scan,
			const struct live_answer *a)
{
	const struct pml_rule *rule;

	if (a == NULL) {
		cli_json_null(j);
		return;
	}
	rule = a->decision.rule;
	cli_json_open_object(j);
	/* The base of a share of "available": this process's own. */
	cli_json_uint_or_null(j, "base", pml_needs_available(&scan->policy, rule),
			      a->machine.available.bytes);
	cli_json_member_string(j, "base_from",
			       pml_needs_available(&scan->policy, rule) &&
					       a->machine.available.from[0] != '\0'
				       ? a->machine.available.from
				       : NULL);
	cli_json_member_bytes(j, "soft", a->decision.soft.bytes);
	cli_json_member_bytes(j, "hard", a->decision.hard.bytes);
	cli_json_member_string(j, "mode", pml_mode_name(a->decision.mode->mode));
	cli_json_key(j, "rule");
	if (rule == NULL) {
		cli_json_null(j);
	} else {
		cli_json_open_object(j);
		cli_json_member_string(j, "file", pml_policy_file_name(&scan->policy, rule->at));
		cli_json_member_uint(j, "line", rule->at.line);
		cli_json_close_object(j);
	}
	cli_json_close_object(j);
}

static void json_process(struct cli_json *j, const struct live_scan *scan,
			 const struct live_proc *p)
{
	cli_json_open_object(j);
	live_json_process(j, p);
	cli_json_member_bytes(j, "soft", p->info.limits.soft);
	cli_json_member_bytes(j, "hard", p->info.limits.hard);
	cli_json_member_uint(j, "locked", p->info.locked);
	cli_json_member_uint(j, "pinned", p->info.pinned);
	cli_json_key(j, "policy");
	json_policy(j, scan, live_answer_of(scan, p));
	cli_json_member_string(j, "verdict", live_verdict_name(p->verdict));
	cli_json_close_object(j);
}

static void print_json(const struct live_scan *scan, enum live_which which)
{
	struct cli_json j;
	struct live_user_total t;
	size_t i;

	cli_json_start(&j, stdout);
	cli_json_open_object(&j);
	cli_json_member_array(&j, "files");
	for (i = 0; i < scan->policy.n_files; i++)
		cli_json_string(&j, scan->policy.files[i].name);
	cli_json_close_array(&j);
	cli_json_member_string(&j, "selection", which_names[which]);
	cli_json_member_array(&j, "processes");
	for (i = 0; i < scan->n_procs; i++)
		json_process(&j, scan, &scan->procs[i]);
	cli_json_close_array(&j);
	cli_json_member_array(&j, "users");
	for (i = 0; i < scan->n_procs; i = t.end) {
		live_user_total(scan, i, &t);
		cli_json_open_object(&j);
		cli_json_member_string(&j, "user", scan->procs[i].user);
		cli_json_member_uint(&j, "uid", scan->procs[i].info.uid);
		cli_json_member_uint(&j, "processes", t.end - t.first);
		cli_json_member_uint(&j, "locked", t.locked);
		cli_json_member_uint(&j, "pinned", t.pinned);
		cli_json_member_bytes(&j, "smallest_soft", t.smallest_soft);
		cli_json_close_object(&j);
	}
	cli_json_close_array(&j);
	cli_json_member_uint(&j, "unreadable", scan->unreadable);
	cli_json_close_object(&j);
	cli_json_finish(&j);
}

int cli_status(const struct cli_options *options)
{
	struct live_selection selection;
	struct cli_log_state state;
	struct live_scan scan;
	struct pml_log log;
	bool below = false;
	size_t i;
	int rc;

	cli_log_init(&log, &state);
	rc = live_select(options, &selection);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (live_scan(options->root != NULL ? options->root : "", &options->source,
		      &selection, options->service, &log, &scan) < 0)
		return CLI_EXIT_FAIL;
	if (options->json)
		print_json(&scan, selection.which);
	else
		print_text(&scan, &selection);
	live_print_notes(&scan);
	for (i = 0; i < scan.n_procs; i++)
		below |= scan.procs[i].verdict == LIVE_BELOW;
	live_scan_free(&scan);
	return cli_finish_output(below ? CLI_EXIT_FAIL : CLI_EXIT_OK);
}
