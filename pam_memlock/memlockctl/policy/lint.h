/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What a valid policy may still get wrong: things the loader must accept
 * (they are legal, and may be meant) but that an operator most likely did
 * not intend.  `memlockctl check` prints them; the module never asks.
 *
 * Every warning is logged at LOG_WARNING as "FILE:LINE: warning: message",
 * and none is ever given without being certain: a warning that cries wolf
 * teaches people to ignore `check`, and `check --strict` fails on them.
 */
#ifndef PML_LINT_H
#define PML_LINT_H

#include <stdint.h>
#include <sys/types.h>

#include "decide.h"
#include "log.h"
#include "policy.h"

/*
 * Does the machine know this user (or group)?  1 yes, 0 no, and -1 when
 * it cannot tell (NSS failing): then nothing is said.  The caller asks
 * NSS; lint itself makes no lookups, so that it stays a pure function of
 * its arguments and adds nothing for the module to bind.
 */
struct pml_lint_names {
	int (*user_known)(const char *name, void *ctx);
	int (*group_known)(const char *name, void *ctx);
	/* The user's uid: 1 and *uid, 0 unknown, -1 cannot tell.  May be
	 * NULL: then a user name may have any uid. */
	int (*user_uid)(const char *name, uid_t *uid, void *ctx);
	/* Has the PAM directory a service of this name?  As user_known. */
	int (*service_known)(const char *name, void *ctx);
	void *ctx;
};

/*
 * Looks for, in this order: at the top level, then rule by rule,
 *   - a rule that never decides, because a later rule matches every session
 *     it matches (the last matching rule wins);
 *   - a rule that a later, broader rule (by its narrowest key: user, then
 *     group, uid, service) overrides for the sessions both can match, with
 *     other limits (the first such rule is named, the others counted);
 *   - a soft limit above the hard limit, once both are worked out for
 *     MACHINE (the module would lower soft to hard);
 *   - a share of RAM that the floor or the ceiling always overrides on
 *     MACHINE;
 *   - a limit, soft or hard of "0", or below 64 KiB (the kernel's default
 *     before Linux 5.16), with the unit suggested for a number without one
 *     (limits.conf counts memlock in KiB);
 *   - a rule's floor or ceiling where its limits are fixed sizes;
 *   - a user, group or PAM service that NAMES says is unknown (NAMES may
 *     be NULL).
 * Returns how many warnings were logged.
 */
unsigned pml_lint(const struct pml_policy *policy,
		  const struct pml_machine *machine,
		  const struct pml_lint_names *names, const struct pml_log *log);

/*
 * What check adds where it can measure (as root): a soft limit, at the top
 * level or in a rule, worked out for MACHINE, below RING bytes, what one
 * io_uring ring of ENTRIES entries costs on the kernel RELEASE (the caller
 * measured it).  Each is named once, at the setting that gives it.  RING 0
 * (the kernel charges rings to no limit) finds nothing.  Returns how many
 * warnings were logged.
 */
unsigned pml_lint_ring(const struct pml_policy *policy,
		       const struct pml_machine *machine, uint64_t ring,
		       unsigned entries, const char *release,
		       const struct pml_log *log);

/*
 * Does the later rule LATER match every session that EARLIER matches?
 * True only when that holds for every possible session: LATER has no match
 * key, or for each key LATER has, EARLIER has it too with a subset of its
 * names (or of its uid ranges).
 */
bool pml_rule_covers(const struct pml_rule *later, const struct pml_rule *earlier);

/*
 * Can one session match both A and B?  False only when a key both have
 * (user, service, uid) has nothing in common, or when one names users and
 * the other uid ranges, and NAMES (may be NULL) gives every such user a
 * uid outside the ranges.  Groups can always overlap.
 */
bool pml_rules_may_overlap(const struct pml_rule *a, const struct pml_rule *b,
			   const struct pml_lint_names *names);

#endif
