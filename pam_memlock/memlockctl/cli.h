/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl: the commands, and what they share.  Everything a command
 * knows about the policy it learns from the module's own loader and
 * decision code (libpml): there is no second parser.
 */
#ifndef PML_CLI_H
#define PML_CLI_H

#include <stdbool.h>

#include "decide.h"
#include "log.h"
#include "policy.h"

/* Exit statuses (memlockctl(8), EXIT STATUS). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1 /* invalid policy, unknown user, warnings
				 * under --strict, a write error */
#define CLI_EXIT_USAGE 2

/* What the command line said; each command reads what it takes. */
struct cli_options {
	struct pml_source source; /* the module's default, or --conf */
	const char *user;	  /* explain */
	const char *new_file;	  /* install NEW */
	const char *service;	  /* explain --service */
	bool strict;		  /* check --strict */
	bool strict_host;	  /* check --strict-host */
	bool json;		  /* explain/show/doctor/status/apply --json */
	/* doctor, status --root: the prefix of every path read. */
	const char *root;
	const char **services; /* doctor --service, each */
	size_t n_services;
	const char *const *users; /* status, apply: the USER operands */
	size_t n_users;
	bool all;     /* status, apply --all */
	bool dry_run; /* apply --dry-run */
};

struct live_selection;

/*
 * The processes status and apply look at, from USER operands and --all.
 * Returns CLI_EXIT_OK, or CLI_EXIT_FAIL with a message for a user NSS
 * does not know.
 */
int cli_selection(const struct cli_options *options,
		  struct live_selection *selection);

/* What the logger handed to libpml saw. */
struct cli_log_state {
	unsigned errors, warnings;
};

/*
 * A logger for libpml that prints to stderr: messages that begin with a
 * file name ("FILE:LINE: message") exactly as they are, others after
 * "memlockctl: ".  Debug and info messages are dropped.
 */
void cli_log_init(struct pml_log *log, struct cli_log_state *state);

/* Was the main file there (or are the built-in defaults standing in)? */
bool cli_main_file_read(const struct pml_policy *policy,
			const struct cli_options *options);

/* Flushes stdout; a write error (a full disk, a closed pipe) is a failure. */
int cli_finish_output(int status);

int cli_check(const struct cli_options *options);
int cli_explain(const struct cli_options *options);
int cli_show(const struct cli_options *options);
int cli_doctor(const struct cli_options *options);
int cli_status(const struct cli_options *options);
int cli_apply(const struct cli_options *options);
int cli_install(const struct cli_options *options);

#endif
