/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What each module that can change RLIMIT_MEMLOCK does at its step:
 * pam_memlock answered by the same pml_evaluate call as `explain`, and
 * pam_limits by its model (limits.c).
 */
#include "modules.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apply.h"
#include "evaluate.h"
#include "dirfd/dirfd.h"

/* Raise mode is right to keep a higher start; a policy meant as a cap
 * is not one, and nothing else would say so.  Named where the mode is to
 * be given: the rule that decides, or the top level. */
#define KEPT_HIGHER                                                              \
	" (raise mode leaves the session's higher limit: the policy is no cap; " \
	"mode = \"set\" makes it one, %s%s)"

/* A name no account has: the policy's answer for "any user". */
#define ANY_USER "(any user)"

/* raise: max(current, target); set: target.  pml_plan decides where both
 * are known; an unknown current stays unknown under raise unless the
 * target is unlimited. */
static void plan(enum pml_mode mode, struct doc_value *soft, struct doc_value *hard,
		 uint64_t t_soft, uint64_t t_hard)
{
	struct pml_limits cur = { soft->bytes, hard->bytes }, target = { t_soft, t_hard }, got;

	got = pml_plan(mode, cur, target);
	if (mode == PML_MODE_SET || soft->known)
		soft->known = true, soft->bytes = got.soft;
	else if (t_soft == PML_UNLIMITED)
		soft->known = true, soft->bytes = PML_UNLIMITED;
	if (mode == PML_MODE_SET || hard->known)
		hard->known = true, hard->bytes = got.hard;
	else if (t_hard == PML_UNLIMITED)
		hard->known = true, hard->bytes = PML_UNLIMITED;
}

/* --- pam_memlock, through pml_evaluate. */

/* "FILE:LINE: message" -> its parts; false when it names no file. */
static bool split_located(const char *message, char *file, size_t flen, unsigned *line,
			  const char **rest)
{
	const char *p = message;

	if (message[0] != '/')
		return false;
	while ((p = strchr(p, ':')) != NULL) {
		char *end;
		unsigned long n = strtoul(p + 1, &end, 10);

		if (end != p + 1 && *end == ':') {
			snprintf(file, flen, "%.*s", (int)(p - message), message);
			*line = (unsigned)n;
			*rest = end + 1 + (end[1] == ' ');
			return true;
		}
		p++;
	}
	return false;
}

/* How the module's refusal of a whole file is undone, by its reason. */
static const struct {
	const char *why; /* the start of the reason, as the loader gives it */
	const char *fix; /* %s: the file */
} refusals[] = {
	{ "is writable by group or others", "run `chmod go-w %s`" },
	{ "is empty", "remove the empty file %s (or give it a comment)" },
	{ "is not owned by root", "run `chown root %s`" },
};

/*
 * "FILE: refused: WHY" (a policy file or drop-in the loader will not
 * read, which makes the module refuse the whole policy and set nothing
 * in any session): the error is FILE's, and so is the fix.  False when
 * MESSAGE is no such refusal.
 */
static bool refused_file(const struct doctor *d, struct doc_path *p, const char *message)
{
	const char *mark = strstr(message, ": refused: ");
	char file[DOC_PATH_MAX], msg[DOC_MSG_MAX], fix[DOC_MSG_MAX];
	const char *why, *shown;
	size_t i;

	if (message[0] != '/' || mark == NULL)
		return false;
	why = mark + strlen(": refused: ");
	snprintf(file, sizeof(file), "%.*s", (int)(mark - message), message);
	shown = doc_shown(d, file);
	snprintf(msg, sizeof(msg), "refused: %s; the module then refuses the whole policy and sets no limit in any session",
		 why);
	for (i = 0; i < N_OF(refusals); i++)
		if (strncmp(why, refusals[i].why, strlen(refusals[i].why)) == 0)
			break;
	if (i == N_OF(refusals))
		return false;
	if (p->verdict == DOC_V_ERROR)
		return true;
	doc_set_error(p, shown, 0, msg);
	snprintf(fix, sizeof(fix), refusals[i].fix, shown);
	snprintf(p->fix, sizeof(p->fix), "%s", fix);
	p->has_fix = true;
	return true;
}

/* --- Classes of users (path.h): made-up members, no NSS lookup. */

/* Can RULE match a session of SERVICE, and does it tell users apart? */
static bool tells_users_apart(const struct pml_rule *r, const char *service)
{
	return r->units.n == 0 && (r->users.n > 0 || r->groups.n > 0 || r->n_uids > 0) &&
	       (r->services.n == 0 || pml_names_contain(&r->services, service));
}

/* A uid in no rule's range, for a member whose class names none: each
 * step goes below a range that held the last, so the ranges bound it. */
