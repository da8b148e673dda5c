/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl nagios [--warning N] [--critical N]: the facts of monitor.h
 * as a Nagios plugin reports them (Icinga and Naemon run the same
 * plugins): one line, "MEMLOCK STATE - text | perfdata", and the state as
 * the exit status.  Plugin runners read any exit status above 3 as
 * UNKNOWN and 2 as CRITICAL, so here a usage error is 3 (main.c), never
 * memlockctl's usual 2.
 *
 * The state, the first that holds: CRITICAL when the policy is invalid
 * (the module would change no limit at all); UNKNOWN when the processes
 * could not be read; CRITICAL when more processes than --critical are
 * below the policy, or check finds more warnings than --policy-critical;
 * WARNING when more than --warning are below (0 unless given), more
 * warnings than --policy-warning (0 unless given) are found, a session
 * path is not ok (any verdict of doctor's but ok and greeter: what doctor
 * finds is a path to fix, not an outage), or a unit the unit rules match
 * is not ok (stale, overridden); else OK.  Check's warnings are
 * those about the policy, and those about this host of the kinds
 * --strict-host names (none unless given): a ceiling that decides on a
 * large host is the ceiling doing its job.
 *
 * The plugin API gives "|" a meaning (the performance data follow it), so
 * one in a name read from the host's files is written as \x7c, as
 * memlockctl writes the bytes a terminal would act on.
 */
#include "monitor.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "output/text.h"

enum plugin_state {
	PLUGIN_OK,
	PLUGIN_WARNING,
	PLUGIN_CRITICAL,
	PLUGIN_UNKNOWN
};

static const char *const state_names[] = {
	[PLUGIN_OK] = "OK",
	[PLUGIN_WARNING] = "WARNING",
	[PLUGIN_CRITICAL] = "CRITICAL",
	[PLUGIN_UNKNOWN] = "UNKNOWN",
};

/* A threshold as the performance data writes it: empty when unset. */
static void threshold(char *buf, size_t len, long n)
{
	if (n < 0)
		buf[0] = '\0';
	else
		snprintf(buf, len, "%ld", n);
}

/* The first path that is not ok, to name in the line. */
static const struct monitor_path *first_not_ok(const struct monitor_facts *f)
{
	size_t i;

	for (i = 0; i < f->n_paths; i++)
		if (!doc_verdict_is_fine(f->paths[i].verdict))
			return &f->paths[i];
	return NULL;
}

/* The first unit that is not ok, to name in the line. */
static const struct monitor_unit *first_unit_not_ok(const struct monitor_facts *f)
{
	size_t i;

	for (i = 0; i < f->n_units; i++)
		if (f->units[i].verdict != DOC_UNIT_OK)
			return &f->units[i];
	return NULL;
}

/* Check's warnings that count (the header). */
static unsigned warnings(const struct cli_options *options, const struct monitor_facts *f)
{
	return f->check.count.policy + check_host_warnings(options->strict_host, f->check.count);
}

static bool above(size_t n, long threshold)
{
	return threshold >= 0 && n > (size_t)threshold;
}

