/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What pamstack_read.c reads a stack with, and keeps it in
 * (pamstack_store.c): the stack's strings, handlers and problems, and each
 * file and module looked at once.  Private to the two.
 */
#ifndef PML_DOC_PAMSTACK_PARSER_H
#define PML_DOC_PAMSTACK_PARSER_H

#include <stdbool.h>
#include <stddef.h>

#include "pamstack.h"
#include "rootfs.h"

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
	struct doc_text text;
	int rc; /* doc_read's */
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

/* OWNED kept by the stack (freed with it); NULL when out of memory. */
const char *doc_keep(struct doc_stack *s, char *owned);
const char *doc_keep_copy(struct doc_stack *s, const char *text);

/* TEXT with every byte a terminal could act on (and non-ASCII) as \xNN,
 * malloc'd. */
char *doc_escaped(const char *text);

/* A problem at FILE:LINE, the first of its line; FATAL ones are kept even
 * for a file only read. */
void doc_problem(struct doc_parser *p, bool fatal, const char *file, unsigned line,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The same, with NAME escaped into the message's one %s. */
void doc_problem_named(struct doc_parser *p, bool fatal, const char *file, unsigned line,
		       const char *fmt, const char *name) __attribute__((format(printf, 5, 0)));

/* A new handler (ACTIONS NULL: every action bad), or NULL when the file is
 * only read or memory ran out. */
struct doc_handler *doc_add_handler(struct doc_parser *p, enum doc_handler_kind kind,
				    const char *file, unsigned line, unsigned level,
				    const int *actions);

/* PATH read once per resolution; NULL when out of memory. */
struct doc_file_seen *doc_read_once(struct doc_parser *p, const char *path);

/* The strings of F's module line FIRST when it was read before, or NULL. */
const struct doc_line_seen *doc_line_seen(const struct doc_file_seen *f, unsigned first);

/* Remembers SEEN (its strings kept by the stack) for later readings; a
 * line out of order is not remembered.  False when out of memory. */
bool doc_line_remember(struct doc_file_seen *f, const struct doc_line_seen *seen);

/*
 * The file libpam opens for NAME: NAME itself if absolute, else the first
 * of DIRS/NAME that exists (fopen(3) opens a directory too; libpam then
 * reads it as empty).  Malloc'd; NULL when none (*oom on failure).
 */
char *doc_find_file(struct doc_parser *p, const char *const *dirs, const char *name, bool *oom);

/* Is MODULE in the module directories?  Each name looked for once. */
bool doc_module_found(struct doc_parser *p, const char *module);

/* "pam_limits" of "/x/pam_limits.so", kept by the stack. */
const char *doc_base_name(struct doc_stack *s, const char *module);

void doc_parser_free(struct doc_parser *p);

#endif
