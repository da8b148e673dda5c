/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The facts metrics and nagios report, gathered by calling check, doctor
 * and status's own code in turn (monitor.h).
 */
#include "monitor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfd/dirfd.h"

/* doctor's visitor: keeps each path's service and verdict. */
static void keep_path(const struct doc_path *p, bool last, void *ctx)
{
	struct monitor_facts *f = ctx;
	struct monitor_path *grown;
	char *service;

	(void)last;
	if (!doc_verdict_is_fine(p->verdict))
		f->paths_not_ok++;
	service = strdup(p->service);
	grown = service != NULL ? realloc(f->paths, (f->n_paths + 1) * sizeof(*grown)) : NULL;
	if (grown == NULL) {
		/* Counted, if not named: the verdict still reaches the total. */
		free(service);
		fprintf(stderr, "memlockctl: out of memory: a path's service is left out\n");
		return;
	}
	f->paths = grown;
	f->paths[f->n_paths++] = (struct monitor_path){ .service = service, .verdict = p->verdict };
}

/* doctor's unit visitor: keeps each unit's name and verdict. */
static void keep_unit(const struct doc_unit *u, void *ctx)
{
	struct monitor_facts *f = ctx;
	struct monitor_unit *grown;
	char *name;

	if (u->verdict != DOC_UNIT_OK)
		f->units_not_ok++;
	name = strdup(u->name);
	grown = name != NULL ? realloc(f->units, (f->n_units + 1) * sizeof(*grown)) : NULL;
	if (grown == NULL) {
		free(name);
		fprintf(stderr, "memlockctl: out of memory: a unit's name is left out\n");
		return;
	}
	f->units = grown;
	f->units[f->n_units++] = (struct monitor_unit){ .name = name, .verdict = u->verdict };
}

static void check(const struct cli_options *options, struct monitor_facts *f)
{
	char name[CHECK_NAME_MAX];

	check_policy_name(options, name, sizeof(name));
	f->policy_loads = check_policy(options, name, stderr, &f->check) == CLI_EXIT_OK;
}

/* Under check's policy, taken over; none when it is invalid: status would
 * only say check's errors again. */
static int status(const struct cli_options *options, struct monitor_facts *f)
{
	struct live_selection selection;
	struct live_user_total t;
	struct cli_log_state state;
	struct pml_log log;
	size_t i;
	int rc;

	cli_log_init(&log, &state);
	rc = live_select(options, &selection);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (!f->policy_loads) {
		f->scan_rc = -EINVAL;
		return CLI_EXIT_OK;
	}
	f->scan_rc = live_scan_loaded(options->root != NULL ? options->root : "",
				      &f->check.policy, &f->check.machine, &selection,
				      options->service, &log, &f->scan);
	if (f->scan_rc < 0)
		return CLI_EXIT_OK;
	for (i = 0; i < f->scan.n_procs; i++)
		f->processes[f->scan.procs[i].verdict]++;
	for (i = 0; i < f->scan.n_procs; i = t.end) {
		live_user_total(&f->scan, i, &t);
		f->locked += t.locked;
		f->pinned += t.pinned;
	}
	return CLI_EXIT_OK;
}

int monitor_collect(const struct cli_options *options, struct monitor_facts *f)
{
	const struct doc_visitor v = { .path = keep_path, .ctx = f };
	const struct doctor d = { .options = options, .root = dirfd_root_canonical(options->root) };
	bool all_ok;
	int rc;

	*f = (struct monitor_facts){ .scan_rc = -EAGAIN };
	clock_gettime(CLOCK_REALTIME, &f->when);
	check(options, f);
	f->doctor_ran = doc_run(options, &v, &all_ok) == CLI_EXIT_OK &&
			doc_check_units(&d, NULL, keep_unit, f, &all_ok) == 0;
	rc = status(options, f);
	if (rc != CLI_EXIT_OK)
		monitor_free(f);
	return rc;
}

void monitor_free(struct monitor_facts *f)
{
	size_t i;

	for (i = 0; i < f->n_paths; i++)
		free(f->paths[i].service);
	free(f->paths);
	for (i = 0; i < f->n_units; i++)
		free(f->units[i].name);
	free(f->units);
	if (f->policy_loads)
		check_result_free(&f->check);
	if (f->scan_rc == 0)
		live_scan_free(&f->scan);
	*f = (struct monitor_facts){ .scan_rc = -EAGAIN };
}
