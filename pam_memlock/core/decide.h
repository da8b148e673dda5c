/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
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
#include "memory.h"
#include "policy.h"

struct pml_machine {
	uint64_t ram; /* physical memory (MemTotal), bytes */
	uint64_t page_size;
	/* share_of = "available": RAM, or less where cgroups limit memory.
	 * RAM itself until pml_available_memory is asked (pml_evaluate asks
	 * only when the decision takes a share of it). */
	struct pml_available available;
};

enum pml_clamp {
	PML_CLAMP_NONE,
	PML_CLAMP_FLOOR,
	PML_CLAMP_CEILING,
};

/* How one side (soft or hard) was decided. */
struct pml_side {
	/* The setting that decided: the rule's soft or hard, its limit, the
	 * top level's, or the built-in limit.  Never NULL. */
	const struct pml_setting *from;
	uint64_t wanted; /* what FROM comes to on this machine */
	/* The result: WANTED, soft held to hard; PML_UNLIMITED for no limit. */
	uint64_t bytes;
	/* For a share of RAM, the arithmetic: */
	const struct pml_setting *share_of; /* what it is a share of */
	uint64_t base;			    /* ... in bytes */
	uint64_t share_exact;		    /* base * share, rounded down */
	uint64_t share_paged;		    /* ... to a whole page */
	uint64_t floor, ceiling;
	enum pml_clamp clamp;
};

struct pml_decision {
	const struct pml_rule *rule; /* NULL: the top level decided */
	struct pml_side soft, hard;
	const struct pml_setting *mode; /* never NULL */
	bool soft_lowered_to_hard;	/* soft wanted more than hard */
};

/* Is NAME (which may be NULL) one of NAMES? */
bool pml_names_contain(const struct pml_names *names, const char *name);

/* Is UID in one of RULE's uid ranges? */
bool pml_uid_in(const struct pml_rule *rule, uid_t uid);

/* Does RULE apply to this session?  Rules with uid or group keys need
 * identity->looked_up; a unit rule applies to none. */
bool pml_rule_matches(const struct pml_rule *rule,
		      const struct pml_identity *identity);

/* The last rule that matches IDENTITY (the last match wins), or NULL. */
const struct pml_rule *pml_match(const struct pml_policy *policy,
				 const struct pml_identity *identity);

/*
 * What RULE gives on MACHINE, with the top level and the built-in defaults
 * filling in what it does not say; RULE NULL is the top level alone.
 */
void pml_resolve(const struct pml_policy *policy, const struct pml_rule *rule,
		 const struct pml_machine *machine, struct pml_decision *decision);

/* Does either side RULE gives take a share of "available" memory? */
bool pml_needs_available(const struct pml_policy *policy,
			 const struct pml_rule *rule);

/* pml_resolve of pml_match: what the module does for a session. */
void pml_decide(const struct pml_policy *policy,
		const struct pml_identity *identity,
		const struct pml_machine *machine,
		struct pml_decision *decision);

#endif
