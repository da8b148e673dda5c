/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The walk of a resolved stack, as libpam's dispatcher runs it. */
#include "pamstack.h"

#include <string.h>

#include "cli.h"

enum impression {
	IMP_UNDEF,
	IMP_POSITIVE,
	IMP_NEGATIVE
};

static int return_of(const struct doc_handler *h)
{
	if (h->kind == DOC_H_MUST_FAIL)
		return DOC_RET_PERM_DENIED;
	if (!h->found)
		return DOC_RET_MODULE_UNKNOWN;
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
		ret = return_of(h);
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
