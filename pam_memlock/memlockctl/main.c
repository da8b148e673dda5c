/*
 * memlockctl: check, explain and show the pam_memlock policy.  This file
 * reads the command line and nothing else; the commands are in cli_*.c,
 * and every decision about the policy is the module's own code (libpml).
 * It only reads: it never changes a limit.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif
#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

enum option_id {
	OPT_CONF = 'c',
	OPT_HELP = 'h',
	OPT_JSON = 'j',
	OPT_SERVICE = 's',
	OPT_STRICT = 'S',
	OPT_VERSION = 'V',
};

/* Which options each command takes. */
struct command {
	const char *name;
	int (*run)(const struct cli_options *options);
	bool takes_user, takes_service, takes_strict, takes_json;
};

static const struct command commands[] = {
	{ "check", cli_check, false, false, true, false },
	{ "explain", cli_explain, true, true, false, true },
	{ "show", cli_show, false, false, false, true },
};

static const struct option long_options[] = {
	{ "conf", required_argument, NULL, OPT_CONF },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "service", required_argument, NULL, OPT_SERVICE },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: memlockctl check [--conf FILE] [--strict]\n"
		"       memlockctl explain USER [--service NAME] [--conf FILE] [--json]\n"
		"       memlockctl show [--conf FILE] [--json]\n"
		"       memlockctl --help | --version\n"
		"\n"
		"Check, explain and show the pam_memlock policy (RLIMIT_MEMLOCK).\n"
		"\n"
		"Commands:\n"
		"  check          validate the policy; warn about what is likely wrong\n"
		"  explain USER   the limits and mode the module would give USER, and why\n"
		"  show           the effective policy, every value with its origin\n"
		"\n"
		"Options:\n"
		"  -c, --conf FILE     read FILE instead of %s\n"
		"                      and no memlock.d/ drop-ins (like conf= for the module)\n"
		"  -s, --service NAME  the PAM service of the session (explain)\n"
		"      --strict        warnings fail the check too (check)\n"
		"  -j, --json          print JSON (explain, show)\n"
		"  -h, --help          print this help\n"
		"  -V, --version       print the version\n"
		"\n"
		"Exit status: 0 OK, 1 invalid policy, unknown user or (with --strict)\n"
		"warnings, 2 usage error.  See memlockctl(8).\n",
		PML_DEFAULT_CONF);
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
 * means "from here", joined to the working directory as written (no
 * symlink resolved, so the safety checks see what the user named).
 */
static char *absolute_path(const char *path)
{
	char *cwd, *joined;

	while (strncmp(path, "./", 2) == 0)
		path += 2;
	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (cwd == NULL)
		return NULL;
	joined = malloc(strlen(cwd) + strlen(path) + 2);
	if (joined != NULL)
		sprintf(joined, "%s%s%s", cwd, strcmp(cwd, "/") == 0 ? "" : "/", path);
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

/* An option COMMAND does not take: a usage error. */
static int not_for(const struct command *command, const char *option)
{
	fprintf(stderr, "memlockctl: %s does not take %s\nTry 'memlockctl --help'.\n",
		command->name, option);
	return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct cli_options options = { PML_DEFAULT_CONF, false, NULL, NULL, false, false };
	const struct command *command;
	const char *conf = NULL;
	char *conf_path = NULL;
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
						      : "unknown command \"%s\"", argv[1]);

	/* Parse what follows the command; getopt names the command argv[0]. */
	opterr = 0;
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, ":c:hjs:V", long_options, NULL)) != -1) {
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
			if (!command->takes_json)
				return not_for(command, "--json");
			options.json = true;
			break;
		case OPT_SERVICE:
			if (!command->takes_service)
				return not_for(command, "--service");
			if (optarg[0] == '\0')
				return usage_error("%s needs a service name", "--service");
			options.service = optarg;
			break;
		case OPT_STRICT:
			if (!command->takes_strict)
				return not_for(command, "--strict");
			options.strict = true;
			break;
		case ':':
			return usage_error("%s needs a value", given);
		default:
			return usage_error("unknown option \"%s\"", given);
		}
	}
	if (command->takes_user) {
		if (optind >= argc)
			return usage_error("%s needs a user name", command->name);
		options.user = argv[optind++];
		if (options.user[0] == '\0')
			return usage_error("%s", "the user name is empty");
	}
	if (optind < argc)
		return usage_error("unexpected argument \"%s\"", argv[optind]);
	if (conf != NULL) {
		conf_path = absolute_path(conf);
		if (conf_path == NULL) {
			perror("memlockctl: --conf");
			return CLI_EXIT_FAIL;
		}
		options.conf = conf_path;
		options.conf_given = true;
	}
	rc = command->run(&options);
	free(conf_path);
	return rc;
}
