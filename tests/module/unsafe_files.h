/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What the unsafe-file tests share (tests/module/test_unsafe.c, the main file
 * through the module; tests/module/test_unsafe_dropins.c, memlock.d/ through the
 * loader): files of each unsafe kind made in a private directory, and one
 * runner that forks each case with a timeout and skips, with the reason,
 * what this process cannot make.
 */
#ifndef PML_TEST_UNSAFE_FILES_H
#define PML_TEST_UNSAFE_FILES_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "pam_session.h"

#define KiB ((uint64_t)1 << 10)
#define GOOD_POLICY "limit = \"8 MiB\";\n"
/* Owns the files of the "not owned by root" cases; no such user is needed. */
#define OTHER_UID 1234

extern struct pml_pam_env env;	/* the private directory; removed after each case */
extern uint64_t start_hard;	/* the hard limit this machine gives */

/* A valid policy padded with a comment to exactly SIZE bytes, mode MODE. */
void write_sized(const char *path, size_t size, mode_t mode);
/* GOOD_POLICY at PATH, mode MODE. */
void write_policy(const char *path, mode_t mode);
/* A bound unix socket at PATH. */
void make_socket(const char *path);
/* PATH made from NAME, whose "%s" is the private directory; two calls may
 * share a statement (the second call's result does not overwrite the
 * first's). */
const char *in_dir(const char *name);

/* Runs CASES, N of them, as the suite NAME and prints TAP: each in its own
 * child with a 10 s timeout, env removed after it.  Without root a case is
 * reported skipped with the reason; MKNOD_CASE, the one that makes a device
 * node, likewise without CAP_MKNOD. */
int run_unsafe_cases(const char *name, const TTest *const *cases, size_t n,
		     const TTest *mknod_case);

#endif
