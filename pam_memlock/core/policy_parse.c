/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "policy_parse.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hints.h"

/* The keys each level takes, for suggestions after a typo. */
static const char *const top_keys[] = {
	"limit",
	"soft",
	"hard",
	"floor",
	"ceiling",
	"share_of",
	"mode",
	"rules",
	NULL,
};
static const char *const rule_keys[] = {
	"user",
	"group",
	"uid",
	"service",
	"unit",
	"limit",
	"soft",
	"hard",
	"floor",
	"ceiling",
	"share_of",
	"mode",
	NULL,
};
/* The words each key's value may be, besides numbers. */
static const char *const size_words[] = { "unlimited", "infinity", NULL };
static const char *const floor_words[] = { "page", NULL };
static const char *const mode_words[] = { "raise", "set", NULL };
static const char *const base_words[] = { "available", "ram", NULL };
static const char *const *const value_words[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = size_words,
	[PML_KEY_SOFT] = size_words,
	[PML_KEY_HARD] = size_words,
	[PML_KEY_FLOOR] = floor_words,
	[PML_KEY_CEILING] = size_words,
	[PML_KEY_SHARE_OF] = base_words,
	[PML_KEY_MODE] = mode_words,
};

/*
 * '; did you mean "WORD"?' for TEXT near one of WORDS or, for a SIZE,
 * TEXT with the unit it means, into BUF; else "".
 */
static const char *suggestion(const char *text, const char *const *words,
			      bool size, char *buf, size_t len)
{
	char fixed[48];
	const char *near = pml_nearest_word(text, words);

	if (near == NULL && size)
		near = pml_size_hint(text, fixed, sizeof(fixed));
	buf[0] = '\0';
	if (near != NULL)
		snprintf(buf, len, "; did you mean \"%s\"?", near);
	return buf;
}

/* How each size's value is read; mode and share_of are words. */
typedef int (*value_parser)(const char *text, struct pml_amount *out,
			    const char **why);

static const value_parser parsers[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = pml_parse_limit,
	[PML_KEY_SOFT] = pml_parse_limit,
	[PML_KEY_HARD] = pml_parse_limit,
	[PML_KEY_FLOOR] = pml_parse_floor,
	[PML_KEY_CEILING] = pml_parse_size,
};

struct parser {
	struct pml_policy *policy;
	unsigned file;
	const struct pml_log *log;
	int rc; /* 0, -EINVAL or -ENOMEM */
	unsigned problems;
};

static const char *file_name(const struct parser *p)
{
	return p->policy->files[p->file].name;
}

static struct pml_origin origin(const struct parser *p,
				const config_setting_t *s)
{
	struct pml_origin at = { p->file, (unsigned)config_setting_source_line(s) };

	return at;
}

