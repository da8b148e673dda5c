/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "legal but likely wrong" warnings of `memlockctl check`.  Limits are
 * worked out by pml_resolve, rule by rule, the module's own code, so that
 * these warnings can never disagree with what the module would do.
 */
#include "lint.h"

#include <stdio.h>
#include <string.h>

#define TEXT_MAX 128

static void warn_at(const struct pml_policy *policy, struct pml_origin at,
		    const struct pml_log *log, unsigned *count,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void warn_at(const struct pml_policy *policy, struct pml_origin at,
		    const struct pml_log *log, unsigned *count,
		    const char *fmt, ...)
{
	char message[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	pml_log_at(log, LOG_WARNING, pml_policy_file_name(policy, at), at.line,
		   "warning: %s", message);
	(*count)++;
}

/* --- A rule that never decides ----------------------------------------- */

static bool names_subset(const struct pml_names *small,
			 const struct pml_names *big)
{
	size_t i;

	for (i = 0; i < small->n; i++)
		if (!pml_names_contain(big, small->v[i]))
			return false;
	return true;
}

/* Is every uid of RANGE inside one of LATER's ranges (together)? */
static bool range_covered(struct pml_uid_range range, const struct pml_rule *later)
{
	uint32_t next = range.first;
	size_t i;

	for (;;) {
		for (i = 0; i < later->n_uids; i++)
			if (later->uids[i].first <= next && next <= later->uids[i].last)
				break;
		if (i == later->n_uids)
			return false;
		if (later->uids[i].last >= range.last)
			return true;
		/* last < range.last <= UINT32_MAX - 1: no wrap. */
		next = later->uids[i].last + 1;
	}
}

static bool uids_subset(const struct pml_rule *earlier, const struct pml_rule *later)
{
	size_t i;

	for (i = 0; i < earlier->n_uids; i++)
		if (!range_covered(earlier->uids[i], later))
			return false;
	return true;
}

bool pml_rule_covers(const struct pml_rule *later, const struct pml_rule *earlier)
{
	if (later->users.n > 0 &&
	    (earlier->users.n == 0 || !names_subset(&earlier->users, &later->users)))
		return false;
	if (later->groups.n > 0 &&
	    (earlier->groups.n == 0 || !names_subset(&earlier->groups, &later->groups)))
		return false;
	if (later->services.n > 0 &&
	    (earlier->services.n == 0 ||
	     !names_subset(&earlier->services, &later->services)))
		return false;
	if (later->n_uids > 0 &&
	    (earlier->n_uids == 0 || !uids_subset(earlier, later)))
		return false;
	return true;
}

/* Two lists that both name something, and nothing in common. */
static bool names_disjoint(const struct pml_names *a, const struct pml_names *b)
{
	size_t i;

	if (a->n == 0 || b->n == 0)
		return false;
	for (i = 0; i < a->n; i++)
		if (pml_names_contain(b, a->v[i]))
			return false;
	return true;
}

static bool uids_disjoint(const struct pml_rule *a, const struct pml_rule *b)
{
	size_t i, j;

	if (a->n_uids == 0 || b->n_uids == 0)
		return false;
	for (i = 0; i < a->n_uids; i++)
		for (j = 0; j < b->n_uids; j++)
			if (a->uids[i].first <= b->uids[j].last &&
			    b->uids[j].first <= a->uids[i].last)
				return false;
	return true;
}

/* USERS' rule names users, RANGES' rule uid ranges: does NSS put every
 * one of those users outside the ranges? */
static bool users_outside(const struct pml_rule *users, const struct pml_rule *ranges,
			  const struct pml_lint_names *names)
{
	size_t i;

	if (names == NULL || names->user_uid == NULL || users->users.n == 0 ||
	    ranges->n_uids == 0)
		return false;
	for (i = 0; i < users->users.n; i++) {
		uid_t uid;

		if (names->user_uid(users->users.v[i], &uid, names->ctx) != 1 ||
		    pml_uid_in(ranges, uid))
			return false;
	}
	return true;
}

bool pml_rules_may_overlap(const struct pml_rule *a, const struct pml_rule *b,
			   const struct pml_lint_names *names)
{
	return !names_disjoint(&a->users, &b->users) &&
	       !names_disjoint(&a->services, &b->services) &&
	       !uids_disjoint(a, b) && !users_outside(a, b, names) &&
	       !users_outside(b, a, names);
}

/*
 * How narrow a rule's most specific key is: a user names one account, a
 * group some, a uid range many, a service everyone who uses it.  Policies
 * read top-down as "general first, exceptions after"; a later rule that
 * is broader than an earlier one it overlaps is the usual ordering slip.
 */
static int narrowness(const struct pml_rule *rule)
{
	if (rule->users.n > 0)
		return 4;
	if (rule->groups.n > 0)
		return 3;
	if (rule->n_uids > 0)
		return 2;
	return rule->services.n > 0 ? 1 : 0;
}

/* Do A and B give every session the same limits and mode on MACHINE? */
static bool same_result(const struct pml_policy *policy, const struct pml_rule *a,
			const struct pml_rule *b, const struct pml_machine *machine)
{
	struct pml_decision da, db;

	pml_resolve(policy, a, machine, &da);
	pml_resolve(policy, b, machine, &db);
	return da.soft.bytes == db.soft.bytes && da.hard.bytes == db.hard.bytes &&
	       da.mode->mode == db.mode->mode;
}

/*
 * A rule that a later one hides: wholly (it never decides), or for some
 * sessions (both can match one, the later rule is broader and gives other
 * limits).  Only the first later rule is named, with a count of the
 * others, so that N overlapping rules give N warnings, not N^2.
 */
static void lint_overridden(const struct pml_policy *policy, size_t index,
			    const struct pml_machine *machine,
			    const struct pml_lint_names *names,
			    const struct pml_log *log, unsigned *count)
{
	const struct pml_rule *rule = &policy->rules[index];
	const struct pml_rule *first = NULL;
	char others[64] = "";
	unsigned more = 0;
	size_t j;

	for (j = index + 1; j < policy->n_rules; j++) {
		const struct pml_rule *later = &policy->rules[j];

		if (pml_rule_covers(later, rule)) {
			warn_at(policy, rule->at, log, count,
				"this rule never decides: the later rule at %s:%u matches every session it matches, and the last matching rule wins",
				pml_policy_file_name(policy, later->at), later->at.line);
			return;
		}
		if (narrowness(later) >= narrowness(rule) ||
		    !pml_rules_may_overlap(rule, later, names) ||
		    same_result(policy, rule, later, machine))
			continue;
		if (first == NULL)
			first = later;
		else
			more++;
	}
	if (first == NULL)
		return;
	if (more > 0)
		snprintf(others, sizeof(others), " (and %u more later %s)", more,
			 more == 1 ? "rule" : "rules");
	warn_at(policy, rule->at, log, count,
		"the broader rule at %s:%u%s comes later and decides for the sessions both match (the last matching rule wins): put general rules first and exceptions after them",
		pml_policy_file_name(policy, first->at), first->at.line, others);
}

/* --- Limits worked out on this machine --------------------------------- */

/* One level of the policy (the top level, or one rule), resolved. */
struct level {
	const struct pml_policy *policy;
	const struct pml_rule *rule; /* NULL: the top level */
	struct pml_decision decision;
};

/* Is S written at this level (not inherited from the top or built in)? */
static bool own(const struct level *level, const struct pml_setting *s)
{
	return s != NULL &&
	       s->level == (level->rule != NULL ? PML_LEVEL_RULE : PML_LEVEL_TOP);
}

static bool sets(const struct level *level, enum pml_key key)
{
	return level->rule == NULL || level->rule->settings.v[key].set;
}

static bool is_share(const struct pml_side *side)
{
	return side->from->amount.kind == PML_AMOUNT_SHARE;
}

static void lint_soft_above_hard(const struct level *level,
				 const struct pml_log *log, unsigned *count)
{
	const struct pml_decision *d = &level->decision;
	bool shares = is_share(&d->soft) || is_share(&d->hard);
	char soft[TEXT_MAX], hard[TEXT_MAX];
	struct pml_origin at;

	if (!d->soft_lowered_to_hard)
		return;
	if (level->rule != NULL) {
		/* A rule that touches neither side inherits the top level's
		 * problem, which is reported there. */
		if (!sets(level, PML_KEY_LIMIT) && !sets(level, PML_KEY_SOFT) &&
		    !sets(level, PML_KEY_HARD) &&
		    !(shares && (sets(level, PML_KEY_FLOOR) || sets(level, PML_KEY_CEILING))))
			return;
		at = level->rule->at;
	} else {
		at = level->policy->top.v[PML_KEY_SOFT].set
			     ? level->policy->top.v[PML_KEY_SOFT].at
			     : level->policy->top.v[PML_KEY_HARD].at;
	}
	pml_format_size(d->soft.wanted, false, soft, sizeof(soft));
	pml_format_size(d->hard.bytes, false, hard, sizeof(hard));
	warn_at(level->policy, at, log, count,
		"%s soft limit (%s) is above %s hard limit (%s)%s; sessions get soft lowered to %s",
		level->rule != NULL ? "this rule's" : "the", soft,
		level->rule != NULL ? "its" : "the", hard,
		shares ? " on this machine" : "", hard);
}

static void lint_share_side(const struct level *level, const struct pml_side *side,
			    const struct pml_log *log, unsigned *count)
{
	const struct pml_setting *bound;
	char share[16], came[TEXT_MAX], limit[TEXT_MAX];
	const char *which;

	if (!is_share(side) || side->clamp == PML_CLAMP_NONE)
		return;
	which = side->clamp == PML_CLAMP_FLOOR ? "floor" : "ceiling";
	bound = pml_pick(level->policy, level->rule,
			 side->clamp == PML_CLAMP_FLOOR ? PML_KEY_FLOOR : PML_KEY_CEILING);
	/* Reported where the share or the bound that beats it is written. */
	if (!own(level, side->from) && !own(level, bound))
		return;
	pml_format_share(side->from->amount.share, share, sizeof(share));
	pml_format_size(side->share_paged, false, came, sizeof(came));
	pml_format_size(side->bytes, false, limit, sizeof(limit));
	warn_at(level->policy, own(level, side->from) ? side->from->at : bound->at,
		log, count,
		"%s \"%s\" comes to %s on this machine, %s the %s (%s): the %s decides, not the share",
		pml_key_name(side->from->key), share, came,
		side->clamp == PML_CLAMP_FLOOR ? "below" : "above", which, limit,
		which);
}

static void lint_shares(const struct level *level, const struct pml_log *log,
			unsigned *count)
{
	const struct pml_decision *d = &level->decision;

	lint_share_side(level, &d->soft, log, count);
	/* One setting ("limit") behind both sides: one warning. */
	if (d->hard.from != d->soft.from || d->hard.clamp != d->soft.clamp ||
	    d->soft_lowered_to_hard)
		lint_share_side(level, &d->hard, log, count);
}

/* The kernel's own default before Linux 5.16, sized for GnuPG. */
#define OLD_KERNEL_DEFAULT ((uint64_t)64 << 10)

/*
 * limit, soft or hard of "0", or below the kernel's old default: legal,
 * and almost never meant.  "8192" is 8 KiB here, and 8 MiB in limits.conf,
 * which counts memlock in KiB: a value ported from there gets the unit.
 */
static void lint_small(const struct level *level, const struct pml_log *log,
		       unsigned *count)
{
	static const enum pml_key sides[] = { PML_KEY_LIMIT, PML_KEY_SOFT, PML_KEY_HARD };
	const struct pml_settings *own = level->rule != NULL ? &level->rule->settings
							     : &level->policy->top;
	char shown[TEXT_MAX];
	size_t i;

	for (i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		const struct pml_setting *s = &own->v[sides[i]];
		unsigned long long bytes = s->amount.bytes;

		if (!s->set || s->amount.kind != PML_AMOUNT_BYTES ||
		    bytes >= OLD_KERNEL_DEFAULT)
			continue;
		pml_format_bytes(bytes, shown, sizeof(shown));
		if (bytes == 0)
			warn_at(level->policy, s->at, log, count,
				"%s \"0\": no memory can be locked, so mlock, io_uring and RDMA fail; the kernel's own default is 8 MiB (64 KiB before Linux 5.16)",
				pml_key_name(s->key));
		else if (s->amount.unitless)
			warn_at(level->policy, s->at, log, count,
				"%s \"%llu\" is %s, below the kernel's own default of 64 KiB before Linux 5.16: a size without a unit is in bytes, where limits.conf counts memlock in KiB; did you mean \"%llu KiB\"?",
				pml_key_name(s->key), bytes, shown, bytes);
		else
			warn_at(level->policy, s->at, log, count,
				"%s is %s, below the kernel's own default of 64 KiB before Linux 5.16: mlock, io_uring and RDMA get next to nothing",
				pml_key_name(s->key), shown);
	}
}

/* A rule's floor or ceiling, where both its sides are fixed sizes. */
static void lint_useless_bounds(const struct level *level, const struct pml_log *log,
				unsigned *count)
{
	static const enum pml_key bounds[] = { PML_KEY_FLOOR, PML_KEY_CEILING };
	const struct pml_decision *d = &level->decision;
	size_t i;

	if (level->rule == NULL || is_share(&d->soft) || is_share(&d->hard))
		return;
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const struct pml_setting *s = &level->rule->settings.v[bounds[i]];

		if (s->set)
			warn_at(level->policy, s->at, log, count,
				"%s has no effect: this rule's limits are fixed sizes, and only a share of RAM is held between floor and ceiling",
				pml_key_name(s->key));
	}
}

static void lint_level(const struct pml_policy *policy, const struct pml_rule *rule,
		       const struct pml_machine *machine, const struct pml_log *log,
		       unsigned *count)
{
	struct level level = { .policy = policy, .rule = rule };

	pml_resolve(policy, rule, machine, &level.decision);
	lint_small(&level, log, count);
	lint_soft_above_hard(&level, log, count);
	lint_shares(&level, log, count);
	lint_useless_bounds(&level, log, count);
}

/* --- Names the machine does not know ----------------------------------- */

static bool earlier_in_list(const struct pml_names *names, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (strcmp(names->v[j], names->v[i]) == 0)
			return true;
	return false;
}

static void lint_list(const struct pml_policy *policy, const struct pml_rule *rule,
		      const struct pml_names *list, const char *what,
		      int (*known)(const char *name, void *ctx), void *ctx,
		      const struct pml_log *log, unsigned *count)
{
	char shown[TEXT_MAX];
	size_t i;

	for (i = 0; known != NULL && i < list->n; i++) {
		if (earlier_in_list(list, i) || known(list->v[i], ctx) != 0)
			continue;
		warn_at(policy, rule->at, log, count,
			"%s %s does not exist on this machine", what,
			pml_quote(list->v[i], shown, sizeof(shown)));
	}
}

unsigned pml_lint(const struct pml_policy *policy,
		  const struct pml_machine *machine,
		  const struct pml_lint_names *names, const struct pml_log *log)
{
	unsigned count = 0;
	size_t i;

	lint_level(policy, NULL, machine, log, &count);
	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		lint_overridden(policy, i, machine, names, log, &count);
		lint_level(policy, rule, machine, log, &count);
		if (names != NULL) {
			lint_list(policy, rule, &rule->users, "user",
				  names->user_known, names->ctx, log, &count);
			lint_list(policy, rule, &rule->groups, "group",
				  names->group_known, names->ctx, log, &count);
			lint_list(policy, rule, &rule->services, "PAM service",
				  names->service_known, names->ctx, log, &count);
		}
	}
	return count;
}

