/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The PAM entry points, and the only symbols pam_memlock.so exports.
 * Each stays a few lines: the work is in the convenience library.
 */
#define PAM_SM_SESSION
#include <security/pam_modules.h>

#include "session.h"

PAM_EXTERN int pam_sm_open_session(pam_handle_t *pamh, int flags, int argc,
				   const char **argv)
{
	/* Nothing is ever shown to the user, so PAM_SILENT needs no handling. */
	(void)flags;
	return pml_session_open(pamh, argc, argv);
}

PAM_EXTERN int pam_sm_close_session(pam_handle_t *pamh, int flags, int argc,
				    const char **argv)
{
	/* The limit belongs to the session's processes; nothing to undo. */
	(void)pamh;
	(void)flags;
	(void)argc;
	(void)argv;
	return PAM_SUCCESS;
}