static void problem(struct parser *p, const config_setting_t *s,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void problem(struct parser *p, const config_setting_t *s,
		    const char *fmt, ...)
{
	char message[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	pml_log_at(p->log, LOG_ERR, file_name(p),
		   (unsigned)config_setting_source_line(s), "%s", message);
	p->problems++;
	if (p->rc == 0)
		p->rc = -EINVAL;
}

static void out_of_memory(struct parser *p)
{
	p->rc = -ENOMEM;
}

/* Arrays, not pointers, which every session's dlopen would relocate. */
static const char type_names[][24] = {
	[CONFIG_TYPE_INT] = "a number",
	[CONFIG_TYPE_INT64] = "a number",
	[CONFIG_TYPE_FLOAT] = "a floating-point number",
	[CONFIG_TYPE_BOOL] = "a boolean",
	[CONFIG_TYPE_STRING] = "a string",
	[CONFIG_TYPE_ARRAY] = "an array",
	[CONFIG_TYPE_LIST] = "a list",
	[CONFIG_TYPE_GROUP] = "a group",
};

static const char *type_name(const config_setting_t *s)
{
	unsigned type = (unsigned)config_setting_type(s);

	return type < sizeof(type_names) / sizeof(type_names[0]) && type_names[type][0] != '\0'
		       ? type_names[type]
		       : "something else";
}

/*
 * A string setting's text.  libconfig 1.5 stores a NULL (and parses on)
 * when the strdup of a string fails: that is out of memory, never "unset",
 * or a rule would silently lose a key.
 */
static const char *string_of(struct parser *p, const config_setting_t *s)
{
	const char *text = config_setting_get_string(s);

	if (text == NULL)
		out_of_memory(p);
	return text;
}

static const char *want_string(struct parser *p, const config_setting_t *s,
			       const char *key)
{
	int type = config_setting_type(s);

	if (type == CONFIG_TYPE_STRING)
		return string_of(p, s);
	if (type == CONFIG_TYPE_INT || type == CONFIG_TYPE_INT64 ||
	    type == CONFIG_TYPE_FLOAT)
		problem(p, s, "%s: write the value in quotes, e.g. %s = \"8 MiB\"; "
			      "(bare numbers are not accepted)",
			key, key);
	else
		problem(p, s, "%s: expected a quoted string, not %s", key,
			type_name(s));
	return NULL;
}

/* TEXT as one of the words NAME_OF gives for 0, 1, ...; false if none. */
static bool parse_word(const char *text, const char *(*name_of)(int),
		       int *out)
{
	const char *name;
	int v;

	for (v = 0; (name = name_of(v)) != NULL; v++) {
		if (strcmp(text, name) == 0) {
			*out = v;
			return true;
		}
	}
	return false;
}

static const char *mode_name(int v)
{
	return pml_mode_name((enum pml_mode)v);
}

static const char *base_name(int v)
{
	return pml_base_name((enum pml_base)v);
}

/* KEY's value at LEVEL, into SETTINGS. */
static void parse_setting(struct parser *p, const config_setting_t *s,
			  enum pml_key key, enum pml_level level,
			  struct pml_settings *settings)
{
	struct pml_setting *out = &settings->v[key];
	const char *name = pml_key_name(key);
	const char *text = want_string(p, s, name);
	const char *why = NULL;
	char buf[96], hint[80];

	if (text == NULL)
		return;
	out->key = key;
	out->level = level;
	if (key == PML_KEY_MODE || key == PML_KEY_SHARE_OF) {
		bool mode = key == PML_KEY_MODE;
		int v;

		if (!parse_word(text, mode ? mode_name : base_name, &v)) {
			problem(p, s, "%s: expected %s, not %s%s", name,
				mode ? "\"raise\" or \"set\"" : "\"available\" or \"ram\"",
				pml_quote(text, buf, sizeof(buf)),
				suggestion(text, value_words[key], false, hint, sizeof(hint)));
			return;
		}
		if (mode)
			out->mode = (enum pml_mode)v;
		else
			out->base = (enum pml_base)v;
	} else if (parsers[key](text, &out->amount, &why) < 0) {
		problem(p, s, "%s: %s: %s%s", name, pml_quote(text, buf, sizeof(buf)),
			why, suggestion(text, value_words[key], true, hint, sizeof(hint)));
		return;
	}
	out->set = true;
	out->at = origin(p, s);
}

/* A string, or a non-empty list or array of strings. */
static void parse_names(struct parser *p, const config_setting_t *s,
			const char *key, struct pml_names *out)
{
	/* What the strings are, for messages: uids are ranges, not names. */
	const char *what = strcmp(key, "uid") == 0 ? "uid range" : "name";
	int type = config_setting_type(s);
	int i, n;

	if (type == CONFIG_TYPE_STRING) {
		n = 1;
	} else if (type == CONFIG_TYPE_LIST || type == CONFIG_TYPE_ARRAY) {
		n = config_setting_length(s);
		if (n == 0) {
			problem(p, s, "%s: empty list (it would match nobody)", key);
			return;
		}
	} else {
		problem(p, s, "%s: expected a quoted %s or a list of them, not %s",
			key, what, type_name(s));
		return;
	}
	out->v = pml_policy_room(p->policy, (size_t)n, sizeof(*out->v));
	if (out->v == NULL) {
		out_of_memory(p);
		return;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *e = type == CONFIG_TYPE_STRING
						    ? s
						    : config_setting_get_elem(s, (unsigned)i);

		if (config_setting_type(e) != CONFIG_TYPE_STRING) {
			problem(p, e, "%s: expected quoted %ss, not %s", key, what,
				type_name(e));
			continue;
		}
		out->v[out->n] = string_of(p, e);
		if (out->v[out->n] == NULL)
			return;
		if (out->v[out->n][0] == '\0') {
			problem(p, e, "%s: empty %s", key, what);
			continue;
		}
		out->n++;
	}
}

static int read_uid(const char **text, uint32_t *out)
{
	uint64_t v = 0;
	const char *start = *text;

	for (; **text >= '0' && **text <= '9'; (*text)++) {
		v = v * 10 + (uint64_t)(**text - '0');
		/* (uid_t)-1 means "no uid" to the kernel, so it cannot match. */
		if (v >= UINT32_MAX)
			return -ERANGE;
	}
	if (*text == start)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* "A-B", "A-", "-B" or "A"; returns a static reason on error. */
static const char *parse_uid_range(const char *text, struct pml_uid_range *out)
{
	const char *p = text;
	int rc;

	out->first = 0;
	out->last = UINT32_MAX - 1;
	if (*p != '-') {
		rc = read_uid(&p, &out->first);
		if (rc == -ERANGE)
			return "uid too large (at most 4294967294)";
		if (rc < 0)
			return "expected \"A-B\", \"A-\", \"-B\" or \"A\" with decimal uids";
		if (*p == '\0') {
			out->last = out->first;
			return NULL;
		}
	}
	if (*p++ != '-')
		return "expected \"A-B\", \"A-\", \"-B\" or \"A\" with decimal uids";
	if (*p != '\0') {
		rc = read_uid(&p, &out->last);
		if (rc == -ERANGE)
			return "uid too large (at most 4294967294)";
		if (rc < 0 || *p != '\0')
			return "expected \"A-B\", \"A-\", \"-B\" or \"A\" with decimal uids";
	} else if (text[0] == '-') {
		return "a range needs at least one end";
	}
	if (out->first > out->last)
		return "range is reversed (first uid above last)";
	return NULL;
}

/* The element of list S that holds TEXT, for its line; S for a string. */
static const config_setting_t *holder(const config_setting_t *s,
				      const char *text)
{
	int i, n = config_setting_type(s) == CONFIG_TYPE_STRING
			   ? 0
			   : config_setting_length(s);

	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);

		if (config_setting_type(e) == CONFIG_TYPE_STRING &&
		    config_setting_get_string(e) == text)
			return e;
	}
	return s;
}

static void parse_uids(struct parser *p, const config_setting_t *s,
		       struct pml_rule *rule)
{
	struct pml_names texts = { .n = 0 };
	char buf[96];
	size_t i;

	parse_names(p, s, "uid", &texts);
	if (texts.n > 0) {
		rule->uids = pml_policy_room(p->policy, texts.n, sizeof(*rule->uids));
		if (rule->uids == NULL) {
			out_of_memory(p);
			texts.n = 0;
		}
	}
	for (i = 0; i < texts.n; i++) {
		const char *why = parse_uid_range(texts.v[i], &rule->uids[rule->n_uids]);

		if (why != NULL)
			problem(p, holder(s, texts.v[i]), "uid: %s: %s",
				pml_quote(texts.v[i], buf, sizeof(buf)), why);
		else
			rule->n_uids++;
	}
}

/*
 * A unit name glob holds what systemd allows in a unit name (letters,
 * digits, ":-_.\\@") and fnmatch's "*?[]!"; up to 255 bytes, as systemd's
 * names.  Anything else (a space, a slash) could match no unit at all.
 */
static const char *unit_glob_problem(const char *text)
{
	const char *p;

	if (strlen(text) > 255)
		return "longer than a unit name can be (255 bytes)";
	for (p = text; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr(":-_.\\@*?[]!", *p) != NULL))
			return "not a unit name or glob (letters, digits, \":-_.\\@\" and \"*?[]!\")";
	return NULL;
}