/* --- What the running kernel's rings cost ------------------------------ */

unsigned pml_lint_ring(const struct pml_policy *policy,
		       const struct pml_machine *machine, uint64_t ring,
		       unsigned entries, const char *release,
		       const struct pml_log *log)
{
	struct pml_decision d;
	char soft[TEXT_MAX], need[TEXT_MAX];
	unsigned count = 0;
	size_t i;

	for (i = 0; ring > 0 && i <= policy->n_rules; i++) {
		const struct pml_rule *rule = i == 0 ? NULL : &policy->rules[i - 1];
		const struct pml_settings *own = rule != NULL ? &rule->settings : &policy->top;

		pml_resolve(policy, rule, machine, &d);
		/* Named where it is written, not again in each rule that
		 * inherits it; the built-in 8 MiB is no one's typo. */
		if (d.soft.from != &own->v[d.soft.from->key] || !d.soft.from->set ||
		    d.soft.bytes == PML_UNLIMITED || d.soft.bytes >= ring)
			continue;
		pml_format_size(d.soft.bytes, false, soft, sizeof(soft));
		pml_format_size(ring, false, need, sizeof(need));
		warn_at(policy, d.soft.from->at, log, &count,
			"a soft limit of %s cannot hold one io_uring ring of %u entries on Linux %s, which needs %s (memlockctl measure): io_uring_queue_init fails with ENOMEM",
			soft, entries, release, need);
	}
	return count;
}
