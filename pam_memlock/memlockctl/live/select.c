/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* Which processes status, apply, metrics and nagios look at (live.h). */
#include "live.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>

#include "cli.h"
#include "output/text.h"

/* The uid of each user NAMES names: 0, or -ESRCH with *unknown the first
 * name NSS does not know, or another -errno. */
static int user_uids(const char *const *names, size_t n, uid_t *uids, const char **unknown)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct passwd *pw;

		errno = 0;
		pw = getpwnam(names[i]);
		if (pw == NULL) {
			*unknown = names[i];
			return errno == 0 || errno == ENOENT || errno == ESRCH
				       ? -ESRCH
				       : -errno;
		}
		uids[i] = pw->pw_uid;
	}
	return 0;
}

int live_select(const struct cli_options *options,
		struct live_selection *selection)
{
	const char *unknown = NULL;
	size_t i;
	int rc;

	*selection = (struct live_selection){
		.which = options->all		? LIVE_ALL
			 : options->n_users > 0 ? LIVE_USERS
						: LIVE_SESSIONS,
		.n_uids = options->n_users,
	};
	rc = user_uids(options->users, options->n_users, selection->uids,
		       &unknown);
	if (rc < 0) {
		fprintf(stderr, "memlockctl: user ");
		cli_print_quoted(stderr, unknown);
		fprintf(stderr, rc == -ESRCH ? " is unknown\n"
					     : ": the user database could not be read\n");
		return CLI_EXIT_FAIL;
	}
	for (i = 0; i < selection->n_uids; i++)
		selection->root_named |= selection->uids[i] == 0;
	return CLI_EXIT_OK;
}
