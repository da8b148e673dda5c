/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "legal but likely wrong" warnings of `memlockctl check`: the limits
 * of each level on this machine, the names this host knows, and top-level
 * keys that drop-ins set twice, and the order of the rules: the last
 * matching rule wins, so a rule can be hidden by a later one, wholly or
 * for some sessions, and of two group rules a user is in both of, the
 * later decides.  Limits are worked out by pml_resolve, rule by rule, the
 * module's own code, so that these warnings can never disagree with what
 * the module would do; limits compared for the order, on machines of every
 * size, so that a warning about the policy holds on every host.
 */
#include "lint.h"

#include <stdio.h>
#include <string.h>

#include "output/text.h"

#define TEXT_MAX 128

/* Logs one finding of KIND at AT, and counts it. */
static void lint_warn(const struct pml_policy *policy, struct pml_origin at,
		      enum lint_finding kind, const struct pml_log *log,
		      struct lint_count *count, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void lint_warn(const struct pml_policy *policy, struct pml_origin at,
		      enum lint_finding kind, const struct pml_log *log,
		      struct lint_count *count, const char *fmt, ...)
{
	char message[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	pml_log_at(log, LOG_WARNING, pml_policy_file_name(policy, at), at.line,
		   "%s: %s", kind == LINT_FINDING_HOST ? "host warning" : "warning",
		   message);
	if (kind == LINT_FINDING_HOST)
		count->host++;
	else
		count->policy++;
}

/* --- Which sessions two rules can share -------------------------------- */

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

bool lint_rule_covers(const struct pml_rule *later, const struct pml_rule *earlier)
{
	/* Unit rules and session rules never meet; of two unit rules, only
	 * names the later one lists outright are known to be hidden. */
	if ((later->units.n > 0) != (earlier->units.n > 0))
		return false;
	if (later->units.n > 0 && !names_subset(&earlier->units, &later->units))
		return false;
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

/* USERS' rule names users, RANGES' rule uid ranges: does NSS give one of
 * those users a uid in the ranges?  Not for a user it does not know (who
 * has no session here), nor when it cannot tell. */
static bool user_inside(const struct pml_rule *users, const struct pml_rule *ranges,
			const struct lint_names *names)
{
	size_t i;

	if (names == NULL || names->user_uid == NULL)
		return false;
	for (i = 0; i < users->users.n; i++) {
		uid_t uid;

		if (names->user_uid(users->users.v[i], &uid, names->ctx) == 1 &&
		    pml_uid_in(ranges, uid))
			return true;
	}
	return false;
}

static bool users_against_uids(const struct pml_rule *a, const struct pml_rule *b)
{
	return a->users.n > 0 && b->n_uids > 0;
}

enum lint_overlap lint_rules_overlap(const struct pml_rule *a, const struct pml_rule *b,
				     const struct lint_names *names)
{
	if ((a->units.n > 0) != (b->units.n > 0))
		return LINT_OVERLAP_NEVER;
	if (names_disjoint(&a->users, &b->users) ||
	    names_disjoint(&a->services, &b->services) || uids_disjoint(a, b))
		return LINT_OVERLAP_NEVER;
	if (!users_against_uids(a, b) && !users_against_uids(b, a))
		return LINT_OVERLAP_ANYWHERE;
	if ((users_against_uids(a, b) && !user_inside(a, b, names)) ||
	    (users_against_uids(b, a) && !user_inside(b, a, names)))
		return LINT_OVERLAP_NEVER;
	return LINT_OVERLAP_HERE;
}

/* --- What two rules give, on every machine ----------------------------- */

/* The sizes of machine compared: 64 MiB to 64 PiB of RAM. */
#define BASE_LOW ((uint64_t)1 << 26)
#define BASE_HIGH ((uint64_t)1 << 56)
/* Two ends, and where each of at most 4 shares meets each of at most 12
 * fixed values (the sizes, floors and ceilings of two rules' sides). */
#define BASES_MAX (2 + 4 * 12)

struct bases {
	uint64_t v[BASES_MAX];
	size_t n;
};

static void add_base(struct bases *b, uint64_t base)
{
	if (base >= BASE_LOW && base <= BASE_HIGH && b->n < BASES_MAX)
		b->v[b->n++] = base;
}

static void resolve_at(const struct pml_policy *policy, const struct pml_rule *rule,
		       uint64_t base, uint64_t page_size, struct pml_decision *d)
{
	const struct pml_machine machine = {
		.ram = base,
		.page_size = page_size,
		.available = { .bytes = base },
	};

	pml_resolve(policy, rule, &machine, d);
}

/* Where SIDE, a share, comes to VALUE: the smallest base that reaches it. */
static void add_crossing(struct bases *b, const struct pml_side *side, uint64_t value)
{
	uint64_t share = side->from->amount.share;

	if (side->from->amount.kind != PML_AMOUNT_SHARE || share == 0 ||
	    value > BASE_HIGH || value / share > BASE_HIGH / PML_SHARE_FULL)
		return;
	/* value * FULL / share, without overflow: value % share < FULL. */
	add_base(b, value / share * PML_SHARE_FULL +
			    (value % share * PML_SHARE_FULL + share - 1) / share);
}

/* The fixed values a side can come to: its size, or its floor and ceiling. */
static size_t side_values(const struct pml_side *side, uint64_t values[2])
{
	if (side->from->amount.kind != PML_AMOUNT_SHARE) {
		values[0] = side->bytes;
		return 1;
	}
	values[0] = side->floor;
	values[1] = side->ceiling;
	return 2;
}

/*
 * The bases at which to compare A and B.  Between two of them, every side
 * of both is a fixed value or a share that neither meets a fixed value nor
 * changes its clamp, so each difference is linear there: its sign on the
 * whole range shows at these points.  (Rounding to a page moves a share by
 * less than a page, and is left out.)
 */
/* Is SIDES[I] decided by the same setting as one before it? */
static bool seen(const struct pml_side *const *sides, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (sides[j]->from == sides[i]->from)
			return true;
	return false;
}

static void crossings(const struct pml_decision *a, const struct pml_decision *b,
		      struct bases *out)
{
	const struct pml_side *sides[] = { &a->soft, &a->hard, &b->soft, &b->hard };
	uint64_t values[2];
	size_t i, j, k, n;

	add_base(out, BASE_LOW);
	add_base(out, BASE_HIGH);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4 && !seen(sides, i); j++)
			for (k = 0, n = side_values(sides[j], values); k < n; k++)
				add_crossing(out, sides[i], values[k]);
}

/* LATER against EARLIER: lower on some machine, higher on some. */
struct comparison {
	bool less, more, other_mode;
};

/* The comparison, as far as it is needed: until any difference shows when
 * ANY, else until both directions have. */
static struct comparison compare(const struct pml_policy *policy,
				 const struct pml_rule *earlier,
				 const struct pml_rule *later, uint64_t page_size,
				 bool any)
{
	struct comparison c = { .other_mode = false };
	struct pml_decision de, dl;
	struct bases bases = { .n = 0 };
	size_t i;

	resolve_at(policy, earlier, BASE_LOW, page_size, &de);
	resolve_at(policy, later, BASE_LOW, page_size, &dl);
	c.other_mode = de.mode->mode != dl.mode->mode;
	crossings(&de, &dl, &bases);
	for (i = 0; i < bases.n; i++) {
		if (any ? c.less || c.more || c.other_mode : c.less && c.more)
			break;
		resolve_at(policy, earlier, bases.v[i], page_size, &de);
		resolve_at(policy, later, bases.v[i], page_size, &dl);
		c.less |= dl.soft.bytes < de.soft.bytes || dl.hard.bytes < de.hard.bytes;
		c.more |= dl.soft.bytes > de.soft.bytes || dl.hard.bytes > de.hard.bytes;
	}
	return c;
}

/* --- The findings ------------------------------------------------------ */

/*
 * How narrow a rule's most specific key is: a user names one account, a
 * group some, a uid range many, a service everyone who uses it.  Policies
 * read top-down as "general first, exceptions after"; a later rule that
 * is broader than an earlier one it overlaps is the usual ordering slip.
 */
enum narrowness {
	EVERYONE,
	SERVICE,
	UID,
	GROUP,
	USER
};

static enum narrowness narrowness(const struct pml_rule *rule)
{
	if (rule->users.n > 0)
		return USER;
	if (rule->groups.n > 0)
		return GROUP;
	if (rule->n_uids > 0)
		return UID;
	return rule->services.n > 0 ? SERVICE : EVERYONE;
}

/* The first other rule of each kind a finding is about, and how many more. */
struct others {
	const struct pml_rule *first[2];
	unsigned more[2];
};

static void add_other(struct others *o, const struct pml_rule *rule,
		      enum lint_overlap overlap)
{
	enum lint_finding kind = overlap == LINT_OVERLAP_HERE ? LINT_FINDING_HOST
							      : LINT_FINDING_POLICY;

	if (o->first[kind] == NULL)
		o->first[kind] = rule;
	else
		o->more[kind]++;
}

/* " (and 2 more later rules)", or "". */
static const char *more_text(unsigned more, const char *which, char *buf, size_t len)
{
	buf[0] = '\0';
	if (more > 0)
		snprintf(buf, len, " (and %u more %s %s)", more, which,
			 more == 1 ? "rule" : "rules");
	return buf;
}

/* Where the users' uids decide whether two rules meet, this host's do. */
static const char *here(enum lint_finding kind)
{
	return kind == LINT_FINDING_HOST ? " on this host" : "";
}

/* The later rules a finding about one rule names, by what they do. */
enum hider {
	HIDER_BROADER,	/* broader, with other limits or mode: an ordering slip */
	HIDER_SET,	/* broader, mode "set" over this rule's "raise" */
	HIDER_UNCAPPED, /* mode "raise" over this rule's "set" */
	HIDERS
};

static const char *const hider_text[HIDERS] = {
	[HIDER_BROADER] = "the broader rule at %s:%u%s comes later and decides for the sessions both match%s (the last matching rule wins): put general rules first and exceptions after them",
	/* Moving the set rule first would leave those sessions to this rule's
	 * raise mode: never the advice. */
	[HIDER_SET] = "the broader rule at %s:%u%s comes later and decides for the sessions both match%s, with other limits and mode = \"set\" (the last matching rule wins): to give them this rule's limits, add a rule for both, with mode = \"set\", after it; moving it first would leave them uncapped",
	[HIDER_UNCAPPED] = "the later rule at %s:%u%s decides for the sessions both match%s with mode = \"raise\" (the last matching rule wins): they keep a higher limit they start with (a daemon's LimitMEMLOCK=infinity), uncapped; to cap them, give that rule mode = \"set\", or add a rule for both, with mode = \"set\", after it",
};

static enum pml_mode rule_mode(const struct pml_policy *policy, const struct pml_rule *rule)
{
	return pml_pick(policy, rule, PML_KEY_MODE)->mode;
}

/* Does RULE leave a session uncapped in mode "raise", where "set" would
 * not?  Not where both its limits are unlimited on every machine: raising
 * to unlimited is setting it. */
static bool raise_uncaps(const struct pml_policy *policy, const struct pml_rule *rule,
			 uint64_t page_size)
{
	struct pml_decision d;

	if (rule_mode(policy, rule) != PML_MODE_RAISE)
		return false;
	/* The smallest machine gives the smallest limits. */
	resolve_at(policy, rule, BASE_LOW, page_size, &d);
	return d.soft.bytes != PML_UNLIMITED || d.hard.bytes != PML_UNLIMITED;
}

/*
 * A rule that a later one hides: wholly (it never decides), or for some
 * sessions (both can match one, the later rule is broader and gives other
 * limits or mode on some machine).  The modes weigh: a later broader rule
 * in mode "set" over a "raise" rule caps the sessions both match, and
 * putting it first would uncap them; a later rule in mode "raise", broader
 * or not, over a "set" rule leaves those sessions uncapped.  Only the
 * first later rule is named, with a count of the others, so that N
 * overlapping rules give N warnings, not N^2.
 */
static void lint_overridden(const struct pml_policy *policy, size_t index,
			    const struct pml_machine *machine,
			    const struct lint_names *names,
			    const struct pml_log *log, struct lint_count *count)
{
	const struct pml_rule *rule = &policy->rules[index];
	enum pml_mode mode = rule_mode(policy, rule);
	struct others o[HIDERS] = { { .first = { NULL, NULL } } };
	enum lint_finding kind;
	enum hider h;
	char more[64];
	size_t j;

	for (j = index + 1; j < policy->n_rules; j++) {
		const struct pml_rule *later = &policy->rules[j];
		enum pml_mode later_mode = rule_mode(policy, later);
		enum lint_overlap overlap;
		struct comparison c;

		if (lint_rule_covers(later, rule)) {
			lint_warn(policy, rule->at, LINT_FINDING_POLICY, log, count,
				  "this rule never decides: the later rule at %s:%u matches every session it matches, and the last matching rule wins",
				  pml_policy_file_name(policy, later->at), later->at.line);
			return;
		}
		overlap = lint_rules_overlap(rule, later, names);
		if (overlap == LINT_OVERLAP_NEVER)
			continue;
		if (mode == PML_MODE_SET && raise_uncaps(policy, later, machine->page_size)) {
			add_other(&o[HIDER_UNCAPPED], later, overlap);
			continue;
		}
		if (narrowness(later) >= narrowness(rule))
			continue;
		/* Over a raise rule, a set rule's mode alone is the cap meant:
		 * only other limits are worth a word. */
		if (mode == PML_MODE_RAISE && later_mode == PML_MODE_SET) {
			c = compare(policy, rule, later, machine->page_size, false);
			if (c.less || c.more)
				add_other(&o[HIDER_SET], later, overlap);
			continue;
		}
		c = compare(policy, rule, later, machine->page_size, true);
		if (c.less || c.more || c.other_mode)
			add_other(&o[HIDER_BROADER], later, overlap);
	}
	for (h = 0; h < HIDERS; h++)
		for (kind = LINT_FINDING_POLICY; kind <= LINT_FINDING_HOST; kind++) {
			if (o[h].first[kind] == NULL)
				continue;
			lint_warn(policy, rule->at, kind, log, count, hider_text[h],
				  pml_policy_file_name(policy, o[h].first[kind]->at),
				  o[h].first[kind]->at.line,
				  more_text(o[h].more[kind], "later", more, sizeof(more)),
				  here(kind));
		}
}

/*
 * Of two group rules, the later decides for a user in both groups; where
 * it gives less, the members of both lose what the earlier one gave them.
 * Which users are in both cannot be known across a fleet, so that they can
 * be is enough.  A later rule whose groups the earlier one all names is
 * an exception for those groups, and meant.
 */
static void lint_group_order(const struct pml_policy *policy, size_t index,
			     const struct pml_machine *machine,
			     const struct lint_names *names,
			     const struct pml_log *log, struct lint_count *count)
{
	const struct pml_rule *rule = &policy->rules[index];
	struct others o = { .first = { NULL, NULL } };
	enum lint_finding kind;
	char more[64], mine[128], theirs[128];
	size_t j;

	if (narrowness(rule) != GROUP)
		return;
	for (j = 0; j < index; j++) {
		const struct pml_rule *earlier = &policy->rules[j];
		enum lint_overlap overlap;
		struct comparison c;

		if (narrowness(earlier) != GROUP ||
		    names_subset(&rule->groups, &earlier->groups) ||
		    lint_rule_covers(rule, earlier))
			continue;
		overlap = lint_rules_overlap(earlier, rule, names);
		if (overlap == LINT_OVERLAP_NEVER)
			continue;
		c = compare(policy, earlier, rule, machine->page_size, false);
		if (c.less && !c.more)
			add_other(&o, earlier, overlap);
	}
	for (kind = LINT_FINDING_POLICY; kind <= LINT_FINDING_HOST; kind++) {
		if (o.first[kind] == NULL)
			continue;
		lint_warn(policy, rule->at, kind, log, count,
			  "a member of both group %s here and group %s of the earlier rule at %s:%u%s gets this rule's lower limits%s (the last matching rule wins): if members of both should get more, put this rule before that one",
			  pml_quote(rule->groups.v[0], mine, sizeof(mine)),
			  pml_quote(o.first[kind]->groups.v[0], theirs, sizeof(theirs)),
			  pml_policy_file_name(policy, o.first[kind]->at),
			  o.first[kind]->at.line,
			  more_text(o.more[kind], "earlier", more, sizeof(more)),
			  here(kind));
	}
}

/*
 * The findings about the order of the rules for the rule at INDEX: the
 * first four of lint_policy's list.
 */
static void lint_order(const struct pml_policy *policy, size_t index,
		       const struct pml_machine *machine,
		       const struct lint_names *names, const struct pml_log *log,
		       struct lint_count *count)
{
	lint_overridden(policy, index, machine, names, log, count);
	lint_group_order(policy, index, machine, names, log, count);
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
				 const struct pml_log *log, struct lint_count *count)
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
	/* Fixed sizes are the same everywhere; a share is this machine's. */
	lint_warn(level->policy, at, shares ? LINT_FINDING_HOST : LINT_FINDING_POLICY,
		  log, count,
		  "%s soft limit (%s) is above %s hard limit (%s)%s; sessions get soft lowered to %s",
		  level->rule != NULL ? "this rule's" : "the", soft,
		  level->rule != NULL ? "its" : "the", hard,
		  shares ? " on this machine" : "", hard);
}

static void lint_share_side(const struct level *level, const struct pml_side *side,
			    const struct pml_log *log, struct lint_count *count)
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
	lint_warn(level->policy, own(level, side->from) ? side->from->at : bound->at,
		  LINT_FINDING_HOST, log, count,
		  "%s \"%s\" comes to %s on this machine, %s the %s (%s): the %s decides, not the share",
		  pml_key_name(side->from->key), share, came,
		  side->clamp == PML_CLAMP_FLOOR ? "below" : "above", which, limit,
		  which);
	count->bounds++;
}

