/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The lint tests' made-up machine and NSS, and their asserts (lint_env.h). */
#include "lint_env.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

const struct pml_machine machine = {
	.ram = (uint64_t)16 << 30, .page_size = 4096,
	.available = { .bytes = (uint64_t)16 << 30 },
};
struct pml_log_buffer logged;
const struct pml_log log_to_buffer = { pml_log_buffer_emit, &logged, LOG_DEBUG };

/* A made-up NSS: names starting "pml-no-such" are unknown, names starting
 * "pml-nss-down" cannot be looked up, every other name exists. */
static int fake_known(const char *name, void *ctx)
{
	(void)ctx;
	if (strncmp(name, "pml-no-such", 11) == 0)
		return 0;
	return strncmp(name, "pml-nss-down", 12) == 0 ? -1 : 1;
}

/* Users "u<N>" have uid N; other known users have none to give. */
static int fake_uid(const char *name, uid_t *uid, void *ctx)
{
	if (name[0] == 'u' && name[1] >= '0' && name[1] <= '9') {
		*uid = (uid_t)strtoul(name + 1, NULL, 10);
		return 1;
	}
	return fake_known(name, ctx) == 1 ? -1 : fake_known(name, ctx);
}

const struct lint_names fake_nss = {
	.user_known = fake_known, .group_known = fake_known,
	.user_uid = fake_uid, .service_known = fake_known,
};

void load(const char *text, struct pml_policy *policy)
{
	pml_policy_init(policy);
	logged.text[0] = '\0';
	ck_assert_msg(pml_policy_add_text(policy, "t.conf", text, strlen(text),
					  &log_to_buffer) == 0 &&
		      pml_policy_validate(policy, machine.page_size, &log_to_buffer) == 0,
		      "policy refused:\n%s", logged.text);
}

struct lint_count counted;

unsigned lint(const char *text)
{
	struct pml_policy policy;

	load(text, &policy);
	counted = lint_policy(&policy, &machine, &fake_nss, &log_to_buffer);
	pml_policy_free(&policy);
	return counted.policy + counted.host;
}

void assert_logged(unsigned got, unsigned count, const char *lines)
{
	ck_assert_msg(got == count, "%u warnings, want %u:\n%s", got, count, logged.text);
	ck_assert_str_eq(logged.text, lines);
}

void assert_lint(const char *text, unsigned count, const char *lines)
{
	assert_logged(lint(text), count, lines);
}

int run_lint_cases(const char *name, const TTest *const *cases, size_t n)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);
	size_t i;

	for (i = 0; i < n; i++)
		tcase_add_test(tc, cases[i]);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
