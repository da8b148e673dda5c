/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "commands.h"

#include <string.h>

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif

#define BIT(c) (1u << (c))
#define POLICY_READERS (BIT(CMD_CHECK) | BIT(CMD_EXPLAIN) | BIT(CMD_SHOW))
#define EVERY_COMMAND (BIT(CMD_COUNT) - 1)
#define MONITORS (BIT(CMD_METRICS) | BIT(CMD_NAGIOS))

const struct cli_command cli_commands[CMD_COUNT] = {
	[CMD_CHECK] = {
		.id = CMD_CHECK,
		.name = "check",
		.run = cli_check,
		.synopsis = { "[--conf FILE [--as TARGET]] [--strict] [--strict-host[=KINDS]]" },
		.summary = "validate the policy; warn about what is likely wrong",
	},
	[CMD_EXPLAIN] = {
		.id = CMD_EXPLAIN,
		.name = "explain",
		.run = cli_explain,
		.operand = CLI_USER,
		.synopsis = { "USER [--service NAME] [--conf FILE [--as TARGET]] [--json]", "--unit NAME [--conf FILE [--as TARGET]] [--json]" },
		.summary = "the limits and mode the module would give USER, and why;\n"
			   "with --unit, what the generator gives a systemd unit",
	},
	[CMD_SHOW] = {
		.id = CMD_SHOW,
		.name = "show",
		.run = cli_show,
		.synopsis = { "[--conf FILE [--as TARGET]] [--json]" },
		.summary = "the effective policy, every value with its origin",
	},
	[CMD_INSTALL] = {
		.id = CMD_INSTALL,
		.name = "install",
		.run = cli_install,
		.operand = CLI_NEW_FILE,
		.synopsis = { "NEW [--conf FILE]" },
		.summary = "validate NEW, then put it in place of the policy file\n"
			   "in one rename, as visudo does",
	},
	[CMD_DOCTOR] = {
		.id = CMD_DOCTOR,
		.name = "doctor",
		.run = cli_doctor,
		.operand = CLI_OPTIONAL_USER,
		.many_services = true,
		.synopsis = { "[USER] [--service NAME]... [--root DIR] [--conf FILE] [--json]", "--unit NAME [--root DIR] [--conf FILE] [--json]" },
		.summary = "each PAM session path, layer by layer: ok, missing,\n"
			   "overridden or error, and the fix; each unit a unit\n"
			   "rule matches (--unit: NAME): ok, stale, overridden or error",
	},
	[CMD_STATUS] = {
		.id = CMD_STATUS,
		.name = "status",
		.run = cli_status,
		.operand = CLI_USERS,
		.synopsis = { "[USER...] [--all] [--service NAME] [--conf FILE] [--json]" },
		.summary = "running processes (in login sessions; USER's; --all):\n"
			   "limits, locked and pinned memory, the policy's answer",
	},
	[CMD_APPLY] = {
		.id = CMD_APPLY,
		.name = "apply",
		.run = cli_apply,
		.operand = CLI_USERS,
		.synopsis = { "[USER...] [--all] [--service NAME] [--dry-run] [--conf FILE] [--json]" },
		.summary = "bring running processes to the policy (prlimit)",
	},
	[CMD_MEASURE] = {
		.id = CMD_MEASURE,
		.name = "measure",
		.run = cli_measure,
		.synopsis = { "[--entries N]... [--buffers SIZE] [--json]", "--rings R [--entries N] [--buffers SIZE] [--json]" },
		.summary = "what io_uring rings, registered buffers and mlock need\n"
			   "under the limit on this kernel, measured (as root); with\n"
			   "--rings, what that workload needs",
	},
	[CMD_METRICS] = {
		.id = CMD_METRICS,
		.name = "metrics",
		.run = cli_metrics,
		.synopsis = { "[--output FILE [--mode MODE]] [--per-user] [--all] [--service NAME] [--root DIR] [--conf FILE]" },
		.summary = "check's, doctor's and status's findings as Prometheus\n"
			   "metrics, for node_exporter's textfile collector",
	},
	[CMD_NAGIOS] = {
		.id = CMD_NAGIOS,
		.name = "nagios",
		.run = cli_nagios,
		.plugin = true,
		.synopsis = { "[--warning N] [--critical N] [--policy-warning N] [--policy-critical N] [--strict-host[=KINDS]] [--all] [--service NAME] [--root DIR] [--conf FILE]" },
		.summary = "the same as a Nagios, Icinga or Naemon plugin: one\n"
			   "line, exit 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN",
	},
};

