/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* A stack resolved as pam_handlers.c builds its handler list. */
#include "pamstack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pamline.h"
#include "pamstack_parser.h"

/* libpam's module types, as far as the session stack cares. */
enum type {
	T_ANY,	   /* the service's own file, "other", and what @include adds there */
	T_SESSION, /* session lines, and what a session include adds */
	T_OTHER,   /* auth, account, password: no part of the session stack */
};

/* What a file read gave: libpam's PAM_SUCCESS, or its failure. */
enum read_result {
	READ_OK,
	READ_FAILS,  /* _pam_parse_conf_file fails: the include, or pam_start */
	READ_ABORTS, /* libpam cannot go on: pam_start fails, or hangs or crashes */
};

/* --- Reading, as _pam_parse_conf_file and _pam_load_conf_file do. */

static enum read_result load_file(struct doc_parser *p, const char *path, enum type requested,
				  unsigned include_level, unsigned level);

struct line_ctx {
	struct doc_file_seen *seen; /* the file's text and what its lines gave */
	const char *file;
	unsigned line;
	enum type requested;
	unsigned include_level, level;
};

/*
 * `include`, `substack` or `@include` of NAME (NULL when the line names
 * none).  TYPE is the line's (T_ANY for an @include of the service's own
 * file): a failed include installs a handler of that type that fails, and
 * libpam cannot install one of no type: pam_start then fails.
 */
static enum read_result include(struct doc_parser *p, const struct line_ctx *c, enum type type,
				const char *name, bool at_include, bool substack)
{
	/* @include: /etc/pam.d only, and only while it is a directory. */
	static const char *const etc_only[] = { "/etc/pam.d", NULL };
	bool v15 = p->libpam->dialect == DOC_LIBPAM_1_5, oom = false;
	unsigned next_level = c->level + (substack ? 1 : 0), i;
	enum read_result r;
	char *path = NULL, why[512], *shown;

	if (name == NULL && at_include) {
		/* Debian's patch reads the name's first byte unchecked. */
		doc_problem(p, true, c->file, c->line, "@include names no file: libpam crashes here (a NULL pointer), so pam_start never returns");
		return READ_ABORTS;
	}
	if (substack)
		doc_add_handler(p, DOC_H_SUBSTACK, c->file, c->line, c->level, NULL);
	if (name != NULL && !(v15 ? next_level >= DOC_INCLUDE_DEPTH_MAX
				  : c->include_level + 1 >= DOC_INCLUDE_DEPTH_MAX)) {
		path = doc_find_file(p, at_include ? etc_only : doc_service_dirs, name, &oom);
		if (oom) {
			p->rc = -ENOMEM;
			return READ_ABORTS;
		}
	}
	for (i = 0; path != NULL && v15 && i < p->depth; i++)
		if (strcmp(p->chain[i], path) == 0)
			break;
	if (path != NULL && !(v15 && (i < p->depth || p->depth == CHAIN_MAX))) {
		/* The name every include of the file shares. */
		struct doc_file_seen *f = doc_read_once(p, path);
		const char *kept = f != NULL ? f->path : NULL;

		free(path);
		if (kept == NULL) {
			p->rc = -ENOMEM;
			return READ_ABORTS;
		}
		r = load_file(p, kept, type == T_ANY ? T_ANY : T_SESSION, c->include_level + 1,
			      next_level);
		if (r == READ_OK || r == READ_ABORTS)
			return r;
		snprintf(why, sizeof(why), "%s cannot be read (see there)", kept);
	} else if (path != NULL) {
		snprintf(why, sizeof(why), "include loop: %s is already being read, and libpam %s nests it until it runs out of file descriptors",
			 path, doc_libpam_dialect_name(p->libpam->dialect));
	} else if (name == NULL) {
		snprintf(why, sizeof(why), "an include that names no file");
	} else if (v15 ? next_level >= DOC_INCLUDE_DEPTH_MAX
		       : c->include_level + 1 >= DOC_INCLUDE_DEPTH_MAX) {
		snprintf(why, sizeof(why), "more than %d nested %s", DOC_INCLUDE_DEPTH_MAX,
			 v15 ? "substacks" : "includes");
	} else {
		shown = doc_escaped(name);
		snprintf(why, sizeof(why), "%sincludes \"%s\", which is not %s", at_include ? "@" : "",
			 shown != NULL ? shown : "?",
			 name[0] == '/' ? "there"
			 : at_include	? "in /etc/pam.d"
					: "in /etc/pam.d, /usr/lib/pam.d or /usr/etc/pam.d");
		free(shown);
	}
	free(path);
	/* The include failed: a module that fails, every action bad; libpam
	 * cannot install one of no type (an @include of the service's own
	 * file), and its pam_start fails. */
	doc_problem(p, type == T_ANY, c->file, c->line, "%s: %s", why,
		    type == T_ANY ? "libpam's pam_start fails"
		    : at_include  ? "libpam installs a module here that fails, its control left uninitialized (what it does next is undefined)"
				  : "libpam installs a module here that fails");
	if (type == T_ANY)
		return READ_ABORTS;
	doc_add_handler(p, DOC_H_MUST_FAIL, c->file, c->line, c->level, NULL);
	return READ_OK;
}