static uid_t uid_no_rule_names(const struct pml_policy *policy)
{
	uint32_t uid = UINT32_MAX - 1;
	size_t i, j, steps;

	for (steps = 0; steps <= policy->n_rules; steps++) {
		bool moved = false;

		for (i = 0; i < policy->n_rules; i++)
			for (j = 0; j < policy->rules[i].n_uids; j++)
				if (policy->rules[i].uids[j].first <= uid &&
				    uid <= policy->rules[i].uids[j].last &&
				    policy->rules[i].uids[j].first > 0) {
					uid = policy->rules[i].uids[j].first - 1;
					moved = true;
				}
		if (!moved)
			break;
	}
	return uid;
}

/*
 * A made-up member of RULE's class: the rule's first user name, uid and
 * group, and no other group, so that it matches RULE and any later rule
 * it must (one on the same name), none it need not.  GROUP holds the
 * identity's one group; nothing of the identity is its own to free.
 */
static void class_identity(const struct pml_policy *policy, const struct pml_rule *r,
			   const char *service, char **group, struct pml_identity *id)
{
	group[0] = r->groups.n > 0 ? (char *)r->groups.v[0] : NULL;
	*id = (struct pml_identity){
		.user = r->users.n > 0 ? r->users.v[0] : ANY_USER,
		.service = service,
		.looked_up = true,
		.uid_known = true,
		.uid = r->n_uids > 0 ? r->uids[0].first : uid_no_rule_names(policy),
		.groups = group[0] != NULL ? group : NULL,
		.n_groups = group[0] != NULL,
	};
}

/* "members of group hpc (rule FILE:LINE)", by the keys RULE has. */
static void class_name(const struct pml_policy *policy, const struct pml_rule *r, char *buf,
		       size_t len)
{
	char at[PML_DESCRIBE_MAX], uids[64] = "";

	pml_describe_at(policy, r->at, at, sizeof(at));
	if (r->n_uids > 0)
		snprintf(uids, sizeof(uids), "uid %u", (unsigned)r->uids[0].first);
	if (r->users.n > 0)
		snprintf(buf, len, "user %.100s (rule %.300s)", r->users.v[0], at);
	else if (r->groups.n > 0)
		snprintf(buf, len, "members of group %.100s%s%s (rule %.300s)", r->groups.v[0],
			 uids[0] != '\0' ? " with " : "", uids, at);
	else
		snprintf(buf, len, "users of %s (rule %.300s)", uids, at);
}

/* The policy as the module reads it, without deciding for anyone. */
static int load_policy(const struct doctor *d, const char *conf, const struct pml_request *rq,
		       const struct pml_log *log, struct pml_evaluation *e)
{
	struct pml_from from = { .in_dir = conf[0] == '/' };
	int rc;

	*e = (struct pml_evaluation){ .identity = { .user = NULL } };
	if (from.in_dir)
		from.dir_fd = dirfd_open_parent(d->root, conf);
	rc = pml_load_from(&rq->source, &from, NULL, log, &e->policy, &e->machine);
	if (from.in_dir && from.dir_fd >= 0)
		close(from.dir_fd);
	return rc;
}

/* Without a user: the rules of POLICY whose classes P is checked for
 * again. */
static void list_classes(struct doc_path *p, const struct pml_policy *policy)
{
	size_t i;

	p->n_class_rules = 0;
	for (i = 0; i < policy->n_rules; i++) {
		if (!tells_users_apart(&policy->rules[i], p->service))
			continue;
		if (p->n_class_rules == N_OF(p->class_rules)) {
			p->classes_truncated = true;
			break;
		}
		p->class_rules[p->n_class_rules++] = (unsigned)i;
	}
}

/* pml_evaluate for a made-up member of the class of rule d->class_rule,
 * or (-1) for a user no rule names: in no group a rule names, with a uid
 * in no rule's range. */
static int evaluate_class(const struct doctor *d, struct doc_path *p, const char *conf,
			  const struct pml_request *rq, const struct pml_log *log,
			  struct pml_evaluation *e)
{
	const struct pml_rule *r;
	char *group[1];
	int rc = load_policy(d, conf, rq, log, e);

	if (rc < 0)
		return rc;
	if (d->class_rule < 0) {
		e->identity = (struct pml_identity){
			.user = ANY_USER,
			.service = rq->service,
			.looked_up = true,
			.uid_known = true,
			.uid = uid_no_rule_names(&e->policy),
		};
	} else if ((size_t)d->class_rule < e->policy.n_rules) {
		r = &e->policy.rules[d->class_rule];
		class_identity(&e->policy, r, rq->service, group, &e->identity);
		class_name(&e->policy, r, p->who, sizeof(p->who));
	} else {
		/* The file changed between the two reads. */
		pml_policy_free(&e->policy);
		return -ESTALE;
	}
	pml_decide(&e->policy, &e->identity, &e->machine, &e->decision);
	e->identity = (struct pml_identity){ .user = NULL };
	return 0;
}

