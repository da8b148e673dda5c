/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* What every memlockctl command shares: reporting on stderr, stdout. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "live/live.h"
#include "output/text.h"

static void emit_stderr(void *ctx, int priority, const char *message)
{
	struct cli_log_state *state = ctx;

	if (priority <= LOG_ERR)
		state->errors++;
	else if (priority == LOG_WARNING)
		state->warnings++;
	/* Policy paths are absolute: a message about a file starts with '/'. */
	if (message[0] == '/')
		fprintf(stderr, "%s\n", message);
	else
		fprintf(stderr, "memlockctl: %s\n", message);
}

void cli_log_init(struct pml_log *log, struct cli_log_state *state)
{
	*state = (struct cli_log_state){ .errors = 0 };
	*log = (struct pml_log){
		.emit = emit_stderr,
		.ctx = state,
		.max_priority = LOG_WARNING,
	};
}

bool cli_main_file_read(const struct pml_policy *policy,
			const struct cli_options *options)
{
	return policy->n_files > 0 &&
	       strcmp(policy->files[0].name, options->source.path) == 0;
}

int cli_finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "memlockctl: cannot write the output: %s\n",
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return status;
}

int cli_selection(const struct cli_options *options,
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
	rc = live_user_uids(options->users, options->n_users, selection->uids,
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
