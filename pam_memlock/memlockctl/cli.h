/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl: the commands, and what they share.  Everything a command
 * knows about the policy it learns from the module's own loader and
 * decision code (libpml): there is no second parser.
 */
#ifndef CLI_H
#define CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "decide.h"
#include "evaluate.h"
#include "evaluate_from.h"
#include "log.h"
#include "policy.h"

/* Exit statuses (memlockctl(8), EXIT STATUS). */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1 /* invalid policy, unknown user, warnings
				 * under --strict, a write error */
#define CLI_EXIT_USAGE 2

/* The number of elements of array A (not of a pointer). */
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* What the command line said; each command reads what it takes. */
struct cli_options {
	struct pml_source source; /* the module's default, or --conf */
	const char *user;	  /* explain */
	const char *unit;	  /* explain --unit */
	const char *new_file;	  /* install NEW */
	const char *service;	  /* explain, status, apply --service */
	/* check, show, explain --as: the file of the installed tree that
	 * --conf's candidate stands for, absolute. */
	const char *as;
	bool strict;	      /* check --strict */
	unsigned strict_host; /* check, nagios --strict-host: CLI_HOST_ kinds */
	/* check, explain --ram, --page-size: a hypothetical host's facts
	 * (zero: this one's); --kernel: its release, for the saved ring
	 * figures (NULL: this one's). */
	struct pml_assume assume;
	const char *kernel;
	bool json; /* explain/show/doctor/status/apply --json */
	/* doctor, status --root: the prefix of every path read. */
	const char *root;
	const char **services; /* doctor --service, each */
	size_t n_services;
	const char *const *users; /* status, apply: the USER operands */
	size_t n_users;
	bool all;     /* status, apply --all */
	bool dry_run; /* apply --dry-run */
	/* measure: the values as given (the command reads them). */
	const char **entries; /* --entries, each */
	size_t n_entries;
	const char *buffers; /* --buffers */
	const char *rings;   /* --rings */
	const char *output;  /* metrics --output */
	bool per_user;	     /* metrics --per-user */
	long warning;	     /* nagios --warning */
	long critical;	     /* nagios --critical; -1 when not given */
	/* nagios --policy-warning, and --policy-critical (-1 when not given):
	 * thresholds on check's warnings. */
	long policy_warning, policy_critical;
	/* metrics --mode: the mode of --output's file; -1 for 0666 less the
	 * umask. */
	long mode;
};

/* The kinds of host warnings --strict-host names (memlockctl(8)). */
enum cli_host_kind {
	CLI_HOST_NAMES = 1 << 0,  /* users, groups, services the host lacks */
	CLI_HOST_BOUNDS = 1 << 1, /* a floor or ceiling deciding over a share */
	CLI_HOST_OTHER = 1 << 2,  /* every other fact of this host */
};
#define CLI_HOST_ALL (CLI_HOST_NAMES | CLI_HOST_BOUNDS | CLI_HOST_OTHER)

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

/*
 * The policy a command reads.  FROM points at CANDIDATE when there is
 * one, so a cli_source is filled in place and never copied.
 */
struct cli_source {
	struct pml_source source;
	struct pml_from from;
	struct pml_candidate candidate;
	char *main; /* what source.path points to, when it was made */
};

/*
 * The tree the module reads TARGET (absolute) in, with FILE (shown as
 * NAME, may be NULL) read in TARGET's place with OWNER's trust: TARGET
 * is a drop-in in a memlock.d/ (then the tree's main file is the one
 * beside that directory, named as the default one is), that main file,
 * or a file read alone (conf=).  Returns CLI_EXIT_OK, or CLI_EXIT_FAIL
 * with a message: out of memory, or a name in memlock.d/ the module
 * never reads.  Free it with cli_source_free.
 */
int cli_source_tree(const char *target, const char *file, const char *name,
		    uid_t owner, struct cli_source *out);

/*
 * What check, show and explain read: without --conf, the installed
 * policy with the module's checks; with --conf alone, that file as a
 * candidate (validated whatever its owner and mode); with --as too, the
 * tree of --as with the candidate in its place (cli_source_tree).
 */
int cli_source_init(const struct cli_options *options, struct cli_source *out);
void cli_source_free(struct cli_source *source);

/*
 * What the module would refuse of SOURCE's candidate (--conf) once it is
 * installed as it is: "FILE: note: ..." lines on OUT, one for an owner
 * other than root, one for group or other write permission.  Nothing
 * without a candidate.
 */
void cli_note_source(FILE *out, const struct cli_source *source);

/* Was the main file there (or are the built-in defaults standing in)? */
bool cli_main_file_read(const struct pml_policy *policy);

/* Flushes stdout; a write error (a full disk, a closed pipe) is a failure. */
int cli_finish_output(int status);

int cli_check(const struct cli_options *options);
int cli_explain(const struct cli_options *options);
int cli_explain_unit(const struct cli_options *options);
int cli_show(const struct cli_options *options);
int cli_doctor(const struct cli_options *options);
int cli_status(const struct cli_options *options);
int cli_apply(const struct cli_options *options);
int cli_install(const struct cli_options *options);
int cli_measure(const struct cli_options *options);
int cli_metrics(const struct cli_options *options);
int cli_nagios(const struct cli_options *options);

/* Are some of this host's facts given (--ram, --page-size, --kernel)? */
bool cli_hypothetical(const struct cli_options *options);

/* check and explain: "host:       hypothetical, not this one: ..." where a
 * fact of MACHINE was given, not read; nothing otherwise. */
void cli_print_hypothetical(const struct pml_machine *machine,
			    const struct cli_options *options);

struct cli_json;

/* explain --json's "machine": MACHINE's RAM and page size, and which of
 * them (and --kernel) the command line gave. */
void cli_json_machine(struct cli_json *j, const struct pml_machine *machine,
		      const struct cli_options *options);

#endif
