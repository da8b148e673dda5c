/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * One session path, step by step: where the session starts, each module of
 * the walked stack that can change memlock (modules.c), the user manager's
 * default for systemd-user, then the verdict and the fix.
 */
#include "path.h"

#include <stdio.h>
#include <string.h>

#include "modules.h"

#define FIX_LINE "session optional pam_memlock.so"

/* Said where a unit is read: PAM sets the sessions a daemon opens, never
 * the daemon's own limit, and a database using io_uring is one. */
#define SERVICE_NOTE                                                                     \
	" (the service's own processes, such as PostgreSQL's with io_uring, never pass " \
	"through PAM: their limit is LimitMEMLOCK= in the unit)"
#define OPENRC_NOTE                                                                    \
	" (the service's own processes never pass through PAM: they keep this start, " \
	"which rc_ulimit in /etc/conf.d sets)"

/*
 * The stacks of login screens, which a display manager runs under its own
 * system user (gdm's greeter and gnome-initial-setup, lightdm's and sddm's
 * greeters).  No user's program runs in those sessions: what a user runs
 * starts in the session of gdm-password, lightdm, sddm or their autologin
 * stacks, which are checked as any other.  So a greeter's stack without
 * pam_memlock is told as what it is, and no fix is asked for; where it
 * does include the shared file that carries the line, it is ok as any
 * other path, and a stack that fails is still an error (no login screen).
 */
static const char *const greeters[] = {
	"gdm-launch-environment",
	"lightdm-greeter",
	"sddm-greeter",
	NULL,
};

/* Is UNIT a daemon that opens sessions for others (sshd, cron, getty),
 * not one whose own process is the session (the user manager, run0's
 * transient service)? */
static bool opens_sessions_for_others(const char *unit)
{
	static const char *const own_session[] = { "user@.service", "run-.service", NULL };

	return unit != NULL && !doc_name_listed(own_session, unit);
}

static const struct doc_handler *last_own_line(const struct doc_stack *st)
{
	const struct doc_handler *last = NULL;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->file != NULL && strcmp(st->h[i].file, st->file) == 0)
			last = &st->h[i];
	return last;
}

/*
 * Where the line goes in a stack that runs no pam_limits: the last line
 * the stack reads of a shared file, where the family keeps its common
 * session there (openSUSE's common-session files have had no pam_limits
 * since 2024), else the service's own last line.
 */
static const struct doc_handler *no_limits_place(const struct doctor *d,
						 const struct doc_stack *st)
{
	const struct doc_handler *last = NULL;
	size_t i;

	if (doc_families[d->os.family].shared_without_limits)
		for (i = 0; i < st->n; i++)
			if (st->h[i].file != NULL &&
			    doc_family_manages(d->os.family, st->h[i].file))
				last = &st->h[i];
	return last != NULL ? last : last_own_line(st);
}

/* Does the stack read any of the files the family's tool manages? */
static bool reaches_shared(const struct doctor *d, const struct doc_stack *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->h[i].file != NULL && doc_family_manages(d->os.family, st->h[i].file))
			return true;
	return false;
}

/*
 * Debian's route for a stack that includes common-session with no
 * pam_limits after it: enabling the package's pam-auth-update profile
 * puts the line there (a hand edit of a file the tool writes is one it
 * then asks about).  A pam_limits after the shared file (sshd, cron)
 * would override that line: those get their own edit.
 */
static bool profile_would_cover(const struct doctor *d, const struct doc_stack *st,
				const struct doc_handler *limits_ran)
{
	size_t i;

	if (d->os.family != DOC_FAMILY_DEBIAN || !d->profile_shipped)
		return false;
	for (i = 0; i < st->n; i++)
		if (st->h[i].file != NULL && doc_family_manages(d->os.family, st->h[i].file))
			return limits_ran == NULL || limits_ran < &st->h[i];
	return false;
}

static void tool_fix(struct doc_path *p)
{
	p->fix_is_tool = true;
	snprintf(p->fix, sizeof(p->fix),
		 "run `pam-auth-update --enable memlock`: the package's profile is installed but not enabled, and enabling it adds the line to common-session and common-session-noninteractive, which this stack includes with no pam_limits after them");
}

