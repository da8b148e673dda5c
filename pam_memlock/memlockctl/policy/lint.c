/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The "legal but likely wrong" warnings of `memlockctl check`: the limits
 * of each level on this machine, the names this host knows, and top-level
 * keys that drop-ins set twice; the order of the rules is lint_order.c's.
 * Limits are worked out by pml_resolve, rule by rule, the module's own
 * code, so that these warnings can never disagree with what the module
 * would do.
 */
#include "lint.h"

#include <stdio.h>
#include <string.h>

#include "output/text.h"

#define TEXT_MAX 128

void pml_lint_warn(const struct pml_policy *policy, struct pml_origin at,
		   enum pml_finding kind, const struct pml_log *log,
		   struct pml_lint_count *count, const char *fmt, ...)
{
	char message[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	pml_log_at(log, LOG_WARNING, pml_policy_file_name(policy, at), at.line,
		   "%s: %s", kind == PML_FINDING_HOST ? "host warning" : "warning",
		   message);
	if (kind == PML_FINDING_HOST)
		count->host++;
	else
		count->policy++;
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
				 const struct pml_log *log, struct pml_lint_count *count)
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
	pml_lint_warn(level->policy, at, shares ? PML_FINDING_HOST : PML_FINDING_POLICY,
		      log, count,
		      "%s soft limit (%s) is above %s hard limit (%s)%s; sessions get soft lowered to %s",
		      level->rule != NULL ? "this rule's" : "the", soft,
		      level->rule != NULL ? "its" : "the", hard,
		      shares ? " on this machine" : "", hard);
}

static void lint_share_side(const struct level *level, const struct pml_side *side,
			    const struct pml_log *log, struct pml_lint_count *count)
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
	pml_lint_warn(level->policy, own(level, side->from) ? side->from->at : bound->at,
		      PML_FINDING_HOST, log, count,
		      "%s \"%s\" comes to %s on this machine, %s the %s (%s): the %s decides, not the share",
		      pml_key_name(side->from->key), share, came,
		      side->clamp == PML_CLAMP_FLOOR ? "below" : "above", which, limit,
		      which);
	count->bounds++;
}

static void lint_shares(const struct level *level, const struct pml_log *log,
			struct pml_lint_count *count)
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
		       struct pml_lint_count *count)
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
			pml_lint_warn(level->policy, s->at, PML_FINDING_POLICY, log, count,
				      "%s \"0\": no memory can be locked, so mlock, io_uring and RDMA fail; the kernel's own default is 8 MiB (64 KiB before Linux 5.16)",
				      pml_key_name(s->key));
		else if (s->amount.unitless)
			pml_lint_warn(level->policy, s->at, PML_FINDING_POLICY, log, count,
				      "%s \"%llu\" is %s, below the kernel's own default of 64 KiB before Linux 5.16: a size without a unit is in bytes, where limits.conf counts memlock in KiB; did you mean \"%llu KiB\"?",
				      pml_key_name(s->key), bytes, shown, bytes);
		else
			pml_lint_warn(level->policy, s->at, PML_FINDING_POLICY, log, count,
				      "%s is %s, below the kernel's own default of 64 KiB before Linux 5.16: mlock, io_uring and RDMA get next to nothing",
				      pml_key_name(s->key), shown);
	}
}

/* A rule's floor or ceiling, where both its sides are fixed sizes. */
static void lint_useless_bounds(const struct level *level, const struct pml_log *log,
				struct pml_lint_count *count)
{
	static const enum pml_key bounds[] = { PML_KEY_FLOOR, PML_KEY_CEILING };
	const struct pml_decision *d = &level->decision;
	size_t i;

	if (level->rule == NULL || is_share(&d->soft) || is_share(&d->hard))
		return;
	for (i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		const struct pml_setting *s = &level->rule->settings.v[bounds[i]];

		if (s->set)
			pml_lint_warn(level->policy, s->at, PML_FINDING_POLICY, log, count,
				      "%s has no effect: this rule's limits are fixed sizes, and only a share of RAM is held between floor and ceiling",
				      pml_key_name(s->key));
	}
}

static void lint_level(const struct pml_policy *policy, const struct pml_rule *rule,
		       const struct pml_machine *machine, const struct pml_log *log,
		       struct pml_lint_count *count)
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
		      const struct pml_log *log, struct pml_lint_count *count)
{
	char shown[TEXT_MAX];
	size_t i;

	for (i = 0; known != NULL && i < list->n; i++) {
		if (earlier_in_list(list, i) || known(list->v[i], ctx) != 0)
			continue;
		pml_lint_warn(policy, rule->at, PML_FINDING_HOST, log, count,
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
			  struct pml_lint_count *count)
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
		pml_lint_warn(policy, s->at, PML_FINDING_POLICY, log, count,
			      "%s = \"%s\" replaces %s = \"%s\" of the earlier drop-in %s:%u: of two drop-ins that set a top-level key, the later by name wins; set each key in one file",
			      pml_key_name(key), now, pml_key_name(key), before,
			      pml_policy_file_name(policy, old->at), old->at.line);
	}
}

struct pml_lint_count pml_lint(const struct pml_policy *policy,
			       const struct pml_machine *machine,
			       const struct pml_lint_names *names,
			       const struct pml_log *log)
{
	struct pml_lint_count count = { .policy = 0 };
	size_t i;

	lint_level(policy, NULL, machine, log, &count);
	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		pml_lint_order(policy, i, machine, names, log, &count);
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

struct pml_lint_count pml_lint_ring(const struct pml_policy *policy,
				    const struct pml_machine *machine, uint64_t ring,
				    unsigned entries, const char *release,
				    const struct pml_log *log)
{
	struct pml_decision d;
	char soft[TEXT_MAX], need[TEXT_MAX];
	struct pml_lint_count count = { 0 };
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
		pml_lint_warn(policy, d.soft.from->at, PML_FINDING_HOST, log, &count,
			      "a soft limit of %s cannot hold one io_uring ring of %u entries on Linux %s, which needs %s (memlockctl measure): io_uring_queue_init fails with ENOMEM",
			      soft, entries, release, need);
	}
	return count;
}
