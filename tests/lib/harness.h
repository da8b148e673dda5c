/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Runs a check suite and reports every case as TAP, so that the automake
 * TAP driver (and CI) count cases, not programs.  Cases that cannot run
 * here are reported as skipped, with the reason, never as passed.
 */
#ifndef PML_TEST_HARNESS_H
#define PML_TEST_HARNESS_H

#include <check.h>
#include <stddef.h>

struct pml_skip {
	const char *name;
	const char *reason;
};

/*
 * Runs SUITE (each case in its own forked child) and prints TAP: its
 * cases, then SKIPS, the cases that were not added to it, each as
 * skipped with its reason.  A case in SKIPS that ran all the same is
 * reported as failed: a skip counts only what did not run.
 */
int pml_run_tap(Suite *suite, const struct pml_skip *skips, size_t n_skips);

/* The value of an environment variable the Makefile sets, or abort. */
const char *pml_test_env(const char *name);

#endif
