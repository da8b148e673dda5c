/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl: check, explain and show the pam_memlock policy, install a
 * new one, and bring running sessions to it.  This file reads the command
 * line, by the tables of commands.c, and nothing else; the commands are in
 * their own rooms, and every decision about the policy is the module's own
 * code (libpml).  Only install (a policy file) and apply (the limits of
 * running processes) change anything.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "size.h"
#include "live/live.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

/* doctor --service, each; more than this many is a typo in a script. */
#define SERVICES_MAX 256
/* status and apply's USER operands (live.h). */
#define USERS_MAX LIVE_USERS_MAX
/* measure --entries, each: as many as one table holds. */
#define ENTRIES_MAX 16
/* getopt_long's table for one command: every option at most. */
#define OPTIONS_MAX 32

/* A plugin's usage error (commands.h): its UNKNOWN, said on stdout. */
#define PLUGIN_USAGE 3
static bool plugin_usage;

static int usage_error(const char *fmt, const char *what)
{
	FILE *out = plugin_usage ? stdout : stderr;

	fprintf(out, plugin_usage ? "MEMLOCK UNKNOWN - usage: " : "memlockctl: ");
	fprintf(out, fmt, what);
	fprintf(out, "\nTry 'memlockctl --help'.\n");
	return plugin_usage ? PLUGIN_USAGE : CLI_EXIT_USAGE;
}

/* A count for --warning and --critical: digits only. */
static bool parse_count(const char *text, long *out)
{
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return false;
	errno = 0;
	*out = strtol(text, &end, 10);
	return errno == 0 && *end == '\0';
}

/* --strict-host's KINDS: names, bounds, other, comma-separated; none
 * given is all three. */
static bool parse_host_kinds(const char *text, unsigned *out)
{
	static const struct {
		const char *name;
		unsigned kind;
	} kinds[] = {
		{ "names", CLI_HOST_NAMES },
		{ "bounds", CLI_HOST_BOUNDS },
		{ "other", CLI_HOST_OTHER },
	};
	size_t i, len;

	if (text == NULL) {
		*out = CLI_HOST_ALL;
		return true;
	}
	*out = 0;
	do {
		len = strcspn(text, ",");
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			if (strlen(kinds[i].name) == len && strncmp(text, kinds[i].name, len) == 0)
				break;
		if (i == sizeof(kinds) / sizeof(kinds[0]))
			return false;
		*out |= kinds[i].kind;
		text += len;
	} while (*text++ == ',');
	return true;
}

/* --mode: octal, permission bits only (no set-id or sticky bit). */
static bool parse_mode(const char *text, long *out)
{
	char *end;

	if (text[0] < '0' || text[0] > '7')
		return false;
	errno = 0;
	*out = strtol(text, &end, 8);
	return errno == 0 && *end == '\0' && *out <= 0777;
}

/*
 * The module wants an absolute path; on the command line a relative one
 * means "from DIR" (the working directory for NULL), joined as written
 * (no symlink resolved, so the safety checks see what the user named).
 */
