/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A directory that stands in for / in the tests of code whose root is
 * injectable (doctor's --root, status's /proc, the cgroup base).
 */
#ifndef PML_TEST_FAKE_TREE_H
#define PML_TEST_FAKE_TREE_H

#include <stddef.h>

/* Makes a new empty directory /tmp/pml-test-NAME-XXXXXX, mode 0755, and
 * puts its path in ROOT (LEN bytes); fails the case on an error. */
void pml_tree_new(char *root, size_t len, const char *name);

/* Removes ROOT and everything under it; fails the case on an error. */
void pml_tree_remove(const char *root);

/* Writes TEXT to ROOT/PATH (PATH with or without its leading '/'),
 * making the directories on the way; fails the case on an error. */
void pml_tree_put(const char *root, const char *path, const char *text);

#endif
