/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's record of one session path: the machine it looks at, the steps
 * a session takes from its start through each module that can change
 * RLIMIT_MEMLOCK, and the verdict with its fix, with the helpers that
 * write steps, errors and values into it.  modules.c and path.c fill a
 * record, report.c prints it.
 */
#ifndef DOC_RECORD_H
#define DOC_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "family.h"
#include "limits.h"
#include "openrc.h"
#include "pamstack.h"
#include "units.h"

#define DOC_MSG_MAX 1024
#define DOC_STEPS_MAX 64

/* From least to most to do; a greeter's path has nothing to do, as ok. */
enum doc_verdict {
	DOC_V_OK,
	DOC_V_GREETER, /* a login screen's stack without pam_memlock */
	DOC_V_OVERRIDDEN,
	DOC_V_MISSING,
	DOC_V_ERROR
};

extern const char *const doc_verdict_names[];

/* Is V one that asks nothing of the admin (ok, greeter)?  doctor exits 0,
 * and monitor counts a path as ok, only when every path's is. */
bool doc_verdict_is_fine(enum doc_verdict v);

/* Is NAME one of NAMES (NULL-terminated)? */
bool doc_name_listed(const char *const *names, const char *name);

/* What every path shares: the machine, the user, the models. */
struct doctor {
	const struct cli_options *options;
	const char *root;	      /* "" for this machine */
	struct doc_os os;	      /* the distribution family */
	struct doc_init init;	      /* systemd, OpenRC: where sessions start */
	enum doc_limits_model limits; /* whose pam_limits */
	char limits_note[96];	      /* what told which */
	struct doc_libpam libpam;     /* how the system's libpam reads pam.d */
	char release[128];
	struct doc_value pid1_soft, pid1_hard;
	char pid1_note[128];
	/* CAP_SYS_RESOURCE in PID 1's bounding set (/proc/1/status, under the
	 * root too): without it no session can raise its hard limit, and the
	 * module's soft limit goes only as far as the hard one it has. */
	bool cap_known, cap_resource;
	char cap_note[96];
	struct doc_user user;
	bool have_user;
	/* Without a user: the rule whose class (a made-up member of its
	 * user, group or uid) the path is checked for, or -1 for a user no
	 * rule names. */
	int class_rule;
	bool module_installed; /* pam_memlock.so is in a module directory */
	bool profile_shipped;  /* pam-auth-update's profile for it is there */
};

/* One layer: the start, or a module that ran (or could have). */
struct doc_step {
	char file[DOC_PATH_MAX]; /* "" when no file is to blame */
	unsigned line;
	char module[64];
	char effect[DOC_MSG_MAX];
	struct doc_value soft, hard; /* the session's memlock after this step */
	bool changes;		     /* it sets memlock */
	bool kept_higher;	     /* raise mode kept a limit above the policy's */
	/* pam_memlock's: "FILE:LINE" of the rule that decides, "" where the
	 * top level (or no policy) does: what a fix names. */
	char rule[DOC_PATH_MAX + 16];
};

/* Rules with a user, group or uid key tell users apart: without a user
 * doctor checks the path again for each such rule that can match the
 * service's sessions, as for a member of its class. */
#define DOC_CLASSES_MAX 64
#define DOC_CLASS_MAX 512

struct doc_class {
	/* "members of group hpc (rule FILE:LINE)", "a user no rule names" */
	char who[DOC_CLASS_MAX];
	enum doc_verdict verdict;
};

struct doc_path {
	const char *service;
	const char *file;
	const char *unit;
	enum doc_verdict verdict;
	struct doc_value soft, hard;
	bool depends_on_user;
	/* Slurm with MEMLOCK propagated: the tasks' soft limit is the
	 * submitting shell's (at most the hard limit). */
	bool soft_from_shell;
	struct doc_step steps[DOC_STEPS_MAX];
	size_t n_steps;
	char problem_file[DOC_PATH_MAX];
	unsigned problem_line;
	char problem[DOC_MSG_MAX];
	char fix[DOC_MSG_MAX];
	bool has_fix;
	bool fix_is_tool; /* the fix is the family's tool, not an edit */
	/* The class this path was checked for ("" for a user no rule names);
	 * after doc_run, the class whose verdict is the path's, where that
	 * is worse than the one for a user no rule names. */
	char who[DOC_CLASS_MAX];
	/* The rules pam_memlock's policy tells users apart by (indexes into
	 * its rules); after doc_run, each class's verdict, the first for a
	 * user no rule names.  TRUNCATED: rules past DOC_CLASSES_MAX - 1
	 * were not checked. */
	unsigned class_rules[DOC_CLASSES_MAX - 1];
	size_t n_class_rules;
	struct doc_class classes[DOC_CLASSES_MAX];
	size_t n_classes;
	bool classes_truncated;
};

/* "8 MiB", "unlimited", "unknown"; "soft X, hard Y". */
void doc_value_text(struct doc_value v, char *buf, size_t len);
void doc_pair_text(struct doc_value soft, struct doc_value hard, char *buf, size_t len);

/* PATH as the checked system names it: without the --root prefix. */
const char *doc_shown(const struct doctor *d, const char *path);

/* A new step of P, or NULL when P has DOC_STEPS_MAX already. */
struct doc_step *doc_add_step(struct doc_path *p, const char *file, unsigned line,
			      const char *module);

/* Makes P an error, unless it is one already (the first problem stands). */
void doc_set_error(struct doc_path *p, const char *file, unsigned line, const char *message);

/* The loader's first error, for the one line that reports a policy that
 * could not be read: a pml_log sink (doc_first_error_emit, CTX this). */
struct doc_first_error {
	char text[DOC_MSG_MAX];
};
void doc_first_error_emit(void *ctx, int priority, const char *message);

#endif
