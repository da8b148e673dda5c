/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A PAM session stack resolved the way Linux-PAM (with Debian's @include)
 * resolves it (pamstack_read.c, reading lines as pamline.c does, looking
 * where libpam.c says libpam looks), and walked the way pam_open_session
 * walks it (pamstack_walk.c).
 *
 * doc_stack_resolve reads the service's file (the first of /etc/pam.d,
 * /usr/lib/pam.d and the vendor directory /usr/etc/pam.d that has it),
 * keeps the session lines, follows `include`, `substack` and `@include`,
 * and reads "other" too, as pam_start does: its session lines stand in for
 * a service that has none, and a file libpam cannot read (either one)
 * fails pam_start itself.  Each session line becomes a handler, as
 * libpam's list would hold it: a substack is a marker handler followed by
 * its handlers one level deeper; a line libpam cannot use (an unknown type
 * in an included file, a missing include, too deep a nesting) is a handler
 * that fails when run, with the control its line gives, and a problem
 * recorded.  An unknown type in the service's own file makes an auth
 * handler, as in libpam: no problem for sessions.
 *
 * doc_stack_walk then runs the list on the success path: every module that
 * is found returns PAM_SUCCESS, except pam_deny (PAM_SESSION_ERR) and
 * pam_succeed_if, whose conditions on the service are evaluated as it
 * evaluates them (PAM_AUTH_ERR when one is false, PAM_SERVICE_ERR for one
 * it cannot parse); a condition on the user or the session's items
 * (user, uid, gid, shell, home, ruser, rhost, tty, ingroup, innetgr) is
 * taken to hold, and the stack is marked as depending on the user.  A
 * module that is not found returns PAM_MODULE_UNKNOWN.  It applies the controls,
 * jumps (which never leave their substack), done and die, and marks which
 * handlers ran.
 *
 * Includes can multiply a stack (files that each include the next twice
 * double it at every level); libpam builds every handler at each
 * pam_start, appending each by walking its list to the end.  Past
 * DOC_LINES_MAX lines or DOC_BYTES_MAX bytes read, counting every include
 * anew, doctor stops and calls the stack an error.  A line read again
 * through another include shares the strings of its first reading, so a
 * stack costs at most its files' text once, its handlers, and the bytes
 * the budget lets through once: a hostile image cannot make it grow with
 * the number of its includes.
 *
 * The stack owns every string it holds; free it with doc_stack_free.
 */
#ifndef DOC_PAMSTACK_H
#define DOC_PAMSTACK_H

#include <stdbool.h>
#include <stddef.h>

/* libpam's own limit on nesting: substacks up to 1.5.3, includes of any
 * kind from 1.6.0 (PAM_SUBSTACK_MAX_LEVEL). */
#define DOC_INCLUDE_DEPTH_MAX 16

/* Lines read through every include, past which doctor gives up. */
#define DOC_LINES_MAX 10000

/* Bytes of files read through every include (each include counted anew),
 * past which doctor gives up: the time and memory a root's stacks may
 * take, whatever the image holds. */
#define DOC_BYTES_MAX (16u << 20)

/* How the system's libpam reads its files: see pamline.h. */
enum doc_libpam_dialect {
	DOC_LIBPAM_1_6, /* Linux-PAM 1.6.0 and later: Debian 13's 1.7.0 */
	DOC_LIBPAM_1_5, /* up to 1.5.3: Debian 12's 1.5.2 */
};

#define DOC_LIBRARY_MAX 256

struct doc_libpam {
	enum doc_libpam_dialect dialect;
	/* The libpam.so.0 that told, as the system names it; "" when none
	 * was found (then 1.6's reader, today's). */
	char library[DOC_LIBRARY_MAX];
};

/* The return values the walk produces, and what each maps to. */
enum doc_ret {
	DOC_RET_SUCCESS,
	DOC_RET_SESSION_ERR,	/* pam_deny */
	DOC_RET_PERM_DENIED,	/* a handler libpam marks "must fail" */
	DOC_RET_MODULE_UNKNOWN, /* the module file is not there */
	DOC_RET_AUTH_ERR,	/* pam_succeed_if: a condition is false */
	DOC_RET_SERVICE_ERR,	/* pam_succeed_if: a condition it cannot parse */
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
	/* set by doc_stack_walk: it took a condition on the user to hold */
	bool assumed;
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
	/* SERVICE's own file (not "other") holds a session line, directly or
	 * through an include: a service worth listing. */
	bool own_session;
	struct doc_handler *h;
	size_t n, cap;
	struct doc_problem *problems;
	size_t n_problems, cap_problems;
	bool session_fails;	       /* the walk ends in failure */
	bool depends_on_user;	       /* the walk took a condition on the user to hold */
	bool start_fails;	       /* pam_start fails: no handler runs */
	unsigned long lines_read;      /* through every include: see DOC_LINES_MAX */
	unsigned long long bytes_read; /* the same: see DOC_BYTES_MAX */
	/* Every string above lives in these blocks. */
	char **strings;
	size_t n_strings, cap_strings;
};

/* --- libpam.c: where libpam looks, and which reader it has. */

/* Where a relative module name is looked for, in order (under the root):
 * Debian's /lib/TRIPLET/security and /usr/lib/TRIPLET/security with this
 * build's triplet, /lib/security and /usr/lib/security (Debian's second
 * directory, Arch's, Alpine's, upstream's default), /lib64/security and
 * /usr/lib64/security (Fedora, openSUSE), and this build's pammoddir. */
extern const char *const doc_module_dirs[];

/* Where a service and an `include` or `substack` name are looked for, in
 * order: /etc/pam.d, /usr/lib/pam.d, /usr/etc/pam.d (the vendor directory
 * of openSUSE's build).  Debian's `@include` reads /etc/pam.d only. */
extern const char *const doc_service_dirs[];

/* Which reader the libpam.so.0 under ROOT has, told by the message that
 * its nesting limit logs ("maximum level of inclusions reached" from
 * 1.6.0, "...of substacks..." before). */
void doc_libpam_probe(const char *root, struct doc_libpam *out);

/* "1.6" or "1.5": the first release of the reader's line. */
const char *doc_libpam_dialect_name(enum doc_libpam_dialect dialect);

/* --- pamstack_read.c */

/*
 * Resolves SERVICE's session stack under ROOT ("" for this machine), read
 * as LIBPAM reads it.  Returns 0 with *out filled (problems in
 * out->problems), or -ENOMEM.  With no file for SERVICE and no "other",
 * out->file is NULL and a problem says so.
 */
int doc_stack_resolve_with(const char *root, const struct doc_libpam *libpam,
			   const char *service, struct doc_stack *out);

/* The same, with the libpam found under ROOT. */
int doc_stack_resolve(const char *root, const char *service, struct doc_stack *out);

/* Runs the success path over the handlers; sets ran and session_fails. */
void doc_stack_walk(struct doc_stack *stack);

void doc_stack_free(struct doc_stack *stack);

/* Does SERVICE's own file (not "other") hold a session line, directly or
 * through an include?  own_session of its resolved stack. */
bool doc_service_has_session(const char *root, const char *service);

/* The value of argument KEY= in ARGS ("conf=/x debug" -> "/x"), malloc'd,
 * or NULL; *present tells a bare KEY (like "dry_run") apart. */
char *doc_arg_value(const char *args, const char *key, bool *present);

#endif
