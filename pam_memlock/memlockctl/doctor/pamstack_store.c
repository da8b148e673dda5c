/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* What a resolved stack keeps, and the files and modules looked at once. */
#include "pamstack_parser.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Memory: every string belongs to the stack. */

const char *doc_keep(struct doc_stack *s, char *owned)
{
	if (owned == NULL)
		return NULL;
	if (s->n_strings == s->cap_strings) {
		size_t cap = s->cap_strings ? s->cap_strings * 2 : 64;
		char **grown = realloc(s->strings, cap * sizeof(char *));

		if (grown == NULL) {
			free(owned);
			return NULL;
		}
		s->strings = grown;
		s->cap_strings = cap;
	}
	s->strings[s->n_strings++] = owned;
	return owned;
}

const char *doc_keep_copy(struct doc_stack *s, const char *text)
{
	return doc_keep(s, strdup(text));
}

/* TEXT with every byte a terminal could act on (and non-ASCII) as \xNN. */
char *doc_escaped(const char *text)
{
	size_t len = strlen(text), i, o = 0;
	char *out = malloc(len * 4 + 1);

	if (out == NULL)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c < 0x20 || c >= 0x7f || c == '\\' || c == '"')
			o += (size_t)sprintf(out + o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
	return out;
}

/* A problem at FILE:LINE; FATAL ones are kept even for a file only read. */
void doc_problem(struct doc_parser *p, bool fatal, const char *file, unsigned line,
		 const char *fmt, ...)
{
	struct doc_stack *s = p->stack;
	char buf[1024];
	va_list ap;

	if (!p->keep && !fatal)
		return;
	/* One line, one problem: the first that libpam meets. */
	if (s->n_problems > 0 && s->problems[s->n_problems - 1].line == line && line > 0 &&
	    file != NULL && s->problems[s->n_problems - 1].file == file)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (s->n_problems == s->cap_problems) {
		size_t cap = s->cap_problems ? s->cap_problems * 2 : 8;
		struct doc_problem *grown = realloc(s->problems, cap * sizeof(*grown));

		if (grown == NULL) {
			p->rc = -ENOMEM;
			return;
		}
		s->problems = grown;
		s->cap_problems = cap;
	}
	s->problems[s->n_problems] = (struct doc_problem){
		.file = file,
		.line = line,
		.message = doc_keep_copy(s, buf),
	};
	if (s->problems[s->n_problems].message == NULL)
		p->rc = -ENOMEM;
	else
		s->n_problems++;
}

/* The same, with NAME escaped into the message's one %s. */
void doc_problem_named(struct doc_parser *p, bool fatal, const char *file, unsigned line,
		       const char *fmt, const char *name)
{
	char *shown = doc_escaped(name);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	doc_problem(p, fatal, file, line, fmt, shown != NULL ? shown : "?");
#pragma GCC diagnostic pop
	free(shown);
}

struct doc_handler *doc_add_handler(struct doc_parser *p, enum doc_handler_kind kind,
				    const char *file, unsigned line, unsigned level,
				    const int *actions)
{
	struct doc_stack *s = p->stack;
	struct doc_handler *h;
	int i;

	if (!p->keep)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct doc_handler *grown = realloc(s->h, cap * sizeof(*grown));

		if (grown == NULL) {
			p->rc = -ENOMEM;
			return NULL;
		}
		s->h = grown;
		s->cap = cap;
	}
	h = &s->h[s->n++];
	*h = (struct doc_handler){
		.kind = kind,
		.file = file,
		.line = line,
		.level = level,
		.module = "",
		.name = "",
		.args = "",
	};
	for (i = 0; i < DOC_RET_COUNT; i++)
		h->actions[i] = actions != NULL ? actions[i] : DOC_ACT_BAD;
	return h;
}

/* --- Files and modules, each looked at once. */

struct doc_file_seen *doc_read_once(struct doc_parser *p, const char *path)
{
	struct doc_file_seen **grown, *f;
	size_t i;

	for (i = 0; i < p->n_files; i++)
		if (strcmp(p->files[i]->path, path) == 0)
			return p->files[i];
	grown = realloc(p->files, (p->n_files + 1) * sizeof(*grown));
	if (grown == NULL)
		return NULL;
	p->files = grown;
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->path = doc_keep_copy(p->stack, path);
	f->rc = f->path != NULL ? doc_read(p->root, path, &f->text) : -ENOMEM;
	if (f->rc == -ENOMEM) {
		free(f);
		return NULL;
	}
	p->files[p->n_files++] = f;
	return f;
}