void doc_run_memlock(const struct doctor *d, struct doc_path *p, const struct doc_handler *h,
		     struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock)
{
	const struct cli_options *o = d->options;
	struct pml_evaluation e;
	struct pml_request rq;
	struct doc_first_error cap = { "" };
	struct pml_log log = {
		.emit = doc_first_error_emit,
		.ctx = &cap,
		.max_priority = LOG_WARNING,
	};
	struct doc_step *s = doc_add_step(p, h->file, h->line, "pam_memlock");
	char *conf_arg, *conf, text[128], target[128], whom[DOC_CLASS_MAX + 16];
	bool conf_given, dry_run, present, capped = false;
	int rc;

	if (s == NULL)
		return;
	conf_arg = doc_arg_value(h->args, "conf", &present);
	conf_given = conf_arg != NULL || o->source.given;
	free(doc_arg_value(h->args, "dry_run", &dry_run));
	conf = strdup(conf_arg != NULL ? conf_arg : o->source.path);
	free(conf_arg);
	if (conf == NULL) {
		doc_set_error(p, h->file, h->line, "out of memory");
		return;
	}
	/* The same request the module's session code makes, the policy's
	 * directory opened inside the root (the module refuses a relative
	 * name: so does the loader, given it as it is). */
	rq = (struct pml_request){
		.source = { .path = conf, .given = conf_given, .owner = 0 },
		.user = d->have_user ? d->user.name : ANY_USER,
		.service = p->service,
	};
	if (!d->have_user) {
		/* Made-up members: doctor looks no one up who does not exist. */
		rc = evaluate_class(d, p, conf, &rq, &log, &e);
	} else if (conf[0] == '/') {
		const struct pml_from from = {
			.in_dir = true,
			.dir_fd = dirfd_open_parent(d->root, conf),
		};

		rc = pml_evaluate_from(&rq, &from, NULL, &log, &e);
		if (from.dir_fd >= 0)
			close(from.dir_fd);
	} else {
		rc = pml_evaluate(&rq, &log, &e);
	}
	if (!d->have_user && d->class_rule < 0 && rc == 0)
		list_classes(p, &e.policy);
	if (rc < 0) {
		char file[DOC_PATH_MAX], msg[DOC_MSG_MAX];
		const char *rest;
		unsigned line = 0;

		if (split_located(cap.text, file, sizeof(file), &line, &rest)) {
			snprintf(msg, sizeof(msg), "the policy is refused: %s", rest);
			doc_set_error(p, doc_shown(d, file), line, msg);
		} else if (refused_file(d, p, cap.text)) {
			/* The fix is the file's, already given. */
		} else {
			snprintf(msg, sizeof(msg), "the policy %s is refused: %s", doc_shown(d, conf),
				 cap.text[0] != '\0' ? cap.text : strerror(-rc));
			doc_set_error(p, h->file, h->line, msg);
		}
		snprintf(s->effect, sizeof(s->effect), "fails: %.900s", p->problem);
		s->soft = *soft;
		s->hard = *hard;
		free(conf);
		return;
	} else {
		const struct pml_decision *dec = &e.decision;

		if (dec->rule != NULL)
			pml_describe_at(&e.policy, dec->rule->at, s->rule, sizeof(s->rule));

		doc_pair_text((struct doc_value){ dec->soft.bytes, true },
			      (struct doc_value){ dec->hard.bytes, true }, target, sizeof(target));
		if (!d->have_user && e.policy.n_rules > 0)
			p->depends_on_user = true;
		if (dry_run) {
			snprintf(s->effect, sizeof(s->effect),
				 "dry_run: computes %s (%s) and changes nothing", target,
				 pml_mode_name(dec->mode->mode));
		} else {
			struct doc_value had = *hard;

			plan(dec->mode->mode, soft, hard, dec->soft.bytes, dec->hard.bytes);
			/* Without CAP_SYS_RESOURCE the hard limit cannot rise: the
			 * module keeps it and takes the soft one as far as it goes. */
			if (d->cap_known && !d->cap_resource && had.known &&
			    (!hard->known || hard->bytes > had.bytes)) {
				*hard = had;
				if (soft->known && soft->bytes > had.bytes)
					soft->bytes = had.bytes;
				capped = true;
			}
			s->changes = true;
			s->kept_higher = (soft->known && soft->bytes > dec->soft.bytes) ||
					 (hard->known && hard->bytes > dec->hard.bytes);
			doc_pair_text(*soft, *hard, text, sizeof(text));
			if (p->who[0] != '\0')
				snprintf(whom, sizeof(whom), " (for %s)", p->who);
			else
				snprintf(whom, sizeof(whom), "%s",
					 p->depends_on_user ? " (for users no rule names)" : "");
			snprintf(s->effect, sizeof(s->effect), "%s to %s from %s%s: %s%s",
				 dec->mode->mode == PML_MODE_SET ? "sets" : "raises", target, doc_shown(d, conf),
				 whom, text,
				 capped ? " (no CAP_SYS_RESOURCE in PID 1's bounding set: the hard limit cannot rise, and the soft one stops at it)"
					: "");
			if (s->kept_higher) {
				size_t len = strlen(s->effect);

				snprintf(s->effect + len, sizeof(s->effect) - len, KEPT_HIGHER,
					 s->rule[0] != '\0' ? "in the rule that decides, at " : "at the top level",
					 s->rule);
			}
		}
		pml_evaluation_free(&e);
	}
	free(conf);
	s->soft = *soft;
	s->hard = *hard;
	if (s->changes)
		*last_is_memlock = true;
}

