/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Prints what the loader makes of each file named on the command line, so
 * that two builds (libconfig 1.5 and 1.7.3) can be compared with diff:
 *
 *   == NAME
 *   NAME:LINE: message            (every line the loader logged)
 *   refused
 * or
 *   == NAME
 *   accepted
 *   top: limit 8388608 bytes at 1;          (every setting, rule and name read)
 *   rule at 3: user "a" "b"; limit 1% at 3;
 *
 * Each text goes through pml_policy_add_text and pml_policy_validate, as
 * the module's loader does after the safe open; NAME is the file's base
 * name, so the output does not depend on where the files are.  Not a test
 * of its own: .ci/libconfig-compare.sh runs it in both builds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

/* Twice the loader's cap, as in tests/lib/golden.c. */
#define TEXT_MAX (1 << 20)

static void print_line(void *ctx, int priority, const char *message)
{
	(void)ctx;
	(void)priority;
	printf("%s\n", message);
}

static const struct pml_log to_stdout = { print_line, NULL, LOG_WARNING };

static void print_names(const char *key, const struct pml_names *names)
{
	char buf[256];
	size_t i;

	if (names->n == 0)
		return;
	printf(" %s", key);
	for (i = 0; i < names->n; i++)
		printf(" %s", pml_quote(names->v[i], buf, sizeof(buf)));
	printf(";");
}

static void print_settings(const struct pml_settings *settings)
{
	char buf[64];
	enum pml_key key;

	for (key = 0; key < PML_KEY_COUNT; key++) {
		const struct pml_setting *s = &settings->v[key];

		if (!s->set)
			continue;
		if (key == PML_KEY_MODE)
			snprintf(buf, sizeof(buf), "%s", pml_mode_name(s->mode));
		else if (key == PML_KEY_SHARE_OF)
			snprintf(buf, sizeof(buf), "%s", pml_base_name(s->base));
		else if (s->amount.kind == PML_AMOUNT_SHARE)
			pml_format_share(s->amount.share, buf, sizeof(buf));
		else if (s->amount.kind == PML_AMOUNT_PAGE)
			snprintf(buf, sizeof(buf), "page");
		else
			snprintf(buf, sizeof(buf), "%llu bytes",
				 (unsigned long long)s->amount.bytes);
		printf(" %s %s at %u;", pml_key_name(key), buf, s->at.line);
	}
}

static void print_policy(const struct pml_policy *policy)
{
	size_t i, j;

	printf("accepted\ntop:");
	print_settings(&policy->top);
	printf("\n");
	for (i = 0; i < policy->n_rules; i++) {
		const struct pml_rule *rule = &policy->rules[i];

		printf("rule at %u:", rule->at.line);
		print_names("user", &rule->users);
		print_names("group", &rule->groups);
		print_names("service", &rule->services);
		for (j = 0; j < rule->n_uids; j++)
			printf(" uid %u-%u;", (unsigned)rule->uids[j].first,
			       (unsigned)rule->uids[j].last);
		print_settings(&rule->settings);
		printf("\n");
	}
}

static int one(const char *path, char *text)
{
	const char *name = strrchr(path, '/') != NULL ? strrchr(path, '/') + 1 : path;
	struct pml_policy policy;
	FILE *f = fopen(path, "re");
	size_t len;
	int rc;

	if (f == NULL) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	len = fread(text, 1, TEXT_MAX, f);
	text[len] = '\0';
	fclose(f);
	printf("== %s\n", name);
	fflush(stdout);
	pml_policy_init(&policy);
	rc = pml_policy_add_text(&policy, name, text, len, &to_stdout);
	if (rc == 0)
		rc = pml_policy_validate(&policy, 4096, &to_stdout);
	fflush(stdout);
	if (rc == 0)
		print_policy(&policy);
	else if (rc == -EINVAL)
		printf("refused\n");
	else
		printf("error %d\n", rc);
	pml_policy_free(&policy);
	return 0;
}

int main(int argc, char **argv)
{
	char *text = malloc(TEXT_MAX + 1);
	int i, status = 0;

	if (text == NULL)
		return 1;
	for (i = 1; i < argc; i++)
		if (one(argv[i], text) < 0)
			status = 1;
	free(text);
	return status;
}
