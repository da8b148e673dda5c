/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Unit rules: which one names a unit, and what it gives there.  No I/O:
 * what the unit's files say comes in (unit_files.c reads them).
 */
#include "unit.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evaluate.h"

int pml_unit_path_init(struct pml_unit_path *path, const char *env)
{
	size_t len;
	char *p, *next;

	*path = (struct pml_unit_path){ .n = 0 };
	if (env == NULL || env[0] == '\0')
		env = PML_UNIT_PATH_DEFAULT;
	len = strlen(env);
	/* A trailing ":" appends the default. */
	path->text = malloc(len + 1 + (env[len - 1] == ':' ? sizeof(PML_UNIT_PATH_DEFAULT) : 0));
	if (path->text == NULL)
		return -ENOMEM;
	memcpy(path->text, env, len + 1);
	if (env[len - 1] == ':')
		memcpy(path->text + len, PML_UNIT_PATH_DEFAULT, sizeof(PML_UNIT_PATH_DEFAULT));
	for (p = path->text; p != NULL; p = next) {
		next = strchr(p, ':');
		if (next != NULL)
			*next++ = '\0';
		if (p[0] == '/' && path->n < PML_UNIT_PATH_MAX)
			path->dirs[path->n++] = p;
	}
	return 0;
}

void pml_unit_path_free(struct pml_unit_path *path)
{
	free(path->text);
	*path = (struct pml_unit_path){ .n = 0 };
}

bool pml_unit_rule_matches(const struct pml_rule *rule, const char *name)
{
	size_t i;

	for (i = 0; i < rule->units.n; i++)
		if (fnmatch(rule->units.v[i], name, FNM_NOESCAPE) == 0)
			return true;
	return false;
}

const struct pml_rule *pml_match_unit(const struct pml_policy *policy,
				      const char *name)
{
	size_t i;

	for (i = policy->n_rules; i-- > 0;)
		if (pml_unit_rule_matches(&policy->rules[i], name))
			return &policy->rules[i];
	return NULL;
}

bool pml_unit_glob_is_name(const char *glob)
{
	return strpbrk(glob, "*?[") == NULL;
}

bool pml_unit_named(const struct pml_policy *policy, const char *name)
{
	size_t i;

	for (i = 0; i < policy->n_rules; i++)
		if (pml_names_contain(&policy->rules[i].units, name))
			return true;
	return false;
}

/* The unit types that run processes, and the section of their Limit*=. */
static const struct {
	char suffix[9];
	char section[8];
} exec_types[] = {
	{ .suffix = ".service", .section = "Service" },
	{ .suffix = ".socket", .section = "Socket" },
	{ .suffix = ".mount", .section = "Mount" },
	{ .suffix = ".swap", .section = "Swap" },
};

const char *pml_unit_section(const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < sizeof(exec_types) / sizeof(exec_types[0]); i++) {
		size_t n = strlen(exec_types[i].suffix);

		if (len > n && strcmp(name + len - n, exec_types[i].suffix) == 0)
			return exec_types[i].section;
	}
	return NULL;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void pml_unit_decide(const struct pml_policy *policy, const char *name,
		     const struct pml_unit_files *files,
		     const struct pml_machine *machine,
		     struct pml_unit_decision *out)
{
	const struct pml_unit_value *limit = &files->limit;

	*out = (struct pml_unit_decision){
		.rule = pml_match_unit(policy, name),
		.machine = *machine,
		.action = PML_UNIT_WRITE,
	};
	/* "available" for a unit: RAM, or its own MemoryMax= below RAM.  A
	 * unit has no session cgroup yet when the generator runs. */
	out->machine.available = (struct pml_available){
		.bytes = machine->ram,
		.scope = PML_BASE_TOP,
	};
	if (files->memory_max.set && files->memory_max.hard < machine->ram) {
		out->machine.available.bytes = files->memory_max.hard;
		snprintf(out->machine.available.from, sizeof(out->machine.available.from),
			 "%.400s:%u: MemoryMax=", files->memory_max.file,
			 files->memory_max.line);
	}
	if (out->rule == NULL) {
		out->action = PML_UNIT_NO_RULE;
		return;
	}
	pml_resolve(policy, out->rule, &out->machine, &out->decision);
	out->soft = out->decision.soft.bytes;
	out->hard = out->decision.hard.bytes;
	if (pml_unit_section(name) == NULL)
		out->action = PML_UNIT_NO_PROCESS;
	else if (files->masked)
		out->action = PML_UNIT_MASKED;
	else if (files->masked_by[0] != '\0')
		out->action = PML_UNIT_ADMIN;
	else if (out->decision.mode->mode == PML_MODE_RAISE && limit->set) {
		/* Each side the larger of the unit's own and the target, as
		 * the module raises a session's. */
		if (limit->soft >= out->soft && limit->hard >= out->hard)
			out->action = PML_UNIT_KEEP;
		out->soft = max64(out->soft, limit->soft);
		out->hard = max64(out->hard, limit->hard);
		if (out->soft > out->hard)
			out->soft = out->hard;
	}
}

void pml_unit_format_limit(uint64_t bytes, char *buf, size_t len)
{
	if (bytes == PML_UNLIMITED)
		snprintf(buf, len, "infinity");
	else
		snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

int pml_unit_dropin_text(const struct pml_policy *policy, const char *name,
			 const struct pml_unit_decision *d, char *buf, size_t len)
{
	char at[PML_DESCRIBE_MAX], unit[512], soft[32], hard[32];

	pml_describe_at(policy, d->rule->at, at, sizeof(at));
	pml_unit_format_limit(d->soft, soft, sizeof(soft));
	pml_unit_format_limit(d->hard, hard, sizeof(hard));
	return snprintf(buf, len,
			"# Written by pam-memlock-generator from the rule at %s\n"
			"# (mode %s), at boot and at every daemon-reload: edit the policy, not\n"
			"# this file.  A later drop-in (systemctl edit %s) overrides it;\n"
			"# /etc/systemd/system/%s.d/%s masks it.\n"
			"[%s]\n"
			"LimitMEMLOCK=%s:%s\n",
			at, pml_mode_name(d->decision.mode->mode),
			pml_escape(name, unit, sizeof(unit)),
			pml_escape(name, unit, sizeof(unit)), PML_UNIT_DROPIN,
			pml_unit_section(name), soft, hard);
}

bool pml_unit_template(const char *name, char *buf, size_t len)
{
	const char *at = strchr(name, '@'), *dot = strrchr(name, '.');

	if (at == NULL || dot == NULL || dot <= at + 1)
		return false;
	return (size_t)snprintf(buf, len, "%.*s%s", (int)(at + 1 - name), name, dot) < len;
}

const char *pml_unit_covering(const struct pml_policy *policy, const char *name, char *buf,
			      size_t len)
{
	if (pml_unit_template(name, buf, len) && !pml_unit_named(policy, name))
		return buf;
	return name;
}
