/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl show: the effective policy once every file is merged, every
 * value with the file and line it came from.  The text form is itself a
 * valid policy file (origins in comments); --json is for programs.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#include "evaluate.h"
#include "output/json.h"
#include "output/text.h"

#define COMMENT_COLUMN 24
#define RANGE_MAX 32

static void format_range(const struct pml_uid_range *range, char *buf, size_t len)
{
	if (range->first == range->last)
		snprintf(buf, len, "%lu", (unsigned long)range->first);
	else if (range->last == UINT32_MAX - 1)
		snprintf(buf, len, "%lu-", (unsigned long)range->first);
	else
		snprintf(buf, len, "%lu-%lu", (unsigned long)range->first,
			 (unsigned long)range->last);
}

static void print_origin_comment(const struct pml_policy *policy, int used,
				 const struct pml_setting *s)
{
	printf("%*s# ", used < COMMENT_COLUMN ? COMMENT_COLUMN - used : 1, "");
	if (s->level == PML_LEVEL_BUILTIN) {
		printf("built-in default\n");
		return;
	}
	cli_print_escaped(stdout, pml_policy_file_name(policy, s->at));
	printf(":%u\n", s->at.line);
}

static void text_top(const struct pml_policy *policy)
{
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++) {
		const struct pml_setting *s = pml_pick(policy, NULL, key);
		char value[CLI_VALUE_MAX];

		if (s == NULL) {
			printf("#%s = (from limit)\n", pml_key_name(key));
			continue;
		}
		cli_format_value(s, value, sizeof(value));
		print_origin_comment(policy, printf("%-8s = \"%s\";", pml_key_name(key), value), s);
	}
}

static void text_names(const char *key, const struct pml_names *names)
{
	size_t i;

	if (names->n == 0)
		return;
	printf(" %s = ", key);
	if (names->n == 1) {
		cli_print_quoted(stdout, names->v[0]);
	} else {
		printf("[");
		for (i = 0; i < names->n; i++) {
			printf(i > 0 ? ", " : "");
			cli_print_quoted(stdout, names->v[i]);
		}
		printf("]");
	}
	printf(";");
}

static void text_rule(const struct pml_policy *policy, const struct pml_rule *rule,
		      bool last)
{
	char buf[RANGE_MAX > CLI_VALUE_MAX ? RANGE_MAX : CLI_VALUE_MAX];
	enum pml_key key;
	size_t i;

	printf("  # ");
	cli_print_escaped(stdout, pml_policy_file_name(policy, rule->at));
	printf(":%u\n  {", rule->at.line);
	text_names("user", &rule->users);
	text_names("group", &rule->groups);
	if (rule->n_uids > 0) {
		printf(" uid = %s", rule->n_uids > 1 ? "[" : "");
		for (i = 0; i < rule->n_uids; i++) {
			format_range(&rule->uids[i], buf, sizeof(buf));
			printf("%s\"%s\"", i > 0 ? ", " : "", buf);
		}
		printf("%s;", rule->n_uids > 1 ? "]" : "");
	}
	text_names("service", &rule->services);
	text_names("unit", &rule->units);
	for (key = 0; key < PML_KEY_COUNT; key++) {
		if (!rule->settings.v[key].set)
			continue;
		cli_format_value(&rule->settings.v[key], buf, sizeof(buf));
		printf(" %s = \"%s\";", pml_key_name(key), buf);
	}
	printf(" }%s\n", last ? "" : ",");
}

static void print_text(const struct pml_policy *policy, const struct pml_source *source)
{
	size_t i;

	printf("# The effective policy, files merged in this order:\n");
	if (!cli_main_file_read(policy)) {
		printf("#   ");
		cli_print_escaped(stdout, source->path);
		printf(" (not present: built-in defaults)\n");
	}
	for (i = 0; i < policy->n_files; i++) {
		printf("#   ");
		cli_print_escaped(stdout, policy->files[i].name);
		printf("\n");
	}
	text_top(policy);
	if (policy->n_rules == 0) {
		printf("rules = ( );\n");
		return;
	}
	printf("# The last matching rule wins.\nrules = (\n");
	for (i = 0; i < policy->n_rules; i++)
		text_rule(policy, &policy->rules[i], i + 1 == policy->n_rules);
	printf(");\n");
}

static void json_origin(struct cli_json *j, const struct pml_policy *policy,
			struct pml_origin at)
{
	cli_json_open_object(j);
	cli_json_member_string(j, "file", pml_policy_file_name(policy, at));
	cli_json_member_uint(j, "line", at.line);
	cli_json_close_object(j);
}

