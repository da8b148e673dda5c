/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * libFuzzer target: a whole policy text, the way the module reads it after
 * the safe open: pml_policy_add_text (the text check, libconfig, the
 * parser), pml_policy_validate, then pml_decide for a few sessions on a
 * few machines.  Checks, beyond "no crash, no undefined behaviour, no
 * leak": every refusal is logged, and every decision keeps soft <= hard,
 * keeps a share of RAM between its floor and ceiling, and points at a rule
 * and settings that belong to the policy.  And nothing is silently dropped:
 * an accepted text with an unknown setting appended after it must be
 * refused for that setting (libconfig 1.5 drops the rest of a file after an
 * unclosed comment or string, which would half-apply a policy).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "policy.h"
#include "safe_read.h"

#define SENTINEL "pml_sentinel_zz"

static unsigned errors_logged, sentinel_named;

static void count_errors(void *ctx, int priority, const char *message)
{
	(void)ctx;
	/* Touch the whole message, so that ASan sees a bad one. */
	if (priority <= LOG_ERR && strlen(message) > 0)
		errors_logged++;
	if (strstr(message, SENTINEL) != NULL)
		sentinel_named++;
}

static const struct pml_log fuzz_log = { count_errors, NULL, LOG_DEBUG };

static const char *root_groups[] = { "root", "audio" };
static const char *user_groups[] = { "users", "audio", "ci" };

static const struct pml_identity identities[] = {
	{ .user = "root", .service = "sshd", .looked_up = true, .uid_known = true, .uid = 0,
	  .groups = (char **)root_groups, .n_groups = 2 },
	{ .user = "alice", .service = "login", .looked_up = true, .uid_known = true, .uid = 1000,
	  .groups = (char **)user_groups, .n_groups = 3 },
	{ .user = "ci", .looked_up = true, .uid_known = true, .uid = 4294967294u },
	{ .user = "nobody", .service = "su" },
};

static const struct pml_machine machines[] = {
	{ .ram = (uint64_t)8 << 30, .page_size = 4096,
	  .available = { .bytes = (uint64_t)1 << 30 } },
	{ .ram = 1, .page_size = 65536, .available = { .bytes = 1 } },
	{ .ram = UINT64_MAX, .page_size = 4096, .available = { .bytes = UINT64_MAX } },
	{ .ram = 0, .page_size = 0, .available = { .bytes = 0 } },
};

/* S is the rule's own, the top level's or a built-in default. */
static int setting_in(const struct pml_policy *policy, const struct pml_rule *rule,
		      const struct pml_setting *s)
{
	switch (s->level) {
	case PML_LEVEL_BUILTIN:
		return s == pml_builtin(s->key);
	case PML_LEVEL_TOP:
		return s == &policy->top.v[s->key];
	case PML_LEVEL_RULE:
		return rule != NULL && s == &rule->settings.v[s->key];
	}
	return 0;
}

static void check_side(const struct pml_policy *policy,
		       const struct pml_decision *d, const struct pml_side *side)
{
	if (!setting_in(policy, d->rule, side->from))
		abort();
	if (side->from->amount.kind == PML_AMOUNT_SHARE &&
	    side->floor <= side->ceiling &&
	    (side->wanted < side->floor || side->wanted > side->ceiling))
		abort();
	if (side->bytes != side->wanted && !(side == &d->soft && d->soft_lowered_to_hard))
		abort();
}

static void check_decision(const struct pml_policy *policy,
			   const struct pml_decision *d)
{
	if (d->soft.bytes > d->hard.bytes)
		abort();
	if (d->rule != NULL &&
	    (d->rule < policy->rules || d->rule >= policy->rules + policy->n_rules))
		abort();
	if (!setting_in(policy, d->rule, d->mode) || d->mode->key != PML_KEY_MODE)
		abort();
	if (d->mode->mode != PML_MODE_RAISE && d->mode->mode != PML_MODE_SET)
		abort();
	check_side(policy, d, &d->soft);
	check_side(policy, d, &d->hard);
}

static void check_nothing_dropped(const char *text, size_t size)
{
	static const char tail[] = "\n" SENTINEL " = \"x\";\n";
	struct pml_policy policy;
	char *longer = malloc(size + sizeof(tail));
	int rc;

	if (longer == NULL)
		return;
	memcpy(longer, text, size);
	memcpy(longer + size, tail, sizeof(tail));
	errors_logged = sentinel_named = 0;
	pml_policy_init(&policy);
	rc = pml_policy_add_text(&policy, "fuzz.conf", longer,
				 size + sizeof(tail) - 1, &fuzz_log);
	if (rc == 0 || (rc == -EINVAL && sentinel_named == 0))
		abort();	/* the appended setting was never read */
	pml_policy_free(&policy);
	free(longer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pml_policy policy;
	struct pml_decision decision;
	char *text;
	size_t i, j;
	int rc;

	/* The safe open reads at most this much. */
	if (size > PML_FILE_MAX)
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	errors_logged = 0;
	pml_policy_init(&policy);
	rc = pml_policy_add_text(&policy, "fuzz.conf", text, size, &fuzz_log);
	if (rc == 0)
		rc = pml_policy_validate(&policy, 4096, &fuzz_log);
	if (rc == -EINVAL && errors_logged == 0)
		abort();	/* refused without saying why */
	if (rc == 0 && errors_logged != 0)
		abort();	/* accepted, yet an error was logged */
	if (rc == 0) {
		for (i = 0; i < sizeof(identities) / sizeof(identities[0]); i++) {
			for (j = 0; j < sizeof(machines) / sizeof(machines[0]); j++) {
				pml_decide(&policy, &identities[i], &machines[j], &decision);
				check_decision(&policy, &decision);
			}
		}
	}
	pml_policy_free(&policy);
	if (rc == 0)
		check_nothing_dropped(text, size);
	free(text);
	return 0;
}
