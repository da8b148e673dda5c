/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What check decides, for the commands that report it too (metrics,
 * nagios): one loader and one lint, so every command counts the same
 * errors and warnings.
 */
#ifndef CLI_CHECK_H
#define CLI_CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "evaluate.h"
#include "lint.h"

/* Room for check_policy_name's text. */
#define CHECK_NAME_MAX (2 * PML_DESCRIBE_MAX + 8)

/* The policy as check's messages name it: the file, or "FILE as TARGET"
 * under --as, escaped. */
void check_policy_name(const struct cli_options *options, char *buf, size_t len);

/* A name the policy uses and this host lacks. */
struct check_name {
	const char *kind; /* "user", "group", "service" */
	char *name;
};

/* What check_policy finds. */
struct check_result {
	struct pml_policy policy;
	struct pml_machine machine;
	struct lint_count count;
	struct check_name *missing; /* each name once, in the policy's order */
	size_t n_missing;
};

/*
 * Loads the policy OPTIONS names (cli_source_init) and lints it: errors
 * and warnings on stderr, NAME in the closing one, the notes about a
 * candidate's owner and mode on NOTES.  Returns CLI_EXIT_OK with *OUT
 * filled (free it with check_result_free), or CLI_EXIT_FAIL: the policy
 * is invalid, or could not be read.
 */
int check_policy(const struct cli_options *options, const char *name, FILE *notes,
		 struct check_result *out);
void check_result_free(struct check_result *result);

/* How many of COUNT's host warnings are of the CLI_HOST_ KINDS. */
unsigned check_host_warnings(unsigned kinds, struct lint_count count);

#endif
