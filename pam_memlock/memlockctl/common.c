/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* What every memlockctl command shares: reporting on stderr, stdout. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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
		.emit = emit_stderr, .ctx = state, .max_priority = LOG_WARNING,
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
