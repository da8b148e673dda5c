/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's unit verdicts; see unitrules.h.  Reads files only: the policy,
 * the unit search path ($SYSTEMD_UNIT_PATH as systemd takes it) and the
 * generator's output directory, each inside the root.  systemd's own
 * state (what a running unit started with) is not read: a unit started
 * before the last daemon-reload keeps its old limit until it restarts.
 */
#include "unitrules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "output/text.h"
#include "dirfd/dirfd.h"
#include "unit.h"

/* systemd's normal-dir for generators, where the drop-ins it loaded are. */
#define GENERATOR_DIR "/run/systemd/generator"

/* The drop-in text the generator writes: its rule's name and the line. */
#define DROPIN_MAX (PML_DESCRIBE_MAX + 1024)

const char *const doc_unit_verdict_names[] = {
	[DOC_UNIT_OK] = "ok",
	[DOC_UNIT_STALE] = "stale",
	[DOC_UNIT_OVERRIDDEN] = "overridden",
	[DOC_UNIT_ERROR] = "error",
};

/* The value of the first LimitMEMLOCK= line of TEXT, "" for none. */
static void limit_in(const char *text, char *buf, size_t len)
{
	const char *at = strstr(text, "\nLimitMEMLOCK=");

	buf[0] = '\0';
	if (at != NULL) {
		at += strlen("\nLimitMEMLOCK=");
		snprintf(buf, len, "%.*s", (int)strcspn(at, "\n"), at);
	}
}

struct run {
	const struct doctor *d;
	const struct pml_policy *policy;
	const struct pml_machine *machine;
	const struct pml_unit_path *path;
	struct pml_log log;
};

/* The generator's drop-in for NAME under the root into *TEXT: 0, -ENOENT
 * for none, or another -errno. */
static int read_generated(const struct doctor *d, const char *name, char *shown, size_t len,
			  struct dirfd_text *text)
{
	snprintf(shown, len, GENERATOR_DIR "/%s.d/%s", name, PML_UNIT_DROPIN);
	return dirfd_read(d->root, shown, text);
}

/* HAD: what the drop-in there says, NULL for no drop-in; WRITES: the
 * generator writes one now. */
static void set_stale(struct doc_unit *u, const char *had, bool writes, const char *name)
{
	char shown[2 * sizeof(u->name)];

	const char *at = strstr(name, "@.");

	u->verdict = DOC_UNIT_STALE;
	if (at != NULL) {
		/* A template cannot be restarted: its instances can, by pattern. */
		char pattern[sizeof(u->name) + 1];

		snprintf(pattern, sizeof(pattern), "%.*s*%s", (int)(at + 1 - name), name, at + 1);
		pml_escape(pattern, shown, sizeof(shown));
		snprintf(u->fix, sizeof(u->fix),
			 "systemctl daemon-reload, then restart its instances: systemctl restart '%s'",
			 shown);
	} else {
		pml_escape(name, shown, sizeof(shown));
		snprintf(u->fix, sizeof(u->fix), "systemctl daemon-reload, then restart %s", shown);
	}
	if (had == NULL)
		snprintf(u->why, sizeof(u->why),
			 "no drop-in in " GENERATOR_DIR ": the generator has not run since the policy gave it one");
	else
		snprintf(u->why, sizeof(u->why), "%.400s says LimitMEMLOCK=%.64s, %s", u->dropin,
			 had, writes ? "not what the generator writes now" : "and the generator writes no drop-in now");
}

