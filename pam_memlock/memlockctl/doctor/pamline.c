/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "pamline.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* libpam 1.5's line buffer, fgets(3) into it, a piece at a time. */
#define V15_BUF 1024

/* The bytes libpam's tokenizer splits on: no \r, \v or \f. */
#define DELIMITERS " \n\t"

/* --- Lines. */

/*
 * Scans back from END over blanks and newlines, as both readers do; true
 * when the first other byte is a backslash, which *at then points to.
 */
static bool ends_continued(char *start, char *end, char **at)
{
	char *s = end;

	while (s > start && (*--s == ' ' || *s == '\t' || *s == '\n'))
		;
	*at = s;
	return s < end && *s == '\\';
}

/* pam_handlers.c's _pam_assemble_line, up to Linux-PAM 1.5.3. */
static int next_line_15(struct doc_reader *r, char **line, unsigned *first)
{
	const struct dirfd_text *t = r->text;
	char buf[V15_BUF];
	size_t p = 0, used = 0;

	for (;;) {
		size_t take = 0, room;
		char *s, *os, *hash;
		unsigned here = r->lineno + 1;

		if (p >= V15_BUF)
			return DOC_READ_FAILS; /* libpam: "overflow" */
		/* fgets with room for one byte reads nothing and returns an
		 * empty string, which libpam skips as blank, and asks again. */
		room = V15_BUF - p - 1;
		if (room == 0)
			return DOC_READ_HANGS;
		if (r->pos >= t->len)
			return used > 0 ? DOC_READ_FAILS : 0;
		while (take < room && r->pos + take < t->len && t->data[r->pos + take] != '\n')
			take++;
		if (take < room && r->pos + take < t->len)
			take++; /* the newline */
		memcpy(buf + p, t->data + r->pos, take);
		buf[p + take] = '\0';
		r->pos += take;
		if (buf[p + take - 1] == '\n')
			r->lineno++;

		s = buf + p + strspn(buf + p, DELIMITERS);
		if (*s == '\0' || *s == '#')
			continue; /* nothing in this piece: read the next one here */
		if (used == 0)
			*first = here;
		os = s;
		hash = strchr(os, '#');
		if (hash != NULL) {
			*hash = '\0';
			used += strlen(os);
			break;
		}
		if (ends_continued(os, os + strlen(os), &s)) {
			*s++ = ' ';
			*s = '\0';
			used += strlen(os);
			p = (size_t)(s - buf);
			continue;
		}
		used += strlen(os);
		break;
	}
	*line = strdup(buf);
	return *line != NULL ? 1 : DOC_READ_NOMEM;
}

/* Appends [START, END) to *A (its length *LEN), as pam_line.c does. */
static bool append(char **a, size_t *len, const char *start, const char *end)
{
	size_t n = (size_t)(end - start);
	char *grown;

	if (n == 0)
		return true;
	grown = realloc(*a, *len + n + 1);
	if (grown == NULL)
		return false;
	memcpy(grown + *len, start, n);
	*len += n;
	grown[*len] = '\0';
	*a = grown;
	return true;
}

/* pam_line.c's _pam_line_assemble, from Linux-PAM 1.6.0 on. */
static int next_line_16(struct doc_reader *r, char **line, unsigned *first)
{
	const struct dirfd_text *t = r->text;
	char *a = NULL, *chunk = NULL;
	size_t alen = 0;
	int ret = 0;

	for (;;) {
		size_t start = r->pos, n;
		char *st, *end, *at;
		bool continued, eol;

		if (r->pos >= t->len) {
			free(a);
			free(chunk);
			return ret ? DOC_READ_FAILS : 0;
		}
		while (r->pos < t->len && t->data[r->pos] != '\n')
			r->pos++;
		if (r->pos < t->len)
			r->pos++;
		n = r->pos - start;
		free(chunk);
		chunk = malloc(n + 1);
		if (chunk == NULL)
			goto nomem;
		memcpy(chunk, t->data + start, n);
		chunk[n] = '\0';
		r->lineno++;

		st = chunk;
		end = chunk + n;
		continued = ends_continued(st, end, &at);
		if (continued) {
			*at = ' ';
			*++at = '\0';
			end = at;
		}
		eol = !continued || strchr(st, '#') != NULL;
		st += strspn(st, " \t");
		st[strcspn(st, "#")] = '\0';
		if (!eol || a != NULL || (*st != '\0' && *st != '\n')) {
			if (!append(&a, &alen, st, end))
				goto nomem;
			if (a != NULL && *first == 0)
				*first = r->lineno;
		}
		if (!eol) {
			ret = 1;
			continue;
		}
		if (a != NULL && a[0] != '\0') {
			free(chunk);
			*line = a;
			return 1;
		}
		free(a);
		a = NULL;
		alen = 0;
		*first = 0;
		ret = 0;
	}
nomem:
	free(a);
	free(chunk);
	return DOC_READ_NOMEM;
}

int doc_next_line(struct doc_reader *r, char **line, unsigned *first)
{
	*line = NULL;
	*first = 0;
	return r->dialect == DOC_LIBPAM_1_5 ? next_line_15(r, line, first)
					    : next_line_16(r, line, first);
}

/* --- Tokens. */

