/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "pamline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The return codes a [value=action] control may name.  Only four matter to
 * the walk; the rest are accepted so that a valid control is not an error. */
static const struct {
	const char *name;
	int ret; /* enum doc_ret, or -1 */
} return_names[] = {
	{ "success", DOC_RET_SUCCESS },
	{ "session_err", DOC_RET_SESSION_ERR },
	{ "perm_denied", DOC_RET_PERM_DENIED },
	{ "module_unknown", DOC_RET_MODULE_UNKNOWN },
	{ "open_err", -1 },
	{ "symbol_err", -1 },
	{ "service_err", -1 },
	{ "system_err", -1 },
	{ "buf_err", -1 },
	{ "auth_err", -1 },
	{ "cred_insufficient", -1 },
	{ "authinfo_unavail", -1 },
	{ "user_unknown", -1 },
	{ "maxtries", -1 },
	{ "new_authtok_reqd", -1 },
	{ "acct_expired", -1 },
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
	{ "bad_item", -1 },
	{ "conv_again", -1 },
	{ "incomplete", -1 },
};

static const struct {
	const char *name;
	int action;
} action_names[] = {
	{ "ignore", DOC_ACT_IGNORE },
	{ "ok", DOC_ACT_OK },
	{ "done", DOC_ACT_DONE },
	{ "bad", DOC_ACT_BAD },
	{ "die", DOC_ACT_DIE },
	{ "reset", DOC_ACT_RESET },
};

/* The simple controls, as libpam spells them out. */
const struct doc_simple_control doc_simple_controls[] = {
	{ "required", DOC_ACT_OK, DOC_ACT_BAD },
	{ "requisite", DOC_ACT_OK, DOC_ACT_DIE },
	{ "optional", DOC_ACT_OK, DOC_ACT_IGNORE },
	{ "sufficient", DOC_ACT_DONE, DOC_ACT_IGNORE },
};

const size_t doc_n_simple_controls = sizeof(doc_simple_controls) / sizeof(doc_simple_controls[0]);

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

char *doc_next_line(const struct doc_text *text, size_t *pos, unsigned *lineno,
		    unsigned *first, bool *oom)
{
	char *out = NULL;
	size_t len = 0, cap = 0;
	bool started = false;

	*oom = false;
	while (*pos < text->len) {
		size_t start = *pos, end = start, keep_len;
		bool continued;

		while (end < text->len && text->data[end] != '\n')
			end++;
		*pos = end < text->len ? end + 1 : end;
		(*lineno)++;
		keep_len = strnlen(text->data + start, end - start);
		{
			const char *hash = memchr(text->data + start, '#', keep_len);

			if (hash != NULL)
				keep_len = (size_t)(hash - (text->data + start));
		}
		continued = keep_len > 0 && text->data[start + keep_len - 1] == '\\' &&
			    keep_len == strnlen(text->data + start, end - start);
		if (continued)
			keep_len--;
		if (!started)
			*first = *lineno;
		started = true;
		if (len + keep_len + 2 > cap) {
			char *grown;

			cap = len + keep_len + 64;
			grown = realloc(out, cap);
			if (grown == NULL) {
				free(out);
				*oom = true;
				return NULL;
			}
			out = grown;
		}
		memcpy(out + len, text->data + start, keep_len);
		len += keep_len;
		out[len++] = ' ';
		out[len] = '\0';
		if (continued)
			continue;
		/* Blank lines are skipped, as libpam skips them. */
		if (strspn(out, " \t\r\v\f") == len) {
			len = 0;
			out[0] = '\0';
			started = false;
			continue;
		}
		return out;
	}
	/* The end: a last line still continued, or only blank ones. */
	if (out != NULL && strspn(out, " \t\r\v\f") == len) {
		free(out);
		out = NULL;
	}
	return out;
}

/* Splits off the next token: a bracketed control is one token. */
char *doc_token(char **cursor)
{
	char *s = *cursor, *start;

	s += strspn(s, " \t\r\v\f\n");
	if (*s == '\0') {
		*cursor = s;
		return NULL;
	}
	start = s;
	if (*s == '[') {
		char *close = strchr(s, ']');

		s = close != NULL ? close + 1 : s + strlen(s);
	} else {
		s += strcspn(s, " \t\r\v\f\n");
	}
	if (*s != '\0')
		*s++ = '\0';
	*cursor = s;
	return start;
}

/* "[success=2 default=ignore]" into ACTIONS; false when libpam would balk. */
bool doc_parse_control(const char *control, int actions[DOC_RET_COUNT],
		       char *bad, size_t bad_len)
{
	char *copy = strdup(control), *cursor, *item;
	int deflt = DOC_ACT_UNDEF;
	bool ok = true;
	size_t i;
	int r;

	if (copy == NULL)
		return false;
	for (r = 0; r < DOC_RET_COUNT; r++)
		actions[r] = DOC_ACT_UNDEF;
	cursor = copy + 1;
	if (strchr(cursor, ']') != NULL)
		*strchr(cursor, ']') = '\0';
	else
		ok = false;
	while (ok && (item = doc_token(&cursor)) != NULL) {
		char *eq = strchr(item, '='), *end;
		int ret = -2, action = DOC_ACT_UNDEF;

		if (eq == NULL) {
			ok = false;
			snprintf(bad, bad_len, "\"%s\" is not value=action", item);
			break;
		}
		*eq = '\0';
		if (strcasecmp(item, "default") == 0)
			ret = -3;
		for (i = 0; i < N_OF(return_names) && ret == -2; i++)
			if (strcasecmp(item, return_names[i].name) == 0)
				ret = return_names[i].ret;
		for (i = 0; i < N_OF(action_names); i++)
			if (strcasecmp(eq + 1, action_names[i].name) == 0)
				action = action_names[i].action;
		if (action == DOC_ACT_UNDEF) {
			long n = strtol(eq + 1, &end, 10);

			if (eq[1] >= '1' && eq[1] <= '9' && *end == '\0' && n > 0 && n < 1000000)
				action = (int)n;
		}
		if (ret == -2 || action == DOC_ACT_UNDEF) {
			ok = false;
			snprintf(bad, bad_len, "\"%s=%s\" names no %s", item, eq + 1,
				 ret == -2 ? "return value" : "action");
			break;
		}
		if (ret == -3)
			deflt = action;
		else if (ret >= 0)
			actions[ret] = action;
	}
	/* libpam: what the control leaves unset is the default, else bad. */
	for (r = 0; r < DOC_RET_COUNT; r++)
		if (actions[r] == DOC_ACT_UNDEF)
			actions[r] = deflt != DOC_ACT_UNDEF ? deflt : DOC_ACT_BAD;
	free(copy);
	return ok;
}
