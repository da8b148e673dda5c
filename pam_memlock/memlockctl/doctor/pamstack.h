/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A PAM session stack resolved the way Linux-PAM (with Debian's @include)
 * resolves it (pamstack_read.c, reading lines as pamline.c does), and
 * walked the way pam_open_session walks it (pamstack_walk.c).
 *
 * doc_stack_resolve reads /etc/pam.d/SERVICE, else /usr/lib/pam.d/SERVICE,
 * keeps the session lines, follows `include`, `substack` and `@include`,
 * and falls back to "other" when the service has no session line, all
 * under ROOT.  Each line becomes a handler, as libpam's list would hold it:
 * a substack is a marker handler followed by its handlers one level
 * deeper; a line libpam would refuse (an unknown type, a missing include, a
 * loop) is a handler that fails when run, with a problem recorded.
 *
 * doc_stack_walk then runs the list on the success path: every module that
 * is found returns PAM_SUCCESS, except pam_deny (PAM_SESSION_ERR); a module
 * that is not found returns PAM_MODULE_UNKNOWN.  It applies the controls,
 * jumps (which never leave their substack), done and die, and marks which
 * handlers ran.
 *
 * The stack owns every string it holds; free it with doc_stack_free.
 */
#ifndef PML_DOC_PAMSTACK_H
#define PML_DOC_PAMSTACK_H

#include <stdbool.h>
#include <stddef.h>

/* libpam's own limit on nested includes and substacks. */
#define DOC_INCLUDE_DEPTH_MAX 16

/* The return values the walk produces, and what each maps to. */
enum doc_ret {
	DOC_RET_SUCCESS,
	DOC_RET_SESSION_ERR,	/* pam_deny */
	DOC_RET_PERM_DENIED,	/* a handler libpam marks "must fail" */
	DOC_RET_MODULE_UNKNOWN, /* the module file is not there */
	DOC_RET_COUNT
};

/* Actions, numbered as libpam numbers them: a positive value jumps. */
enum {
	DOC_ACT_IGNORE = 0,
	DOC_ACT_OK = -1,
	DOC_ACT_DONE = -2,
	DOC_ACT_BAD = -3,
	DOC_ACT_DIE = -4,
	DOC_ACT_RESET = -5,
	DOC_ACT_UNDEF = -6,
};

enum doc_handler_kind {
	DOC_H_MODULE,
	DOC_H_SUBSTACK,	 /* marks where a substack starts */
	DOC_H_MUST_FAIL, /* a line libpam could not use */
};

struct doc_handler {
	enum doc_handler_kind kind;
	const char *file; /* as libpam names it, without the root */
	unsigned line;
	unsigned level;	    /* substack depth, 0 at the top */
	bool silent;	    /* "-session": a missing module is not logged */
	bool found;	    /* the module file exists */
	const char *module; /* as written: "pam_limits.so" or a path */
	const char *name;   /* its base name without ".so": "pam_limits" */
	const char *args;   /* the arguments as written, "" for none */
	int actions[DOC_RET_COUNT];
	bool ran; /* set by doc_stack_walk */
};

struct doc_problem {
	const char *file;    /* NULL when no file is to blame */
	unsigned line;	     /* 0: the whole file */
	const char *message; /* printable: unsafe bytes already escaped */
};

struct doc_stack {
	const char *service;
	const char *file; /* where the session stack came from */
	bool from_other;  /* no session line of its own: "other" */
	struct doc_handler *h;
	size_t n, cap;
	struct doc_problem *problems;
	size_t n_problems, cap_problems;
	bool session_fails; /* the walk ends in failure */
	/* Every string above lives in these blocks. */
	char **strings;
	size_t n_strings, cap_strings;
};

/* Where a relative module name is looked for, in order (under the root). */
extern const char *const doc_module_dirs[];

/*
 * Resolves SERVICE's session stack under ROOT ("" for this machine).
 * Returns 0 with *out filled (problems in out->problems), or -ENOMEM.
 * With no file for SERVICE and no "other", out->file is NULL and a
 * problem says so.
 */
int doc_stack_resolve(const char *root, const char *service, struct doc_stack *out);

/* Runs the success path over the handlers; sets ran and session_fails. */
void doc_stack_walk(struct doc_stack *stack);

void doc_stack_free(struct doc_stack *stack);

/*
 * Does SERVICE's own file (not "other") hold a session line, directly or
 * through an include?  For listing the services worth checking.
 */
bool doc_service_has_session(const char *root, const char *service);

/* The value of argument KEY= in ARGS ("conf=/x debug" -> "/x"), malloc'd,
 * or NULL; *present tells a bare KEY (like "dry_run") apart. */
char *doc_arg_value(const char *args, const char *key, bool *present);

#endif
