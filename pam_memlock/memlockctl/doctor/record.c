/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Writing a path's record: its steps, its first error, the values as text,
 * the paths as the checked system names them.
 */
#include "record.h"

#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "size.h"

const char *const doc_verdict_names[] = {
	[DOC_V_OK] = "ok",
	[DOC_V_GREETER] = "greeter",
	[DOC_V_OVERRIDDEN] = "overridden",
	[DOC_V_MISSING] = "missing",
	[DOC_V_ERROR] = "error",
};

bool doc_verdict_is_fine(enum doc_verdict v)
{
	return v == DOC_V_OK || v == DOC_V_GREETER;
}

bool doc_name_listed(const char *const *names, const char *name)
{
	size_t i;

	for (i = 0; names[i] != NULL; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* --- Values. */

void doc_value_text(struct doc_value v, char *buf, size_t len)
{
	if (!v.known)
		snprintf(buf, len, "unknown");
	else if (v.bytes == DOC_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else
		pml_format_bytes(v.bytes, buf, len);
}

void doc_pair_text(struct doc_value soft, struct doc_value hard, char *buf, size_t len)
{
	char s[48], h[48];

	doc_value_text(soft, s, sizeof(s));
	doc_value_text(hard, h, sizeof(h));
	snprintf(buf, len, "soft %s, hard %s", s, h);
}

/* --- Paths as the system names them. */

const char *doc_shown(const struct doctor *d, const char *path)
{
	size_t rl = strlen(d->root);

	while (rl > 0 && d->root[rl - 1] == '/')
		rl--;
	if (rl > 0 && strncmp(path, d->root, rl) == 0 && path[rl] == '/')
		return path + rl;
	return path;
}

struct doc_step *doc_add_step(struct doc_path *p, const char *file, unsigned line,
			      const char *module)
{
	struct doc_step *s;

	if (p->n_steps == DOC_STEPS_MAX)
		return NULL;
	s = &p->steps[p->n_steps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file != NULL ? file : "");
	s->line = line;
	snprintf(s->module, sizeof(s->module), "%s", module);
	return s;
}

void doc_set_error(struct doc_path *p, const char *file, unsigned line, const char *message)
{
	if (p->verdict == DOC_V_ERROR)
		return;
	p->verdict = DOC_V_ERROR;
	snprintf(p->problem_file, sizeof(p->problem_file), "%s", file != NULL ? file : "");
	p->problem_line = line;
	snprintf(p->problem, sizeof(p->problem), "%s", message);
}

void doc_first_error_emit(void *ctx, int priority, const char *message)
{
	struct doc_first_error *f = ctx;

	if (priority <= LOG_ERR && f->text[0] == '\0')
		snprintf(f->text, sizeof(f->text), "%s", message);
}
