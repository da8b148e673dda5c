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

#include "output/json.h"
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

/* The generator's action, for JSON. */
static const char *const action_names[] = {
	[PML_UNIT_NO_RULE] = "no_rule",
	[PML_UNIT_NO_PROCESS] = "no_process",
	[PML_UNIT_MASKED] = "masked",
	[PML_UNIT_ADMIN] = "admin",
	[PML_UNIT_KEEP] = "keep",
	[PML_UNIT_WRITE] = "write",
};

/* A LimitMEMLOCK= the unit's files set: {"soft", "hard", "file", "line"}. */
static void json_value(struct cli_json *j, const char *key, const struct pml_unit_value *v)
{
	cli_json_key(j, key);
	if (!v->set) {
		cli_json_null(j);
		return;
	}
	cli_json_open_object(j);
	cli_json_member_bytes(j, "soft", v->soft);
	cli_json_member_bytes(j, "hard", v->hard);
	cli_json_member_string(j, "file", v->file);
	cli_json_member_uint(j, "line", v->line);
	cli_json_close_object(j);
}

/* The same facts as print_unit, and the instance NAME stands for. */
static void print_json(const struct pml_policy *policy, const char *asked, const char *name,
		       const struct pml_unit_files *files, const struct pml_unit_decision *d,
		       const struct cli_options *options)
{
	char dropin[1024];
	struct cli_json j;
	size_t i;

	cli_json_start(&j, stdout);
	cli_json_open_object(&j);
	cli_json_member_string(&j, "unit", name);
	cli_json_member_string(&j, "instance", asked != name ? asked : NULL);
	cli_json_member_array(&j, "files");
	for (i = 0; i < policy->n_files; i++)
		cli_json_string(&j, policy->files[i].name);
	cli_json_close_array(&j);
	cli_json_key(&j, "machine");
	cli_json_machine(&j, &d->machine, options);
	cli_json_text_or_null(&j, "unit_file", files->path);
	cli_json_member_bool(&j, "masked", files->masked);
	cli_json_key(&j, "rule");
	if (d->rule != NULL) {
		cli_json_open_object(&j);
		cli_json_member_string(&j, "file", pml_policy_file_name(policy, d->rule->at));
		cli_json_member_uint(&j, "line", d->rule->at.line);
		cli_json_close_object(&j);
	} else {
		cli_json_null(&j);
	}
	cli_json_member_string(&j, "mode", d->rule != NULL ? pml_mode_name(d->decision.mode->mode) : NULL);
	cli_json_key(&j, "soft");
	if (d->rule != NULL)
		cli_json_bytes(&j, d->decision.soft.bytes);
	else
		cli_json_null(&j);
	cli_json_key(&j, "hard");
	if (d->rule != NULL)
		cli_json_bytes(&j, d->decision.hard.bytes);
	else
		cli_json_null(&j);
	/* The base of a share: RAM, or the unit's MemoryMax= below it. */
	cli_json_key(&j, "base");
	if (d->rule != NULL &&
	    (d->decision.soft.share_of != NULL || d->decision.hard.share_of != NULL)) {
		cli_json_open_object(&j);
		cli_json_member_bytes(&j, "bytes", d->machine.available.bytes);
		cli_json_text_or_null(&j, "from", d->machine.available.from);
		cli_json_close_object(&j);
	} else {
		cli_json_null(&j);
	}
	json_value(&j, "own", &files->limit);
	cli_json_text_or_null(&j, "masked_by", files->masked_by);
	cli_json_member_string(&j, "action", action_names[d->action]);
	cli_json_key(&j, "dropin");
	if (d->action == PML_UNIT_WRITE) {
		snprintf(dropin, sizeof(dropin), "%s.d/%s", name, PML_UNIT_DROPIN);
		cli_json_open_object(&j);
		cli_json_member_string(&j, "file", dropin);
		cli_json_member_bytes(&j, "soft", d->soft);
		cli_json_member_bytes(&j, "hard", d->hard);
		cli_json_close_object(&j);
	} else {
		cli_json_null(&j);
	}
	cli_json_member_string(&j, "why", d->action != PML_UNIT_WRITE ? actions[d->action] : NULL);
	if (d->action == PML_UNIT_WRITE)
		json_value(&j, "overridden", &files->later);
	else {
		cli_json_member_null(&j, "overridden");
	}
	cli_json_close_object(&j);
	cli_json_finish(&j);
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
	rc = pml_load_from(&source.source, &source.from, &options->assume, &log, &policy, &machine);
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
		if (options->json) {
			print_json(&policy, options->unit, name, files, &d, options);
		} else {
			if (name != options->unit) {
				printf("instance:   ");
				cli_print_quoted(stdout, options->unit);
				printf(", which its template's drop-in covers\n");
			}
			cli_print_hypothetical(&machine, options);
			print_unit(&policy, name, files, &d);
		}
	} else {
		fprintf(stderr, "memlockctl: out of memory\n");
	}
	free(files);
	pml_policy_free(&policy);
	cli_source_free(&source);
	return rc < 0 ? CLI_EXIT_FAIL : cli_finish_output(CLI_EXIT_OK);
}
