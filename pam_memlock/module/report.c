/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The log lines that tell an operator what a session got, and why.  Every
 * name in them goes through pml_quote.
 */
#include "report.h"

#include <stdio.h>

#include "size.h"

#define SIZE_TEXT 64
#define NAME_TEXT 256

struct pair_text {
	char soft[SIZE_TEXT], hard[SIZE_TEXT];
};

static struct pair_text pair(struct pml_limits limits)
{
	struct pair_text text;

	pml_format_size(limits.soft, true, text.soft, sizeof(text.soft));
	pml_format_size(limits.hard, true, text.hard, sizeof(text.hard));
	return text;
}

static void report_side(const struct pml_evaluation *e, const char *name,
			const struct pml_side *side, const struct pml_log *log)
{
	char origin[PML_DESCRIBE_MAX], value[SIZE_TEXT], share[16], exact[SIZE_TEXT];

	pml_describe_origin(&e->policy, side->from, origin, sizeof(origin));
	pml_format_size(side->bytes, true, value, sizeof(value));
	if (side->from->amount.kind != PML_AMOUNT_SHARE) {
		pml_log(log, LOG_DEBUG, "%s %s (%s)", name, value, origin);
		return;
	}
	pml_format_share(side->from->amount.share, share, sizeof(share));
	pml_format_size(side->share_paged, true, exact, sizeof(exact));
	pml_log(log, LOG_DEBUG, "%s %s (%s: %s of %llu bytes RAM is %s%s)", name,
		value, origin, share,
		(unsigned long long)e->machine.ram, exact,
		side->clamp == PML_CLAMP_FLOOR ? ", raised to the floor" : side->clamp == PML_CLAMP_CEILING ? ", held at the ceiling"
													    : "");
}

static void report_decision(const struct pml_evaluation *e, const char *user,
			    const struct pml_log *log)
{
	const struct pml_decision *d = &e->decision;
	char rule[PML_DESCRIBE_MAX], service[NAME_TEXT];

	if (d->rule != NULL)
		pml_describe_at(&e->policy, d->rule->at, rule, sizeof(rule));
	pml_log(log, LOG_DEBUG, "user %s service %s: %s%s decides, mode %s", user,
		pml_quote(e->identity.service ? e->identity.service : "", service,
			  sizeof(service)),
		d->rule != NULL ? "rule " : "no rule matched, top level",
		d->rule != NULL ? rule : "", pml_mode_name(d->mode->mode));
	report_side(e, "soft", &d->soft, log);
	report_side(e, "hard", &d->hard, log);
}

/*
 * Only debug, dry_run and the two warnings log anything.  Most sessions are
 * none of them, and formatting six sizes for nothing would cost more than
 * deciding did.
 */
static bool has_news(const struct pml_decision *d,
		     const struct pml_outcome *outcome, bool dry_run,
		     const struct pml_log *log)
{
	return log->max_priority >= LOG_DEBUG || dry_run ||
	       outcome->hard_refused || d->soft_lowered_to_hard;
}

void pml_report_outcome(const struct pml_evaluation *evaluation,
			const struct pml_outcome *outcome, bool dry_run,
			const struct pml_log *log)
{
	const struct pml_decision *d = &evaluation->decision;
	struct pair_text before, wanted, after;
	char user[NAME_TEXT];

	if (!has_news(d, outcome, dry_run, log))
		return;
	pml_quote(evaluation->identity.user, user, sizeof(user));
	before = pair(outcome->before);
	wanted = pair(outcome->wanted);
	after = pair(outcome->after);
	report_decision(evaluation, user, log);
	if (d->soft_lowered_to_hard) {
		char soft[SIZE_TEXT], hard[SIZE_TEXT];

		pml_format_size(d->soft.wanted, true, soft, sizeof(soft));
		pml_format_size(d->hard.bytes, true, hard, sizeof(hard));
		pml_log(log, LOG_WARNING,
			"user %s: the policy's soft limit (%s) is above its hard limit (%s); soft lowered to %s",
			user, soft, hard, hard);
	}
	if (dry_run) {
		pml_log(log, LOG_NOTICE,
			"dry_run: user %s would get soft %s, hard %s (now soft %s, hard %s); nothing changed",
			user, wanted.soft, wanted.hard, before.soft, before.hard);
	} else if (outcome->hard_refused) {
		pml_log(log, LOG_WARNING,
			"user %s: raising the hard limit needs CAP_SYS_RESOURCE: wanted soft %s, hard %s; got soft %s, hard %s",
			user, wanted.soft, wanted.hard, after.soft, after.hard);
	} else {
		pml_log(log, LOG_DEBUG,
			"user %s: RLIMIT_MEMLOCK soft %s -> %s, hard %s -> %s",
			user, before.soft, after.soft, before.hard, after.hard);
	}
}