/* --- pam_limits, through the model. */

void doc_run_limits(const struct doctor *d, struct doc_path *p, const struct doc_handler *h,
		    struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock,
		    const struct doc_handler **overrider)
{
	struct doc_limits_request rq;
	struct doc_limits_result r;
	struct doc_step *s = doc_add_step(p, h->file, h->line, "pam_limits");
	char *conf, text[128];
	bool present, set_all;

	if (s == NULL)
		return;
	conf = doc_arg_value(h->args, "conf", &present);
	free(doc_arg_value(h->args, "set_all", &set_all));
	rq = (struct doc_limits_request){
		.root = d->root,
		.conf = conf,
		.set_all = doc_limits_models[d->limits].pid1_first || set_all,
		.root_exempt = doc_limits_models[d->limits].root_exempt,
		.dialect = d->libpam.dialect,
		.user = d->have_user ? &d->user : NULL,
		.pid1_soft = d->pid1_soft,
		.pid1_hard = d->pid1_hard,
		.soft = *soft,
		.hard = *hard,
	};
	if (doc_limits_eval(&rq, &r) < 0) {
		free(conf);
		doc_set_error(p, h->file, h->line, "out of memory");
		return;
	}
	free(conf);
	if (r.problem_file != NULL) {
		char msg[DOC_MSG_MAX];

		snprintf(msg, sizeof(msg), "pam_limits: %s", r.problem);
		doc_set_error(p, r.problem_file, r.problem_line, msg);
	}
	if (r.exempt) {
		snprintf(s->effect, sizeof(s->effect),
			 "%s:%u exempts the user (\"-\"): pam_limits sets no limit", r.exempt_file,
			 r.exempt_line);
	} else if (r.sets) {
		const char *why;

		*soft = r.soft.value;
		*hard = r.hard.value;
		s->changes = true;
		doc_pair_text(*soft, *hard, text, sizeof(text));
		why = r.soft.rank == DOC_RANK_KERNEL && r.hard.rank == DOC_RANK_KERNEL
			      ? (doc_limits_models[d->limits].pid1_first
					 ? "Debian's pam_limits before 1.7.0 copies PID 1's limits"
					 : "set_all copies PID 1's limits")
			      : "memlock lines";
		if (r.soft.file != NULL || r.hard.file != NULL)
			snprintf(s->effect, sizeof(s->effect), "%s (soft from %s:%u, hard from %s:%u): %s",
				 why, r.soft.file != NULL ? r.soft.file : "PID 1", r.soft.line,
				 r.hard.file != NULL ? r.hard.file : "PID 1", r.hard.line, text);
		else
			snprintf(s->effect, sizeof(s->effect), "%s%s: %s", why,
				 d->pid1_soft.known ? "" : " (unknown under --root)", text);
	} else if (r.failed) {
		snprintf(s->effect, sizeof(s->effect), "fails the session: %s:%u: %s",
			 r.problem_file, r.problem_line, r.problem);
	} else {
		snprintf(s->effect, sizeof(s->effect),
			 "no memlock line matches%s: leaves memlock alone",
			 d->have_user ? "" : " users no line names");
	}
	if (r.depends_on_user) {
		size_t len = strlen(s->effect);

		p->depends_on_user = true;
		snprintf(s->effect + len, sizeof(s->effect) - len,
			 "; for some users %s:%u sets memlock", r.user_file, r.user_line);
	}
	s->soft = *soft;
	s->hard = *hard;
	if (s->changes || r.depends_on_user) {
		*last_is_memlock = false;
		*overrider = h;
	}
	doc_limits_free(&r);
}