const struct doc_line_seen *doc_line_seen(const struct doc_file_seen *f, unsigned first)
{
	size_t lo = 0, hi = f->n_lines;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->lines[mid].first == first)
			return &f->lines[mid];
		if (f->lines[mid].first < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool doc_line_remember(struct doc_file_seen *f, const struct doc_line_seen *seen)
{
	if (f->n_lines > 0 && f->lines[f->n_lines - 1].first >= seen->first)
		return true;
	if (f->n_lines == f->cap_lines) {
		size_t cap = f->cap_lines ? f->cap_lines * 2 : 16;
		struct doc_line_seen *grown = realloc(f->lines, cap * sizeof(*grown));

		if (grown == NULL)
			return false;
		f->lines = grown;
		f->cap_lines = cap;
	}
	f->lines[f->n_lines++] = *seen;
	return true;
}

static char *join_path(const char *dir, const char *name)
{
	char *path = malloc(strlen(dir) + strlen(name) + 2);

	if (path != NULL)
		sprintf(path, "%s/%s", dir, name);
	return path;
}

/*
 * The file libpam opens for NAME: NAME itself if absolute, else the first
 * of DIRS/NAME that exists (fopen(3) opens a directory too; libpam then
 * reads it as empty).  Malloc'd; NULL when none (*oom on failure).
 */
char *doc_find_file(struct doc_parser *p, const char *const *dirs, const char *name, bool *oom)
{
	size_t i;

	*oom = false;
	if (name[0] == '/') {
		char *path = strdup(name);

		*oom = path == NULL;
		if (path != NULL && !doc_exists(p->root, path)) {
			free(path);
			path = NULL;
		}
		return path;
	}
	for (i = 0; dirs[i] != NULL; i++) {
		char *path = join_path(dirs[i], name);

		if (path == NULL) {
			*oom = true;
			return NULL;
		}
		if (doc_exists(p->root, path))
			return path;
		free(path);
	}
	return NULL;
}

static bool in_list(char **list, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static bool add_to_list(char ***list, size_t *n, const char *name)
{
	char **grown = realloc(*list, (*n + 1) * sizeof(char *));

	if (grown == NULL)
		return false;
	*list = grown;
	grown[*n] = strdup(name);
	if (grown[*n] == NULL)
		return false;
	(*n)++;
	return true;
}

bool doc_module_found(struct doc_parser *p, const char *module)
{
	char *path;
	bool oom, found;

	if (in_list(p->modules_found, p->n_found, module))
		return true;
	if (in_list(p->modules_missing, p->n_missing, module))
		return false;
	path = doc_find_file(p, doc_module_dirs, module, &oom);
	found = path != NULL;
	free(path);
	if (oom || !(found ? add_to_list(&p->modules_found, &p->n_found, module)
			   : add_to_list(&p->modules_missing, &p->n_missing, module)))
		p->rc = -ENOMEM;
	return found;
}

const char *doc_base_name(struct doc_stack *s, const char *module)
{
	const char *slash = strrchr(module, '/');
	char *name = strdup(slash != NULL ? slash + 1 : module), *dot;

	if (name == NULL)
		return NULL;
	dot = strrchr(name, '.');
	if (dot != NULL)
		*dot = '\0';
	return doc_keep(s, name);
}

void doc_parser_free(struct doc_parser *p)
{
	size_t i;

	for (i = 0; i < p->n_files; i++) {
		free(p->files[i]->lines);
		doc_text_free(&p->files[i]->text);
		free(p->files[i]);
	}
	free(p->files);
	doc_names_free(p->modules_found, p->n_found);
	doc_names_free(p->modules_missing, p->n_missing);
}

void doc_stack_free(struct doc_stack *s)
{
	size_t i;

	for (i = 0; i < s->n_strings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->h);
	free(s->problems);
	memset(s, 0, sizeof(*s));
}

char *doc_arg_value(const char *args, const char *key, bool *present)
{
	size_t klen = strlen(key);
	const char *a = args;

	*present = false;
	while (*a != '\0') {
		size_t len;

		a += strspn(a, " \t");
		len = strcspn(a, " \t");
		if (len == 0)
			break;
		if (len == klen && strncmp(a, key, klen) == 0) {
			*present = true;
			return NULL;
		}
		if (len > klen && strncmp(a, key, klen) == 0 && a[klen] == '=') {
			*present = true;
			return strndup(a + klen + 1, len - klen - 1);
		}
		a += len;
	}
	return NULL;
}
