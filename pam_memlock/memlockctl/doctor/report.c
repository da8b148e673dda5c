/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* doctor's output: the machine's models and each path, as text or JSON. */
#include "path.h"

#include <stdio.h>

#include "output/json.h"
#include "output/text.h"

static void json_value(struct cli_json *j, const char *key, struct doc_value v)
{
	char ukey[64];

	cli_json_uint_or_null(j, key, v.known && v.bytes != DOC_UNLIMITED, v.bytes);
	snprintf(ukey, sizeof(ukey), "%s_unlimited", key);
	cli_json_member_bool(j, ukey, v.known && v.bytes == DOC_UNLIMITED);
}

void doc_print_json_path(struct cli_json *j, const struct doc_path *p)
{
	size_t i;

	cli_json_open_object(j);
	cli_json_member_string(j, "service", p->service);
	cli_json_member_string(j, "file", p->file);
	cli_json_member_string(j, "unit", p->unit);
	cli_json_member_string(j, "verdict", doc_verdict_names[p->verdict]);
	json_value(j, "soft", p->soft);
	json_value(j, "hard", p->hard);
	cli_json_member_bool(j, "depends_on_user", p->depends_on_user);
	cli_json_member_bool(j, "soft_from_submitting_shell", p->soft_from_shell);
	cli_json_member_array(j, "steps");
	for (i = 0; i < p->n_steps; i++) {
		const struct doc_step *s = &p->steps[i];

		cli_json_open_object(j);
		cli_json_text_or_null(j, "file", s->file);
		cli_json_uint_or_null(j, "line", s->line > 0, s->line);
		cli_json_member_string(j, "module", s->module);
		cli_json_member_string(j, "effect", s->effect);
		cli_json_member_bool(j, "changes_memlock", s->changes);
		json_value(j, "soft", s->soft);
		json_value(j, "hard", s->hard);
		cli_json_close_object(j);
	}
	cli_json_close_array(j);
	cli_json_key(j, "problem");
	if (p->verdict == DOC_V_ERROR) {
		cli_json_open_object(j);
		cli_json_text_or_null(j, "file", p->problem_file);
		cli_json_uint_or_null(j, "line", p->problem_line > 0, p->problem_line);
		cli_json_member_string(j, "message", p->problem);
		cli_json_close_object(j);
	} else {
		cli_json_null(j);
	}
	cli_json_member_string(j, "fix", p->has_fix ? p->fix : NULL);
	/* Without a user: each class's verdict, and whose the path's is. */
	cli_json_text_or_null(j, "for", p->who);
	cli_json_member_array(j, "classes");
	for (i = 0; i < p->n_classes; i++) {
		cli_json_open_object(j);
		cli_json_member_string(j, "who", p->classes[i].who);
		cli_json_member_string(j, "verdict", doc_verdict_names[p->classes[i].verdict]);
		cli_json_close_object(j);
	}
	cli_json_close_array(j);
	cli_json_member_bool(j, "classes_truncated", p->classes_truncated);
	cli_json_close_object(j);
}

void doc_print_text_path(const struct doc_path *p)
{
	char text[128];
	size_t i;

	cli_print_text(stdout, p->service);
	printf(": %s\n", doc_verdict_names[p->verdict]);
	if (p->who[0] != '\0') {
		printf("  for ");
		cli_print_text(stdout, p->who);
		printf(": %s (for %s: %s); the steps below are theirs\n",
		       doc_verdict_names[p->verdict], p->classes[0].who,
		       doc_verdict_names[p->classes[0].verdict]);
	}
	if (p->classes_truncated)
		printf("  note:   only the first %d rules that tell users apart were checked\n",
		       DOC_CLASSES_MAX - 1);
	printf("  stack:  ");
	cli_print_text(stdout, p->file != NULL ? p->file : "(none)");
	printf("\n");
	for (i = 0; i < p->n_steps; i++) {
		const struct doc_step *s = &p->steps[i];

		printf("  ");
		if (s->file[0] != '\0') {
			cli_print_text(stdout, s->file);
			if (s->line > 0)
				printf(":%u", s->line);
			printf(" ");
		}
		cli_print_text(stdout, s->module);
		printf(": ");
		cli_print_text(stdout, s->effect);
		printf("\n");
	}
	if (p->soft_from_shell) {
		char hard[64];

		doc_value_text(p->hard, hard, sizeof(hard));
		snprintf(text, sizeof(text), "soft the submitting shell's (at most the hard), hard %s",
			 hard);
	} else {
		doc_pair_text(p->soft, p->hard, text, sizeof(text));
	}
	printf("  result: %s%s\n", text,
	       p->depends_on_user ? " (for users no line names; it depends on the user)" : "");
	if (p->verdict == DOC_V_GREETER)
		printf("  note:   a login screen, run under its display manager's own user: no user's program runs in this session, so it needs no pam_memlock\n");
	if (p->has_fix) {
		printf("  fix:    ");
		cli_print_text(stdout, p->fix);
		printf("\n");
	}
}

