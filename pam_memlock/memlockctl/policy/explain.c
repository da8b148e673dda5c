/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl explain USER: what the module would set for USER on this
 * machine, and why.  It calls pml_evaluate as the module's session code
 * does, so the two cannot disagree, with two differences of scope: every
 * group a rule names is looked up, so that every rule that matches is
 * listed (the decision is the same), and the base of "available" memory
 * is the user's slice, not this command's own cgroup.  Only the printing
 * is its own.
 */
#include "cli.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "measure/measure.h"
#include "output/json.h"
#include "output/text.h"
#include "evaluate.h"
#include "size.h"

#define ORIGIN_MAX (PML_DESCRIBE_MAX + 200)
#define HUMAN_MAX 32

static const char *level_name(enum pml_level level)
{
	return level == PML_LEVEL_RULE ? "rule" : "top level";
}

/* "limit = "1%" at FILE:LINE (rule)", or "built-in default". */
static void describe(const struct pml_evaluation *e, const struct pml_setting *s,
		     char *buf, size_t len)
{
	char at[PML_DESCRIBE_MAX], value[CLI_VALUE_MAX];

	if (s->level == PML_LEVEL_BUILTIN) {
		snprintf(buf, len, "built-in default");
		return;
	}
	pml_describe_origin(&e->policy, s, at, sizeof(at));
	cli_format_value(s, value, sizeof(value));
	snprintf(buf, len, "%s = \"%s\" at %s (%s)", pml_key_name(s->key), value,
		 at, level_name(s->level));
}

/* "8388608 bytes (8 MiB)", "unlimited". */
static void amount_text(uint64_t bytes, char *buf, size_t len)
{
	char human[HUMAN_MAX];

	if (bytes == PML_UNLIMITED) {
		snprintf(buf, len, "unlimited");
		return;
	}
	pml_format_size(bytes, false, human, sizeof(human));
	if (strstr(human, "bytes") != NULL)
		snprintf(buf, len, "%s", human);
	else
		snprintf(buf, len, "%llu bytes (%s)", (unsigned long long)bytes, human);
}

static const char *clamp_text(enum pml_clamp clamp)
{
	switch (clamp) {
	case PML_CLAMP_FLOOR:
		return "raised to the floor";
	case PML_CLAMP_CEILING:
		return "held at the ceiling";
	default:
		return "between floor and ceiling: the share decides";
	}
}

/* Which cgroups the base comes from: there is no session to read. */
static void print_base_scope(const struct pml_evaluation *e, bool assumed_ram)
{
	if (assumed_ram)
		printf("            a hypothetical host's RAM (--ram): no cgroup of this one limits it\n");
	else if (e->machine.available.scope == PML_BASE_USER_SLICE)
		printf("            from the user's slice, user-%u.slice, and the cgroups above it; a session's own cgroup may lower it\n",
		       (unsigned)e->identity.uid);
	else if (e->identity.uid_known)
		printf("            user-%u.slice does not exist now: RAM, the cgroup root and user.slice; the cgroup a session starts in may lower it\n",
		       (unsigned)e->identity.uid);
	else
		printf("            the user has no uid: RAM and the cgroup root; the cgroup a session starts in may lower it\n");
}

static const char *base_scope_name(enum pml_base_scope scope)
{
	return scope == PML_BASE_USER_SLICE ? "user_slice"
	       : scope == PML_BASE_TOP	    ? "top"
					    : "process";
}

