/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "pamstack.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pamline.h"
#include "rootfs.h"

#ifndef PML_PAMMODDIR
#define PML_PAMMODDIR "/usr/local/lib/security"
#endif

const char *const doc_module_dirs[] = {
	"/lib/x86_64-linux-gnu/security",     /* Debian, Ubuntu (libpam's --enable-securedir) */
	"/usr/lib/x86_64-linux-gnu/security", /* the same after the /usr merge moves */
	"/lib64/security",		      /* Fedora, SUSE */
	"/usr/lib64/security",
	"/lib/security", /* upstream's default */
	"/usr/lib/security",
	PML_PAMMODDIR, /* where this build installs pam_memlock */
	NULL,
};

/* Where a service, or an `include`/`substack` name, is looked for. */
static const char *const service_dirs[] = { "/etc/pam.d", "/usr/lib/pam.d", NULL };
/* Debian's @include reads /etc/pam.d only. */
static const char *const at_include_dirs[] = { "/etc/pam.d", NULL };

struct parser {
	const char *root;
	struct doc_stack *stack;
	const char *chain[DOC_INCLUDE_DEPTH_MAX + 1]; /* files being read */
	unsigned depth;
	int rc; /* -ENOMEM sticks */
};

/* --- Memory: every string belongs to the stack. */

static const char *keep(struct doc_stack *s, char *owned)
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

static const char *keep_copy(struct doc_stack *s, const char *text)
{
	return keep(s, strdup(text));
}

/* TEXT with every byte a terminal could act on (and non-ASCII) as \xNN. */
static char *escaped(const char *text)
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

static void problem(struct parser *p, const char *file, unsigned line,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void problem(struct parser *p, const char *file, unsigned line,
		    const char *fmt, ...)
{
	struct doc_stack *s = p->stack;
	char buf[1024];
	va_list ap;

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
		.message = keep_copy(s, buf),
	};
	if (s->problems[s->n_problems].message == NULL)
		p->rc = -ENOMEM;
	else
		s->n_problems++;
}

static struct doc_handler *add_handler(struct parser *p, enum doc_handler_kind kind,
				       const char *file, unsigned line, unsigned level)
{
	struct doc_stack *s = p->stack;
	struct doc_handler *h;
	int i;

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
		h->actions[i] = DOC_ACT_BAD;
	return h;
}

static char *join_path(const char *dir, const char *name)
{
	char *p = malloc(strlen(dir) + strlen(name) + 2);

	if (p != NULL)
		sprintf(p, "%s/%s", dir, name);
	return p;
}

/* The first of DIRS/NAME that exists under the root (NAME itself if
 * absolute), malloc'd; NULL when none does (*oom on failure). */
static char *find_file(const char *root, const char *const *dirs, const char *name,
		       bool *oom)
{
	size_t i;

	*oom = false;
	if (name[0] == '/') {
		if (doc_exists(root, name))
			return strdup(name);
		return NULL;
	}
	for (i = 0; dirs[i] != NULL; i++) {
		char *p = join_path(dirs[i], name);

		if (p == NULL) {
			*oom = true;
			return NULL;
		}
		if (doc_exists(root, p))
			return p;
		free(p);
	}
	return NULL;
}

static const char *base_name(struct doc_stack *s, const char *module)
{
	const char *slash = strrchr(module, '/');
	char *name = strdup(slash != NULL ? slash + 1 : module), *dot;

	if (name == NULL)
		return NULL;
	dot = strrchr(name, '.');
	if (dot != NULL)
		*dot = '\0';
	return keep(s, name);
}

static void load_file(struct parser *p, const char *path, unsigned level,
		      bool *had_session);