/* {"value": "8 MiB", "bytes": 8388608, "origin": {...}}; origin null for
 * a built-in default, value null for a side that follows limit, bytes null
 * for what is not a byte count. */
static void json_setting(struct cli_json *j, const struct pml_policy *policy,
			 const struct pml_setting *s, enum pml_key key)
{
	char value[CLI_VALUE_MAX];

	cli_json_open_object(j);
	cli_json_key(j, "value");
	if (s != NULL) {
		cli_format_value(s, value, sizeof(value));
		cli_json_string(j, value);
	} else {
		cli_json_null(j);
	}
	if (key != PML_KEY_MODE && key != PML_KEY_SHARE_OF) {
		cli_json_key(j, "bytes");
		if (s != NULL && s->amount.kind == PML_AMOUNT_BYTES)
			cli_json_bytes(j, s->amount.bytes);
		else
			cli_json_null(j);
	}
	cli_json_key(j, "origin");
	if (s != NULL && s->level != PML_LEVEL_BUILTIN)
		json_origin(j, policy, s->at);
	else
		cli_json_null(j);
	cli_json_close_object(j);
}

static void json_names(struct cli_json *j, const char *key,
		       const struct pml_names *names)
{
	size_t i;

	if (names->n == 0)
		return;
	cli_json_member_array(j, key);
	for (i = 0; i < names->n; i++)
		cli_json_string(j, names->v[i]);
	cli_json_close_array(j);
}

static void json_rule(struct cli_json *j, const struct pml_policy *policy,
		      const struct pml_rule *rule)
{
	char range[RANGE_MAX];
	enum pml_key key;
	size_t i;

	cli_json_open_object(j);
	cli_json_key(j, "origin");
	json_origin(j, policy, rule->at);
	cli_json_member_object(j, "match");
	json_names(j, "user", &rule->users);
	json_names(j, "group", &rule->groups);
	if (rule->n_uids > 0) {
		cli_json_member_array(j, "uid");
		for (i = 0; i < rule->n_uids; i++) {
			format_range(&rule->uids[i], range, sizeof(range));
			cli_json_string(j, range);
		}
		cli_json_close_array(j);
	}
	json_names(j, "service", &rule->services);
	json_names(j, "unit", &rule->units);
	cli_json_close_object(j);
	cli_json_member_object(j, "settings");
	for (key = 0; key < PML_KEY_COUNT; key++) {
		if (!rule->settings.v[key].set)
			continue;
		cli_json_key(j, pml_key_name(key));
		json_setting(j, policy, &rule->settings.v[key], key);
	}
	cli_json_close_object(j);
	cli_json_close_object(j);
}

static void print_json(const struct pml_policy *policy, const struct pml_source *source)
{
	struct cli_json j;
	enum pml_key key;
	size_t i;

	cli_json_start(&j, stdout);
	cli_json_open_object(&j);
	cli_json_member_string(&j, "main_file", source->path);
	cli_json_member_bool(&j, "main_file_present", cli_main_file_read(policy));
	cli_json_member_array(&j, "files");
	for (i = 0; i < policy->n_files; i++)
		cli_json_string(&j, policy->files[i].name);
	cli_json_close_array(&j);
	cli_json_member_object(&j, "top");
	for (key = 0; key < PML_KEY_COUNT; key++) {
		cli_json_key(&j, pml_key_name(key));
		json_setting(&j, policy, pml_pick(policy, NULL, key), key);
	}
	cli_json_close_object(&j);
	cli_json_member_array(&j, "rules");
	for (i = 0; i < policy->n_rules; i++)
		json_rule(&j, policy, &policy->rules[i]);
	cli_json_close_array(&j);
	cli_json_close_object(&j);
	cli_json_finish(&j);
}

int cli_show(const struct cli_options *options)
{
	struct cli_log_state state;
	struct pml_log log;
	struct cli_source source;
	struct pml_policy policy;
	struct pml_machine machine;
	int rc;

	rc = cli_source_init(options, &source);
	if (rc != CLI_EXIT_OK)
		return rc;
	cli_log_init(&log, &state);
	if (pml_load_from(&source.source, &source.from, NULL, &log, &policy, &machine) < 0) {
		cli_source_free(&source);
		return CLI_EXIT_FAIL;
	}
	/* On standard error: the text on standard output is a policy file. */
	cli_note_source(stderr, &source);
	if (options->json)
		print_json(&policy, &source.source);
	else
		print_text(&policy, &source.source);
	pml_policy_free(&policy);
	cli_source_free(&source);
	return cli_finish_output(CLI_EXIT_OK);
}