/* Sets ACTIONS from CONTROL, as libpam does; a problem if it balks. */
static void control_actions(struct doc_parser *p, const struct line_ctx *c, const char *control,
			    int actions[DOC_RET_COUNT])
{
	char bad[128] = "";
	size_t i;
	int r;

	for (i = 0; i < doc_n_simple_controls; i++)
		if (strcasecmp(control, doc_simple_controls[i].name) == 0)
			break;
	if (i < doc_n_simple_controls) {
		for (r = 0; r < DOC_RET_COUNT; r++)
			actions[r] = doc_simple_controls[i].otherwise;
		actions[DOC_RET_SUCCESS] = doc_simple_controls[i].success;
		return;
	}
	if (!doc_parse_control(control, actions, bad, sizeof(bad))) {
		char *shown = doc_escaped(bad);

		doc_problem(p, false, c->file, c->line, "bad control: %s: libpam takes every result of this module as a failure",
			    shown != NULL ? shown : "?");
		free(shown);
	}
}

/* One logical line of C->file. */
static enum read_result parse_line(struct doc_parser *p, const struct line_ctx *c, char *text)
{
	struct doc_stack *s = p->stack;
	char *cursor = text, *tok, *module;
	enum doc_handler_kind kind = DOC_H_MODULE;
	enum type type;
	int actions[DOC_RET_COUNT];
	struct doc_handler *h;
	const struct doc_line_seen *seen;
	struct doc_line_seen fresh;
	const char *bad_type = NULL;
	bool silent = false;
	size_t alen;

