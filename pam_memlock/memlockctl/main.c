/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl: check, explain and show the pam_memlock policy, install a
 * new one, and bring running sessions to it.  This file reads the command
 * line and nothing else; the commands are in their own files, and every
 * decision about the policy is the module's own code (libpml).  Only
 * install (a policy file) and apply (the limits of running processes)
 * change anything.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "live/live.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

enum option_id {
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
	OPT_STRICT = 'S',
	OPT_VERSION = 'V',
	/* Long options only: above any character. */
	OPT_AS = 256,
	OPT_STRICT_HOST,
};

#define OPTION_ALL                                \
	{                                         \
		"all", no_argument, NULL, OPT_ALL \
	}
#define OPTION_DRY_RUN                                    \
	{                                                 \
		"dry-run", no_argument, NULL, OPT_DRY_RUN \
	}
#define OPTION_AS                                     \
	{                                             \
		"as", required_argument, NULL, OPT_AS \
	}
#define OPTION_BUFFERS                                          \
	{                                                       \
		"buffers", required_argument, NULL, OPT_BUFFERS \
	}
#define OPTION_ENTRIES                                          \
	{                                                       \
		"entries", required_argument, NULL, OPT_ENTRIES \
	}
#define OPTION_RINGS                                        \
	{                                                   \
		"rings", required_argument, NULL, OPT_RINGS \
	}
#define OPTION_CONF                                       \
	{                                                 \
		"conf", required_argument, NULL, OPT_CONF \
	}
#define OPTION_HELP                                 \
	{                                           \
		"help", no_argument, NULL, OPT_HELP \
	}
#define OPTION_JSON                                 \
	{                                           \
		"json", no_argument, NULL, OPT_JSON \
	}
#define OPTION_ROOT                                       \
	{                                                 \
		"root", required_argument, NULL, OPT_ROOT \
	}
#define OPTION_SERVICE                                          \
	{                                                       \
		"service", required_argument, NULL, OPT_SERVICE \
	}
#define OPTION_STRICT                                   \
	{                                               \
		"strict", no_argument, NULL, OPT_STRICT \
	}
#define OPTION_STRICT_HOST                                        \
	{                                                         \
		"strict-host", no_argument, NULL, OPT_STRICT_HOST \
	}
#define OPTION_VERSION                                    \
	{                                                 \
		"version", no_argument, NULL, OPT_VERSION \
	}
#define OPTIONS_END              \
	{                        \
		NULL, 0, NULL, 0 \
	}

