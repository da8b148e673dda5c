/*
 * Deciding is a pure function: (policy, identity, machine) -> decision.
 * The module applies the decision; `memlockctl explain` prints it.  Both
 * call this, so they cannot disagree.
 */
#ifndef PML_DECIDE_H
#define PML_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "identity.h"
#include "policy.h"

struct pml_machine {
	uint64_t ram;		/* physical memory, bytes */
	uint64_t page_size;
};

enum pml_clamp {
	PML_CLAMP_NONE,
	PML_CLAMP_FLOOR,
	PML_CLAMP_CEILING,
};

/* How one side (soft or hard) was decided. */
struct pml_side {
	uint64_t bytes;				/* PML_UNLIMITED for no limit */
	const struct pml_setting *from;		/* NULL: the built-in 8 MiB */
	/* For a share of RAM, the arithmetic: */
	uint64_t share_exact;			/* ram * share, rounded down */
	uint64_t share_paged;			/* ... to a whole page */
	uint64_t floor, ceiling;
	enum pml_clamp clamp;
};

struct pml_decision {
	struct pml_side soft, hard;
	enum pml_mode mode;
	const struct pml_setting *mode_from;	/* NULL: built-in "raise" */
	const struct pml_rule *rule;		/* NULL: the top level decided */
	bool soft_lowered_to_hard;		/* soft came out above hard */
};

/* Is NAME (which may be NULL) one of NAMES? */
bool pml_names_contain(const struct pml_names *names, const char *name);

/* Does RULE apply to this session?  Rules with uid or group keys need
 * identity->looked_up. */
bool pml_rule_matches(const struct pml_rule *rule,
		      const struct pml_identity *identity);

void pml_decide(const struct pml_policy *policy,
		const struct pml_identity *identity,
		const struct pml_machine *machine,
		struct pml_decision *decision);

#endif