static void parse_units(struct parser *p, const config_setting_t *s,
			struct pml_rule *rule)
{
	char buf[96];
	size_t i;

	parse_names(p, s, "unit", &rule->units);
	for (i = 0; i < rule->units.n; i++) {
		const char *why = unit_glob_problem(rule->units.v[i]);

		if (why != NULL)
			problem(p, holder(s, rule->units.v[i]), "unit: %s: %s",
				pml_quote(rule->units.v[i], buf, sizeof(buf)), why);
	}
}

static bool rule_sets_something(const struct pml_rule *rule)
{
	int key;

	for (key = 0; key < PML_KEY_COUNT; key++)
		if (rule->settings.v[key].set)
			return true;
	return false;
}

static void parse_rule(struct parser *p, const config_setting_t *s,
		       struct pml_rule *rule)
{
	unsigned i, n = (unsigned)config_setting_length(s);
	unsigned problems_before = p->problems;
	char hint[64];

	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		const char *name = config_setting_name(e);
		enum pml_key key = pml_key_from_name(name);

		if (key != PML_KEY_COUNT)
			parse_setting(p, e, key, PML_LEVEL_RULE, &rule->settings);
		else if (strcmp(name, "user") == 0)
			parse_names(p, e, "user", &rule->users);
		else if (strcmp(name, "group") == 0)
			parse_names(p, e, "group", &rule->groups);
		else if (strcmp(name, "service") == 0)
			parse_names(p, e, "service", &rule->services);
		else if (strcmp(name, "uid") == 0)
			parse_uids(p, e, rule);
		else if (strcmp(name, "unit") == 0)
			parse_units(p, e, rule);
		else
			problem(p, e, "unknown key \"%s\" in rule (expected user, group, uid, service, unit, limit, soft, hard, floor, ceiling, share_of or mode)%s",
				name, suggestion(name, rule_keys, false, hint, sizeof(hint)));
	}
	/* A rule whose own keys were bad is reported once, not twice. */
	if (!rule_sets_something(rule) && p->problems == problems_before)
		problem(p, s, "rule sets nothing: give it limit, soft, hard, floor, ceiling, share_of or mode");
	/* A service's processes have no PAM user or service, and the
	 * generator runs before the user database may be up. */
	if (rule->units.n > 0 && (rule->users.n > 0 || rule->groups.n > 0 ||
				  rule->n_uids > 0 || rule->services.n > 0))
		problem(p, s, "unit cannot be combined with user, group, uid or service: a unit rule is for systemd units, which have no PAM session");
	if (rule->n_uids > 0 || rule->groups.n > 0)
		p->policy->needs_nss = true;
}