static char *absolute_path(const char *path, const char *dir)
{
	char *cwd = NULL, *joined;

	while (strncmp(path, "./", 2) == 0)
		path += 2;
	if (path[0] == '/')
		return strdup(path);
	if (dir == NULL && (dir = cwd = getcwd(NULL, 0)) == NULL)
		return NULL;
	joined = malloc(strlen(dir) + strlen(path) + 2);
	if (joined != NULL)
		sprintf(joined, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", path);
	free(cwd);
	return joined;
}

/*
 * getopt_long's tables for COMMAND: the long options it takes, and the
 * short-option string, ':' first so that a missing value is told from an
 * unknown option.
 */
#define PAGE_MIN 4096u
#define PAGE_MAX (1u << 20)

/* A hypothetical host's size: at least MIN bytes, not unlimited. */
static int parse_host_size(const char *text, uint64_t min, uint64_t *out)
{
	struct pml_amount amount;
	const char *why;

	if (pml_parse_size(text, &amount, &why) < 0 || amount.bytes == PML_UNLIMITED ||
	    amount.bytes < min)
		return -EINVAL;
	*out = amount.bytes;
	return 0;
}

static void getopt_tables(const struct cli_command *command, struct option longs[OPTIONS_MAX],
			  char shorts[OPTIONS_MAX * 2 + 2])
{
	size_t i, n = 0, used = 0;

	shorts[used++] = ':';
	for (i = 0; i < cli_n_options && n + 1 < OPTIONS_MAX; i++) {
		const struct cli_option *o = &cli_option_table[i];

		if (!cli_takes(command, o))
			continue;
		longs[n++] = (struct option){
			.name = o->name,
			.has_arg = o->arg == NULL     ? no_argument
				   : o->arg[0] == '[' ? optional_argument
						      : required_argument,
			.val = o->id,
		};
		if (o->id > CHAR_MAX)
			continue;
		shorts[used++] = (char)o->id;
		if (o->arg != NULL)
			shorts[used++] = ':';
	}
	longs[n] = (struct option){ 0 };
	shorts[used] = '\0';
}

/* GIVEN ("--json", "-j") is an option of some command, not of COMMAND. */
static bool known_elsewhere(const char *given)
{
	size_t i;

	for (i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_option_table[i];

		if ((strncmp(given, "--", 2) == 0 && strcmp(given + 2, o->name) == 0) ||
		    (o->id <= CHAR_MAX && given[0] == '-' && given[1] == (char)o->id &&
		     given[2] == '\0'))
			return true;
	}
	return false;
}

static int unknown_option(const struct cli_command *command, const char *given)
{
	if (known_elsewhere(given)) {
		char what[128];

		snprintf(what, sizeof(what), "%s does not take %%s", command->name);
		return usage_error(what, given);
	}
	return usage_error("unknown option \"%s\"", given);
}

int main(int argc, char **argv)
{
	static const char *services[SERVICES_MAX], *entries[ENTRIES_MAX];
	struct cli_options options = {
		.source = { .path = PML_DEFAULT_CONF, .given = false, .owner = 0 },
		.services = services,
		.entries = entries,
		.critical = -1,
		.policy_critical = -1,
		.mode = -1,
	};
	const struct cli_command *command;
	const char *conf = NULL, *as = NULL;
	char *conf_path = NULL, *as_path = NULL, shorts[OPTIONS_MAX * 2 + 2];
	struct option longs[OPTIONS_MAX];
	int c, rc;

	if (argc < 2)
		return usage_error("%s", "no command given");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		cli_usage(stdout);
		return cli_finish_output(CLI_EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("memlockctl (pam_memlock) %s\n", PACKAGE_VERSION);
		return cli_finish_output(CLI_EXIT_OK);
	}
	command = cli_find_command(argv[1]);
	if (command == NULL)
		return usage_error(argv[1][0] == '-' ? "unknown option \"%s\" (give the command first)"
						     : "unknown command \"%s\"",
				   argv[1]);

	plugin_usage = command->plugin;
	/* Parse what follows the command; getopt names the command argv[0]. */
	opterr = 0;
	argc--;
	argv++;
	getopt_tables(command, longs, shorts);
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const char *given = argv[optind - 1];

		switch (c) {
		case OPT_CONF:
			if (optarg[0] == '\0')
				return usage_error("%s needs a file name", "--conf");
			conf = optarg;
			break;
		case OPT_HELP:
			cli_usage(stdout);
			return cli_finish_output(CLI_EXIT_OK);
		case OPT_VERSION:
			printf("memlockctl (pam_memlock) %s\n", PACKAGE_VERSION);
			return cli_finish_output(CLI_EXIT_OK);
		case OPT_JSON:
			options.json = true;
			break;
		case OPT_SERVICE:
			if (optarg[0] == '\0')
				return usage_error("%s needs a service name", "--service");
			options.service = optarg;
			if (command->many_services) {
				if (options.n_services == SERVICES_MAX)
					return usage_error("%s: too many", "--service");
				services[options.n_services++] = optarg;
			}
			break;
		case OPT_UNIT:
			/* A name, never a path: it is joined to directories. */
			if (optarg[0] == '\0' || strchr(optarg, '/') != NULL)
				return usage_error("%s needs a unit name", "--unit");
			options.unit = optarg;
			break;
		case OPT_ROOT:
			if (optarg[0] != '/')
				return usage_error("%s needs an absolute directory", "--root");
			options.root = optarg;
			break;
		case OPT_AS:
			if (optarg[0] == '\0')
				return usage_error("%s needs a file name", "--as");
			as = optarg;
			break;
		case OPT_STRICT:
			options.strict = true;
			break;
		case OPT_STRICT_HOST:
			if (!parse_host_kinds(optarg, &options.strict_host))
				return usage_error("%s: KINDS are names, bounds and other, comma-separated",
						   "--strict-host");
			options.strict = true;
			break;
		case OPT_RAM:
			if (parse_host_size(optarg, 1, &options.assume.ram) < 0)
				return usage_error("%s needs a size of memory, such as 512GiB", "--ram");
			break;
		case OPT_PAGE_SIZE:
			if (parse_host_size(optarg, PAGE_MIN, &options.assume.page_size) < 0 ||
			    (options.assume.page_size & (options.assume.page_size - 1)) != 0 ||
			    options.assume.page_size > PAGE_MAX)
				return usage_error("%s needs a power of two from 4 KiB to 1 MiB", "--page-size");
			break;
		case OPT_KERNEL:
			if (optarg[0] == '\0' || optarg[0] == '.' || strchr(optarg, '/') != NULL)
				return usage_error("%s needs a kernel release, as uname -r prints", "--kernel");
			options.kernel = optarg;
			break;
		case OPT_ALL:
			options.all = true;
			break;
		case OPT_DRY_RUN:
			options.dry_run = true;
			break;
		case OPT_ENTRIES:
			if (options.n_entries == ENTRIES_MAX)
				return usage_error("%s: too many", "--entries");
			entries[options.n_entries++] = optarg;
			break;
		case OPT_BUFFERS:
			options.buffers = optarg;
			break;
		case OPT_RINGS:
			options.rings = optarg;
			break;
		case OPT_OUTPUT:
			if (optarg[0] == '\0')
				return usage_error("%s needs a file name", "--output");
			options.output = optarg;
			break;
		case OPT_PER_USER:
			options.per_user = true;
			break;
		case OPT_MODE:
			if (!parse_mode(optarg, &options.mode))
				return usage_error("%s needs an octal mode, 0 to 0777", "--mode");
			break;
		case OPT_POLICY_WARNING:
			if (!parse_count(optarg, &options.policy_warning))
				return usage_error("%s needs a count of warnings", "--policy-warning");
			break;
		case OPT_POLICY_CRITICAL:
			if (!parse_count(optarg, &options.policy_critical))
				return usage_error("%s needs a count of warnings", "--policy-critical");
			break;
		case OPT_WARNING:
			if (!parse_count(optarg, &options.warning))
				return usage_error("%s needs a count of processes", "--warning");
			break;
		case OPT_CRITICAL:
			if (!parse_count(optarg, &options.critical))
				return usage_error("%s needs a count of processes", "--critical");
			break;
		case ':':
			return usage_error("%s needs a value", given);
		default:
			return unknown_option(command, given);
		}
	}
	if (command->operand == CLI_NEW_FILE) {
		if (optind >= argc)
			return usage_error("%s needs the new policy file", command->name);
		options.new_file = argv[optind++];
		if (options.new_file[0] == '\0')
			return usage_error("%s", "the new file's name is empty");
	}
	if (options.unit != NULL && options.service != NULL)
		return usage_error("%s", "--unit does not take --service");
	if (options.unit != NULL && command->operand == CLI_OPTIONAL_USER && optind < argc)
		return usage_error("%s", "--unit and a user exclude each other");
	if ((command->operand == CLI_USER && options.unit == NULL) ||
	    (command->operand == CLI_OPTIONAL_USER && optind < argc)) {
		if (optind >= argc)
			return usage_error("%s needs a user name", command->name);
		options.user = argv[optind++];
		if (options.user[0] == '\0')
			return usage_error("%s", "the user name is empty");
	}
	if (command->operand == CLI_USERS) {
		options.users = (const char *const *)&argv[optind];
		options.n_users = (size_t)(argc - optind);
		for (; optind < argc; optind++)
			if (argv[optind][0] == '\0')
				return usage_error("%s", "a user name is empty");
		if (options.n_users > USERS_MAX)
			return usage_error("%s: too many users", command->name);
		if (options.all && options.n_users > 0)
			return usage_error("%s", "--all and user names exclude each other");
	}
	if (optind < argc)
		return usage_error("unexpected argument \"%s\"", argv[optind]);
	if (options.mode >= 0 && options.output == NULL)
		return usage_error("%s is the mode of --output's file: give --output", "--mode");
	if (as != NULL && conf == NULL)
		return usage_error("%s needs --conf, the file to read in its place", "--as");
	if (conf != NULL) {
		conf_path = absolute_path(conf, NULL);
		if (conf_path == NULL) {
			perror("memlockctl: --conf");
			return command->plugin ? PLUGIN_USAGE : CLI_EXIT_FAIL;
		}
		options.source.path = conf_path;
		options.source.given = true;
	}
	if (as != NULL) {
		char dir[PATH_MAX];

		cli_default_dir(dir, sizeof(dir));
		as_path = absolute_path(as, dir);
		if (as_path == NULL) {
			perror("memlockctl: --as");
			free(conf_path);
			return CLI_EXIT_FAIL;
		}
		options.as = as_path;
	}
	rc = command->run(&options);
	free(conf_path);
	free(as_path);
	return rc;
}
