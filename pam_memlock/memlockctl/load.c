/* Loading the policy for a memlockctl command, and reporting on stderr. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"

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
	state->errors = 0;
	state->warnings = 0;
	log->emit = emit_stderr;
	log->ctx = state;
	log->max_priority = LOG_WARNING;
}

int cli_load(const struct cli_options *options, const struct pml_log *log,
	     struct pml_policy *policy, struct pml_machine *machine)
{
	struct pml_load_options load;
	int rc;

	pml_policy_init(policy);
	rc = pml_machine_probe(machine);
	if (rc < 0) {
		pml_log(log, LOG_ERR, "cannot read this machine's memory size: %s",
			strerror(-rc));
		return rc;
	}
	load.path = options->conf;
	load.path_given = options->conf_given;
	load.owner = 0;
	load.page_size = machine->page_size;
	rc = pml_policy_load(&load, log, policy);
	if (rc == -ENOMEM)
		pml_log(log, LOG_ERR, "out of memory");
	return rc;
}

bool cli_main_file_read(const struct pml_policy *policy,
			const struct cli_options *options)
{
	return policy->n_files > 0 &&
	       strcmp(policy->files[0].name, options->conf) == 0;
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