static void lint_shares(const struct level *level, const struct pml_log *log,
			struct lint_count *count)
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
		       struct lint_count *count)
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
			lint_warn(level->policy, s->at, LINT_FINDING_POLICY, log, count,
				  "%s \"0\": no memory can be locked, so mlock, io_uring and RDMA fail; the kernel's own default is 8 MiB (64 KiB before Linux 5.16)",
				  pml_key_name(s->key));
		else if (s->amount.unitless)
			lint_warn(level->policy, s->at, LINT_FINDING_POLICY, log, count,
				  "%s \"%llu\" is %s, below the kernel's own default of 64 KiB before Linux 5.16: a size without a unit is in bytes, where limits.conf counts memlock in KiB; did you mean \"%llu KiB\"?",
				  pml_key_name(s->key), bytes, shown, bytes);
		else
			lint_warn(level->policy, s->at, LINT_FINDING_POLICY, log, count,
				  "%s is %s, below the kernel's own default of 64 KiB before Linux 5.16: mlock, io_uring and RDMA get next to nothing",
				  pml_key_name(s->key), shown);
	}
}

/* A rule's floor or ceiling, where both its sides are fixed sizes. */
static void lint_useless_bounds(const struct level *level, const struct pml_log *log,
				struct lint_count *count)
{
	static const enum pml_key bounds[] = { PML_KEY_FLOOR, PML_KEY_CEILING };
	const struct pml_decision *d = &level->decision;
	size_t i;

