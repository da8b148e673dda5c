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

static bool uid_in(const struct pml_rule *rule, uid_t uid)
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
	if (rule->users.n > 0 && !pml_names_contain(&rule->users, identity->user))
		return false;
	if (rule->services.n > 0 && !pml_names_contain(&rule->services, identity->service))
		return false;
	if (rule->n_uids > 0 &&
	    (!identity->looked_up || !uid_in(rule, identity->uid)))
		return false;
	if (rule->groups.n > 0 &&
	    (!identity->looked_up || !any_group_in(&rule->groups, identity)))
		return false;
	return true;
}

/* Each side: the rule's soft/hard, its limit, the top level's, the default. */
static const struct pml_setting *side_setting(const struct pml_policy *policy,
					      const struct pml_settings *own,
					      enum pml_key side)
{
	const struct pml_setting *s;

	if (own != NULL && own->v[side].set)
		return &own->v[side];
	if (own != NULL && own->v[PML_KEY_LIMIT].set)
		return &own->v[PML_KEY_LIMIT];
	s = pml_pick(NULL, &policy->top, side);
	return s != NULL ? s : pml_pick(NULL, &policy->top, PML_KEY_LIMIT);
}

static void decide_side(const struct pml_policy *policy,
			const struct pml_settings *own,
			const struct pml_machine *machine, enum pml_key key,
			struct pml_side *side)
{
	const struct pml_setting *s = side_setting(policy, own, key);
	unsigned __int128 share;

	memset(side, 0, sizeof(*side));
	side->from = s;
	if (s == NULL) {
		side->bytes = PML_DEFAULT_LIMIT;
		return;
	}
	if (s->amount.kind != PML_AMOUNT_SHARE) {
		side->bytes = s->amount.bytes;
		return;
	}
	share = (unsigned __int128)machine->ram * s->amount.share / PML_SHARE_FULL;
	side->share_exact = (uint64_t)share;
	side->share_paged = machine->page_size > 0
			    ? side->share_exact - side->share_exact % machine->page_size
			    : side->share_exact;
	side->floor = pml_floor_bytes(pml_pick(own, &policy->top, PML_KEY_FLOOR),
				      machine->page_size);
	side->ceiling = pml_ceiling_bytes(pml_pick(own, &policy->top,
						   PML_KEY_CEILING));
	side->bytes = side->share_paged;
	if (side->bytes < side->floor) {
		side->bytes = side->floor;
		side->clamp = PML_CLAMP_FLOOR;
	} else if (side->bytes > side->ceiling) {
		side->bytes = side->ceiling;
		side->clamp = PML_CLAMP_CEILING;
	}
}

void pml_decide(const struct pml_policy *policy,
		const struct pml_identity *identity,
		const struct pml_machine *machine,
		struct pml_decision *decision)
{
	const struct pml_settings *own = NULL;
	size_t i;

	memset(decision, 0, sizeof(*decision));
	/* The last matching rule wins: look from the end. */
	for (i = policy->n_rules; i-- > 0;) {
		if (pml_rule_matches(&policy->rules[i], identity)) {
			decision->rule = &policy->rules[i];
			own = &decision->rule->settings;
			break;
		}
	}
	decide_side(policy, own, machine, PML_KEY_SOFT, &decision->soft);
	decide_side(policy, own, machine, PML_KEY_HARD, &decision->hard);
	if (decision->soft.bytes > decision->hard.bytes) {
		decision->soft.bytes = decision->hard.bytes;
		decision->soft_lowered_to_hard = true;
	}
	decision->mode_from = pml_pick(own, &policy->top, PML_KEY_MODE);
	decision->mode = decision->mode_from != NULL ? decision->mode_from->mode
						     : PML_MODE_RAISE;
}
