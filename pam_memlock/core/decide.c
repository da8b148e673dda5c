/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The decision: which rule matches a session, and what a rule gives on this
 * machine.  No I/O and no allocation: the module, `memlockctl explain` and
 * the lint all come here, so none can disagree with another.
 */
#include "decide.h"

#include <string.h>

bool pml_names_contain(const struct pml_names *names, const char *name)
{
	size_t i;

	if (name == NULL)
		return false;
	for (i = 0; i < names->n; i++)
		if (strcmp(names->v[i], name) == 0)
			return true;
	return false;
}

static bool any_group_in(const struct pml_names *names,
			 const struct pml_identity *identity)
{
	size_t i;

	for (i = 0; i < identity->n_groups; i++)
		if (pml_names_contain(names, identity->groups[i]))
			return true;
	return false;
}

bool pml_uid_in(const struct pml_rule *rule, uid_t uid)
{
	size_t i;

	for (i = 0; i < rule->n_uids; i++)
		if (uid >= rule->uids[i].first && uid <= rule->uids[i].last)
			return true;
	return false;
}

bool pml_rule_matches(const struct pml_rule *rule,
		      const struct pml_identity *identity)
{
	if (rule->units.n > 0)
		return false;
	if (rule->users.n > 0 && !pml_names_contain(&rule->users, identity->user))
		return false;
	if (rule->services.n > 0 && !pml_names_contain(&rule->services, identity->service))
		return false;
	if (rule->n_uids > 0 &&
	    (!identity->looked_up || !pml_uid_in(rule, identity->uid)))
		return false;
	if (rule->groups.n > 0 &&
	    (!identity->looked_up || !any_group_in(&rule->groups, identity)))
		return false;
	return true;
}

/* Each side: the rule's soft/hard, its limit, the top level's, the default. */
static const struct pml_setting *side_setting(const struct pml_policy *policy,
					      const struct pml_rule *rule,
					      enum pml_key side)
{
	if (rule != NULL && rule->settings.v[side].set)
		return &rule->settings.v[side];
	if (rule != NULL && rule->settings.v[PML_KEY_LIMIT].set)
		return &rule->settings.v[PML_KEY_LIMIT];
	if (policy->top.v[side].set)
		return &policy->top.v[side];
	return pml_pick(policy, NULL, PML_KEY_LIMIT);
}

static void decide_side(const struct pml_policy *policy,
			const struct pml_rule *rule,
			const struct pml_machine *machine, enum pml_key key,
			struct pml_side *side)
{
	const struct pml_setting *s = side_setting(policy, rule, key);
	uint64_t whole, rest;

	*side = (struct pml_side){ .from = s, .clamp = PML_CLAMP_NONE };
	if (s->amount.kind != PML_AMOUNT_SHARE) {
		side->wanted = side->bytes = s->amount.bytes;
		return;
	}
	side->share_of = pml_pick(policy, rule, PML_KEY_SHARE_OF);
	side->base = side->share_of->base == PML_BASE_RAM ? machine->ram
							  : machine->available.bytes;
	/* base * share / PML_SHARE_FULL, rounded down, without a 128-bit type
	 * (none on 32-bit targets): with base = whole * FULL + rest, it is
	 * whole * share + rest * share / FULL exactly.  share <= FULL, so the
	 * first term is at most base, and rest * share < FULL^2 = 10^10. */
	whole = side->base / PML_SHARE_FULL;
	rest = side->base % PML_SHARE_FULL;
	side->share_exact = whole * s->amount.share +
			    rest * s->amount.share / PML_SHARE_FULL;
	side->share_paged = machine->page_size > 0
				    ? side->share_exact - side->share_exact % machine->page_size
				    : side->share_exact;
	side->floor = pml_floor_bytes(pml_pick(policy, rule, PML_KEY_FLOOR),
				      machine->page_size);
	side->ceiling = pml_ceiling_bytes(pml_pick(policy, rule, PML_KEY_CEILING));
	side->wanted = side->share_paged;
	if (side->wanted < side->floor) {
		side->wanted = side->floor;
		side->clamp = PML_CLAMP_FLOOR;
	} else if (side->wanted > side->ceiling) {
		side->wanted = side->ceiling;
		side->clamp = PML_CLAMP_CEILING;
	}
	side->bytes = side->wanted;
}

bool pml_needs_available(const struct pml_policy *policy,
			 const struct pml_rule *rule)
{
	return pml_pick(policy, rule, PML_KEY_SHARE_OF)->base == PML_BASE_AVAILABLE &&
	       (side_setting(policy, rule, PML_KEY_SOFT)->amount.kind == PML_AMOUNT_SHARE ||
		side_setting(policy, rule, PML_KEY_HARD)->amount.kind == PML_AMOUNT_SHARE);
}

const struct pml_rule *pml_match(const struct pml_policy *policy,
				 const struct pml_identity *identity)
{
	size_t i;

	for (i = policy->n_rules; i-- > 0;)
		if (pml_rule_matches(&policy->rules[i], identity))
			return &policy->rules[i];
	return NULL;
}

void pml_resolve(const struct pml_policy *policy, const struct pml_rule *rule,
		 const struct pml_machine *machine, struct pml_decision *decision)
{
	*decision = (struct pml_decision){
		.rule = rule,
		.mode = pml_pick(policy, rule, PML_KEY_MODE),
	};
	decide_side(policy, rule, machine, PML_KEY_SOFT, &decision->soft);
	decide_side(policy, rule, machine, PML_KEY_HARD, &decision->hard);
	if (decision->soft.bytes > decision->hard.bytes) {
		decision->soft.bytes = decision->hard.bytes;
		decision->soft_lowered_to_hard = true;
	}
}

void pml_decide(const struct pml_policy *policy,
		const struct pml_identity *identity,
		const struct pml_machine *machine,
		struct pml_decision *decision)
{
	pml_resolve(policy, pml_match(policy, identity), machine, decision);
}
