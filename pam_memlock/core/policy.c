/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The policy's data: the settings every level shares, their built-in
 * defaults, and which level's value counts.
 */
#include "policy.h"

#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const key_names[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = "limit",
	[PML_KEY_SOFT] = "soft",
	[PML_KEY_HARD] = "hard",
	[PML_KEY_FLOOR] = "floor",
	[PML_KEY_CEILING] = "ceiling",
	[PML_KEY_SHARE_OF] = "share_of",
	[PML_KEY_MODE] = "mode",
};

static const char *const mode_names[] = {
	[PML_MODE_RAISE] = "raise",
	[PML_MODE_SET] = "set",
};

static const char *const base_names[] = {
	[PML_BASE_AVAILABLE] = "available",
	[PML_BASE_RAM] = "ram",
};

/* What holds when the files say nothing: the one table of defaults. */
#define BUILTIN(k) .key = (k), .level = PML_LEVEL_BUILTIN, .set = true, \
		   .at = { .file = PML_FILE_BUILTIN, .line = 0 }

static const struct pml_setting builtins[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = { BUILTIN(PML_KEY_LIMIT),
			    .amount = { .kind = PML_AMOUNT_BYTES, .bytes = PML_DEFAULT_LIMIT } },
	[PML_KEY_FLOOR] = { BUILTIN(PML_KEY_FLOOR),
			    .amount = { .kind = PML_AMOUNT_PAGE } },
	[PML_KEY_CEILING] = { BUILTIN(PML_KEY_CEILING),
			      .amount = { .kind = PML_AMOUNT_BYTES, .bytes = PML_UNLIMITED } },
	[PML_KEY_SHARE_OF] = { BUILTIN(PML_KEY_SHARE_OF), .base = PML_BASE_AVAILABLE },
	[PML_KEY_MODE] = { BUILTIN(PML_KEY_MODE), .mode = PML_MODE_RAISE },
};

const char *pml_mode_name(enum pml_mode mode)
{
	return (size_t)mode < sizeof(mode_names) / sizeof(mode_names[0])
		       ? mode_names[mode]
		       : NULL;
}

const char *pml_base_name(enum pml_base base)
{
	return (size_t)base < sizeof(base_names) / sizeof(base_names[0])
		       ? base_names[base]
		       : NULL;
}

const char *pml_key_name(enum pml_key key)
{
	return key < PML_KEY_COUNT ? key_names[key] : NULL;
}

enum pml_key pml_key_from_name(const char *name)
{
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++)
		if (strcmp(name, key_names[key]) == 0)
			break;
	return key;
}

void pml_settings_init(struct pml_settings *settings, enum pml_level level)
{
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++)
		settings->v[key] = (struct pml_setting){ .key = key, .level = level };
}

const struct pml_setting *pml_builtin(enum pml_key key)
{
	return builtins[key].set ? &builtins[key] : NULL;
}

const struct pml_setting *pml_pick(const struct pml_policy *policy,
				   const struct pml_rule *rule, enum pml_key key)
{
	if (rule != NULL && rule->settings.v[key].set)
		return &rule->settings.v[key];
	if (policy->top.v[key].set)
		return &policy->top.v[key];
	return pml_builtin(key);
}

uint64_t pml_floor_bytes(const struct pml_setting *floor, uint64_t page_size)
{
	return floor->amount.kind == PML_AMOUNT_PAGE ? page_size : floor->amount.bytes;
}

uint64_t pml_ceiling_bytes(const struct pml_setting *ceiling)
{
	return ceiling->amount.bytes;
}

void pml_policy_init(struct pml_policy *policy)
{
	*policy = (struct pml_policy){ .n_files = 0 };
	pml_settings_init(&policy->top, PML_LEVEL_TOP);
}

void pml_policy_free(struct pml_policy *policy)
{
	size_t i;

	for (i = 0; i < policy->n_rules; i++) {
		struct pml_rule *rule = &policy->rules[i];

		free(rule->users.v);
		free(rule->groups.v);
		free(rule->services.v);
		free(rule->units.v);
		free(rule->uids);
	}
	free(policy->rules);
	for (i = 0; i < policy->n_files; i++) {
		if (policy->files[i].config != NULL) {
			config_destroy(policy->files[i].config);
			free(policy->files[i].config);
		}
		free(policy->files[i].name);
	}
	free(policy->files);
	pml_policy_init(policy);
}

const char *pml_policy_file_name(const struct pml_policy *policy,
				 struct pml_origin at)
{
	return at.file < policy->n_files ? policy->files[at.file].name
					 : "(built-in)";
}

/* Where S comes from, seen from the level at AT that uses it: "this
 * rule", "top level, line 2" (FILE:LINE in another file), "built-in
 * default". */
static void where(const struct pml_policy *policy, const struct pml_setting *s,
		  const struct pml_rule *rule, struct pml_origin at, char *buf,
		  size_t len)
{
	if (s->level == PML_LEVEL_BUILTIN)
		snprintf(buf, len, "built-in default");
	else if (rule != NULL && s->level == PML_LEVEL_RULE)
		snprintf(buf, len, "this rule");
	else if (s->at.file == at.file)
		snprintf(buf, len, "top level, line %u", s->at.line);
	else
		snprintf(buf, len, "top level, %s:%u", pml_policy_file_name(policy, s->at),
			 s->at.line);
}

/* RULE is NULL for the top level alone. */
static int validate_bounds(const struct pml_policy *policy,
			   const struct pml_rule *rule, struct pml_origin at,
			   uint64_t page_size, const struct pml_log *log)
{
	const struct pml_setting *floor = pml_pick(policy, rule, PML_KEY_FLOOR);
	const struct pml_setting *ceiling = pml_pick(policy, rule, PML_KEY_CEILING);
	uint64_t low = pml_floor_bytes(floor, page_size);
	uint64_t high = pml_ceiling_bytes(ceiling);
	char low_text[32], high_text[32], low_at[512], high_at[512];

	if (low <= high)
		return 0;
	pml_format_size(low, false, low_text, sizeof(low_text));
	pml_format_size(high, false, high_text, sizeof(high_text));
	where(policy, floor, rule, at, low_at, sizeof(low_at));
	where(policy, ceiling, rule, at, high_at, sizeof(high_at));
	pml_log_at(log, LOG_ERR, pml_policy_file_name(policy, at), at.line,
		   "floor %s (%s) is above ceiling %s (%s)", low_text, low_at,
		   high_text, high_at);
	return -EINVAL;
}

int pml_policy_validate(const struct pml_policy *policy, uint64_t page_size,
			const struct pml_log *log)
{
	const struct pml_settings *top = &policy->top;
	struct pml_origin top_at = top->v[PML_KEY_FLOOR].set
					   ? top->v[PML_KEY_FLOOR].at
					   : top->v[PML_KEY_CEILING].at;
	int rc = validate_bounds(policy, NULL, top_at, page_size, log);
	size_t i;

	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		if ((rule->settings.v[PML_KEY_FLOOR].set ||
		     rule->settings.v[PML_KEY_CEILING].set) &&
		    validate_bounds(policy, rule, rule->at, page_size, log) < 0)
			rc = -EINVAL;
	}
	return rc;
}
