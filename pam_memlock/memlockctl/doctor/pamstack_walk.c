/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The walk of a resolved stack, as libpam's dispatcher runs it. */
#include "pamstack.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

enum impression {
	IMP_UNDEF,
	IMP_POSITIVE,
	IMP_NEGATIVE
};

/* pam_succeed_if's options, skipped wherever they stand (case-sensitive). */
static const char *const succeed_if_flags[] = {
	"debug",
	"use_uid",
	"quiet",
	"quiet_fail",
	"quiet_success",
	"audit",
	NULL
};

/* Its fields that name the user or a session item: unknown to doctor. */
static const char *const succeed_if_user_fields[] = {
	"login",
	"name",
	"user",
	"uid",
	"gid",
	"shell",
	"home",
	"dir",
	"homedir",
	"ruser",
	"rhost",
	"tty",
	NULL
};

/* Its numeric tests, as the signs of (left - right) each accepts: they
 * fail to parse on a service name that is not a number. */
static const struct {
	const char *symbol, *word;
	unsigned accepts; /* 1: less, 2: equal, 4: greater */
} succeed_if_numeric[] = {
	{ "<", "lt", 1 },
	{ "<=", "le", 3 },
	{ ">", "gt", 4 },
	{ ">=", "ge", 6 },
	{ "eq", "eq", 2 },
	{ "ne", "ne", 5 },
};

/* Its tests on the user, whatever the field names. */
static const char *const succeed_if_on_user[] = {
	"ingroup",
	"notingroup",
	"innetgr",
	"notinnetgr",
	NULL
};

/* Every test it knows besides those. */
static const char *const succeed_if_tests[] = {
	"<",
	"lt",
	"<=",
	"le",
	">",
	"gt",
	">=",
	"ge",
	"eq",
	"=",
	"ne",
	"!=",
	"=~",
	"glob",
	"!~",
	"noglob",
	"in",
	"notin",
	NULL
};

static bool listed_nocase(const char *const *names, const char *word)
{
	for (; *names != NULL; names++)
		if (strcasecmp(*names, word) == 0)
			return true;
	return false;
}

/* pam_succeed_if's "in": WORD is one of LIST's colon-separated items,
 * found as it finds it (a WORD holding a colon may match two items). */
static bool in_list(const char *word, const char *list)
{
	size_t len = strlen(word);
	const char *p;

	while ((p = strstr(list, word)) != NULL) {
		if (p == list || p[-1] == ':') {
			p += len;
			if (*p == '\0' || *p == ':')
				return true;
		}
		list = strchr(p, ':');
		if (list == NULL)
			return false;
		list++;
	}
	return false;
}

static bool number(const char *s, long long *out)
{
	char *end;

	*out = strtoll(s, &end, 0);
	return *s != '\0' && *end == '\0';
}

/* One condition on the service: DOC_RET_SUCCESS, _AUTH_ERR or _SERVICE_ERR. */
static int service_condition(const char *service, const char *test, const char *value)
{
	long long l, r;
	bool holds;

	for (size_t i = 0; i < N_OF(succeed_if_numeric); i++) {
		if (strcasecmp(test, succeed_if_numeric[i].symbol) != 0 &&
		    strcasecmp(test, succeed_if_numeric[i].word) != 0)
			continue;
		if (!number(service, &l) || !number(value, &r))
			return DOC_RET_SERVICE_ERR;
		holds = succeed_if_numeric[i].accepts & (l < r ? 1u : l == r ? 2u
									     : 4u);
		return holds ? DOC_RET_SUCCESS : DOC_RET_AUTH_ERR;
	}
	if (strcasecmp(test, "=") == 0 || strcasecmp(test, "!=") == 0) {
		holds = (strcmp(service, value) == 0) == (test[0] == '=');
	} else if (strcasecmp(test, "=~") == 0 || strcasecmp(test, "glob") == 0) {
		holds = fnmatch(value, service, 0) == 0;
	} else if (strcasecmp(test, "!~") == 0 || strcasecmp(test, "noglob") == 0) {
		holds = fnmatch(value, service, 0) != 0;
	} else if (strcasecmp(test, "in") == 0 || strcasecmp(test, "notin") == 0) {
		holds = in_list(service, value) == (strcasecmp(test, "in") == 0);
	} else {
		return DOC_RET_SERVICE_ERR; /* it fails closed */
	}
	return holds ? DOC_RET_SUCCESS : DOC_RET_AUTH_ERR;
}

/*
 * What pam_succeed_if returns for SERVICE with ARGS: its conditions, three
 * words each, in order, the first that does not hold deciding; one it
 * cannot parse, or an incomplete one, a service error.  A condition on the
 * user or a session item is taken to hold, and *ASSUMED set, as doctor
 * knows neither; so is one written with libpam's [ ] quoting.
 */