/* In the order --help lists them.  @CONF@ is the default policy file and
 * @DIR@ its directory. */
const struct cli_option cli_option_table[] = {
	{
		.name = "conf",
		.id = OPT_CONF,
		.arg = "FILE",
		.commands = POLICY_READERS | BIT(CMD_INSTALL) | BIT(CMD_DOCTOR) | BIT(CMD_STATUS) | BIT(CMD_APPLY) | MONITORS,
		.help = "read FILE instead of @CONF@\n"
			"and no memlock.d/ drop-ins (like conf= for the module),\n"
			"whatever its owner and mode (check, explain, show);\n"
			"the file to replace (install)",
	},
	{
		.name = "as",
		.id = OPT_AS,
		.arg = "TARGET",
		.commands = POLICY_READERS,
		.help = "read the installed policy with --conf's FILE in place\n"
			"of TARGET: the main file or memlock.d/NAME.conf, from\n"
			"@DIR@ unless absolute (check, explain, show)",
	},
	{
		.name = "service",
		.id = OPT_SERVICE,
		.arg = "NAME",
		.commands = BIT(CMD_EXPLAIN) | BIT(CMD_DOCTOR) | BIT(CMD_STATUS) | BIT(CMD_APPLY) |
			    MONITORS,
		.help = "the PAM service of the session (explain); the services\n"
			"to check, repeatable (doctor); the service of sessions\n"
			"logind names none for (status, apply, metrics, nagios)",
	},
	{
		.name = "unit",
		.id = OPT_UNIT,
		.arg = "NAME",
		.commands = BIT(CMD_EXPLAIN) | BIT(CMD_DOCTOR),
		.help = "a systemd unit, not a user: its unit rule and the\n"
			"drop-in pam-memlock-generator writes (explain); whether\n"
			"that drop-in is in place and has the last word (doctor)",
	},
	{
		.name = "root",
		.id = OPT_ROOT,
		.arg = "DIR",
		.commands = BIT(CMD_DOCTOR) | BIT(CMD_STATUS) | MONITORS,
		.help = "read every file under DIR, not /proc (doctor, status,\n"
			"metrics, nagios)",
	},
	{
		.name = "all",
		.id = OPT_ALL,
		.commands = BIT(CMD_STATUS) | BIT(CMD_APPLY) | MONITORS,
		.help = "every process, not only those in login sessions\n"
			"(status, apply, metrics, nagios)",
	},
	{
		.name = "output",
		.id = OPT_OUTPUT,
		.arg = "FILE",
		.commands = BIT(CMD_METRICS),
		.help = "write FILE, in one rename, not stdout (metrics)",
	},
	{
		.name = "mode",
		.id = OPT_MODE,
		.arg = "MODE",
		.commands = BIT(CMD_METRICS),
		.help = "--output's file mode, octal (metrics; default 0666\n"
			"less the umask)",
	},
	{
		.name = "per-user",
		.id = OPT_PER_USER,
		.commands = BIT(CMD_METRICS),
		.help = "series per user too, with the name as a label (metrics)",
	},
	{
		.name = "warning",
		.id = OPT_WARNING,
		.arg = "N",
		.commands = BIT(CMD_NAGIOS),
		.help = "WARNING when more than N processes are below the\n"
			"policy (nagios; default 0)",
	},
	{
		.name = "critical",
		.id = OPT_CRITICAL,
		.arg = "N",
		.commands = BIT(CMD_NAGIOS),
		.help = "CRITICAL when more than N are (nagios; default none)",
	},
	{
		.name = "policy-warning",
		.id = OPT_POLICY_WARNING,
		.arg = "N",
		.commands = BIT(CMD_NAGIOS),
		.help = "WARNING when check finds more than N warnings about\n"
			"the policy (nagios; default 0)",
	},
	{
		.name = "policy-critical",
		.id = OPT_POLICY_CRITICAL,
		.arg = "N",
		.commands = BIT(CMD_NAGIOS),
		.help = "CRITICAL when it finds more than N (nagios; default\n"
			"none)",
	},
	{
		.name = "dry-run",
		.id = OPT_DRY_RUN,
		.commands = BIT(CMD_APPLY),
		.help = "print what would change, change nothing (apply)",
	},
	{
		.name = "strict",
		.id = OPT_STRICT,
		.commands = BIT(CMD_CHECK),
		.help = "warnings about the policy fail the check too (check)",
	},
	{
		.name = "strict-host",
		.id = OPT_STRICT_HOST,
		.arg = "[=KINDS]",
		.commands = BIT(CMD_CHECK) | BIT(CMD_NAGIOS),
		.help = "so do warnings about this host of KINDS, comma-\n"
			"separated: names (users, groups, services it lacks),\n"
			"bounds (a floor or ceiling decides over a share of\n"
			"its memory), other; all three when not given (check;\n"
			"nagios counts them as the policy's)",
	},
	{
		.name = "ram",
		.id = OPT_RAM,
		.arg = "SIZE",
		.commands = BIT(CMD_CHECK) | BIT(CMD_EXPLAIN),
		.help = "work limits out for a hypothetical host of SIZE of RAM,\n"
			"no cgroup limiting it (check, explain)",
	},
	{
		.name = "page-size",
		.id = OPT_PAGE_SIZE,
		.arg = "SIZE",
		.commands = BIT(CMD_CHECK) | BIT(CMD_EXPLAIN),
		.help = "... with pages of SIZE (check, explain)",
	},
	{
		.name = "kernel",
		.id = OPT_KERNEL,
		.arg = "RELEASE",
		.commands = BIT(CMD_CHECK) | BIT(CMD_EXPLAIN),
		.help = "... running Linux RELEASE: the ring figures measure\n"
			"saved for it (check, explain)",
	},
	{
		.name = "entries",
		.id = OPT_ENTRIES,
		.arg = "N",
		.commands = BIT(CMD_MEASURE),
		.help = "a ring of N entries, repeatable (measure; default\n"
			"8 to 32768, and 4096 with --rings)",
	},
	{
		.name = "buffers",
		.id = OPT_BUFFERS,
		.arg = "SIZE",
		.commands = BIT(CMD_MEASURE),
		.help = "registered buffers and mlock of SIZE (measure;\n"
			"default 1 MiB, and none with --rings)",
	},
	{
		.name = "rings",
		.id = OPT_RINGS,
		.arg = "R",
		.commands = BIT(CMD_MEASURE),
		.help = "the workload: R rings of N entries and SIZE of\n"
			"buffers (measure)",
	},
	{
		.name = "json",
		.id = OPT_JSON,
		.commands = BIT(CMD_EXPLAIN) | BIT(CMD_SHOW) | BIT(CMD_DOCTOR) | BIT(CMD_STATUS) | BIT(CMD_APPLY) | BIT(CMD_MEASURE),
		.help = "print JSON (explain, show, doctor, status, apply,\n"
			"measure)",
	},
	{
		.name = "help",
		.id = OPT_HELP,
		.commands = EVERY_COMMAND,
		.help = "print this help",
	},
	{
		.name = "version",
		.id = OPT_VERSION,
		.commands = EVERY_COMMAND,
		.help = "print the version",
	},
};
const size_t cli_n_options = sizeof(cli_option_table) / sizeof(cli_option_table[0]);