/* One unit's verdict into *U. */
static int check_unit(const struct run *r, const char *name, struct doc_unit *u)
{
	struct pml_unit_files *files = malloc(sizeof(*files));
	struct pml_unit_decision dec;
	struct dirfd_text have;
	char *want = malloc(DROPIN_MAX), had[64], soft[32], hard[32], dropin[PATH_MAX + 64];
	bool present = false;
	int rc = files == NULL || want == NULL ? -ENOMEM : 0, unreadable = 0;

	*u = (struct doc_unit){ .verdict = DOC_UNIT_OK };
	snprintf(u->name, sizeof(u->name), "%s", name);
	if (rc == 0)
		rc = pml_unit_generate(r->policy, r->path, r->machine, name, &r->log, files, &dec,
				       want, DROPIN_MAX);
	if (rc == 0) {
		unreadable = read_generated(r->d, name, dropin, sizeof(dropin), &have);
		present = unreadable == 0;
		rc = unreadable == -ENOMEM ? unreadable : 0;
	}
	if (rc < 0) {
		free(files);
		free(want);
		return rc;
	}
	if (present)
		snprintf(u->dropin, sizeof(u->dropin), "%s", dropin);
	limit_in(present ? have.data : "", had, sizeof(had));
	if (dec.rule != NULL)
		pml_describe_at(r->policy, dec.rule->at, u->rule, sizeof(u->rule));
	if (dec.rule != NULL && dec.action != PML_UNIT_NO_PROCESS) {
		pml_unit_format_limit(dec.soft, soft, sizeof(soft));
		pml_unit_format_limit(dec.hard, hard, sizeof(hard));
		snprintf(u->want, sizeof(u->want), "%s:%s", soft, hard);
	}
	if (dec.action == PML_UNIT_ADMIN) {
		/* An admin's file of the drop-in's name takes its place. */
		u->verdict = DOC_UNIT_OVERRIDDEN;
		snprintf(u->by, sizeof(u->by), "%s", files->masked_by);
		if (files->limit.set && strcmp(files->limit.file, files->masked_by) == 0) {
			u->by_line = files->limit.line;
			snprintf(u->why, sizeof(u->why),
				 "%.400s:%u sets LimitMEMLOCK= in a file of the generator's drop-in's name, which it masks",
				 u->by, u->by_line);
		} else {
			snprintf(u->why, sizeof(u->why),
				 "%.400s masks the generator's drop-in (a file of its name)", u->by);
		}
		snprintf(u->fix, sizeof(u->fix),
			 "remove or rename %.400s, or leave the unit out of the rule at %.400s", u->by,
			 u->rule);
	} else if (dec.action == PML_UNIT_WRITE && files->later.set) {
		u->verdict = DOC_UNIT_OVERRIDDEN;
		snprintf(u->by, sizeof(u->by), "%s", files->later.file);
		u->by_line = files->later.line;
		snprintf(u->why, sizeof(u->why),
			 "%.400s:%u sets LimitMEMLOCK= in a drop-in that sorts after the generator's, and wins",
			 u->by, u->by_line);
		snprintf(u->fix, sizeof(u->fix),
			 "remove LimitMEMLOCK= from %.400s:%u, or leave the unit out of the rule at %.400s",
			 u->by, u->by_line, u->rule);
	} else if (dec.action == PML_UNIT_WRITE) {
		if (present && strcmp(have.data, want) == 0)
			snprintf(u->why, sizeof(u->why), "%.400s sets it, and no later file changes it",
				 dropin);
		else
			set_stale(u, present ? had : NULL, true, name);
		/* A link, a FIFO, a file out of the root: not what systemd
		 * loaded from there, and said as it is. */
		if (!present && unreadable != -ENOENT)
			snprintf(u->why, sizeof(u->why), "%.400s: cannot be read: %s", dropin,
				 strerror(-unreadable));
	} else if (present) {
		set_stale(u, had, false, name);
	} else {
		static const char *const untouched[] = {
			[PML_UNIT_NO_RULE] = "no unit rule matches: the generator leaves it alone",
			[PML_UNIT_NO_PROCESS] = "a unit of this type starts no process",
			[PML_UNIT_MASKED] = "the unit is masked",
			[PML_UNIT_KEEP] = "mode raise, and the unit's own files give as much",
		};

		snprintf(u->why, sizeof(u->why), "%s", untouched[dec.action]);
	}
	if (present)
		dirfd_text_free(&have);
	free(files);
	free(want);
	return 0;
}

/* The policy as the generator loads it, read inside the root. */
static int load(const struct doctor *d, const struct pml_log *log, struct pml_policy *policy,
		struct pml_machine *machine)
{
	const struct pml_source *source = &d->options->source;
	const struct pml_from from = {
		.in_dir = true,
		.dir_fd = dirfd_open_parent(d->root, source->path),
	};
	int rc = pml_load_from(source, &from, NULL, log, policy, machine);

	if (from.dir_fd >= 0)
		close(from.dir_fd);
	return rc;
}