static void print_share(const struct pml_evaluation *e, const struct pml_side *side,
			bool assumed_ram)
{
	const struct pml_rule *rule = e->decision.rule;
	const struct pml_setting *floor = pml_pick(&e->policy, rule, PML_KEY_FLOOR);
	const struct pml_setting *ceiling = pml_pick(&e->policy, rule, PML_KEY_CEILING);
	char share[16], a[64], b[64], origin[ORIGIN_MAX];

	pml_format_share(side->from->amount.share, share, sizeof(share));
	amount_text(e->machine.ram, a, sizeof(a));
	printf("  RAM:      %s\n", a);
	describe(e, side->share_of, origin, sizeof(origin));
	printf("  share_of: %s, %s\n", pml_base_name(side->share_of->base), origin);
	if (side->share_of->base == PML_BASE_AVAILABLE) {
		amount_text(side->base, a, sizeof(a));
		printf("  base:     %s, ", a);
		if (e->machine.available.from[0] != '\0')
			cli_print_escaped(stdout, e->machine.available.from);
		else
			printf("RAM: no memory limit of a cgroup is below it");
		printf("\n");
		print_base_scope(e, assumed_ram);
	}
	amount_text(side->share_exact, a, sizeof(a));
	printf("  share:    %s of %s = %s\n", share,
	       side->share_of->base == PML_BASE_RAM ? "RAM" : "the base", a);
	amount_text(side->share_paged, a, sizeof(a));
	amount_text(e->machine.page_size, b, sizeof(b));
	printf("  paged:    %s, rounded down to a whole page of %s\n", a, b);
	amount_text(side->floor, a, sizeof(a));
	describe(e, floor, origin, sizeof(origin));
	printf("  floor:    %s, %s\n", a, origin);
	amount_text(side->ceiling, a, sizeof(a));
	describe(e, ceiling, origin, sizeof(origin));
	printf("  ceiling:  %s, %s\n", a, origin);
	printf("  result:   %s\n", clamp_text(side->clamp));
}

static void print_side(const struct pml_evaluation *e, const char *name,
		       const struct pml_side *side, bool lowered, bool assumed_ram)
{
	char bytes[64], origin[ORIGIN_MAX];

	amount_text(side->bytes, bytes, sizeof(bytes));
	printf("%s:%*s%s\n", name, (int)(11 - strlen(name)), "", bytes);
	describe(e, side->from, origin, sizeof(origin));
	printf("  from:     %s\n", origin);
	if (side->from->amount.kind == PML_AMOUNT_SHARE)
		print_share(e, side, assumed_ram);
	if (lowered) {
		amount_text(side->wanted, bytes, sizeof(bytes));
		printf("  lowered:  the policy says %s, above the hard limit; the module lowers soft to hard\n",
		       bytes);
	}
}

static bool user_known(const struct pml_evaluation *e)
{
	if (e->identity.looked_up)
		return true;
	errno = 0;
	return getpwnam(e->identity.user) != NULL;
}

static const char *decided_by(const struct pml_evaluation *e, char *buf, size_t len)
{
	const struct pml_decision *d = &e->decision;

	if (d->rule != NULL) {
		char at[PML_DESCRIBE_MAX];

		pml_describe_at(&e->policy, d->rule->at, at, sizeof(at));
		snprintf(buf, len, "rule %s", at);
	} else if (d->soft.from->level == PML_LEVEL_BUILTIN &&
		   d->hard.from->level == PML_LEVEL_BUILTIN &&
		   d->mode->level == PML_LEVEL_BUILTIN)
		snprintf(buf, len, "built-in default%s",
			 e->policy.n_rules > 0 ? " (no rule matches)" : "");
	else
		snprintf(buf, len, "top level%s",
			 e->policy.n_rules > 0 ? " (no rule matches)" : "");
	return buf;
}

/* Would RULE, which has a service key, match this user for one of its
 * services?  Returns that service, or NULL. */
static const char *unconsidered_service(const struct pml_evaluation *e,
					const struct pml_rule *rule)
{
	struct pml_identity as = e->identity;
	size_t i;

	if (e->identity.service != NULL || rule->services.n == 0)
		return NULL;
	for (i = 0; i < rule->services.n; i++) {
		as.service = rule->services.v[i];
		if (pml_rule_matches(rule, &as))
			return rule->services.v[i];
	}
	return NULL;
}