/* `include`, `substack` or `@include` NAME at FILE:LINE. */
static void include(struct parser *p, const char *file, unsigned line,
		    const char *name, const char *const *dirs, bool substack,
		    unsigned level, bool *had_session)
{
	struct doc_stack *s = p->stack;
	char *path;
	bool oom;
	unsigned i;

	if (name == NULL) {
		problem(p, file, line, "an include that names no file: libpam fails the stack here");
		add_handler(p, DOC_H_MUST_FAIL, file, line, level);
		return;
	}
	if (substack)
		add_handler(p, DOC_H_SUBSTACK, file, line, level);
	path = find_file(p->root, dirs, name, &oom);
	if (oom) {
		p->rc = -ENOMEM;
		return;
	}
	if (path == NULL) {
		char *shown = escaped(name);

		problem(p, file, line, "includes \"%s\", which is not in %s%s: libpam fails the stack here",
			shown != NULL ? shown : "?", name[0] == '/' ? "the file system" : dirs[0],
			name[0] != '/' && dirs[1] != NULL ? " or /usr/lib/pam.d" : "");
		free(shown);
		add_handler(p, DOC_H_MUST_FAIL, file, line, level);
		return;
	}
	for (i = 0; i < p->depth; i++)
		if (strcmp(p->chain[i], path) == 0)
			break;
	if (i < p->depth || p->depth >= DOC_INCLUDE_DEPTH_MAX) {
		if (i < p->depth)
			problem(p, file, line, "include loop: %s is already being read; libpam stops at %d levels and fails the stack",
				path, DOC_INCLUDE_DEPTH_MAX);
		else
			problem(p, file, line, "more than %d nested includes: libpam fails the stack here",
				DOC_INCLUDE_DEPTH_MAX);
		free(path);
		add_handler(p, DOC_H_MUST_FAIL, file, line, level);
		return;
	}
	if (keep(s, path) == NULL) {
		p->rc = -ENOMEM;
		return;
	}
	load_file(p, path, level + (substack ? 1 : 0), had_session);
}

/* One logical session line of FILE (its first physical line LINE). */
static void parse_line(struct parser *p, const char *file, unsigned line, char *text,
		       unsigned level, bool *had_session)
{
	struct doc_stack *s = p->stack;
	char *cursor = text, *type, *control, *module, bad[256] = "";
	struct doc_handler *h;
	bool silent = false, oom;
	size_t i;

	type = doc_token(&cursor);
	if (strcmp(type, "@include") == 0) {
		include(p, file, line, doc_token(&cursor), at_include_dirs, false, level, had_session);
		return;
	}
	if (type[0] == '-') {
		silent = true;
		type++;
	}
	if (strcasecmp(type, "auth") == 0 || strcasecmp(type, "account") == 0 ||
	    strcasecmp(type, "password") == 0)
		return;
	*had_session = true;
	if (strcasecmp(type, "session") != 0) {
		/* libpam installs it as a session handler that fails. */
		char *shown = escaped(type);

		problem(p, file, line, "\"%s\" is not a module type: libpam fails the stack here",
			shown != NULL ? shown : "?");
		free(shown);
		add_handler(p, DOC_H_MUST_FAIL, file, line, level);
		return;
	}
	control = doc_token(&cursor);
	if (control == NULL) {
		problem(p, file, line, "no control: libpam fails the stack here");
		add_handler(p, DOC_H_MUST_FAIL, file, line, level);
		return;
	}
	if (strcasecmp(control, "include") == 0 || strcasecmp(control, "substack") == 0) {
		include(p, file, line, doc_token(&cursor), service_dirs,
			strcasecmp(control, "substack") == 0, level, had_session);
		return;
	}
	h = add_handler(p, DOC_H_MODULE, file, line, level);
	if (h == NULL)
		return;
	h->silent = silent;
	for (i = 0; i < doc_n_simple_controls; i++)
		if (strcasecmp(control, doc_simple_controls[i].name) == 0)
			break;
	if (i < doc_n_simple_controls) {
		int r;

		for (r = 0; r < DOC_RET_COUNT; r++)
			h->actions[r] = doc_simple_controls[i].otherwise;
		h->actions[DOC_RET_SUCCESS] = doc_simple_controls[i].success;
	} else if (control[0] != '[' || !doc_parse_control(control, h->actions, bad, sizeof(bad))) {
		char *shown = escaped(bad[0] != '\0' ? bad : control);

		problem(p, file, line, "%s%s%s: libpam treats what it cannot read as failure",
			bad[0] != '\0' ? "bad control: " : "\"",
			shown != NULL ? shown : "?", bad[0] != '\0' ? "" : "\" is not a control");
		free(shown);
		h->kind = DOC_H_MUST_FAIL;
	}
	module = doc_token(&cursor);
	if (module == NULL) {
		problem(p, file, line, "no module named: libpam fails the stack here");
		h->kind = DOC_H_MUST_FAIL;
		return;
	}
	cursor += strspn(cursor, " \t");
	{
		size_t alen = strlen(cursor);

		while (alen > 0 && (cursor[alen - 1] == ' ' || cursor[alen - 1] == '\t' ||
				    cursor[alen - 1] == '\r'))
			cursor[--alen] = '\0';
	}
	h->module = keep_copy(s, module);
	h->name = base_name(s, module);
	h->args = keep_copy(s, cursor);
	if (h->module == NULL || h->name == NULL || h->args == NULL) {
		p->rc = -ENOMEM;
		return;
	}
	{
		char *found = find_file(p->root, doc_module_dirs, module, &oom);

		if (oom)
			p->rc = -ENOMEM;
		h->found = found != NULL;
		free(found);
	}
	if (!h->found && !silent && h->kind == DOC_H_MODULE) {
		char *shown = escaped(module);

		problem(p, file, line, "module %s is not found%s: libpam runs it as failing (PAM_MODULE_UNKNOWN)",
			shown != NULL ? shown : "?", module[0] == '/' ? "" : " in the module directories");
		free(shown);
	}
}