int doc_check_units(const struct doctor *d, const char *only, doc_unit_visit *visit,
		    void *ctx, bool *all_ok)
{
	struct doc_first_error first = { "" };
	struct run r = {
		.d = d,
		.log = { .emit = doc_first_error_emit, .ctx = &first, .max_priority = LOG_WARNING },
	};
	struct pml_policy policy;
	struct pml_machine machine;
	struct pml_unit_path path;
	struct dirfd_files files;
	struct doc_unit *u = malloc(sizeof(*u));
	char **names = NULL, template[256];
	size_t n = 0, i;
	int rc;

	if (u == NULL)
		return -ENOMEM;
	rc = load(d, &r.log, &policy, &machine);
	if (rc < 0 && rc != -ENOMEM) {
		/* Only a unit asked for by name: without a policy no rule says
		 * which units to list, and the paths say the error already. */
		if (only != NULL) {
			*u = (struct doc_unit){ .verdict = DOC_UNIT_ERROR };
			snprintf(u->name, sizeof(u->name), "%s", only);
			snprintf(u->why, sizeof(u->why),
				 "the policy is invalid, so the generator writes no drop-in: %.900s",
				 first.text[0] != '\0' ? first.text : strerror(-rc));
			snprintf(u->fix, sizeof(u->fix),
				 "memlockctl check; fix what it says, then systemctl daemon-reload");
			*all_ok = false;
			visit(u, ctx);
		}
		pml_policy_free(&policy);
		free(u);
		return 0;
	}
	if (rc == 0)
		rc = pml_unit_path_init(&path, getenv("SYSTEMD_UNIT_PATH"));
	if (rc < 0) {
		pml_policy_free(&policy);
		free(u);
		return -ENOMEM;
	}
	dirfd_files_init(&files, d->root);
	path.files = &files.files;
	r.policy = &policy;
	r.machine = &machine;
	r.path = &path;
	if (only == NULL)
		rc = pml_unit_names(&policy, &path, &names, &n);
	for (i = 0; rc == 0 && i < (only != NULL ? 1 : n); i++) {
		const char *name = only != NULL ? pml_unit_covering(&policy, only, template,
								    sizeof(template))
						: names[i];

		if (only == NULL && pml_match_unit(&policy, name) == NULL)
			continue;
		rc = check_unit(&r, name, u);
		if (rc < 0)
			break;
		if (u->verdict != DOC_UNIT_OK)
			*all_ok = false;
		visit(u, ctx);
	}
	pml_unit_names_free(names, n);
	pml_unit_path_free(&path);
	pml_policy_free(&policy);
	free(u);
	return rc < 0 ? -ENOMEM : 0;
}

void doc_print_text_unit(const struct doc_unit *u)
{
	cli_print_text(stdout, u->name);
	printf(": %s\n", doc_unit_verdict_names[u->verdict]);
	if (u->rule[0] != '\0') {
		printf("  policy: ");
		if (u->want[0] != '\0')
			printf("LimitMEMLOCK=%s, ", u->want);
		printf("the rule at ");
		cli_print_text(stdout, u->rule);
		printf("\n");
	}
	printf("  result: ");
	cli_print_text(stdout, u->why);
	printf("\n");
	if (u->fix[0] != '\0') {
		printf("  fix:    ");
		cli_print_text(stdout, u->fix);
		printf("\n");
	}
}

void doc_print_json_unit(struct cli_json *j, const struct doc_unit *u)
{
	cli_json_open_object(j);
	cli_json_text_or_null(j, "unit", u->name);
	cli_json_text_or_null(j, "verdict", doc_unit_verdict_names[u->verdict]);
	cli_json_text_or_null(j, "limit", u->want);
	cli_json_text_or_null(j, "rule", u->rule);
	cli_json_text_or_null(j, "dropin", u->dropin);
	cli_json_key(j, "overridden_by");
	if (u->by[0] != '\0') {
		cli_json_open_object(j);
		cli_json_text_or_null(j, "file", u->by);
		cli_json_uint_or_null(j, "line", u->by_line > 0, u->by_line);
		cli_json_close_object(j);
	} else {
		cli_json_null(j);
	}
	cli_json_text_or_null(j, "message", u->why);
	cli_json_text_or_null(j, "fix", u->fix);
	cli_json_close_object(j);
}