/*
 * Every rule that matches, in file order: the last decides, and each
 * earlier one is overridden by it.  Without --service, the rules that
 * would match for some service, which explain could not consider.
 */
static void print_rules(const struct pml_evaluation *e)
{
	const struct pml_policy *policy = &e->policy;
	char at[PML_DESCRIBE_MAX], winner[PML_DESCRIBE_MAX];
	unsigned matched = 0, skipped = 0;
	size_t i;

	for (i = 0; i < policy->n_rules; i++)
		matched += pml_rule_matches(&policy->rules[i], &e->identity);
	if (matched > 0) {
		pml_describe_at(policy, e->decision.rule->at, winner, sizeof(winner));
		printf("rules:      %u of %zu match; the last one decides\n", matched,
		       policy->n_rules);
	}
	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		if (!pml_rule_matches(rule, &e->identity))
			continue;
		pml_describe_at(policy, rule->at, at, sizeof(at));
		if (rule == e->decision.rule)
			printf("  %s  decides\n", at);
		else
			printf("  %s  overridden by %s\n", at, winner);
	}
	for (i = 0; i < policy->n_rules; i++)
		skipped += unconsidered_service(e, &policy->rules[i]) != NULL;
	if (skipped == 0)
		return;
	printf("not considered: %u %s with a service key, for this user over",
	       skipped, skipped == 1 ? "rule" : "rules");
	for (i = 0; i < policy->n_rules; i++) {
		const char *service = unconsidered_service(e, &policy->rules[i]);

		if (service == NULL)
			continue;
		pml_describe_at(policy, policy->rules[i].at, at, sizeof(at));
		printf(" ");
		cli_print_quoted(stdout, service);
		printf(" (%s)", at);
	}
	printf("; give --service to include them\n");
}

static void print_text(const struct pml_evaluation *e, const struct measure_rings *rings,
		       const struct cli_options *options)
{
	const struct pml_decision *d = &e->decision;
	char buf[ORIGIN_MAX];

	printf("user:       ");
	cli_print_quoted(stdout, e->identity.user);
	if (!user_known(e))
		printf(" (unknown to NSS; no rule needs their uid or groups)");
	printf("\nservice:    ");
	if (e->identity.service != NULL)
		cli_print_quoted(stdout, e->identity.service);
	else
		printf("(none)");
	printf("\n");
	cli_print_hypothetical(&e->machine, options);
	printf("decided by: %s\n", decided_by(e, buf, sizeof(buf)));
	print_rules(e);
	pml_describe_origin(&e->policy, d->mode, buf, sizeof(buf));
	printf("mode:       %s (%s%s%s)\n", pml_mode_name(d->mode->mode), buf,
	       d->mode->level == PML_LEVEL_BUILTIN ? "" : ", ",
	       d->mode->level == PML_LEVEL_BUILTIN ? "" : level_name(d->mode->level));
	printf("  %s\n", d->mode->mode == PML_MODE_SET
				 ? "each limit is set to exactly this, lowering it if need be"
				 : "each limit becomes the larger of the session's current one and this");
	/* explain reads no unit and no pam_limits: the start is doctor's. */
	if (d->mode->mode == PML_MODE_RAISE)
		printf("  a session that starts higher (on Debian 12 pam_limits first gives it PID 1's limit) keeps its limit: this is no cap, mode = \"set\" makes one; `memlockctl doctor` shows each path's start\n");
	print_side(e, "soft", &d->soft, d->soft_lowered_to_hard, options->assume.ram != 0);
	/* The soft limit is the one the kernel holds a process to. */
	printf("  fits:     ");
	measure_print_fits(stdout, rings, d->soft.bytes);
	printf("\n");
	print_side(e, "hard", &d->hard, false, options->assume.ram != 0);
}