static void parse_rules(struct parser *p, const config_setting_t *s)
{
	struct pml_policy *policy = p->policy;
	unsigned i, n;
	struct pml_rule *grown;

	if (config_setting_type(s) != CONFIG_TYPE_LIST) {
		problem(p, s, "rules: expected a list, rules = ( { ... }, { ... } );, not %s",
			type_name(s));
		return;
	}
	n = (unsigned)config_setting_length(s);
	if (n == 0)
		return;
	grown = realloc(policy->rules, (policy->n_rules + n) * sizeof(*grown));
	if (grown == NULL) {
		out_of_memory(p);
		return;
	}
	policy->rules = grown;
	for (i = 0; i < n && p->rc != -ENOMEM; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		struct pml_rule *rule = &policy->rules[policy->n_rules];

		*rule = (struct pml_rule){ .at = origin(p, e) };
		pml_settings_init(&rule->settings, PML_LEVEL_RULE);
		policy->n_rules++;
		if (config_setting_type(e) != CONFIG_TYPE_GROUP) {
			problem(p, e, "rules: each rule is a group { ... }, not %s",
				type_name(e));
			continue;
		}
		parse_rule(p, e, rule);
	}
}

static void parse_top(struct parser *p, const config_setting_t *root)
{
	unsigned i, n = (unsigned)config_setting_length(root);
	char hint[64];

	for (i = 0; i < n && p->rc != -ENOMEM; i++) {
		const config_setting_t *e = config_setting_get_elem(root, i);
		const char *name = config_setting_name(e);
		enum pml_key key = pml_key_from_name(name);

		if (key != PML_KEY_COUNT)
			parse_setting(p, e, key, PML_LEVEL_TOP, &p->policy->top);
		else if (strcmp(name, "rules") == 0)
			parse_rules(p, e);
		else if (strcmp(name, "user") == 0 || strcmp(name, "group") == 0 ||
			 strcmp(name, "uid") == 0 || strcmp(name, "service") == 0 ||
			 strcmp(name, "unit") == 0)
			problem(p, e, "\"%s\" belongs inside a rule: rules = ( { %s = ...; limit = ...; } );",
				name, name);
		else
			problem(p, e, "unknown setting \"%s\" (expected limit, soft, hard, floor, ceiling, share_of, mode or rules)%s",
				name, suggestion(name, top_keys, false, hint, sizeof(hint)));
	}
}

int pml_parse_tree(struct pml_policy *policy, unsigned file,
		   const config_setting_t *root, const struct pml_log *log)
{
	struct parser p = { .policy = policy, .file = file, .log = log };

	parse_top(&p, root);
	return p.rc;
}