const struct cli_command *cli_find_command(const char *name)
{
	size_t i;

	for (i = 0; i < CMD_COUNT; i++)
		if (strcmp(cli_commands[i].name, name) == 0)
			return &cli_commands[i];
	return NULL;
}

void cli_default_dir(char *dir, size_t len)
{
	size_t n = (size_t)(strrchr(PML_DEFAULT_CONF, '/') - PML_DEFAULT_CONF);

	/* "/" for a file in "/", whose prefix before the slash is empty. */
	snprintf(dir, len, "%.*s", n > 0 ? (int)n : 1, n > 0 ? PML_DEFAULT_CONF : "/");
}

/* TEXT's lines, the first after what the caller printed, the others
 * INDENT columns in; @CONF@ and @DIR@ filled in. */
static void print_lines(FILE *out, const char *text, int indent)
{
	char dir[sizeof(PML_DEFAULT_CONF)];
	const char *p;

	cli_default_dir(dir, sizeof(dir));
	for (p = text; *p != '\0'; p++) {
		if (strncmp(p, "@CONF@", 6) == 0) {
			fputs(PML_DEFAULT_CONF, out);
			p += 5;
		} else if (strncmp(p, "@DIR@", 5) == 0) {
			fputs(dir, out);
			p += 4;
		} else if (*p == '\n') {
			fprintf(out, "\n%*s", indent, "");
		} else {
			fputc(*p, out);
		}
	}
	fputc('\n', out);
}