static void load_file(struct parser *p, const char *path, unsigned level,
		      bool *had_session)
{
	struct doc_text text;
	size_t pos = 0;
	unsigned lineno = 0, first = 0;
	char *line;
	bool oom;
	int rc;

	rc = doc_read(p->root, path, &text);
	if (rc < 0) {
		if (rc == -ENOMEM)
			p->rc = rc;
		else
			problem(p, path, 0, "cannot read it: %s", strerror(-rc));
		add_handler(p, DOC_H_MUST_FAIL, path, 0, level);
		return;
	}
	p->chain[p->depth++] = path;
	while (p->rc == 0 && (line = doc_next_line(&text, &pos, &lineno, &first, &oom)) != NULL) {
		parse_line(p, path, first, line, level, had_session);
		free(line);
	}
	if (oom)
		p->rc = -ENOMEM;
	p->depth--;
	doc_text_free(&text);
}

int doc_stack_resolve(const char *root, const char *service, struct doc_stack *out)
{
	struct parser p = { .root = root, .stack = out };
	bool oom = false, had_session = false;
	char *path;

	memset(out, 0, sizeof(*out));
	out->service = keep_copy(out, service);
	if (out->service == NULL)
		return -ENOMEM;
	/* A service name is a file name in /etc/pam.d, never a path. */
	path = strchr(service, '/') == NULL ? find_file(root, service_dirs, service, &oom) : NULL;
	if (oom)
		return -ENOMEM;
	if (path != NULL) {
		out->file = keep(out, path);
		if (out->file == NULL)
			return -ENOMEM;
		load_file(&p, out->file, 0, &had_session);
	}
	if (p.rc == 0 && out->n == 0) {
		/* libpam uses "other" for a service with no session handler. */
		size_t kept = out->n_problems;

		path = find_file(root, service_dirs, "other", &oom);
		if (oom)
			return -ENOMEM;
		if (path == NULL) {
			problem(&p, out->file, 0, "no session stack: neither the service nor \"other\" has one, so libpam fails every session");
		} else {
			out->file = keep(out, path);
			if (out->file == NULL)
				return -ENOMEM;
			out->from_other = true;
			out->n_problems = kept;
			load_file(&p, out->file, 0, &had_session);
		}
	}
	return p.rc;
}

bool doc_service_has_session(const char *root, const char *service)
{
	struct doc_stack s;
	struct parser p = { .root = root, .stack = &s };
	bool oom, had_session = false;
	char *path = find_file(root, service_dirs, service, &oom);

	if (path == NULL)
		return false;
	memset(&s, 0, sizeof(s));
	if (keep(&s, path) != NULL)
		load_file(&p, path, 0, &had_session);
	doc_stack_free(&s);
	return had_session;
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
