/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "limits.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rootfs.h"

#define LIMITS_CONF "/etc/security/limits.conf"
#define LIMITS_DIR "/etc/security/limits.d"

int doc_user_lookup(const char *name, struct doc_user *out)
{
	struct passwd *pw;
	int n = 32;

	memset(out, 0, sizeof(*out));
	errno = 0;
	pw = getpwnam(name);
	if (pw == NULL)
		return errno == 0 || errno == ENOENT || errno == ESRCH ? -ESRCH : -EIO;
	out->name = name;
	out->uid = pw->pw_uid;
	out->gid = pw->pw_gid;
	for (;;) {
		gid_t *groups = malloc((size_t)n * sizeof(gid_t));
		int got = n;

		if (groups == NULL)
			return -ENOMEM;
		if (getgrouplist(name, out->gid, groups, &got) >= 0) {
			out->groups = groups;
			out->n_groups = (size_t)got;
			return 0;
		}
		free(groups);
		if (got <= n)
			return -EIO;
		n = got;
	}
}

void doc_user_free(struct doc_user *user)
{
	free(user->groups);
	user->groups = NULL;
	user->n_groups = 0;
}

static bool in_gid(const struct doc_user *user, gid_t gid)
{
	size_t i;

	if (user->gid == gid)
		return true;
	for (i = 0; i < user->n_groups; i++)
		if (user->groups[i] == gid)
			return true;
	return false;
}

static bool in_group_named(const struct doc_user *user, const char *group)
{
	struct group *gr = getgrnam(group);

	return gr != NULL && in_gid(user, gr->gr_gid);
}

/* pam_limits' uid and gid ranges: "A:B", ":B" (exactly B), "A:". */
enum range {
	RANGE_NONE,
	RANGE_ONE,
	RANGE_MIN,
	RANGE_MM,
	RANGE_ERR
};

static enum range parse_range(const char *domain, unsigned long *min, unsigned long *max)
{
	const char *colon = strchr(domain, ':'), *r = domain;
	enum range kind = RANGE_MM;
	char *end;

	if (colon == NULL)
		return RANGE_NONE;
	if (*r == '@' || *r == '%')
		r++;
	if (*r == ':') {
		kind = RANGE_ONE;
	} else {
		errno = 0;
		*min = strtoul(r, &end, 10);
		if (errno != 0 || end == r || *end != ':')
			return RANGE_ERR;
	}
	if (colon[1] == '\0')
		return kind == RANGE_ONE ? RANGE_ERR : RANGE_MIN;
	errno = 0;
	*max = strtoul(colon + 1, &end, 10);
	if (errno != 0 || *end != '\0')
		return RANGE_ERR;
	if (kind == RANGE_ONE)
		*min = *max;
	return kind;
}

static bool in_range(enum range kind, unsigned long id, unsigned long min, unsigned long max)
{
	switch (kind) {
	case RANGE_ONE:
		return id == max;
	case RANGE_MM:
		return id >= min && id <= max;
	case RANGE_MIN:
		return id >= min;
	default:
		return false;
	}
}

struct eval {
	const struct doc_limits_request *rq;
	struct doc_limits_result *out;
	const char *file;
};

static void note_problem(struct eval *e, unsigned line, bool fails, const char *fmt,
			 const char *what) __attribute__((format(printf, 4, 0)));

static void note_problem(struct eval *e, unsigned line, bool fails, const char *fmt,
			 const char *what)
{
	if (fails)
		e->out->failed = true;
	if (e->out->problem_file != NULL)
		return;
	e->out->problem_file = e->file;
	e->out->problem_line = line;
	snprintf(e->out->problem, sizeof(e->out->problem), fmt, what);
}