static int succeed_if(const char *args, const char *service, bool *assumed)
{
	char *copy = strdup(args), *cursor = copy, *word[3];
	size_t n = 0;
	int ret = DOC_RET_SUCCESS;

	if (copy == NULL || strchr(args, '[') != NULL) {
		free(copy);
		*assumed = true;
		return DOC_RET_SUCCESS;
	}
	for (char *tok; (tok = strsep(&cursor, " \t\n")) != NULL;) {
		bool flag = false;

		if (*tok == '\0')
			continue;
		for (size_t f = 0; succeed_if_flags[f] != NULL && !flag; f++)
			flag = strcmp(succeed_if_flags[f], tok) == 0;
		if (flag)
			continue;
		word[n++] = tok;
		if (n < 3)
			continue;
		n = 0;
		if (listed_nocase(succeed_if_user_fields, word[0]) ||
		    strcasecmp(word[0], "service") == 0) {
			if (listed_nocase(succeed_if_on_user, word[1]) ||
			    strcasecmp(word[0], "service") != 0) {
				/* A test it does not know fails whatever the user. */
				if (!listed_nocase(succeed_if_on_user, word[1]) &&
				    !listed_nocase(succeed_if_tests, word[1])) {
					ret = DOC_RET_SERVICE_ERR;
					break;
				}
				*assumed = true;
				continue;
			}
			ret = service_condition(service, word[1], word[2]);
		} else {
			ret = DOC_RET_SERVICE_ERR; /* an unknown field */
		}
		if (ret != DOC_RET_SUCCESS)
			break;
	}
	if (ret == DOC_RET_SUCCESS && n > 0)
		ret = DOC_RET_SERVICE_ERR; /* an incomplete condition */
	free(copy);
	return ret;
}

static int return_of(const struct doc_stack *s, struct doc_handler *h)
{
	if (h->kind == DOC_H_MUST_FAIL)
		return DOC_RET_PERM_DENIED;
	if (!h->found)
		return DOC_RET_MODULE_UNKNOWN;
	if (strcmp(h->name, "pam_succeed_if") == 0)
		return succeed_if(h->args, s->service, &h->assumed);
	/* pam_deny is the one stock module that always fails. */
	return strcmp(h->name, "pam_deny") == 0 ? DOC_RET_SESSION_ERR : DOC_RET_SUCCESS;
}

void doc_stack_walk(struct doc_stack *s)
{
	struct {
		enum impression impression;
		int status;
	} saved[DOC_INCLUDE_DEPTH_MAX + 2];
	enum impression impression = IMP_UNDEF;
	int status = DOC_RET_PERM_DENIED;
	unsigned prev_level = 0, level = 0;
	size_t i;

	/* pam_start failed: no session opens, nothing runs. */
	if (s->start_fails) {
		s->session_fails = true;
		return;
	}
	saved[0].impression = impression;
	saved[0].status = status;
	/* Like libpam, remember the level a handler had before any jump. */
	for (i = 0; i < s->n; prev_level = level, i++) {
		struct doc_handler *h = &s->h[i];
		int ret, action;

		level = h->level;

		if (prev_level < level && level < N_OF(saved)) {
			saved[level].impression = impression;
			saved[level].status = status;
		}
		if (h->kind == DOC_H_SUBSTACK)
			continue;
		ret = return_of(s, h);
		s->depends_on_user = s->depends_on_user || h->assumed;
		h->ran = h->kind == DOC_H_MODULE && h->found;
		action = h->actions[ret];
		switch (action) {
		case DOC_ACT_RESET:
			if (level < N_OF(saved)) {
				impression = saved[level].impression;
				status = saved[level].status;
			}
			break;
		case DOC_ACT_OK:
		case DOC_ACT_DONE:
			if (impression == IMP_UNDEF ||
			    (impression == IMP_POSITIVE && status == DOC_RET_SUCCESS)) {
				impression = IMP_POSITIVE;
				status = ret;
			}
			if (impression == IMP_POSITIVE && action == DOC_ACT_DONE)
				goto decided;
			break;
		case DOC_ACT_BAD:
		case DOC_ACT_DIE:
			if (impression != IMP_NEGATIVE) {
				impression = IMP_NEGATIVE;
				status = ret;
			}
			if (action == DOC_ACT_DIE)
				goto decided;
			break;
		case DOC_ACT_IGNORE:
			break;
		default:
			/* Jump over ACTION handlers of this level; a substack
			 * counts as one, and a jump never leaves its substack. */
			while (i + 1 < s->n && s->h[i + 1].level >= level && action > 0) {
				do {
					i++;
				} while (i + 1 < s->n && s->h[i + 1].level > level);
				action--;
			}
			if (action > 0) {
				impression = IMP_NEGATIVE;
				status = DOC_RET_PERM_DENIED;
			}
			break;
		}
		continue;
	decided:
		while (i + 1 < s->n && s->h[i + 1].level >= level)
			i++;
	}
	s->session_fails = !(impression == IMP_POSITIVE && status == DOC_RET_SUCCESS);
}
