/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What the lint tests share (tests/memlockctl/policy/test_lint.c, the warnings about values;
 * tests/memlockctl/policy/test_lint_order.c, about the order of rules): policy texts linted
 * on a made-up machine (16 GiB of RAM, 4 KiB pages) with a made-up NSS, so
 * that every number and name in a message is known.  No files.
 */
#ifndef PML_TEST_LINT_ENV_H
#define PML_TEST_LINT_ENV_H

#include <check.h>
#include <stddef.h>

#include "log_buffer.h"
#include "policy/lint.h"
#include "policy.h"

extern const struct pml_machine machine;
/* What the last load or lint logged. */
extern struct pml_log_buffer logged;
extern const struct pml_log log_to_buffer;
/* Names starting "pml-no-such" are unknown, names starting "pml-nss-down"
 * cannot be looked up, every other name exists; users "u<N>" have uid N,
 * other known users have none to give. */
extern const struct lint_names fake_nss;
/* The kinds of the last lint(). */
extern struct lint_count counted;

/* Loads TEXT as "t.conf", with an empty `logged.text`; the case fails when
 * the policy is refused. */
void load(const char *text, struct pml_policy *policy);
/* Lints TEXT; returns the count, the lines in `logged.text`. */
unsigned lint(const char *text);
/* GOT warnings were COUNT, and `logged.text` is exactly LINES. */
void assert_logged(unsigned got, unsigned count, const char *lines);
/* Linting TEXT gives COUNT warnings, exactly LINES. */
void assert_lint(const char *text, unsigned count, const char *lines);

/* Runs CASES, N of them, as the suite NAME and prints TAP. */
int run_lint_cases(const char *name, const TTest *const *cases, size_t n);

#endif
