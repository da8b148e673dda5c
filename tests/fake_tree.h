/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A directory that stands in for / in the tests of code whose root is
 * injectable (doctor's --root, status's /proc, the cgroup base).
 */
#ifndef PML_TEST_FAKE_TREE_H
#define PML_TEST_FAKE_TREE_H

/* Writes TEXT to ROOT/PATH (PATH with or without its leading '/'),
 * making the directories on the way; fails the case on an error. */
void pml_tree_put(const char *root, const char *path, const char *text);

#endif
