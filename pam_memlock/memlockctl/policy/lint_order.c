/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The order of the rules: the last matching rule wins, so a rule can be
 * hidden by a later one, wholly or for some sessions, and of two group
 * rules a user is in both of, the later decides.  Limits are compared with
 * pml_resolve, the module's own code, on machines of every size, so that a
 * warning about the policy holds on every host.
 */
#include "lint.h"

#include <stdio.h>
#include <string.h>

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

bool pml_rule_covers(const struct pml_rule *later, const struct pml_rule *earlier)
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
			const struct pml_lint_names *names)
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

enum pml_overlap pml_rules_overlap(const struct pml_rule *a, const struct pml_rule *b,
				   const struct pml_lint_names *names)
{
	if ((a->units.n > 0) != (b->units.n > 0))
		return PML_OVERLAP_NEVER;
	if (names_disjoint(&a->users, &b->users) ||
	    names_disjoint(&a->services, &b->services) || uids_disjoint(a, b))
		return PML_OVERLAP_NEVER;
	if (!users_against_uids(a, b) && !users_against_uids(b, a))
		return PML_OVERLAP_ANYWHERE;
	if ((users_against_uids(a, b) && !user_inside(a, b, names)) ||
	    (users_against_uids(b, a) && !user_inside(b, a, names)))
		return PML_OVERLAP_NEVER;
	return PML_OVERLAP_HERE;
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
		      enum pml_overlap overlap)
{
	enum pml_finding kind = overlap == PML_OVERLAP_HERE ? PML_FINDING_HOST
							    : PML_FINDING_POLICY;

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
static const char *here(enum pml_finding kind)
{
	return kind == PML_FINDING_HOST ? " on this host" : "";
}

/*
 * A rule that a later one hides: wholly (it never decides), or for some
 * sessions (both can match one, the later rule is broader and gives other
 * limits or mode on some machine).  Only the first later rule is named,
 * with a count of the others, so that N overlapping rules give N warnings,
 * not N^2.
 */
static void lint_overridden(const struct pml_policy *policy, size_t index,
			    const struct pml_machine *machine,
			    const struct pml_lint_names *names,
			    const struct pml_log *log, struct pml_lint_count *count)
{
	const struct pml_rule *rule = &policy->rules[index];
	struct others o = { .first = { NULL, NULL } };
	enum pml_finding kind;
	char more[64];
	size_t j;

	for (j = index + 1; j < policy->n_rules; j++) {
		const struct pml_rule *later = &policy->rules[j];
		enum pml_overlap overlap;
		struct comparison c;

		if (pml_rule_covers(later, rule)) {
			pml_lint_warn(policy, rule->at, PML_FINDING_POLICY, log, count,
				      "this rule never decides: the later rule at %s:%u matches every session it matches, and the last matching rule wins",
				      pml_policy_file_name(policy, later->at), later->at.line);
			return;
		}
		if (narrowness(later) >= narrowness(rule))
			continue;
		overlap = pml_rules_overlap(rule, later, names);
		if (overlap == PML_OVERLAP_NEVER)
			continue;
		c = compare(policy, rule, later, machine->page_size, true);
		if (c.less || c.more || c.other_mode)
			add_other(&o, later, overlap);
	}
	for (kind = PML_FINDING_POLICY; kind <= PML_FINDING_HOST; kind++) {
		if (o.first[kind] == NULL)
			continue;
		pml_lint_warn(policy, rule->at, kind, log, count,
			      "the broader rule at %s:%u%s comes later and decides for the sessions both match%s (the last matching rule wins): put general rules first and exceptions after them",
			      pml_policy_file_name(policy, o.first[kind]->at),
			      o.first[kind]->at.line,
			      more_text(o.more[kind], "later", more, sizeof(more)),
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
			     const struct pml_lint_names *names,
			     const struct pml_log *log, struct pml_lint_count *count)
{
	const struct pml_rule *rule = &policy->rules[index];
	struct others o = { .first = { NULL, NULL } };
	enum pml_finding kind;
	char more[64], mine[128], theirs[128];
	size_t j;

	if (narrowness(rule) != GROUP)
		return;
	for (j = 0; j < index; j++) {
		const struct pml_rule *earlier = &policy->rules[j];
		enum pml_overlap overlap;
		struct comparison c;

		if (narrowness(earlier) != GROUP ||
		    names_subset(&rule->groups, &earlier->groups) ||
		    pml_rule_covers(rule, earlier))
			continue;
		overlap = pml_rules_overlap(earlier, rule, names);
		if (overlap == PML_OVERLAP_NEVER)
			continue;
		c = compare(policy, earlier, rule, machine->page_size, false);
		if (c.less && !c.more)
			add_other(&o, earlier, overlap);
	}
	for (kind = PML_FINDING_POLICY; kind <= PML_FINDING_HOST; kind++) {
		if (o.first[kind] == NULL)
			continue;
		pml_lint_warn(policy, rule->at, kind, log, count,
			      "a member of both group %s here and group %s of the earlier rule at %s:%u%s gets this rule's lower limits%s (the last matching rule wins): if members of both should get more, put this rule before that one",
			      pml_quote(rule->groups.v[0], mine, sizeof(mine)),
			      pml_quote(o.first[kind]->groups.v[0], theirs, sizeof(theirs)),
			      pml_policy_file_name(policy, o.first[kind]->at),
			      o.first[kind]->at.line,
			      more_text(o.more[kind], "earlier", more, sizeof(more)),
			      here(kind));
	}
}

void pml_lint_order(const struct pml_policy *policy, size_t index,
		    const struct pml_machine *machine,
		    const struct pml_lint_names *names, const struct pml_log *log,
		    struct pml_lint_count *count)
{
	lint_overridden(policy, index, machine, names, log, count);
	lint_group_order(policy, index, machine, names, log, count);
}