/* {"file": F, "line": L, "level": "rule"} or null for a built-in default. */
static void json_origin(struct cli_json *j, const struct pml_evaluation *e,
			const struct pml_setting *s)
{
	if (s->level == PML_LEVEL_BUILTIN) {
		cli_json_null(j);
		return;
	}
	cli_json_open_object(j);
	cli_json_member_string(j, "file", pml_policy_file_name(&e->policy, s->at));
	cli_json_member_uint(j, "line", s->at.line);
	cli_json_member_string(j, "level", level_name(s->level));
	cli_json_close_object(j);
}

static void json_side(struct cli_json *j, const struct pml_evaluation *e,
		      const struct pml_side *side)
{
	const struct pml_rule *rule = e->decision.rule;
	bool builtin = side->from->level == PML_LEVEL_BUILTIN;
	char text[CLI_VALUE_MAX];

	cli_json_open_object(j);
	cli_json_member_bytes(j, "bytes", side->bytes);
	cli_json_key(j, "human");
	pml_format_size(side->bytes, false, text, sizeof(text));
	cli_json_string(j, text);
	cli_json_member_string(j, "setting", builtin ? NULL : pml_key_name(side->from->key));
	cli_json_key(j, "value");
	if (!builtin) {
		cli_format_value(side->from, text, sizeof(text));
		cli_json_string(j, text);
	} else {
		cli_json_null(j);
	}
	cli_json_key(j, "origin");
	json_origin(j, e, side->from);
	cli_json_key(j, "share");
	if (side->from->amount.kind != PML_AMOUNT_SHARE) {
		cli_json_null(j);
	} else {
		cli_json_open_object(j);
		cli_json_key(j, "percent");
		pml_format_share(side->from->amount.share, text, sizeof(text));
		cli_json_string(j, text);
		cli_json_member_uint(j, "ram", e->machine.ram);
		cli_json_member_string(j, "share_of", pml_base_name(side->share_of->base));
		cli_json_key(j, "share_of_origin");
		json_origin(j, e, side->share_of);
		cli_json_member_uint(j, "base", side->base);
		cli_json_member_string(j, "base_from",
				       side->share_of->base == PML_BASE_AVAILABLE &&
						       e->machine.available.from[0] != '\0'
					       ? e->machine.available.from
					       : NULL);
		cli_json_member_string(j, "base_scope",
				       side->share_of->base == PML_BASE_AVAILABLE
					       ? base_scope_name(e->machine.available.scope)
					       : NULL);
		cli_json_member_uint(j, "exact", side->share_exact);
		cli_json_member_uint(j, "page_rounded", side->share_paged);
		cli_json_member_bytes(j, "floor", side->floor);
		cli_json_key(j, "floor_origin");
		json_origin(j, e, pml_pick(&e->policy, rule, PML_KEY_FLOOR));
		cli_json_member_bytes(j, "ceiling", side->ceiling);
		cli_json_key(j, "ceiling_origin");
		json_origin(j, e, pml_pick(&e->policy, rule, PML_KEY_CEILING));
		cli_json_member_string(j, "clamp",
				       side->clamp == PML_CLAMP_FLOOR	  ? "floor"
				       : side->clamp == PML_CLAMP_CEILING ? "ceiling"
									  : "none");
		cli_json_close_object(j);
	}
	cli_json_close_object(j);
}

/* Opens {"file": F, "line": L, ... for RULE; the caller closes it. */
static void json_open_rule(struct cli_json *j, const struct pml_evaluation *e,
			   const struct pml_rule *rule)
{
	cli_json_open_object(j);
	cli_json_member_string(j, "file", pml_policy_file_name(&e->policy, rule->at));
	cli_json_member_uint(j, "line", rule->at.line);
}

