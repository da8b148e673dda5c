/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The second source file of tests/module/test_rules: its cases of what rules ask
 * of NSS (tests/module/test_rules_nss.c).
 */
#ifndef PML_TEST_RULES_NSS_H
#define PML_TEST_RULES_NSS_H

#include <stdbool.h>

#include "rules_env.h"

/* The NSS cases join MODULE: each only when PAM (sessions can run), and
 * those that need nss_wrapper's fixtures only when NSS too. */
void add_nss_cases(struct cases *module, bool pam, bool nss);

#endif