void doc_print_json_head(struct cli_json *j, const struct doctor *d)
{
	cli_json_member_string(j, "user", d->have_user ? d->user.name : NULL);
	cli_json_member_string(j, "root", d->root[0] != '\0' ? d->root : "/");
	cli_json_member_object(j, "models");
	cli_json_member_object(j, "family");
	cli_json_member_string(j, "name", doc_families[d->os.family].name);
	cli_json_member_string(j, "why", d->os.why);
	cli_json_text_or_null(j, "id", d->os.id);
	cli_json_text_or_null(j, "version_id", d->os.version_id);
	cli_json_member_string(j, "managed_by", doc_families[d->os.family].tool);
	cli_json_close_object(j);
	cli_json_member_object(j, "init");
	cli_json_member_string(j, "name", doc_init_names[d->init.kind]);
	cli_json_text_or_null(j, "pid1", d->init.pid1);
	cli_json_member_string(j, "why", d->init.why);
	cli_json_close_object(j);
	cli_json_member_string(j, "pam_limits", doc_limits_models[d->limits].name);
	cli_json_member_string(j, "pam_limits_why", d->limits_note);
	cli_json_member_object(j, "libpam");
	cli_json_member_string(j, "reader", doc_libpam_dialect_name(d->libpam.dialect));
	cli_json_text_or_null(j, "library", d->libpam.library);
	cli_json_close_object(j);
	cli_json_member_string(j, "kernel_release", d->release);
	cli_json_member_uint(j, "kernel_default", doc_kernel_default(d->release));
	cli_json_member_object(j, "pid1");
	json_value(j, "soft", d->pid1_soft);
	json_value(j, "hard", d->pid1_hard);
	cli_json_member_string(j, "source", d->pid1_note);
	cli_json_key(j, "cap_sys_resource");
	if (d->cap_known)
		cli_json_bool(j, d->cap_resource);
	else
		cli_json_null(j);
	cli_json_close_object(j);
	cli_json_close_object(j);
}

void doc_print_text_head(const struct doctor *d)
{
	char text[128];

	printf("user:       ");
	if (d->have_user)
		cli_print_quoted(stdout, d->user.name);
	else
		printf("(any: verdicts for every user the files tell apart)");
	printf("\nroot:       ");
	cli_print_escaped(stdout, d->root[0] != '\0' ? d->root : "/");
	doc_pair_text(d->pid1_soft, d->pid1_hard, text, sizeof(text));
	printf("\nfamily:     %s (", doc_families[d->os.family].text);
	cli_print_text(stdout, d->os.why);
	printf(")\ninit:       %s%s%s (", doc_init_names[d->init.kind],
	       d->init.pid1[0] != '\0' ? ", PID 1 " : "", d->init.pid1);
	cli_print_text(stdout, d->init.why);
	printf(")\npam_limits: %s (%s)\n", doc_limits_models[d->limits].text, d->limits_note);
	printf("libpam:     %s's reader (", doc_libpam_dialect_name(d->libpam.dialect));
	cli_print_text(stdout, d->libpam.library[0] != '\0' ? d->libpam.library
							    : "no libpam.so.0 found: today's");
	printf(")\n");
	printf("PID 1:      %s (%s; %s)\n", text, d->pid1_note, d->cap_note);
	printf("kernel:     %s (default memlock %s)\n\n", d->release,
	       doc_kernel_default(d->release) >= ((uint64_t)8 << 20) ? "8 MiB" : "64 KiB");
}

/* --- The summary. */

void doc_summary_add(struct doc_summary *s, const struct doctor *d, const struct doc_path *p)
{
	/* Lower is first: the module, an error, the family's tool, a fix. */
	unsigned rank = !d->module_installed	    ? 0
			: p->verdict == DOC_V_ERROR ? 1
			: p->fix_is_tool	    ? 2
						    : 3;

	s->count[p->verdict]++;
	if (p->has_fix && (s->first[0] == '\0' || rank < s->first_rank)) {
		snprintf(s->first, sizeof(s->first), "%.200s: %.800s", p->service, p->fix);
		s->first_rank = rank;
	}
}

void doc_print_text_summary(const struct doc_summary *s)
{
	printf("\nsummary: %u ok, %u missing, %u overridden, %u error", s->count[DOC_V_OK],
	       s->count[DOC_V_MISSING], s->count[DOC_V_OVERRIDDEN], s->count[DOC_V_ERROR]);
	/* Only where a login screen's stack is there: most machines have none. */
	if (s->count[DOC_V_GREETER] > 0)
		printf(", %u greeter", s->count[DOC_V_GREETER]);
	printf("\n");
	if (s->first[0] != '\0') {
		printf("first:   ");
		cli_print_text(stdout, s->first);
		printf("\n");
	}
}

void doc_print_json_summary(struct cli_json *j, const struct doc_summary *s)
{
	enum doc_verdict v;

	cli_json_member_object(j, "summary");
	for (v = DOC_V_OK; v <= DOC_V_ERROR; v++) {
		cli_json_member_uint(j, doc_verdict_names[v], s->count[v]);
	}
	cli_json_text_or_null(j, "first", s->first);
	cli_json_close_object(j);
}