/* How --help writes each command's operand after its name. */
static const char *const operand_names[] = {
	[CLI_NO_OPERAND] = "",
	[CLI_USER] = " USER",
	[CLI_OPTIONAL_USER] = " [USER]",
	[CLI_USERS] = " [USER...]",
	[CLI_NEW_FILE] = " NEW",
};

void cli_usage(FILE *out)
{
	const char *lead = "Usage:";
	size_t i, j;

	for (i = 0; i < CMD_COUNT; i++)
		for (j = 0; j < 2 && cli_commands[i].synopsis[j] != NULL; j++, lead = "")
			fprintf(out, "%-6s memlockctl %s %s\n", lead, cli_commands[i].name,
				cli_commands[i].synopsis[j]);
	fprintf(out, "       memlockctl --help | --version\n\n"
		     "Check, explain and show the pam_memlock policy (RLIMIT_MEMLOCK).\n\n"
		     "Commands:\n");
	for (i = 0; i < CMD_COUNT; i++) {
		const struct cli_command *c = &cli_commands[i];
		char head[32];

		snprintf(head, sizeof(head), "%s%s", c->name, operand_names[c->operand]);
		/* Two spaces at least after a long one. */
		fprintf(out, "  %-14s%s", head, strlen(head) >= 14 ? "  " : " ");
		print_lines(out, c->summary, 17);
	}
	fprintf(out, "\nOptions:\n");
	for (i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_option_table[i];
		char head[40];

		snprintf(head, sizeof(head), "%c%c%c --%s%s%s", o->id <= 'z' ? '-' : ' ',
			 o->id <= 'z' ? (char)o->id : ' ', o->id <= 'z' ? ',' : ' ', o->name,
			 o->arg != NULL && o->arg[0] != '[' ? " " : "",
			 o->arg != NULL ? o->arg : "");
		fprintf(out, "  %-19s ", head);
		print_lines(out, o->help, 22);
	}
	fprintf(out, "\n"
		     "Exit status: 0 OK, 1 invalid policy, unknown user, (with --strict)\n"
		     "warnings, (doctor) a path that is not ok, (status) a process below the\n"
		     "policy, (apply) a change that failed or (measure) a measurement that\n"
		     "could not be made or that the whole workload contradicts, 2 usage error;\n"
		     "(metrics) 1 only when it cannot write; (nagios) 0 OK, 1 WARNING,\n"
		     "2 CRITICAL, 3 UNKNOWN and usage error.\n"
		     "See memlockctl(8).\n");
}