static enum plugin_state judge(const struct cli_options *options, const struct monitor_facts *f,
			       char *text, size_t len)
{
	size_t below = f->processes[LIVE_BELOW];
	const struct monitor_path *bad = first_not_ok(f);
	const struct monitor_unit *bad_unit = first_unit_not_ok(f);
	enum plugin_state state = PLUGIN_OK;
	unsigned warned;
	int used;

	if (!f->policy_loads) {
		snprintf(text, len, "the policy is invalid: pam_memlock would change no limit");
		return PLUGIN_CRITICAL;
	}
	if (f->scan_rc < 0) {
		snprintf(text, len, "cannot read the processes: %s", strerror(-f->scan_rc));
		return PLUGIN_UNKNOWN;
	}
	if (!f->doctor_ran) {
		snprintf(text, len, "cannot check the session paths");
		return PLUGIN_UNKNOWN;
	}
	warned = warnings(options, f);
	if (above(below, options->critical) || above(warned, options->policy_critical))
		state = PLUGIN_CRITICAL;
	else if (above(below, options->warning) || bad != NULL || bad_unit != NULL ||
		 above(warned, options->policy_warning))
		state = PLUGIN_WARNING;
	used = snprintf(text, len, "%zu of %zu %s below the policy, %zu of %zu session %s not ok",
			below, f->scan.n_procs, cli_plural(f->scan.n_procs, "process", "processes"),
			f->paths_not_ok, f->n_paths, cli_plural(f->n_paths, "path", "paths"));
	if (warned > 0 && used > 0 && (size_t)used < len)
		used += snprintf(text + used, len - (size_t)used, ", %u %s from memlockctl check",
				 warned, cli_plural(warned, "warning", "warnings"));
	if (bad != NULL && used > 0 && (size_t)used < len)
		used += snprintf(text + used, len - (size_t)used, " (%s: %s)", bad->service,
				 doc_verdict_names[bad->verdict]);
	if (f->n_units > 0 && used > 0 && (size_t)used < len)
		used += snprintf(text + used, len - (size_t)used, ", %zu of %zu %s not ok",
				 f->units_not_ok, f->n_units, cli_plural(f->n_units, "unit", "units"));
	if (bad_unit != NULL && used > 0 && (size_t)used < len)
		snprintf(text + used, len - (size_t)used, " (%s: %s)", bad_unit->name,
			 doc_unit_verdict_names[bad_unit->verdict]);
	return state;
}

/* TEXT escaped as names are (cli_print_escaped), and "|" too. */
static void print_plugin_text(const char *text)
{
	char piece[512];
	size_t n;

	for (;;) {
		n = strcspn(text, "|");
		snprintf(piece, sizeof(piece), "%.*s", (int)n, text);
		cli_print_escaped(stdout, piece);
		if (text[n] == '\0')
			return;
		fputs("\\x7c", stdout);
		text += n + 1;
	}
}

/* One label of the performance data: 'LABEL'=VALUE[UOM];WARN;CRIT;MIN. */
static void perf(const char *label, unsigned long long value, const char *uom,
		 const char *warn, const char *crit)
{
	printf(" '%s'=%llu%s;%s;%s;0", label, value, uom, warn, crit);
}

int cli_nagios(const struct cli_options *options)
{
	struct monitor_facts f;
	char text[512], warn[24], crit[24];
	enum plugin_state state;
	size_t v;

	if (monitor_collect(options, &f) != CLI_EXIT_OK) {
		printf("MEMLOCK UNKNOWN - cannot gather the facts (see the messages)\n");
		cli_finish_output(CLI_EXIT_OK);
		return PLUGIN_UNKNOWN;
	}
	state = judge(options, &f, text, sizeof(text));
	/* The service names doctor read are the host's files': escaped as
	 * memlockctl escapes every name it prints, and "|" too. */
	printf("MEMLOCK %s - ", state_names[state]);
	print_plugin_text(text);
	printf(" |");
	perf("policy_loads", f.policy_loads, "", "", "1:");
	if (f.policy_loads) {
		threshold(warn, sizeof(warn), options->policy_warning);
		threshold(crit, sizeof(crit), options->policy_critical);
		perf("policy_warnings", f.check.count.policy, "", warn, crit);
		perf("host_warnings", f.check.count.host, "", "", "");
	}
	perf("paths_not_ok", f.paths_not_ok, "", "0", "");
	perf("units_not_ok", f.units_not_ok, "", "0", "");
	if (f.scan_rc == 0) {
		threshold(warn, sizeof(warn), options->warning);
		threshold(crit, sizeof(crit), options->critical);
		for (v = 0; v < MONITOR_LIVE_VERDICTS; v++)
			perf(live_verdict_name(v), f.processes[v], "",
			     v == LIVE_BELOW ? warn : "", v == LIVE_BELOW ? crit : "");
		perf("locked", f.locked, "B", "", "");
		perf("pinned", f.pinned, "B", "", "");
	}
	printf("\n");
	monitor_free(&f);
	if (cli_finish_output(CLI_EXIT_OK) != CLI_EXIT_OK)
		return PLUGIN_UNKNOWN;
	return state;
}
