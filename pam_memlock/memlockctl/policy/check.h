/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What check decides, for the commands that report it too (metrics,
 * nagios): one loader and one lint, so every command counts the same
 * errors and warnings.
 */
#ifndef PML_CLI_CHECK_H
#define PML_CLI_CHECK_H

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

/*
 * Loads the policy OPTIONS names (cli_source_init) and lints it: errors
 * and warnings on stderr, NAME in the closing one, the notes about a
 * candidate's owner and mode on NOTES.  Returns CLI_EXIT_OK
 * with *POLICY loaded (free it with pml_policy_free) and *COUNT its
 * warnings, or CLI_EXIT_FAIL: the policy is invalid, or could not be read.
 */
int check_policy(const struct cli_options *options, const char *name, FILE *notes,
		 struct pml_policy *policy, struct pml_lint_count *count);

#endif
