#include "policy.h"

#include <errno.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>


static const char *const key_names[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = "limit",
	[PML_KEY_SOFT] = "soft",
	[PML_KEY_HARD] = "hard",
	[PML_KEY_FLOOR] = "floor",
	[PML_KEY_CEILING] = "ceiling",
	[PML_KEY_MODE] = "mode",
};

const char *pml_key_name(enum pml_key key)
{
	return key_names[key];
}

const struct pml_setting *pml_pick(const struct pml_settings *own,
				   const struct pml_settings *top,
				   enum pml_key key)
{
	if (own != NULL && own->v[key].set)
		return &own->v[key];
	if (top->v[key].set)
		return &top->v[key];
	return NULL;
}

uint64_t pml_floor_bytes(const struct pml_setting *floor, uint64_t page_size)
{
	if (floor == NULL || floor->amount.kind == PML_AMOUNT_PAGE)
		return page_size;
	return floor->amount.bytes;
}

uint64_t pml_ceiling_bytes(const struct pml_setting *ceiling)
{
	return ceiling == NULL ? PML_UNLIMITED : ceiling->amount.bytes;
}

void pml_policy_init(struct pml_policy *policy)
{
	memset(policy, 0, sizeof(*policy));
}

void pml_policy_free(struct pml_policy *policy)
{
	size_t i;

	for (i = 0; i < policy->n_rules; i++) {
		struct pml_rule *rule = &policy->rules[i];

		free(rule->users.v);
		free(rule->groups.v);
		free(rule->services.v);
		free(rule->uids);
	}
	free(policy->rules);
	for (i = 0; i < policy->n_files; i++) {
		if (policy->files[i].config != NULL) {
			config_destroy(policy->files[i].config);
			free(policy->files[i].config);
		}
		free(policy->files[i].name);
	}
	free(policy->files);
	pml_policy_init(policy);
}

const char *pml_policy_file_name(const struct pml_policy *policy,
				 struct pml_origin at)
{
	return at.file < policy->n_files ? policy->files[at.file].name
					 : "(built-in)";
}

/* OWN is a rule's settings, or NULL for the top level alone. */
static int validate_bounds(const struct pml_policy *policy,
			   const struct pml_settings *own,
			   struct pml_origin at, uint64_t page_size,
			   const struct pml_log *log)
{
	uint64_t low = pml_floor_bytes(pml_pick(own, &policy->top, PML_KEY_FLOOR),
				       page_size);
	uint64_t high = pml_ceiling_bytes(pml_pick(own, &policy->top,
						   PML_KEY_CEILING));

	if (low <= high)
		return 0;
	pml_log_at(log, LOG_ERR, pml_policy_file_name(policy, at), at.line,
		   "floor (%llu bytes) is above ceiling (%llu bytes)",
		   (unsigned long long)low, (unsigned long long)high);
	return -EINVAL;
}

int pml_policy_validate(const struct pml_policy *policy, uint64_t page_size,
			const struct pml_log *log)
{
	const struct pml_settings *top = &policy->top;
	struct pml_origin top_at = top->v[PML_KEY_FLOOR].set
				   ? top->v[PML_KEY_FLOOR].at
				   : top->v[PML_KEY_CEILING].at;
	int rc = validate_bounds(policy, NULL, top_at, page_size, log);
	size_t i;

	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		if (rule->settings.v[PML_KEY_FLOOR].set ||
		    rule->settings.v[PML_KEY_CEILING].set) {
			if (validate_bounds(policy, &rule->settings, rule->at,
					    page_size, log) < 0)
				rc = -EINVAL;
		}
	}
	return rc;
}