/* Every line the fix adds names a module libpam cannot load yet. */
static void install_first(struct doc_path *p)
{
	char fix[DOC_MSG_MAX];

	if (p->verdict == DOC_V_ERROR && strstr(p->problem, "module pam_memlock.so is not found")) {
		snprintf(p->fix, sizeof(p->fix),
			 "install pam_memlock.so: %.400s:%u names it, but it is in none of the module directories, so libpam logs \"PAM unable to dlopen\" for it",
			 p->problem_file, p->problem_line);
		return;
	}
	snprintf(fix, sizeof(fix), "%s", p->fix);
	snprintf(p->fix, sizeof(p->fix),
		 "install pam_memlock.so first: it is in none of the module directories, so any line naming it only makes libpam log \"PAM unable to dlopen\"; then %.700s",
		 fix);
}

void doc_check_path(const struct doctor *d, const char *service, struct doc_path *p,
		    struct doc_stack *st)
{
	const struct doc_handler *overrider = NULL, *memlock_seen = NULL, *limits_ran = NULL;
	const struct doc_handler *dry_run_seen = NULL;
	struct doc_value soft, hard;
	struct doc_start start;
	struct doc_step *s;
	bool last_is_memlock = false, user_conf_overrides = false;
	struct doc_setting user_conf;
	char text[128];
	size_t i;

	memset(p, 0, sizeof(*p));
	p->service = service;
	p->file = st->file;
	p->verdict = DOC_V_OK;

	/* Where the session starts. */
	if (d->init.kind == DOC_INIT_OPENRC)
		doc_openrc_start(d->root, service, &start);
	else
		doc_session_start(d->root, service, &start);
	p->unit = start.unit;
	soft = start.value.soft;
	hard = start.value.hard;
	if (!start.value.set)
		soft.known = hard.known = false;
	s = doc_add_step(p, start.value.file, start.value.line,
			 start.unit != NULL ? start.unit : "caller");
	doc_pair_text(soft, hard, text, sizeof(text));
	snprintf(s->effect, sizeof(s->effect), "start: %.600s: %s%s", start.value.what, text,
		 !opens_sessions_for_others(start.unit)		? ""
		 : d->init.kind != DOC_INIT_OPENRC		? SERVICE_NOTE
		 : strncmp(start.unit, "/etc/init.d/", 12) == 0 ? OPENRC_NOTE
								: "");
	s->soft = soft;
	s->hard = hard;

	for (i = 0; i < st->n_problems; i++)
		doc_set_error(p, st->problems[i].file, st->problems[i].line, st->problems[i].message);
	if (st->session_fails && p->verdict != DOC_V_ERROR)
		doc_set_error(p, st->file, 0, "the session stack fails on the success path: no session opens");

	for (i = 0; i < st->n; i++) {
		const struct doc_handler *h = &st->h[i];
		bool memlock = strcmp(h->name, "pam_memlock") == 0;
		bool limits = strcmp(h->name, "pam_limits") == 0;

		if (h->assumed) {
			struct doc_step *n = doc_add_step(p, h->file, h->line, h->name);

			p->depends_on_user = true;
			if (n != NULL) {
				snprintf(n->effect, sizeof(n->effect), "%s",
					 "a condition on the user or the session's items: doctor takes it to hold, so what follows depends on the user");
				n->soft = soft;
				n->hard = hard;
			}
		}
		if (h->kind != DOC_H_MODULE || (!memlock && !limits))
			continue;
		if (!h->ran) {
			struct doc_step *n = doc_add_step(p, h->file, h->line, h->name);

			if (n != NULL) {
				snprintf(n->effect, sizeof(n->effect), "%s",
					 h->found ? "does not run: the controls before it skip it"
						  : "not installed: does not run");
				n->soft = soft;
				n->hard = hard;
			}
			continue;
		}
		if (memlock) {
			size_t before = p->n_steps;

			doc_run_memlock(d, p, h, &soft, &hard, &last_is_memlock);
			/* With dry_run it runs but applies nothing. */
			if (p->n_steps > before && p->steps[before].changes)
				memlock_seen = h;
			else if (p->n_steps > before)
				dry_run_seen = h;
		} else {
			limits_ran = h;
			doc_run_limits(d, p, h, &soft, &hard, &last_is_memlock, &overrider);
		}
	}

