/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What memlockctl's command line offers, as data: each command with its
 * operand and its line of the usage, each option with the commands that
 * take it and its help.  main.c parses by these tables, and --help is
 * printed from them, so a new command or option is a row here (and a case
 * in main.c's switch for what it sets).
 */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"

/* The commands, in the order --help lists them; each a bit in an
 * option's `commands`. */
enum cli_command_id {
	CMD_CHECK,
	CMD_EXPLAIN,
	CMD_SHOW,
	CMD_INSTALL,
	CMD_DOCTOR,
	CMD_STATUS,
	CMD_APPLY,
	CMD_MEASURE,
	CMD_METRICS,
	CMD_NAGIOS,
	CMD_COUNT
};

/* What follows a command's options. */
enum cli_operand {
	CLI_NO_OPERAND,
	CLI_USER,	   /* one USER */
	CLI_OPTIONAL_USER, /* one USER, or none */
	CLI_USERS,	   /* any number of USERs */
	CLI_NEW_FILE,	   /* install's NEW */
};

struct cli_command {
	enum cli_command_id id;
	const char *name;
	int (*run)(const struct cli_options *options);
	enum cli_operand operand;
	bool many_services; /* --service repeats, each one kept */
	/* A monitoring plugin's: a usage error is its UNKNOWN (3), on
	 * stdout as its status line, not memlockctl's 2. */
	bool plugin;
	/* Its usage lines after "memlockctl NAME", and its line of the list
	 * of commands (continuation lines start with spaces). */
	const char *synopsis[2];
	const char *summary;
};

/* An option's value to getopt: its short letter, or an id above any
 * letter for one that has none. */
enum cli_option_id {
	OPT_ALL = 'a',
	OPT_BUFFERS = 'b',
	OPT_CONF = 'c',
	OPT_ENTRIES = 'e',
	OPT_HELP = 'h',
	OPT_JSON = 'j',
	OPT_DRY_RUN = 'n',
	OPT_ROOT = 'r',
	OPT_RINGS = 'R',
	OPT_SERVICE = 's',
	OPT_VERSION = 'V',
	OPT_AS = 256,
	OPT_STRICT,
	OPT_STRICT_HOST,
	OPT_PER_USER,
	/* No letters: plugins' usual -c is --conf here. */
	OPT_WARNING,
	OPT_CRITICAL,
	OPT_POLICY_WARNING,
	OPT_POLICY_CRITICAL,
	OPT_MODE,
	OPT_RAM,
	OPT_PAGE_SIZE,
	OPT_KERNEL,
	OPT_UNIT,
	OPT_OUTPUT = 'o',
};

struct cli_option {
	const char *name; /* the long name, without "--" */
	enum cli_option_id id;
	/* the value's name in the help, NULL for none; "[=NAME]" for a
	 * value that may be left out */
	const char *arg;
	unsigned commands; /* 1 << CMD_..., each command that takes it */
	const char *help;  /* lines; %s is the default policy file */
};

extern const struct cli_command cli_commands[CMD_COUNT];
extern const struct cli_option cli_option_table[];
extern const size_t cli_n_options;

/* The command called NAME, or NULL. */
const struct cli_command *cli_find_command(const char *name);

static inline bool cli_takes(const struct cli_command *command, const struct cli_option *option)
{
	return (option->commands & (1u << command->id)) != 0;
}

/* The directory of the default main file, where --as starts from. */
void cli_default_dir(char *dir, size_t len);

/* --help. */
void cli_usage(FILE *out);

#endif