	tok = doc_token(&cursor);
	if (tok != NULL && tok[0] == '-') {
		silent = true;
		tok++;
	}
	if (tok != NULL && strcasecmp(tok, "@include") == 0)
		return include(p, c, c->requested, doc_token(&cursor), true, false);
	if (tok != NULL && strcasecmp(tok, "session") == 0) {
		type = T_SESSION;
	} else if (tok != NULL && (strcasecmp(tok, "auth") == 0 || strcasecmp(tok, "account") == 0 ||
				   strcasecmp(tok, "password") == 0)) {
		type = T_OTHER;
	} else {
		/* libpam installs it, to fail, as what was asked for: auth
		 * in the service's own file, where every type is asked. */
		type = c->requested == T_ANY ? T_OTHER : c->requested;
		kind = DOC_H_MUST_FAIL;
		bad_type = tok != NULL ? tok : "";
	}
	if (c->requested != T_ANY && type != c->requested)
		return READ_OK;
	if (type != T_SESSION)
		return READ_OK;
	p->had_session = true;
	tok = doc_token(&cursor);
	if (tok == NULL) {
		doc_problem(p, false, c->file, c->line, "no control: libpam installs a module here that fails");
		doc_add_handler(p, DOC_H_MUST_FAIL, c->file, c->line, c->level, NULL);
		return READ_OK;
	}
	if (strcasecmp(tok, "include") == 0 || strcasecmp(tok, "substack") == 0)
		return include(p, c, T_SESSION, doc_token(&cursor), false,
			       strcasecmp(tok, "substack") == 0);
	if (bad_type != NULL)
		doc_problem_named(p, false, c->file, c->line,
				  "\"%s\" is not a module type: libpam installs a module here that fails",
				  bad_type);
	control_actions(p, c, tok, actions);
	module = doc_token(&cursor);
	if (module == NULL) {
		doc_problem(p, false, c->file, c->line, "no module named: libpam installs a module here that fails");
		doc_add_handler(p, DOC_H_MUST_FAIL, c->file, c->line, c->level, actions);
		return READ_OK;
	}
	h = doc_add_handler(p, kind, c->file, c->line, c->level, actions);
	if (h == NULL)
		return READ_OK;
	h->silent = silent;
	seen = doc_line_seen(c->seen, c->line);
	if (seen == NULL) {
		/* The arguments as written, as far as libpam's tokens reach. */
		cursor = cursor != NULL ? cursor : (char *)"";
		cursor += strspn(cursor, " \t\n");
		alen = strlen(cursor);
		while (alen > 0 && (cursor[alen - 1] == ' ' || cursor[alen - 1] == '\t' ||
				    cursor[alen - 1] == '\n'))
			cursor[--alen] = '\0';
		fresh = (struct doc_line_seen){
			.first = c->line,
			.module = doc_keep_copy(s, module),
			.name = doc_base_name(s, module),
			.args = doc_keep_copy(s, cursor),
		};
		if (fresh.module == NULL || fresh.name == NULL || fresh.args == NULL ||
		    !doc_line_remember(c->seen, &fresh)) {
			p->rc = -ENOMEM;
			return READ_ABORTS;
		}
		seen = &fresh;
	}
	h->module = seen->module;
	h->name = seen->name;
	h->args = seen->args;
	h->found = doc_module_found(p, module);
	if (!h->found && !silent && h->kind == DOC_H_MODULE)
		doc_problem_named(p, false, c->file, c->line,
				  module[0] == '/' ? "module %s is not found: libpam runs it as failing (PAM_MODULE_UNKNOWN)"
						   : "module %s is not found in the module directories: libpam runs it as failing (PAM_MODULE_UNKNOWN)",
				  module);
	return READ_OK;
}

static enum read_result load_file(struct doc_parser *p, const char *path, enum type requested,
				  unsigned include_level, unsigned level)
{
	struct doc_file_seen *f = doc_read_once(p, path);
	struct doc_reader reader;
	enum read_result r = READ_OK;
	unsigned first;
	char *line;
	int got;

	if (f == NULL) {
		p->rc = -ENOMEM;
		return READ_ABORTS;
	}
	if (f->rc == -EISDIR) {
		return READ_OK; /* fopen opens it, fgets reads nothing */
	} else if (f->rc < 0) {
		doc_problem(p, requested == T_ANY, path, 0, "cannot read it: %s",
			    f->rc == -EINVAL ? "not a regular file (libpam would wait on a FIFO, or read a device)"
					     : strerror(-f->rc));
		return READ_FAILS;
	}
	reader = (struct doc_reader){ .text = &f->text, .dialect = p->libpam->dialect };
	if (p->depth == CHAIN_MAX)
		return READ_FAILS;
	p->stack->bytes_read += f->text.len;
	if (p->stack->bytes_read > DOC_BYTES_MAX) {
		if (!p->too_long)
			doc_problem(p, true, path, 0, "the includes come to more than %u MiB read: doctor stops here (an image's stacks may take no more)",
				    DOC_BYTES_MAX >> 20);
		p->too_long = true;
		return READ_ABORTS;
	}
	p->chain[p->depth++] = path;
	while (r == READ_OK && p->rc == 0 && (got = doc_next_line(&reader, &line, &first)) == 1) {
		struct line_ctx c = {
			.seen = f,
			.file = path,
			.line = first,
			.requested = requested,
			.include_level = include_level,
			.level = level,
		};

		if (++p->stack->lines_read > DOC_LINES_MAX) {
			if (!p->too_long)
				doc_problem(p, true, path, first, "the includes come to more than %d lines: libpam builds a module for each line at every pam_start, and its time grows with the square of their number; doctor stops here",
					    DOC_LINES_MAX);
			p->too_long = true;
			free(line);
			r = READ_ABORTS;
			break;
		}
		r = parse_line(p, &c, line);
		free(line);
	}
	p->depth--;
	if (r != READ_OK)
		return r;
	if (got == DOC_READ_NOMEM) {
		p->rc = -ENOMEM;
		return READ_ABORTS;
	}
	if (got == DOC_READ_HANGS) {
		doc_problem(p, true, path, reader.lineno, "libpam %s's reader stops here for good: the line's backslash lands on its 1,023rd byte, and each read then gives nothing",
			    doc_libpam_dialect_name(p->libpam->dialect));
		return READ_ABORTS;
	}
	if (got == DOC_READ_FAILS) {
		doc_problem(p, requested == T_ANY, path, reader.lineno,
			    p->libpam->dialect == DOC_LIBPAM_1_5
				    ? "libpam cannot read this file: a line is still continued at its end, or is 1,024 bytes or longer"
				    : "libpam cannot read this file: a line is still continued at its end");
		return READ_FAILS;
	}
	return READ_OK;
}