/* Each command's own options (getopt_long's table). */
static const struct option check_options[] = {
	OPTION_CONF,
	OPTION_AS,
	OPTION_STRICT,
	OPTION_STRICT_HOST,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option explain_options[] = {
	OPTION_CONF,
	OPTION_AS,
	OPTION_SERVICE,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option show_options[] = {
	OPTION_CONF,
	OPTION_AS,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option install_options[] = {
	OPTION_CONF,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option doctor_options[] = {
	OPTION_CONF,
	OPTION_SERVICE,
	OPTION_ROOT,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option status_options[] = {
	OPTION_CONF,
	OPTION_ALL,
	OPTION_ROOT,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option apply_options[] = {
	OPTION_CONF,
	OPTION_ALL,
	OPTION_DRY_RUN,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
static const struct option measure_options[] = {
	OPTION_ENTRIES,
	OPTION_BUFFERS,
	OPTION_RINGS,
	OPTION_JSON,
	OPTION_HELP,
	OPTION_VERSION,
	OPTIONS_END,
};
/* Every option of any command, to tell "not for this command" from
 * "no such option". */
static const struct option all_options[] = {
	OPTION_ALL,
	OPTION_AS,
	OPTION_BUFFERS,
	OPTION_CONF,
	OPTION_DRY_RUN,
	OPTION_ENTRIES,
	OPTION_HELP,
	OPTION_JSON,
	OPTION_RINGS,
	OPTION_ROOT,
	OPTION_SERVICE,
	OPTION_STRICT,
	OPTION_STRICT_HOST,
	OPTION_VERSION,
	OPTIONS_END,
};

/* The operand: none, a USER (required, or one that may be left out), any
 * number of USERs, or the NEW file of install. */
enum operand {
	NO_USER,
	USER,
	OPTIONAL_USER,
	USERS,
	NEW_FILE,
};

struct command {
	const char *name;
	int (*run)(const struct cli_options *options);
	const struct option *options;
	enum operand user;
	bool many_services; /* --service repeats, each one kept */
};

static const struct command commands[] = {
	{ .name = "check", .run = cli_check, .options = check_options },
	{ .name = "explain", .run = cli_explain, .options = explain_options, .user = USER },
	{ .name = "show", .run = cli_show, .options = show_options },
	{ .name = "install", .run = cli_install, .options = install_options, .user = NEW_FILE },
	{ .name = "doctor", .run = cli_doctor, .options = doctor_options, .user = OPTIONAL_USER, .many_services = true },
	{ .name = "status", .run = cli_status, .options = status_options, .user = USERS },
	{ .name = "apply", .run = cli_apply, .options = apply_options, .user = USERS },
	{ .name = "measure", .run = cli_measure, .options = measure_options },
};

/* doctor --service, each; more than this many is a typo in a script. */
#define SERVICES_MAX 256
/* status and apply's USER operands (live.h). */
#define USERS_MAX LIVE_USERS_MAX
/* measure --entries, each: as many as one table holds. */
#define ENTRIES_MAX 16

/* The default main file's directory, where --as starts from. */
static void default_dir(char dir[sizeof(PML_DEFAULT_CONF)])
{
	size_t len = (size_t)(strrchr(PML_DEFAULT_CONF, '/') - PML_DEFAULT_CONF);

	/* "/" for a file in "/", whose prefix before the slash is empty. */
	snprintf(dir, sizeof(PML_DEFAULT_CONF), "%.*s", len > 0 ? (int)len : 1,
		 len > 0 ? PML_DEFAULT_CONF : "/");
}

static void usage(FILE *out)
{
	char dir[sizeof(PML_DEFAULT_CONF)];

	default_dir(dir);
	fprintf(out,
		"Usage: memlockctl check [--conf FILE [--as TARGET]] [--strict] [--strict-host]\n"
		"       memlockctl explain USER [--service NAME] [--conf FILE [--as TARGET]] [--json]\n"
		"       memlockctl show [--conf FILE [--as TARGET]] [--json]\n"
		"       memlockctl install NEW [--conf FILE]\n"
		"       memlockctl doctor [USER] [--service NAME]... [--root DIR] [--conf FILE] [--json]\n"
		"       memlockctl status [USER...] [--all] [--conf FILE] [--json]\n"
		"       memlockctl apply [USER...] [--all] [--dry-run] [--conf FILE] [--json]\n"
		"       memlockctl measure [--entries N]... [--buffers SIZE] [--json]\n"
		"       memlockctl measure --rings R [--entries N] [--buffers SIZE] [--json]\n"
		"       memlockctl --help | --version\n"
		"\n"
		"Check, explain and show the pam_memlock policy (RLIMIT_MEMLOCK).\n"
		"\n"
		"Commands:\n"
		"  check          validate the policy; warn about what is likely wrong\n"
		"  explain USER   the limits and mode the module would give USER, and why\n"
		"  show           the effective policy, every value with its origin\n"
		"  install NEW    validate NEW, then put it in place of the policy file\n"
		"                 in one rename, as visudo does\n"
		"  doctor [USER]  each PAM session path, layer by layer: ok, missing,\n"
		"                 overridden or error, and the fix\n"
		"  status [USER...]  running processes (in login sessions; USER's; --all):\n"
		"                 limits, locked and pinned memory, the policy's answer\n"
		"  apply [USER...]   bring running processes to the policy (prlimit)\n"
		"  measure        what io_uring rings, registered buffers and mlock need\n"
		"                 under the limit on this kernel, measured (as root); with\n"
		"                 --rings, what that workload needs\n"
		"\n"
		"Options:\n"
		"  -c, --conf FILE     read FILE instead of %s\n"
		"                      and no memlock.d/ drop-ins (like conf= for the module),\n"
		"                      whatever its owner and mode (check, explain, show);\n"
		"                      the file to replace (install)\n"
		"      --as TARGET     read the installed policy with --conf's FILE in place\n"
		"                      of TARGET: the main file or memlock.d/NAME.conf, from\n"
		"                      %s unless absolute (check, explain, show)\n"
		"  -s, --service NAME  the PAM service of the session (explain); the services\n"
		"                      to check, repeatable (doctor)\n"
		"  -r, --root DIR      read every file under DIR, not /proc (doctor, status)\n"
		"  -a, --all           every process, not only those in login sessions\n"
		"                      (status, apply)\n"
		"  -n, --dry-run       print what would change, change nothing (apply)\n"
		"      --strict        warnings about the policy fail the check too (check)\n"
		"      --strict-host   so do warnings about this host: its users, groups,\n"
		"                      services and memory (check)\n"
		"  -e, --entries N     a ring of N entries, repeatable (measure; default\n"
		"                      8 to 32768, and 4096 with --rings)\n"
		"  -b, --buffers SIZE  registered buffers and mlock of SIZE (measure;\n"
		"                      default 1 MiB, and none with --rings)\n"
		"  -R, --rings R       the workload: R rings of N entries and SIZE of\n"
		"                      buffers (measure)\n"
		"  -j, --json          print JSON (explain, show, doctor, status, apply,\n"
		"                      measure)\n"
		"  -h, --help          print this help\n"
		"  -V, --version       print the version\n"
		"\n"
		"Exit status: 0 OK, 1 invalid policy, unknown user, (with --strict)\n"
		"warnings, (doctor) a path that is not ok, (status) a process below the\n"
		"policy, (apply) a change that failed or (measure) a measurement that\n"
		"could not be made or that the whole workload contradicts, 2 usage error.\n"
		"See memlockctl(8).\n",
		PML_DEFAULT_CONF, dir);
}

static int usage_error(const char *fmt, const char *what)
{
	fprintf(stderr, "memlockctl: ");
	fprintf(stderr, fmt, what);
	fprintf(stderr, "\nTry 'memlockctl --help'.\n");
	return CLI_EXIT_USAGE;
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

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/*
 * getopt_long's short-option string for OPTIONS: ':' first, so that a
 * missing value is told from an unknown option.
 */
static void short_options(const struct option *options, char *buf, size_t len)
{
	size_t used = 0;

	buf[used++] = ':';
	for (; options->name != NULL && used + 3 < len; options++) {
		if (options->val > CHAR_MAX)
			continue;
		buf[used++] = (char)options->val;
		if (options->has_arg == required_argument)
			buf[used++] = ':';
	}
	buf[used] = '\0';
}

/* GIVEN ("--json", "-j") is an option of some command, not of COMMAND. */
static bool known_elsewhere(const char *given)
{
	const struct option *o;

	for (o = all_options; o->name != NULL; o++)
		if ((strncmp(given, "--", 2) == 0 && strcmp(given + 2, o->name) == 0) ||
		    (given[0] == '-' && given[1] == o->val && given[2] == '\0'))
			return true;
	return false;
}

static int unknown_option(const struct command *command, const char *given)
{
	if (known_elsewhere(given)) {
		fprintf(stderr, "memlockctl: %s does not take %s\nTry 'memlockctl --help'.\n",
			command->name, given);
		return CLI_EXIT_USAGE;
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
	};
	const struct command *command;
	const char *conf = NULL, *as = NULL;
	char *conf_path = NULL, *as_path = NULL, shorts[32];
	int c, rc;

	if (argc < 2)
		return usage_error("%s", "no command given");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return cli_finish_output(CLI_EXIT_OK);
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("memlockctl (pam_memlock) %s\n", PACKAGE_VERSION);
		return cli_finish_output(CLI_EXIT_OK);
	}
	command = find_command(argv[1]);
	if (command == NULL)
		return usage_error(argv[1][0] == '-' ? "unknown option \"%s\" (give the command first)"
						     : "unknown command \"%s\"",
				   argv[1]);

	/* Parse what follows the command; getopt names the command argv[0]. */
	opterr = 0;
	argc--;
	argv++;
	short_options(command->options, shorts, sizeof(shorts));
	while ((c = getopt_long(argc, argv, shorts, command->options, NULL)) != -1) {
		const char *given = argv[optind - 1];

		switch (c) {
		case OPT_CONF:
			if (optarg[0] == '\0')
				return usage_error("%s needs a file name", "--conf");
			conf = optarg;
			break;
		case OPT_HELP:
			usage(stdout);
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
			options.strict = options.strict_host = true;
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
		case ':':
			return usage_error("%s needs a value", given);
		default:
			return unknown_option(command, given);
		}
	}
	if (command->user == NEW_FILE) {
		if (optind >= argc)
			return usage_error("%s needs the new policy file", command->name);
		options.new_file = argv[optind++];
		if (options.new_file[0] == '\0')
			return usage_error("%s", "the new file's name is empty");
	}
	if (command->user == USER ||
	    (command->user == OPTIONAL_USER && optind < argc)) {
		if (optind >= argc)
			return usage_error("%s needs a user name", command->name);
		options.user = argv[optind++];
		if (options.user[0] == '\0')
			return usage_error("%s", "the user name is empty");
	}
	if (command->user == USERS) {
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
	if (as != NULL && conf == NULL)
		return usage_error("%s needs --conf, the file to read in its place", "--as");
	if (conf != NULL) {
		conf_path = absolute_path(conf, NULL);
		if (conf_path == NULL) {
			perror("memlockctl: --conf");
			return CLI_EXIT_FAIL;
		}
		options.source.path = conf_path;
		options.source.given = true;
	}
	if (as != NULL) {
		char dir[sizeof(PML_DEFAULT_CONF)];

		default_dir(dir);
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