	/* The user manager gives the user's services its own default. */
	if (strcmp(service, "systemd-user") == 0 && d->init.kind != DOC_INIT_OPENRC) {
		doc_user_manager_default(d->root, &user_conf);
		if (user_conf.set) {
			struct doc_value u_soft = user_conf.soft, u_hard = user_conf.hard;
			bool clamped = false;

			/* The manager runs as the user: it cannot raise its hard
			 * limit, and systemd then sets the closest it can, each
			 * side at most the manager's hard limit. */
			if (hard.known && u_hard.known && u_hard.bytes > hard.bytes) {
				clamped = true;
				u_hard.bytes = hard.bytes;
				if (u_soft.known && u_soft.bytes > hard.bytes)
					u_soft.bytes = hard.bytes;
			}
			user_conf_overrides = !(u_soft.known && u_hard.known && soft.known &&
						u_soft.bytes == soft.bytes && u_hard.bytes == hard.bytes);
			s = doc_add_step(p, user_conf.file, user_conf.line, "user.conf");
			if (s != NULL) {
				soft = u_soft;
				hard = u_hard;
				s->changes = user_conf_overrides;
				s->soft = soft;
				s->hard = hard;
				doc_pair_text(soft, hard, text, sizeof(text));
				snprintf(s->effect, sizeof(s->effect), "%s: %s: %s", user_conf.what,
					 !clamped ? "the user's services get this, not the session's"
					 : user_conf_overrides
						 ? "above the manager's hard limit, so the user's services get the closest the manager can set"
						 : "above the manager's hard limit, so the user's services keep the session's",
					 text);
			} else {
				soft = u_soft;
				hard = u_hard;
			}
		}
	}
	p->soft = soft;
	p->hard = hard;

	if (p->verdict == DOC_V_ERROR) {
		/* A refused policy file has given its own fix already. */
		if (!p->has_fix && p->problem_line > 0)
			snprintf(p->fix, sizeof(p->fix), "correct %.400s:%u: %.500s", p->problem_file,
				 p->problem_line, p->problem);
		else if (!p->has_fix)
			snprintf(p->fix, sizeof(p->fix), "correct %.400s: %.500s",
				 p->problem_file[0] != '\0' ? p->problem_file : "the stack",
				 p->problem);
		p->has_fix = true;
	} else if (memlock_seen == NULL && doc_name_listed(greeters, service)) {
		p->verdict = DOC_V_GREETER;
	} else if (memlock_seen == NULL) {
		const struct doc_handler *after = limits_ran != NULL ? limits_ran
								     : no_limits_place(d, st);

		p->verdict = DOC_V_MISSING;
		p->has_fix = true;
		if (dry_run_seen != NULL && dry_run_seen->file != NULL)
			snprintf(p->fix, sizeof(p->fix), "remove dry_run from %.500s line %u",
				 dry_run_seen->file, dry_run_seen->line);
		else if (profile_would_cover(d, st, limits_ran))
			tool_fix(p);
		else if (after != NULL)
			doc_family_fix(d->root, d->os.family, FIX_LINE, after->file, after->line,
				       after == limits_ran ? "pam_limits" : NULL,
				       reaches_shared(d, st), p->fix, sizeof(p->fix));
		else
			snprintf(p->fix, sizeof(p->fix), "add \"%s\" to %s", FIX_LINE,
				 st->file != NULL ? st->file : "/etc/pam.d/other");
	} else if (user_conf_overrides) {
		p->verdict = DOC_V_OVERRIDDEN;
		p->has_fix = true;
		snprintf(p->fix, sizeof(p->fix),
			 "remove DefaultLimitMEMLOCK= from %.500s line %u, so that the user's services keep the session's limit",
			 user_conf.file, user_conf.line);
	} else if (!last_is_memlock && overrider != NULL) {
		p->verdict = DOC_V_OVERRIDDEN;
		p->has_fix = true;
		doc_family_fix(d->root, d->os.family, FIX_LINE, overrider->file, overrider->line,
			       "pam_limits", reaches_shared(d, st), p->fix, sizeof(p->fix));
	}
	if (p->has_fix && !d->module_installed)
		install_first(p);
}
