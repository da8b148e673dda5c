/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A model of pam_limits for RLIMIT_MEMLOCK: which memlock lines of
 * limits.conf and the .conf files of limits.d match a user, with pam_limits' own
 * precedence (a user's line over a group's over "*", later over earlier
 * at the same rank), and what the session's memlock is afterwards.
 *
 * Two starting points: upstream pam_limits touches memlock only when a
 * line matches (or with set_all, which first copies PID 1's limits);
 * Debian's before 1.7.0 (Debian 12) copies PID 1's limits into every
 * session, as if set_all were always given, and Debian's from 1.7.0
 * (Debian 13) no longer does.  The request says which.
 *
 * Values are bytes, UINT64_MAX for unlimited, each with a `known` flag:
 * under --root PID 1's limits are unknown, and so is what follows them.
 *
 * Lines are read as the pam_limits of the system's Linux-PAM reads them:
 * up to 1.5.3 with fgets(3) into 1,024 bytes, so that a longer line is
 * read as pieces of 1,023 bytes, each a line of its own, and split by
 * sscanf's "%s%s%s%s"; from 1.6.0 whole, its value the rest of the line.
 * Debian's pam_limits applies "*" and group lines to every user but root
 * (its patch "root limits must be explicit", in Debian 12 and 13 alike);
 * upstream's applies them to root too.
 */
#ifndef DOC_LIMITS_H
#define DOC_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pamstack.h"

#define DOC_UNLIMITED UINT64_MAX

struct doc_value {
	uint64_t bytes;
	bool known;
};

/* The user a session is for; name NULL means "any user". */
struct doc_user {
	const char *name;
	uid_t uid;
	gid_t gid;     /* primary group */
	gid_t *groups; /* every gid, the primary included */
	size_t n_groups;
};

/* Looks NAME up through NSS.  Returns 0, -ESRCH (unknown), -ENOMEM, or
 * -EIO (the database could not be read).  Free with doc_user_free. */
int doc_user_lookup(const char *name, struct doc_user *out);
void doc_user_free(struct doc_user *user);

/* Whose pam_limits the system runs (doc_limits_models[] describes each). */
enum doc_limits_model {
	DOC_LIMITS_UPSTREAM,
	DOC_LIMITS_DEBIAN,	/* Debian's from 1.7.0: Debian 13 */
	DOC_LIMITS_DEBIAN_PID1, /* Debian's before 1.7.0: Debian 12 */
	DOC_LIMITS_COUNT
};

struct doc_limits_model_info {
	const char *name; /* in doctor's JSON */
	const char *text; /* in doctor's text */
	bool pid1_first;  /* every session starts from PID 1's limits */
	bool root_exempt; /* "*" and group lines skip root */
};

extern const struct doc_limits_model_info doc_limits_models[DOC_LIMITS_COUNT];

/* pam_limits' ranks: the lower, the stronger. */
enum doc_limits_rank {
	DOC_RANK_USER = 0,    /* the user's name, or a uid range */
	DOC_RANK_GROUP = 1,   /* @group, or a gid range */
	DOC_RANK_DEFAULT = 4, /* "*" */
	DOC_RANK_KERNEL = 5,  /* PID 1's limits (set_all, Debian) */
	DOC_RANK_NONE = 6,    /* not set */
};

struct doc_limits_side {
	struct doc_value value;
	enum doc_limits_rank rank;
	const char *file; /* the deciding line, NULL for none */
	unsigned line;
};

struct doc_limits_request {
	const char *root;
	const char *conf;		 /* conf= (then limits.d is not read), or NULL */
	bool set_all;			 /* Debian's model, or the set_all argument */
	bool root_exempt;		 /* Debian's: "*" and group lines skip root */
	enum doc_libpam_dialect dialect; /* how lines are read */
	const struct doc_user *user;
	struct doc_value pid1_soft, pid1_hard;
	struct doc_value soft, hard; /* the session's limits before pam_limits */
};

struct doc_limits_result {
	bool sets;   /* pam_limits calls setrlimit(RLIMIT_MEMLOCK) */
	bool exempt; /* a matching "<domain> -" line: it sets nothing */
	const char *exempt_file;
	unsigned exempt_line;
	struct doc_limits_side soft, hard; /* the session's limits after it */
	/* Without a user: the first memlock line that only some users match. */
	bool depends_on_user;
	const char *user_file;
	unsigned user_line;
	/* The first problem: a file it cannot read (pam_limits then fails the
	 * session), or a memlock line it skips as invalid. */
	bool failed; /* pam_limits returns an error */
	const char *problem_file;
	unsigned problem_line;
	char problem[256];
	/* The files read, in order; the pointers above point into them. */
	char **files;
	size_t n_files;
};

/* Returns 0 with *out filled (free with doc_limits_free), or -ENOMEM. */
int doc_limits_eval(const struct doc_limits_request *request,
		    struct doc_limits_result *out);
void doc_limits_free(struct doc_limits_result *result);

/*
 * Parses a /proc/PID/limits text for "Max locked memory".  Returns 0 and
 * the two values, or -EINVAL when the line is not there.
 */
int doc_parse_proc_limits(const char *text, struct doc_value *soft,
			  struct doc_value *hard);

#endif
