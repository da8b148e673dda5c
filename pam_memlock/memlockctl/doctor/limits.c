/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "limits.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfd/dirfd.h"

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

/* The next record pam_limits reads from TEXT at *POS: a line, or up to
 * 1.5.3 a piece of at most 1,023 bytes of one.  Malloc'd; NULL at the end
 * (*oom on failure).  *LINENO is the physical line it starts on. */
static char *next_record(const struct dirfd_text *text, enum doc_libpam_dialect dialect,
			 size_t *pos, unsigned *lineno, bool *at_line_start, bool *oom)
{
	size_t start = *pos, len = 0, max = dialect == DOC_LIBPAM_1_5 ? 1023 : SIZE_MAX;
	char *record;

	*oom = false;
	if (start >= text->len)
		return NULL;
	while (len < max && start + len < text->len && text->data[start + len] != '\n')
		len++;
	if (len < max && start + len < text->len)
		len++; /* the newline */
	if (*at_line_start)
		(*lineno)++;
	*at_line_start = text->data[start + len - 1] == '\n';
	*pos = start + len;
	record = strndup(text->data + start, len);
	*oom = record == NULL;
	return record;
}

/* The fields of one record, as each release splits them: up to four,
 * in place; returns how many. */
static int split_fields(char *line, enum doc_libpam_dialect dialect, char *f[4])
{
	int n = 0;

	if (dialect == DOC_LIBPAM_1_5) {
		/* sscanf's %s: runs of non-space, any isspace between. */
		while (n < 4) {
			while (isspace((unsigned char)*line))
				line++;
			if (*line == '\0')
				break;
			f[n++] = line;
			while (*line != '\0' && !isspace((unsigned char)*line))
				line++;
			if (*line != '\0')
				*line++ = '\0';
		}
		return n;
	}
	/* strtok_r on " \t" for three, the rest trimmed of blanks for the
	 * value. */
	while (n < 3) {
		line += strspn(line, " \t");
		if (*line == '\0')
			return n;
		f[n++] = line;
		line += strcspn(line, " \t");
		if (*line != '\0')
			*line++ = '\0';
	}
	line += strspn(line, " \t");
	if (*line != '\0') {
		size_t len = strlen(line);

		while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		f[n++] = line;
	}
	return n;
}

static void lower(char *s)
{
	for (; *s != '\0'; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* One line that has a memlock item, for the user or, with none, for any. */
static void memlock_line(struct eval *e, unsigned lineno, char *f[4], enum range range,
			 unsigned long min, unsigned long max)
{
	const struct doc_user *user = e->rq->user;
	bool root = user != NULL && user->uid == 0 && e->rq->root_exempt;
	enum doc_limits_rank rank;

	if (user == NULL) {
		/* "*" holds for everyone (but root, on Debian); the rest is
		 * per user. */
		if (strcmp(f[0], "*") == 0) {
			apply_line(e, lineno, DOC_RANK_DEFAULT, f[1], f[3]);
			if (e->rq->root_exempt)
				depends(e, lineno);
		} else if (f[0][0] != '%') {
			depends(e, lineno);
		}
		return;
	}
	if (strcmp(f[0], user->name) == 0) {
		rank = DOC_RANK_USER;
	} else if (f[0][0] == '@') {
		if (root || (range == RANGE_NONE  ? !in_group_named(user, f[0] + 1)
			     : range == RANGE_ONE ? !in_gid(user, (gid_t)max)
						  : !in_range(range, user->gid, min, max)))
			return;
		rank = DOC_RANK_GROUP;
	} else if (f[0][0] == '%') {
		return; /* maxlogins only */
	} else if (range == RANGE_NONE) {
		if (strcmp(f[0], "*") != 0 || root)
			return;
		rank = DOC_RANK_DEFAULT;
	} else {
		if (!in_range(range, user->uid, min, max))
			return;
		rank = DOC_RANK_USER;
	}
	apply_line(e, lineno, rank, f[1], f[3]);
}

/* A "<domain> -" line: true when it exempts the user (pam_limits stops). */
static bool exempting_line(struct eval *e, unsigned lineno, char *f[4], enum range range,
			   unsigned long min, unsigned long max)
{
	const struct doc_user *user = e->rq->user;
	bool match;

	if (user == NULL) {
		if (f[0][0] == '@' || range != RANGE_NONE || strcmp(f[0], "*") != 0)
			depends(e, lineno);
		return false;
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
	}
	return match;
}

/* One file; false when pam_limits stops (an exempting line matched, or no
 * memory: *oom). */
static bool parse_file(struct eval *e, const struct dirfd_text *text, bool *oom)
{
	bool at_line_start = true, go_on = true;
	unsigned lineno = 0;
	size_t pos = 0;
	char *record;

	while (go_on && (record = next_record(text, e->rq->dialect, &pos, &lineno,
					      &at_line_start, oom)) != NULL) {
		char *line = record, *f[4];
		unsigned long min = 0, max = 0;
		enum range range;
		int n;

		while (isspace((unsigned char)*line))
			line++;
		line[strcspn(line, "#")] = '\0';
		line[strcspn(line, "\n")] = '\0';
		n = split_fields(line, e->rq->dialect, f);
		if (n >= 2) {
			lower(f[1]);
			range = parse_range(f[0], &min, &max);
			/* A bad range: pam_limits skips the line, with a warning. */
			if (range != RANGE_ERR && n == 4) {
				lower(f[2]);
				lower(f[3]);
				if (strcmp(f[2], "memlock") == 0)
					memlock_line(e, lineno, f, range, min, max);
			} else if (range != RANGE_ERR && n == 2 && f[1][0] == '-') {
				go_on = !exempting_line(e, lineno, f, range, min, max);
			}
		}
		free(record);
	}
	return go_on && !*oom;
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
	bool oom = false;
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
		rc = dirfd_list_dir(rq->root, LIMITS_DIR, ".conf", &names, &n_names);
		if (rc == -ENOMEM)
			return rc;
		for (i = 0; i < n_names && rc == 0; i++) {
			char *p = malloc(strlen(LIMITS_DIR) + strlen(names[i]) + 2);

			if (p != NULL)
				sprintf(p, "%s/%s", LIMITS_DIR, names[i]);
			rc = add_file(out, p);
		}
		dirfd_names_free(names, n_names);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < out->n_files; i++) {
		struct dirfd_text text;

		e.file = out->files[i];
		rc = dirfd_read(rq->root, e.file, &text);
		if (rc == -ENOMEM)
			return rc;
		/* From 1.6.0 a default limits.conf that is not there is none. */
		if (rc == -ENOENT && i == 0 && rq->conf == NULL && rq->dialect != DOC_LIBPAM_1_5)
			continue;
		if (rc < 0) {
			/* pam_limits fails the session, and sets nothing. */
			note_problem(&e, 0, true, "cannot read it (%s): pam_limits fails the session",
				     strerror(-rc));
			out->soft = (struct doc_limits_side){ rq->soft, DOC_RANK_NONE, NULL, 0 };
			out->hard = (struct doc_limits_side){ rq->hard, DOC_RANK_NONE, NULL, 0 };
			return 0;
		}
		if (!parse_file(&e, &text, &oom)) {
			dirfd_text_free(&text);
			if (oom)
				return -ENOMEM;
			out->soft = (struct doc_limits_side){ rq->soft, DOC_RANK_NONE, NULL, 0 };
			out->hard = (struct doc_limits_side){ rq->hard, DOC_RANK_NONE, NULL, 0 };
			return 0;
		}
		dirfd_text_free(&text);
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
