/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl explain --unit NAME: what pam-memlock-generator gives a
 * systemd unit, and why.  It loads the policy as the generator does, reads
 * the unit's files with the generator's reader ($SYSTEMD_UNIT_PATH as
 * systemd takes it) and decides with pml_unit_decide, the generator's own
 * call, so the two cannot disagree.  Only the printing is its own.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/text.h"
#include "evaluate.h"
#include "size.h"
#include "unit.h"

/* "134217728 (128 MiB)", "infinity". */
static void limit_text(uint64_t bytes, char *buf, size_t len)
{
	char human[32], raw[24];

	pml_unit_format_limit(bytes, raw, sizeof(raw));
	if (bytes == PML_UNLIMITED) {
		snprintf(buf, len, "%s", raw);
		return;
	}
	pml_format_size(bytes, false, human, sizeof(human));
	snprintf(buf, len, "%s (%s)", raw, human);
}

static void print_value(const char *label, const struct pml_unit_value *v)
{
	char soft[80], hard[80];

	limit_text(v->soft, soft, sizeof(soft));
	limit_text(v->hard, hard, sizeof(hard));
	printf("%-12sLimitMEMLOCK=%s:%s at ", label, soft, hard);
	cli_print_escaped(stdout, v->file);
	printf(":%u\n", v->line);
}

static const char *const actions[] = {
	[PML_UNIT_NO_RULE] = "none: no unit rule matches, the generator leaves it alone",
	[PML_UNIT_NO_PROCESS] = "none: a unit of this type starts no process",
	[PML_UNIT_MASKED] = "none: the unit is masked",
	[PML_UNIT_ADMIN] = "none: a file of the drop-in's name masks it",
	[PML_UNIT_KEEP] = "none: mode raise, and the unit's own files give as much",
	[PML_UNIT_WRITE] = "",
};

static void print_unit(const struct pml_policy *policy, const char *name,
		       const struct pml_unit_files *files, const struct pml_unit_decision *d)
{
	char at[PML_DESCRIBE_MAX], soft[80], hard[80];

	printf("unit:       ");
	cli_print_quoted(stdout, name);
	printf("\nunit file:  ");
	if (files->path[0] != '\0')
		cli_print_escaped(stdout, files->path);
	else
		printf("none in the unit search path");
	printf("%s\n", files->masked ? " (masked)" : "");
	if (d->rule == NULL) {
		printf("decided by: no unit rule matches\n");
	} else {
		pml_describe_at(policy, d->rule->at, at, sizeof(at));
		printf("decided by: rule %s\n", at);
		printf("mode:       %s\n", pml_mode_name(d->decision.mode->mode));
		limit_text(d->decision.soft.bytes, soft, sizeof(soft));
		limit_text(d->decision.hard.bytes, hard, sizeof(hard));
		printf("policy:     soft %s, hard %s\n", soft, hard);
		if (d->decision.soft.share_of != NULL || d->decision.hard.share_of != NULL) {
			limit_text(d->machine.available.bytes, soft, sizeof(soft));
			printf("  base:     %s, ", soft);
			if (d->machine.available.from[0] != '\0')
				cli_print_escaped(stdout, d->machine.available.from);
			else
				printf("RAM: the unit's files set no MemoryMax= below it");
			printf("\n");
		}
	}
	if (files->limit.set)
		print_value("unit's own:", &files->limit);
	else
		printf("unit's own: no LimitMEMLOCK= (systemd's DefaultLimitMEMLOCK= applies)\n");
	if (files->masked_by[0] != '\0') {
		printf("masked by:  ");
		cli_print_escaped(stdout, files->masked_by);
		printf("\n");
	}
	printf("drop-in:    ");
	if (d->action == PML_UNIT_WRITE) {
		pml_unit_format_limit(d->soft, soft, sizeof(soft));
		pml_unit_format_limit(d->hard, hard, sizeof(hard));
		printf("%s.d/%s: LimitMEMLOCK=%s:%s\n", name, PML_UNIT_DROPIN, soft, hard);
		if (files->later.set)
			print_value("overridden:", &files->later);
	} else {
		printf("%s\n", actions[d->action]);
	}
}

int cli_explain_unit(const struct cli_options *options)
{
	struct cli_source source;
	struct cli_log_state state;
	struct pml_log log;
	struct pml_policy policy;
	struct pml_machine machine;
	struct pml_unit_path path;
	struct pml_unit_files *files;
	struct pml_unit_decision d;
	const char *name = options->unit;
	char template[512];
	int rc;

	rc = cli_source_init(options, &source);
	if (rc != CLI_EXIT_OK)
		return rc;
	cli_log_init(&log, &state);
	rc = pml_load_assuming(&source.source, &options->assume, &log, &policy, &machine);
	if (rc < 0) {
		cli_source_free(&source);
		return CLI_EXIT_FAIL;
	}
	files = malloc(sizeof(*files));
	rc = files == NULL ? -1 : pml_unit_path_init(&path, getenv("SYSTEMD_UNIT_PATH"));
	/* An instance no rule names outright has no drop-in of its own: the
	 * generator's is its template's, as its file is. */
	name = pml_unit_covering(&policy, name, template, sizeof(template));
	if (rc == 0) {
		rc = pml_unit_read(&path, name, machine.ram, &log, files);
		pml_unit_path_free(&path);
	}
	if (rc == 0) {
		cli_note_source(stderr, &source);
		pml_unit_decide(&policy, name, files, &machine, &d);
		if (name != options->unit) {
			printf("instance:   ");
			cli_print_quoted(stdout, options->unit);
			printf(", which its template's drop-in covers\n");
		}
		cli_print_hypothetical(&machine, options);
		print_unit(&policy, name, files, &d);
	} else {
		fprintf(stderr, "memlockctl: out of memory\n");
	}
	free(files);
	pml_policy_free(&policy);
	cli_source_free(&source);
	return rc < 0 ? CLI_EXIT_FAIL : cli_finish_output(CLI_EXIT_OK);
}
