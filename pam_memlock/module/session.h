/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The module's one job, behind pam_sm_open_session. */
#ifndef PML_SESSION_H
#define PML_SESSION_H

#include <security/pam_modules.h>

int pml_session_open(pam_handle_t *pamh, int argc, const char **argv);

#endif
