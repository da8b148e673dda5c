/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl metrics [--output FILE] [--per-user]: the facts of monitor.h
 * in Prometheus's text exposition format, for node_exporter's textfile
 * collector.  Gauges only, in base units, with no timestamps (the
 * collector refuses them); a user name is a label only under --per-user,
 * as a fleet's users would multiply the series.
 *
 * --output replaces FILE in one rename (replace.h): the collector reads
 * the old file or the new one, never half of one.
 */
#include "monitor.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/text.h"
#include "replace/replace.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* A label value: the format escapes only \, " and newline, and wants
 * UTF-8; a byte outside printable ASCII is written as the text \xHH. */
static void label_value(FILE *out, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(out, "\\\\x%02x", *p);
		else
			fputc(*p, out);
	}
}

static void family(FILE *out, const char *name, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* NAME{LABEL="VALUE"} N, or NAME N without a label. */
static void sample(FILE *out, const char *name, const char *label, const char *value,
		   unsigned long long n)
{
	fputs(name, out);
	if (label != NULL) {
		fprintf(out, "{%s=\"", label);
		label_value(out, value);
		fputs("\"}", out);
	}
	fprintf(out, " %llu\n", n);
}

static void policy_series(FILE *out, const struct monitor_facts *f)
{
	size_t i;

	family(out, "memlock_policy_loads",
	       "Whether the pam_memlock policy loads (1) or the module would refuse it (0).");
	sample(out, "memlock_policy_loads", NULL, NULL, f->policy_loads);
	if (!f->policy_loads)
		return;
	family(out, "memlock_policy_warnings",
	       "Warnings of memlockctl check, about the policy or about this host.");
	sample(out, "memlock_policy_warnings", "about", "policy", f->check.count.policy);
	sample(out, "memlock_policy_warnings", "about", "host", f->check.count.host);
	/* Across a fleet a typo is the name every host lacks. */
	if (f->check.n_missing == 0)
		return;
	family(out, "memlock_policy_name_unknown",
	       "A user, group or PAM service the policy names and this host lacks, one series each.");
	for (i = 0; i < f->check.n_missing; i++) {
		fprintf(out, "memlock_policy_name_unknown{kind=\"%s\",name=\"",
			f->check.missing[i].kind);
		label_value(out, f->check.missing[i].name);
		fputs("\"} 1\n", out);
	}
}

static void doctor_series(FILE *out, const struct monitor_facts *f)
{
	size_t i, v;

	if (!f->doctor_ran)
		return;
	family(out, "memlock_doctor_path",
	       "memlockctl doctor's verdict for each PAM service's session path: 1 for the verdict it has, 0 for the others.");
	for (i = 0; i < f->n_paths; i++)
		for (v = 0; v < MONITOR_DOC_VERDICTS; v++) {
			fputs("memlock_doctor_path{service=\"", out);
			label_value(out, f->paths[i].service);
			fprintf(out, "\",verdict=\"%s\"} %d\n", doc_verdict_names[v],
				f->paths[i].verdict == v);
		}
	family(out, "memlock_doctor_paths_not_ok", "Session paths whose verdict is neither ok nor greeter.");
	sample(out, "memlock_doctor_paths_not_ok", NULL, NULL, f->paths_not_ok);
	if (f->n_units > 0) {
		family(out, "memlock_doctor_unit",
		       "memlockctl doctor's verdict for each systemd unit the policy's unit rules match: 1 for the verdict it has, 0 for the others.");
		for (i = 0; i < f->n_units; i++)
			for (v = 0; v <= DOC_UNIT_ERROR; v++) {
				fputs("memlock_doctor_unit{unit=\"", out);
				label_value(out, f->units[i].name);
				fprintf(out, "\",verdict=\"%s\"} %d\n", doc_unit_verdict_names[v],
					f->units[i].verdict == v);
			}
	}
	family(out, "memlock_doctor_units_not_ok", "Units the unit rules match whose verdict is not ok.");
	sample(out, "memlock_doctor_units_not_ok", NULL, NULL, f->units_not_ok);
}

static void per_user(FILE *out, const struct monitor_facts *f)
{
	static const struct {
		const char *name, *help;
	} families[] = {
		{ "memlock_user_processes", "Processes selected, per user." },
		{ "memlock_user_locked_bytes", "Memory locked (VmLck), per user." },
		{ "memlock_user_pinned_bytes", "Memory pinned (VmPin), per user." },
	};
	struct live_user_total t;
	size_t k, i;

	for (k = 0; k < sizeof(families) / sizeof(families[0]); k++) {
		family(out, families[k].name, families[k].help);
		for (i = 0; i < f->scan.n_procs; i = t.end) {
			live_user_total(&f->scan, i, &t);
			sample(out, families[k].name, "user", f->scan.procs[i].user,
			       k == 0 ? t.end - t.first : k == 1 ? t.locked
								 : t.pinned);
		}
	}
}

static void status_series(FILE *out, const struct monitor_facts *f, bool users)
{
	size_t v;

	family(out, "memlock_status_success",
	       "Whether memlockctl status could judge the running processes (1), or the policy is invalid or the processes could not be listed (0).");
	sample(out, "memlock_status_success", NULL, NULL, f->scan_rc == 0);
	if (f->scan_rc != 0)
		return;
	family(out, "memlock_processes",
	       "Processes selected, by how their RLIMIT_MEMLOCK compares with the policy.");
	for (v = 0; v < MONITOR_LIVE_VERDICTS; v++)
		sample(out, "memlock_processes", "verdict", live_verdict_name(v), f->processes[v]);
	family(out, "memlock_processes_unreadable", "Processes this user may not read, left out.");
	sample(out, "memlock_processes_unreadable", NULL, NULL, f->scan.unreadable);
	family(out, "memlock_locked_bytes", "Memory locked (VmLck) by the processes selected.");
	sample(out, "memlock_locked_bytes", NULL, NULL, f->locked);
	family(out, "memlock_pinned_bytes", "Memory pinned (VmPin) by the processes selected.");
	sample(out, "memlock_pinned_bytes", NULL, NULL, f->pinned);
	if (users)
		per_user(out, f);
}

static void print(FILE *out, const struct monitor_facts *f, bool users)
{
	family(out, "memlock_info", "The memlockctl that wrote these series.");
	sample(out, "memlock_info", "version", PACKAGE_VERSION, 1);
	policy_series(out, f);
	doctor_series(out, f);
	status_series(out, f, users);
	family(out, "memlock_last_run_timestamp_seconds",
	       "When memlockctl metrics ran, in seconds since the epoch.");
	fprintf(out, "memlock_last_run_timestamp_seconds %lld.%03ld\n", (long long)f->when.tv_sec,
		f->when.tv_nsec / 1000000);
}

int cli_metrics(const struct cli_options *options)
{
	struct monitor_facts f;
	char *data = NULL;
	size_t len = 0;
	struct replace_how how = { .mode = (mode_t)options->mode };
	const char *what;
	FILE *mem;
	int rc;

	rc = monitor_collect(options, &f);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (options->output == NULL) {
		print(stdout, &f, options->per_user);
		monitor_free(&f);
		return cli_finish_output(CLI_EXIT_OK);
	}
	/* As any file a command makes, unless the admin says (--mode). */
	if (options->mode < 0) {
		how.mode = umask(0);
		umask(how.mode);
		how.mode = 0666 & ~how.mode;
	}
	mem = open_memstream(&data, &len);
	if (mem != NULL) {
		print(mem, &f, options->per_user);
		rc = fclose(mem) == 0 ? replace_file(options->output, data, len, how, &what)
				      : -ENOMEM;
	} else {
		rc = -ENOMEM;
	}
	monitor_free(&f);
	free(data);
	if (rc < 0) {
		fprintf(stderr, "memlockctl: cannot write ");
		cli_print_quoted(stderr, options->output);
		fprintf(stderr, ": %s\n", strerror(-rc));
		return CLI_EXIT_FAIL;
	}
	return CLI_EXIT_OK;
}
