/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Which layer set a process's limit; see layer.h.  Reads files only, inside
 * the root, and never the user database.
 */
#include "layer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dirfd/dirfd.h"

#define GENERATOR_DIR "/run/systemd/generator"

const char *live_layer_name(enum live_layer layer)
{
	static const char *const names[] = {
		[LIVE_LAYER_INHERITED] = "inherited",
		[LIVE_LAYER_SESSION] = "session",
		[LIVE_LAYER_UNIT] = "unit",
	};

	return names[layer];
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len > n && memcmp(s + len - n, suffix, n) == 0;
}

bool layer_unit_of_cgroup(const char *cgroup, char *unit, size_t len)
{
	static const char *const types[] = { ".service", ".socket", ".mount", ".swap" };
	const char *line = cgroup, *p, *end;
	size_t i, n;

	while (line != NULL && strncmp(line, "0::", 3) != 0) {
		line = strchr(line, '\n');
		line = line != NULL ? line + 1 : NULL;
	}
	if (line == NULL)
		return false;
	for (p = line + 3; *p == '/'; p = end) {
		p++;
		end = p + strcspn(p, "/\n");
		n = (size_t)(end - p);
		for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
			if (ends_with(p, n, types[i]) && n < len) {
				snprintf(unit, len, "%.*s", (int)n, p);
				return true;
			}
	}
	return false;
}

/* The generator's drop-in for NAME (its own, else its template's), as
 * systemd reads it: the file and line of its LimitMEMLOCK=, and the rule
 * its comment names.  False when there is none. */
static bool generator_dropin(const char *root, const char *name, struct layer_unit *out)
{
	char template[LAYER_UNIT_MAX], path[PATH_MAX];
	const char *names[2] = { name, NULL };
	struct dirfd_text text;
	const char *at, *limit;
	unsigned line = 1;
	size_t k;

	if (pml_unit_template(name, template, sizeof(template)))
		names[1] = template;
	for (k = 0; k < 2 && names[k] != NULL; k++) {
		if ((size_t)snprintf(path, sizeof(path), GENERATOR_DIR "/%s.d/%s", names[k],
				     PML_UNIT_DROPIN) >= sizeof(path) ||
		    dirfd_read(root, path, &text) < 0)
			continue;
		limit = strstr(text.data, "\nLimitMEMLOCK=");
		if (limit == NULL) {
			dirfd_text_free(&text);
			continue;
		}
		for (const char *p = text.data; p <= limit; p++)
			line += *p == '\n';
		snprintf(out->from, sizeof(out->from), "%s%s:%u", root, path, line);
		at = strstr(text.data, "from the rule at ");
		if (at != NULL && at < limit) {
			at += strlen("from the rule at ");
			snprintf(out->rule, sizeof(out->rule), "%.*s", (int)strcspn(at, "\n"), at);
		}
		dirfd_text_free(&text);
		return true;
	}
	return false;
}

int layer_of_unit(const char *root, const struct pml_unit_path *path,
		  const char *unit, const struct pml_log *log, struct layer_unit *out)
{
	struct pml_unit_files files;
	const struct pml_unit_value *v = NULL;
	int rc = pml_unit_read(path, unit, 0, log, &files);

	*out = (struct layer_unit){ .set = false };
	if (rc < 0)
		return rc;
	/* Drop-ins apply in file-name order: one named after the generator's
	 * has the last word; an admin's file of its very name masks it, and
	 * then the unit's own LimitMEMLOCK= counts, that file's or another's
	 * (none: inherited, as for any unit whose files set none). */
	if (files.later.set)
		v = &files.later;
	else if (files.masked_by[0] == '\0' && generator_dropin(root, unit, out)) {
		out->set = true;
		return 0;
	} else if (files.limit.set)
		v = &files.limit;
	if (v != NULL) {
		out->set = true;
		snprintf(out->from, sizeof(out->from), "%s%s:%u", root, v->file, v->line);
	}
	return 0;
}