/* What pam_limits' process_limit does with one matching memlock line. */
static void apply_line(struct eval *e, unsigned line, enum doc_limits_rank rank,
		       const char *type, const char *value)
{
	struct doc_limits_result *out = e->out;
	bool soft = strcmp(type, "soft") == 0 || strcmp(type, "-") == 0;
	bool hard = strcmp(type, "hard") == 0 || strcmp(type, "-") == 0;
	uint64_t bytes;

	if (!soft && !hard) {
		note_problem(e, line, false, "memlock line with type \"%s\" (not soft, hard or -): pam_limits skips it",
			     type);
		return;
	}
	if (strcmp(value, "-1") == 0 || strcmp(value, "-") == 0 ||
	    strcmp(value, "unlimited") == 0 || strcmp(value, "infinity") == 0) {
		bytes = DOC_UNLIMITED;
	} else {
		char *end;
		unsigned long long n = strtoull(value, &end, 10);

		if (n == 0 && end == value) {
			note_problem(e, line, false, "memlock value \"%s\" is not a number: pam_limits skips the line",
				     value);
			return;
		}
		/* Kilobytes; pam_limits saturates to unlimited. */
		bytes = n >= DOC_UNLIMITED / 1024 ? DOC_UNLIMITED : (uint64_t)n * 1024;
	}
	/* As pam_limits: a stronger soft side ends the line, hard side too. */
	if (soft) {
		if (out->soft.rank < rank)
			return;
		out->soft = (struct doc_limits_side){ { bytes, true }, rank, e->file, line };
	}
	if (hard) {
		if (out->hard.rank < rank)
			return;
		out->hard = (struct doc_limits_side){ { bytes, true }, rank, e->file, line };
	}
}

/* Lines that depend on who logs in, when no user is given. */
static void depends(struct eval *e, unsigned line)
{
	if (!e->out->depends_on_user) {
		e->out->depends_on_user = true;
		e->out->user_file = e->file;
		e->out->user_line = line;
	}
}

/* One file; false when pam_limits stops (an exempting line matched). */
static bool parse_file(struct eval *e, const struct doc_text *text)
{
	const struct doc_user *user = e->rq->user;
	size_t pos = 0;
	unsigned lineno = 0;

	while (pos < text->len) {
		char buf[1024], f[4][1024], *hash;
		size_t end = pos, len;
		unsigned long min = 0, max = 0;
		enum range range;
		int n, i;

		while (end < text->len && text->data[end] != '\n')
			end++;
		len = end - pos < sizeof(buf) - 1 ? end - pos : sizeof(buf) - 1;
		memcpy(buf, text->data + pos, len);
		buf[len] = '\0';
		pos = end + 1;
		lineno++;
		hash = strchr(buf, '#');
		if (hash != NULL)
			*hash = '\0';
		n = sscanf(buf, "%1023s %1023s %1023s %1023s", f[0], f[1], f[2], f[3]);
		if (n < 2)
			continue;
		for (i = 1; i < n; i++) {
			char *c;

			for (c = f[i]; *c != '\0'; c++)
				*c = (char)tolower((unsigned char)*c);
		}
		range = parse_range(f[0], &min, &max);
		if (range == RANGE_ERR)
			continue; /* pam_limits skips it with a warning */
		if (n == 4) {
			enum doc_limits_rank rank;

			if (strcmp(f[2], "memlock") != 0)
				continue;
			if (user == NULL) {
				/* "*" holds for everyone but root; the rest is per user. */
				if (strcmp(f[0], "*") == 0)
					apply_line(e, lineno, DOC_RANK_DEFAULT, f[1], f[3]);
				else if (f[0][0] != '%')
					depends(e, lineno);
				continue;
			}
			if (strcmp(f[0], user->name) == 0) {
				rank = DOC_RANK_USER;
			} else if (f[0][0] == '@') {
				/* Not for root: limits.conf(5). */
				if (user->uid == 0)
					continue;
				if (range == RANGE_NONE	 ? !in_group_named(user, f[0] + 1)
				    : range == RANGE_ONE ? !in_gid(user, (gid_t)max)
							 : !in_range(range, user->gid, min, max))
					continue;
				rank = DOC_RANK_GROUP;
			} else if (f[0][0] == '%') {
				continue; /* maxlogins only */
			} else if (range == RANGE_NONE) {
				if (strcmp(f[0], "*") != 0 || user->uid == 0)
					continue;
				rank = DOC_RANK_DEFAULT;
			} else {
				if (!in_range(range, user->uid, min, max))
					continue;
				rank = DOC_RANK_USER;
			}
			apply_line(e, lineno, rank, f[1], f[3]);
		} else if (n == 2 && f[1][0] == '-') {
			bool match;

			if (user == NULL) {
				if (f[0][0] == '@' || range != RANGE_NONE || strcmp(f[0], "*") != 0)
					depends(e, lineno);
				continue;
			}
			if (strcmp(f[0], user->name) == 0)
				match = true;
			else if (f[0][0] == '@')
				match = range == RANGE_NONE  ? in_group_named(user, f[0] + 1)
					: range == RANGE_ONE ? in_gid(user, (gid_t)max)
							     : in_range(range, user->gid, min, max);
			else
				match = range != RANGE_NONE && in_range(range, user->uid, min, max);
			if (match) {
				e->out->exempt = true;
				e->out->exempt_file = e->file;
				e->out->exempt_line = lineno;
				return false;
			}
		}
	}
	return true;
}