/* --- The service, and "other", as _pam_init_handlers reads them. */

/* Reads the file of NAME, keeping its handlers or only checking it;
 * *found says whether there was one. */
static enum read_result read_top(struct doc_parser *p, const char *name, bool keep_it,
				 const char **file, bool *found)
{
	bool oom;
	char *path = doc_find_file(p, doc_service_dirs, name, &oom);

	*found = path != NULL;
	if (oom || (path != NULL && (*file = doc_keep(p->stack, path)) == NULL)) {
		p->rc = -ENOMEM;
		return READ_ABORTS;
	}
	if (path == NULL)
		return READ_OK;
	p->keep = keep_it;
	return load_file(p, *file, T_ANY, 0, 0);
}

int doc_stack_resolve_with(const char *root, const struct doc_libpam *libpam,
			   const char *service, struct doc_stack *out)
{
	struct doc_parser p = { .root = root, .libpam = libpam, .stack = out };
	const char *other_file = NULL;
	bool found = false, other_found = false;
	enum read_result r = READ_OK;

	memset(out, 0, sizeof(*out));
	out->service = doc_keep_copy(out, service);
	if (out->service == NULL)
		return -ENOMEM;
	/* A service name is a file name in pam.d, never a path. */
	if (strchr(service, '/') == NULL)
		r = read_top(&p, service, true, &out->file, &found);
	if (r == READ_OK && p.rc == 0) {
		/* "other" is read for every service; its session lines are
		 * the stack of one that has none of its own. */
		bool use_other = out->n == 0;

		r = read_top(&p, "other", use_other, &other_file, &other_found);
		if (use_other && other_found) {
			out->file = other_file;
			out->from_other = true;
		}
		if (!found && !other_found)
			doc_problem(&p, true, NULL, 0, "no session stack: neither the service nor \"other\" has a file, so pam_start fails");
		else if (out->n == 0 && r == READ_OK)
			doc_problem(&p, true, out->file, 0, "no session stack: neither the service nor \"other\" has a session line, so libpam fails every session");
	}
	if (r != READ_OK)
		out->start_fails = true;
	doc_parser_free(&p);
	return p.rc;
}

int doc_stack_resolve(const char *root, const char *service, struct doc_stack *out)
{
	struct doc_libpam libpam;

	doc_libpam_probe(root, &libpam);
	return doc_stack_resolve_with(root, &libpam, service, out);
}

bool doc_service_has_session_with(const char *root, const struct doc_libpam *libpam,
				  const char *service)
{
	struct doc_stack s;
	struct doc_parser p = { .root = root, .libpam = libpam, .stack = &s };
	const char *file;
	bool found;

	memset(&s, 0, sizeof(s));
	read_top(&p, service, true, &file, &found);
	doc_parser_free(&p);
	doc_stack_free(&s);
	return p.had_session;
}

bool doc_service_has_session(const char *root, const char *service)
{
	struct doc_libpam libpam;

	doc_libpam_probe(root, &libpam);
	return doc_service_has_session_with(root, &libpam, service);
}