	if (level->rule == NULL || is_share(&d->soft) || is_share(&d->hard))
		return;
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const struct pml_setting *s = &level->rule->settings.v[bounds[i]];

		if (s->set)
			lint_warn(level->policy, s->at, LINT_FINDING_POLICY, log, count,
				  "%s has no effect: this rule's limits are fixed sizes, and only a share of RAM is held between floor and ceiling",
				  pml_key_name(s->key));
	}
}

static void lint_level(const struct pml_policy *policy, const struct pml_rule *rule,
		       const struct pml_machine *machine, const struct pml_log *log,
		       struct lint_count *count)
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
		      const struct pml_log *log, struct lint_count *count)
{
	char shown[TEXT_MAX];
	size_t i;

	for (i = 0; known != NULL && i < list->n; i++) {
		if (earlier_in_list(list, i) || known(list->v[i], ctx) != 0)
			continue;
		lint_warn(policy, rule->at, LINT_FINDING_HOST, log, count,
			  "%s %s does not exist on this machine", what,
			  pml_quote(list->v[i], shown, sizeof(shown)));
		count->names++;
	}
}

/* --- Top-level keys two drop-ins set --------------------------------- */

/*
 * The main file's top-level keys are there for drop-ins to replace; of two
 * drop-ins that set one key, only the later by name counts, and the other
 * is most often a copy left behind ("50-site.old.conf" sorts after
 * "50-site.conf", and wins).
 */
