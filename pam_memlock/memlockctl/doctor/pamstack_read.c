/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A stack resolved as pam_handlers.c builds its handler list: the parser's
 * state, what the stack keeps, each file and module looked at once, and
 * the reading itself.
 */
#include "pamstack.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pamline.h"
#include "dirfd/dirfd.h"

/* libpam 1.5 nests includes until it has no file descriptor left for the
 * next: RLIMIT_NOFILE's usual 1,024, less what is open already. */
#define CHAIN_MAX 1000

/* What a module line of a file gave when first read, kept by the stack:
 * the same line read through another include shares it. */
struct doc_line_seen {
	unsigned first; /* its first physical line */
	const char *module, *name, *args;
};

struct doc_file_seen {
	const char *path; /* kept by the stack: every include of it shares it */
	struct dirfd_text text;
	int rc; /* dirfd_read's */
	/* Its module lines read so far, by line, ascending. */
	struct doc_line_seen *lines;
	size_t n_lines, cap_lines;
};

struct doc_parser {
	const char *root;
	const struct doc_libpam *libpam;
	struct doc_stack *stack;
	bool keep;		      /* keep handlers and problems: false for "other" when only read */
	const char *chain[CHAIN_MAX]; /* the files being read, nested */
	unsigned depth;
	bool had_session; /* some session line, the service's own file */
	bool too_long;	  /* past DOC_LINES_MAX or DOC_BYTES_MAX: stop */
	/* Each file read once, each module looked for once.  A file's text
	 * stays where it is while includes read others. */
	struct doc_file_seen **files;
	size_t n_files;
	char **modules_found, **modules_missing;
	size_t n_found, n_missing;
	int rc; /* -ENOMEM sticks */
};

/* --- Memory: every string belongs to the stack. */

/* OWNED kept by the stack (freed with it); NULL when out of memory. */
static const char *doc_keep(struct doc_stack *s, char *owned)
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

static const char *doc_keep_copy(struct doc_stack *s, const char *text)
{
	return doc_keep(s, strdup(text));
}

/* TEXT with every byte a terminal could act on (and non-ASCII) as \xNN. */
static char *doc_escaped(const char *text)
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

/* A problem at FILE:LINE, the first of its line; FATAL ones are kept even
 * for a file only read. */
static void doc_problem(struct doc_parser *p, bool fatal, const char *file, unsigned line,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void doc_problem(struct doc_parser *p, bool fatal, const char *file, unsigned line,
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
static void doc_problem_named(struct doc_parser *p, bool fatal, const char *file, unsigned line,
			      const char *fmt, const char *name)
	__attribute__((format(printf, 5, 0)));
static void doc_problem_named(struct doc_parser *p, bool fatal, const char *file, unsigned line,
			      const char *fmt, const char *name)
{
	char *shown = doc_escaped(name);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	doc_problem(p, fatal, file, line, fmt, shown != NULL ? shown : "?");
#pragma GCC diagnostic pop
	free(shown);
}

/* A new handler (ACTIONS NULL: every action bad), or NULL when the file is
 * only read or memory ran out. */
static struct doc_handler *doc_add_handler(struct doc_parser *p, enum doc_handler_kind kind,
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

/* PATH read once per resolution; NULL when out of memory. */
static struct doc_file_seen *doc_read_once(struct doc_parser *p, const char *path)
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
	f->rc = f->path != NULL ? dirfd_read(p->root, path, &f->text) : -ENOMEM;
	if (f->rc == -ENOMEM) {
		free(f);
		return NULL;
	}
	p->files[p->n_files++] = f;
	return f;
}

/* The strings of F's module line FIRST when it was read before, or NULL. */
static const struct doc_line_seen *doc_line_seen(const struct doc_file_seen *f, unsigned first)
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

/* Remembers SEEN (its strings kept by the stack) for later readings; a
 * line out of order is not remembered.  False when out of memory. */
static bool doc_line_remember(struct doc_file_seen *f, const struct doc_line_seen *seen)
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
static char *doc_find_file(struct doc_parser *p, const char *const *dirs, const char *name, bool *oom)
{
	size_t i;

	*oom = false;
	if (name[0] == '/') {
		char *path = strdup(name);

		*oom = path == NULL;
		if (path != NULL && !dirfd_exists(p->root, path)) {
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
		if (dirfd_exists(p->root, path))
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

/* Is MODULE in the module directories?  Each name looked for once. */
static bool doc_module_found(struct doc_parser *p, const char *module)
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

/* "pam_limits" of "/x/pam_limits.so", kept by the stack. */
static const char *doc_base_name(struct doc_stack *s, const char *module)
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

static void doc_parser_free(struct doc_parser *p)
{
	size_t i;

	for (i = 0; i < p->n_files; i++) {
		free(p->files[i]->lines);
		dirfd_text_free(&p->files[i]->text);
		free(p->files[i]);
	}
	free(p->files);
	dirfd_names_free(p->modules_found, p->n_found);
	dirfd_names_free(p->modules_missing, p->n_missing);
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
	out->own_session = p.had_session;
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

bool doc_service_has_session(const char *root, const char *service)
{
	struct doc_stack s;
	bool has = doc_stack_resolve(root, service, &s) == 0 && s.own_session;

	doc_stack_free(&s);
	return has;
}