static void print_json(const struct pml_evaluation *e, const struct measure_rings *rings,
		       const struct cli_options *options)
{
	const struct pml_decision *d = &e->decision;
	struct cli_json j;
	size_t i;

	cli_json_start(&j, stdout);
	cli_json_open_object(&j);
	cli_json_member_string(&j, "user", e->identity.user);
	cli_json_member_bool(&j, "user_known", user_known(e));
	cli_json_member_string(&j, "service", e->identity.service);
	cli_json_member_array(&j, "files");
	for (i = 0; i < e->policy.n_files; i++)
		cli_json_string(&j, e->policy.files[i].name);
	cli_json_close_array(&j);
	cli_json_key(&j, "machine");
	cli_json_machine(&j, &e->machine, options);
	cli_json_key(&j, "rule");
	if (d->rule != NULL) {
		json_open_rule(&j, e, d->rule);
		cli_json_close_object(&j);
	} else {
		cli_json_null(&j);
	}
	cli_json_member_array(&j, "matching_rules");
	for (i = 0; i < e->policy.n_rules; i++) {
		const struct pml_rule *rule = &e->policy.rules[i];

		if (!pml_rule_matches(rule, &e->identity))
			continue;
		json_open_rule(&j, e, rule);
		cli_json_member_bool(&j, "decides", rule == d->rule);
		cli_json_close_object(&j);
	}
	cli_json_close_array(&j);
	cli_json_member_array(&j, "rules_for_other_services");
	for (i = 0; i < e->policy.n_rules; i++) {
		const struct pml_rule *rule = &e->policy.rules[i];
		const char *service = unconsidered_service(e, rule);

		if (service == NULL)
			continue;
		json_open_rule(&j, e, rule);
		cli_json_member_string(&j, "service", service);
		cli_json_close_object(&j);
	}
	cli_json_close_array(&j);
	cli_json_member_string(&j, "mode", pml_mode_name(d->mode->mode));
	cli_json_key(&j, "mode_origin");
	json_origin(&j, e, d->mode);
	cli_json_member_bytes(&j, "soft", d->soft.bytes);
	cli_json_member_bytes(&j, "hard", d->hard.bytes);
	cli_json_member_bool(&j, "soft_lowered_to_hard", d->soft_lowered_to_hard);
	cli_json_key(&j, "soft_detail");
	json_side(&j, e, &d->soft);
	cli_json_key(&j, "soft_fits");
	measure_json_fits(&j, rings, d->soft.bytes);
	cli_json_key(&j, "hard_detail");
	json_side(&j, e, &d->hard);
	cli_json_close_object(&j);
	cli_json_finish(&j);
}

int cli_explain(const struct cli_options *options)
{
	struct cli_source source;
	struct pml_request request = {
		.user = options->user,
		.service = options->service,
	};
	const struct pml_scope scope = {
		.groups = PML_GROUPS_EVERY,
		.pid = PML_NO_PROCESS,
		.assume = options->assume,
	};
	struct pml_evaluation evaluation;
	struct measure_rings rings;
	struct utsname kernel;
	struct cli_log_state state;
	struct pml_log log;
	int rc;

	if (options->unit != NULL)
		return cli_explain_unit(options);
	rc = cli_source_init(options, &source);
	if (rc != CLI_EXIT_OK)
		return rc;
	/* The request the module's session code makes, seen further (every
	 * group, the user's slice), and a candidate (--conf) read whatever
	 * its owner and mode. */
	request.source = source.source;
	cli_log_init(&log, &state);
	rc = pml_evaluate_from(&request, &source.from, &scope, &log, &evaluation);
	if (rc == 0) {
		/* On standard error, apart from what programs read. */
		cli_note_source(stderr, &source);
		/* What measure saved: explain itself only reads. */
		measure_saved_rings(&rings, options->kernel != NULL ? options->kernel
					    : uname(&kernel) == 0   ? kernel.release
								    : "");
		if (options->json)
			print_json(&evaluation, &rings, options);
		else
			print_text(&evaluation, &rings, options);
		pml_evaluation_free(&evaluation);
	}
	cli_source_free(&source);
	return rc < 0 ? CLI_EXIT_FAIL : cli_finish_output(CLI_EXIT_OK);
}
