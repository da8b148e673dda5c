/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What a valid policy may still get wrong: things the loader must accept
 * (they are legal, and may be meant) but that an operator most likely did
 * not intend.  `memlockctl check` prints them; the module never asks.
 *
 * Each finding is one of two kinds.  A warning about the policy is one
 * that every host would give for the same files: configuration management
 * can fail on it everywhere (check --strict).  A warning about this host
 * rests on its facts as well: the users, groups and PAM services it knows,
 * its memory.  The same template can be right on one host and draw a host
 * warning on another, so only check --strict-host fails on those.
 *
 * Every finding is logged at LOG_WARNING as "FILE:LINE: warning: message"
 * or "FILE:LINE: host warning: message", and none is ever given without
 * being certain: a warning that cries wolf teaches people to ignore
 * `check`.
 */
#ifndef LINT_H
#define LINT_H

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
struct lint_names {
	int (*user_known)(const char *name, void *ctx);
	int (*group_known)(const char *name, void *ctx);
	/* The user's uid: 1 and *uid, 0 unknown, -1 cannot tell.  May be
	 * NULL: then a user name may have any uid. */
	int (*user_uid)(const char *name, uid_t *uid, void *ctx);
	/* Has the PAM directory a service of this name?  As user_known. */
	int (*service_known)(const char *name, void *ctx);
	void *ctx;
};

enum lint_finding {
	LINT_FINDING_POLICY, /* any host would say the same of these files */
	LINT_FINDING_HOST,   /* this host's names or memory make it so */
};

/* How many findings of each kind were logged.  Of the host's, NAMES are
 * users, groups and services this host lacks, BOUNDS floors and ceilings
 * that decide over a share of this host's memory (often what they are
 * there for); the rest are other facts of this host. */
struct lint_count {
	unsigned policy, host;
	unsigned names, bounds;
};

/*
 * Looks for, in this order: at the top level, then rule by rule,
 *   - a rule that never decides, because a later rule matches every session
 *     it matches (the last matching rule wins);
 *   - a rule that a later, broader rule (by its narrowest key: user, then
 *     group, uid, service) overrides for the sessions both can match, with
 *     other limits (the first such rule is named, the others counted),
 *     where a later rule in mode "set" over one in "raise" is the cap
 *     meant, and is never to be moved first;
 *   - a later rule in mode "raise" (but for unlimited) that can match
 *     sessions of a rule in mode "set": it leaves them uncapped;
 *   - a group rule after another group rule that a user can be in as well,
 *     which gives less (both limits at most the earlier rule's on every
 *     machine, one of them lower on some);
 *   - a soft limit above the hard limit, once both are worked out (for
 *     MACHINE, where a share of RAM is involved);
 *   - a share of RAM that the floor or the ceiling always overrides on
 *     MACHINE;
 *   - a limit, soft or hard of "0", or below 64 KiB (the kernel's default
 *     before Linux 5.16), with the unit suggested for a number without one
 *     (limits.conf counts memlock in KiB);
 *   - a rule's floor or ceiling where its limits are fixed sizes;
 *   - a user, group or PAM service that NAMES says is unknown (NAMES may
 *     be NULL);
 * and last, a top-level key that a drop-in sets after an earlier drop-in
 * set it (the main file's keys are there to be replaced; two drop-ins
 * that set one key are most often a leftover copy).  Limits that hold on
 * every machine are compared on machines of 64 MiB to 64 PiB whose
 * available memory is their RAM, with MACHINE's page size.
 */
struct lint_count lint_policy(const struct pml_policy *policy,
			      const struct pml_machine *machine,
			      const struct lint_names *names,
			      const struct pml_log *log);

/*
 * What check adds where a measurement is saved: a soft limit, at the top
 * level or in a rule, worked out for MACHINE, below RING bytes, what one
 * io_uring ring of ENTRIES entries costs on the kernel RELEASE (as
 * `memlockctl measure` found it).  Each is named once, at the setting that gives it.  RING 0
 * (the kernel charges rings to no limit) finds nothing.  These are
 * findings about this host (its kernel).  Returns how many were logged.
 */
struct lint_count lint_ring(const struct pml_policy *policy,
			    const struct pml_machine *machine, uint64_t ring,
			    unsigned entries, const char *release,
			    const struct pml_log *log);

/*
 * Does the later rule LATER match every session that EARLIER matches?
 * True only when that holds for every possible session: LATER has no match
 * key, or for each key LATER has, EARLIER has it too with a subset of its
 * names (or of its uid ranges).
 */
bool lint_rule_covers(const struct pml_rule *later, const struct pml_rule *earlier);

enum lint_overlap {
	LINT_OVERLAP_NEVER,    /* no session can match both (here) */
	LINT_OVERLAP_ANYWHERE, /* on any host, some session can match both */
	/* One names users and the other uid ranges, so only the users' uids
	 * tell, and on this host NAMES gives one of them a uid in the ranges. */
	LINT_OVERLAP_HERE,
};

/*
 * Can one session match both A and B?  Never when a key both have (user,
 * service, uid) has nothing in common.  Where one names users and the
 * other uid ranges, only NAMES can tell (may be NULL, or without
 * user_uid: then it cannot): here, if it gives one of the users a uid in
 * the ranges, else never.  Groups can always overlap.
 */
enum lint_overlap lint_rules_overlap(const struct pml_rule *a, const struct pml_rule *b,
				     const struct lint_names *names);

#endif