static void lint_replaced(const struct pml_policy *policy, const struct pml_log *log,
			  struct lint_count *count)
{
	char now[CLI_VALUE_MAX], before[CLI_VALUE_MAX];
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++) {
		const struct pml_setting *old = &policy->replaced.v[key];
		const struct pml_setting *s = &policy->top.v[key];

		if (!old->set || old->at.file >= policy->n_files ||
		    !policy->files[old->at.file].dropin)
			continue;
		cli_format_value(s, now, sizeof(now));
		cli_format_value(old, before, sizeof(before));
		lint_warn(policy, s->at, LINT_FINDING_POLICY, log, count,
			  "%s = \"%s\" replaces %s = \"%s\" of the earlier drop-in %s:%u: of two drop-ins that set a top-level key, the later by name wins; set each key in one file",
			  pml_key_name(key), now, pml_key_name(key), before,
			  pml_policy_file_name(policy, old->at), old->at.line);
	}
}

struct lint_count lint_policy(const struct pml_policy *policy,
			      const struct pml_machine *machine,
			      const struct lint_names *names,
			      const struct pml_log *log)
{
	struct lint_count count = { .policy = 0 };
	size_t i;

	lint_level(policy, NULL, machine, log, &count);
	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		lint_order(policy, i, machine, names, log, &count);
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
	lint_replaced(policy, log, &count);
	return count;
}

/* --- What the running kernel's rings cost ------------------------------ */

struct lint_count lint_ring(const struct pml_policy *policy,
			    const struct pml_machine *machine, uint64_t ring,
			    unsigned entries, const char *release,
			    const struct pml_log *log)
{
	struct pml_decision d;
	char soft[TEXT_MAX], need[TEXT_MAX];
	struct lint_count count = { 0 };
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
		/* The running kernel's cost: a finding about this host. */
		lint_warn(policy, d.soft.from->at, LINT_FINDING_HOST, log, &count,
			  "a soft limit of %s cannot hold one io_uring ring of %u entries on Linux %s, which needs %s (memlockctl measure): io_uring_queue_init fails with ENOMEM",
			  soft, entries, release, need);
	}
	return count;
}