static int add_file(struct doc_limits_result *out, char *path)
{
	char **grown = realloc(out->files, (out->n_files + 1) * sizeof(char *));

	if (grown == NULL || path == NULL) {
		free(path);
		if (grown != NULL)
			out->files = grown;
		return -ENOMEM;
	}
	out->files = grown;
	out->files[out->n_files++] = path;
	return 0;
}

int doc_limits_eval(const struct doc_limits_request *rq, struct doc_limits_result *out)
{
	struct eval e = { .rq = rq, .out = out };
	size_t i;
	char **names = NULL;
	size_t n_names = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (rq->set_all) {
		out->soft = (struct doc_limits_side){ rq->pid1_soft, DOC_RANK_KERNEL, NULL, 0 };
		out->hard = (struct doc_limits_side){ rq->pid1_hard, DOC_RANK_KERNEL, NULL, 0 };
	} else {
		out->soft = (struct doc_limits_side){ rq->soft, DOC_RANK_NONE, NULL, 0 };
		out->hard = (struct doc_limits_side){ rq->hard, DOC_RANK_NONE, NULL, 0 };
	}
	rc = add_file(out, strdup(rq->conf != NULL ? rq->conf : LIMITS_CONF));
	if (rc < 0)
		return rc;
	if (rq->conf == NULL) {
		rc = doc_list_dir(rq->root, LIMITS_DIR, ".conf", &names, &n_names);
		if (rc == -ENOMEM)
			return rc;
		for (i = 0; i < n_names && rc == 0; i++) {
			char *p = malloc(strlen(LIMITS_DIR) + strlen(names[i]) + 2);

			if (p != NULL)
				sprintf(p, "%s/%s", LIMITS_DIR, names[i]);
			rc = add_file(out, p);
		}
		doc_names_free(names, n_names);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < out->n_files; i++) {
		struct doc_text text;

		e.file = out->files[i];
		rc = doc_read(rq->root, e.file, &text);
		if (rc == -ENOMEM)
			return rc;
		if (rc < 0) {
			/* pam_limits fails the session, and sets nothing. */
			note_problem(&e, 0, true, "cannot read it (%s): pam_limits fails the session",
				     strerror(-rc));
			out->soft = (struct doc_limits_side){ rq->soft, DOC_RANK_NONE, NULL, 0 };
			out->hard = (struct doc_limits_side){ rq->hard, DOC_RANK_NONE, NULL, 0 };
			return 0;
		}
		if (!parse_file(&e, &text)) {
			doc_text_free(&text);
			out->soft = (struct doc_limits_side){ rq->soft, DOC_RANK_NONE, NULL, 0 };
			out->hard = (struct doc_limits_side){ rq->hard, DOC_RANK_NONE, NULL, 0 };
			return 0;
		}
		doc_text_free(&text);
	}
	out->sets = out->soft.rank != DOC_RANK_NONE || out->hard.rank != DOC_RANK_NONE;
	/* pam_limits lowers soft to hard before setrlimit. */
	if (out->sets && out->soft.value.known && out->hard.value.known &&
	    out->soft.value.bytes > out->hard.value.bytes)
		out->soft.value.bytes = out->hard.value.bytes;
	return 0;
}

void doc_limits_free(struct doc_limits_result *result)
{
	size_t i;

	for (i = 0; i < result->n_files; i++)
		free(result->files[i]);
	free(result->files);
	result->files = NULL;
	result->n_files = 0;
}

int doc_parse_proc_limits(const char *text, struct doc_value *soft, struct doc_value *hard)
{
	const char *line = strstr(text, "Max locked memory");
	char s[32], h[32];

	if (line == NULL ||
	    sscanf(line + strlen("Max locked memory"), "%31s %31s", s, h) != 2)
		return -EINVAL;
	soft->known = hard->known = true;
	soft->bytes = strcmp(s, "unlimited") == 0 ? DOC_UNLIMITED : strtoull(s, NULL, 10);
	hard->bytes = strcmp(h, "unlimited") == 0 ? DOC_UNLIMITED : strtoull(h, NULL, 10);
	return 0;
}
