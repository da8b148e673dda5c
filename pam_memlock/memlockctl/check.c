/*
 * memlockctl check: is the policy valid, and is anything in it likely
 * wrong?  Like `visudo -c`: quiet on stdout but for one closing line.
 */
#include "cli.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

#include "text.h"
#include "evaluate.h"
#include "lint.h"

/* NULL with one of these errno values means "no such entry" (getpwnam(3));
 * anything else is NSS failing, and then nothing can be said. */
static int lookup_result(bool found)
{
	if (found)
		return 1;
	return errno == 0 || errno == ENOENT || errno == ESRCH || errno == EBADF ||
	       errno == EPERM ? 0 : -1;
}

static int user_known(const char *name, void *ctx)
{
	(void)ctx;
	errno = 0;
	return lookup_result(getpwnam(name) != NULL);
}

static int group_known(const char *name, void *ctx)
{
	(void)ctx;
	errno = 0;
	return lookup_result(getgrnam(name) != NULL);
}

static int user_uid(const char *name, uid_t *uid, void *ctx)
{
	struct passwd *pw;

	(void)ctx;
	errno = 0;
	pw = getpwnam(name);
	if (pw != NULL)
		*uid = pw->pw_uid;
	return lookup_result(pw != NULL);
}

static const struct pml_lint_names nss = {
	.user_known = user_known, .group_known = group_known, .user_uid = user_uid,
};

int cli_check(const struct cli_options *options)
{
	struct cli_log_state state;
	struct pml_log log;
	struct pml_policy policy;
	struct pml_machine machine;
	char path[PML_DESCRIBE_MAX];
	unsigned warnings;
	int rc;

	/* Escaped as the "FILE:LINE:" messages above it are. */
	pml_escape(options->source.path, path, sizeof(path));
	cli_log_init(&log, &state);
	rc = pml_load(&options->source, &log, &policy, &machine);
	if (rc < 0) {
		if (state.errors > 0)
			fprintf(stderr,
				"memlockctl: %s: invalid (%u %s): pam_memlock would refuse this policy and change no limit\n",
				path, state.errors,
				cli_plural(state.errors, "error", "errors"));
		return CLI_EXIT_FAIL;
	}
	warnings = pml_lint(&policy, &machine, &nss, &log);
	if (warnings > 0 && options->strict) {
		fprintf(stderr, "memlockctl: %s: %u %s, and --strict makes warnings fail\n",
			path, warnings, cli_plural(warnings, "warning", "warnings"));
		pml_policy_free(&policy);
		return CLI_EXIT_FAIL;
	}
	printf("%s: %s", path,
	       cli_main_file_read(&policy, options) ? "OK"
	       : "not present, built-in defaults; OK");
	if (warnings > 0)
		printf(", %u %s", warnings, cli_plural(warnings, "warning", "warnings"));
	printf(" (%zu %s, %zu %s)\n", policy.n_files,
	       cli_plural(policy.n_files, "file", "files"), policy.n_rules,
	       cli_plural(policy.n_rules, "rule", "rules"));
	pml_policy_free(&policy);
	return cli_finish_output(CLI_EXIT_OK);
}