char *doc_token(char **cursor)
{
	char *from = *cursor, *end;

	if (from == NULL)
		return NULL;
	from += strspn(from, DELIMITERS);
	if (*from == '[') {
		/* One token, without its brackets; "\]" inside stands for ']'. */
		char *to;

		for (to = end = ++from; *end != '\0' && *end != ']'; ++to, ++end) {
			if (*end == '\\' && end[1] == ']')
				++end;
			if (to != end)
				*to = *end;
		}
		if (to != end)
			*to = '\0';
	} else if (*from != '\0') {
		end = from + strcspn(from, DELIMITERS);
	} else {
		*cursor = NULL;
		return NULL;
	}
	if (*end != '\0')
		*end++ = '\0';
	*cursor = *end != '\0' ? end : NULL;
	return from;
}

/* --- Controls. */

/*
 * libpam's return names in its own order (pam_tokens.h), which decides a
 * match by prefix; the four that the walk tells apart mapped, the rest -1.
 * "default" last.
 */
static const struct {
	const char *name;
	int ret;
} return_names[] = {
	{ "success", DOC_RET_SUCCESS },
	{ "open_err", -1 },
	{ "symbol_err", -1 },
	{ "service_err", DOC_RET_SERVICE_ERR },
	{ "system_err", -1 },
	{ "buf_err", -1 },
	{ "perm_denied", DOC_RET_PERM_DENIED },
	{ "auth_err", DOC_RET_AUTH_ERR },
	{ "cred_insufficient", -1 },
	{ "authinfo_unavail", -1 },
	{ "user_unknown", -1 },
	{ "maxtries", -1 },
	{ "new_authtok_reqd", -1 },
	{ "acct_expired", -1 },
	{ "session_err", DOC_RET_SESSION_ERR },
	{ "cred_unavail", -1 },
	{ "cred_expired", -1 },
	{ "cred_err", -1 },
	{ "no_module_data", -1 },
	{ "conv_err", -1 },
	{ "authtok_err", -1 },
	{ "authtok_recover_err", -1 },
	{ "authtok_lock_busy", -1 },
	{ "authtok_disable_aging", -1 },
	{ "try_again", -1 },
	{ "ignore", -1 },
	{ "abort", -1 },
	{ "authtok_expired", -1 },
	{ "module_unknown", DOC_RET_MODULE_UNKNOWN },
	{ "bad_item", -1 },
	{ "conv_again", -1 },
	{ "incomplete", -1 },
	{ "default", -2 },
};

/* Actions in libpam's order: the index is minus the action. */
static const char *const action_names[] = { "ignore", "ok", "done", "bad", "die", "reset" };

const struct doc_simple_control doc_simple_controls[] = {
	{ "required", DOC_ACT_OK, DOC_ACT_BAD },
	{ "requisite", DOC_ACT_OK, DOC_ACT_DIE },
	{ "optional", DOC_ACT_OK, DOC_ACT_IGNORE },
	{ "sufficient", DOC_ACT_DONE, DOC_ACT_IGNORE },
};

const size_t doc_n_simple_controls = N_OF(doc_simple_controls);

static void set_undefined(int actions[DOC_RET_COUNT], int action)
{
	int r;

	for (r = 0; r < DOC_RET_COUNT; r++)
		if (actions[r] == DOC_ACT_UNDEF)
			actions[r] = action;
}

static bool balk(int actions[DOC_RET_COUNT], char *bad, size_t bad_len, const char *what,
		 const char *at)
{
	int r;

	snprintf(bad, bad_len, "%s at \"%.40s\"", what, at);
	for (r = 0; r < DOC_RET_COUNT; r++)
		actions[r] = DOC_ACT_BAD;
	return false;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

bool doc_parse_control(const char *tok, int actions[DOC_RET_COUNT], char *bad, size_t bad_len)
{
	size_t i, len = 0;
	int r;

	for (r = 0; r < DOC_RET_COUNT; r++)
		actions[r] = DOC_ACT_UNDEF;
	while (*(tok = skip_space(tok)) != '\0') {
		int ret, action;

		for (i = 0; i < N_OF(return_names); i++) {
			len = strlen(return_names[i].name);
			if (strncmp(return_names[i].name, tok, len) == 0)
				break;
		}
		if (i == N_OF(return_names) || tok[len] == '\0')
			return balk(actions, bad, bad_len, "expecting a return value", tok);
		ret = return_names[i].ret;
		tok = skip_space(tok + len);
		if (*tok != '=')
			return balk(actions, bad, bad_len, "expecting '='", tok);
		tok = skip_space(tok + 1);
		if (*tok == '\0')
			return balk(actions, bad, bad_len, "expecting an action", tok);
		for (i = 0; i < N_OF(action_names); i++) {
			len = strlen(action_names[i]);
			if (strncmp(action_names[i], tok, len) == 0)
				break;
		}
		if (i < N_OF(action_names)) {
			action = -(int)i;
			tok += len;
		} else {
			long n = 0;

			if (!isdigit((unsigned char)*tok))
				return balk(actions, bad, bad_len, "expecting a jump number", tok);
			while (isdigit((unsigned char)*tok) && n <= INT_MAX)
				n = n * 10 + (*tok++ - '0');
			if (n == 0 || n > INT_MAX)
				return balk(actions, bad, bad_len,
					    n == 0 ? "expecting a jump other than 0" : "expecting a smaller jump",
					    tok);
			action = (int)n;
		}
		if (ret == -2)
			set_undefined(actions, action);
		else if (ret >= 0)
			actions[ret] = action;
	}
	set_undefined(actions, DOC_ACT_BAD);
	return true;
}
