/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl check: is the policy valid, and is anything in it likely
 * wrong?  Like `visudo -c`: quiet on stdout but for one closing line.
 */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "measure/measure.h"
#include "evaluate.h"
#include "check.h"
#include "lint.h"
#include "output/text.h"

/* NULL with one of these errno values means "no such entry" (getpwnam(3));
 * anything else is NSS failing, and then nothing can be said. */
static int lookup_result(bool found)
{
	if (found)
		return 1;
	return errno == 0 || errno == ENOENT || errno == ESRCH || errno == EBADF ||
			       errno == EPERM
		       ? 0
		       : -1;
}

/* The names lint asks about that this host lacks, each kept once. */
static void keep_missing(struct check_result *r, const char *kind, const char *name)
{
	struct check_name *grown;
	char *copy;
	size_t i;

	for (i = 0; i < r->n_missing; i++)
		if (strcmp(r->missing[i].kind, kind) == 0 && strcmp(r->missing[i].name, name) == 0)
			return;
	copy = strdup(name);
	grown = copy != NULL ? realloc(r->missing, (r->n_missing + 1) * sizeof(*grown)) : NULL;
	if (grown == NULL) {
		/* Still warned about and counted, if not listed. */
		free(copy);
		return;
	}
	r->missing = grown;
	r->missing[r->n_missing++] = (struct check_name){ .kind = kind, .name = copy };
}

static int known(struct check_result *r, const char *kind, const char *name, int answer)
{
	if (answer == 0)
		keep_missing(r, kind, name);
	return answer;
}

static int user_known(const char *name, void *ctx)
{
	errno = 0;
	return known(ctx, "user", name, lookup_result(getpwnam(name) != NULL));
}

static int group_known(const char *name, void *ctx)
{
	errno = 0;
	return known(ctx, "group", name, lookup_result(getgrnam(name) != NULL));
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

/* PAM reads its stacks from /etc/pam.d, then the vendor directory. */
static int service_answer(const char *name)
{
	static const char *const dirs[] = { "/etc/pam.d", "/usr/lib/pam.d" };
	char path[PATH_MAX];
	size_t i;

	if (strchr(name, '/') != NULL)
		return 0;
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if (access(path, F_OK) == 0)
			return 1;
		if (errno != ENOENT)
			return -1;
	}
	return 0;
}

static int service_known(const char *name, void *ctx)
{
	return known(ctx, "service", name, service_answer(name));
}

static int ignored(const struct dirent *entry)
{
	return strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0 &&
	       !pml_is_dropin_name(entry->d_name);
}

/* Byte order, as the module reads drop-ins: not the locale's. */
static int by_bytes(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Files in memlock.d/ that the module will never read: named one by one,
 * so that "10-audio.CONF" does not sit there unnoticed.  Returns how many. */
static unsigned warn_ignored_dropins(const char *main_path, const struct pml_log *log)
{
	const char *slash = strrchr(main_path, '/');
	char dir[PATH_MAX], file[PATH_MAX + 256];
	struct dirent **names;
	int i, n;

	if (slash == NULL ||
	    snprintf(dir, sizeof(dir), "%.*s/" PML_DROPIN_DIR, (int)(slash - main_path),
		     main_path) >= (int)sizeof(dir))
		return 0;
	n = scandir(dir, &names, ignored, by_bytes);
	for (i = 0; i < n; i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name);
		pml_log_at(log, LOG_WARNING, file, 0,
			   "warning: never read: drop-ins are read only when their names end in \".conf\" and do not start with \".\"");
		free(names[i]);
	}
	if (n < 0)
		return 0;
	free(names);
	return (unsigned)n;
}

/* Did the policy fail only because this (unprivileged) user may not read a
 * file that root could? */
static bool unreadable_here(const char *path)
{
	return geteuid() != 0 && access(path, R_OK) < 0 && errno == EACCES;
}

/* Where the kernel charges rings to the limit, a limit below one ring of
 * the size explain counts in: as `memlockctl measure` saved it for this
 * kernel.  check only reads: without a saved measurement there is no
 * such warning. */
static struct lint_count lint_rings(const struct pml_policy *policy,
				    const struct pml_machine *machine,
				    const char *release, const struct pml_log *log)
{
	struct lint_count none = { 0 };
	struct measure_rings rings;
	struct utsname kernel;

	if (release == NULL && uname(&kernel) < 0)
		return none;
	measure_saved_rings(&rings, release != NULL ? release : kernel.release);
	if (rings.status != 0)
		return none;
	return lint_ring(policy, machine, rings.large, MEASURE_DEFAULT_ENTRIES,
			 rings.release, log);
}

/* What the closing line names: the file checked, or the candidate and
 * the file it stands for. */
void check_policy_name(const struct cli_options *options, char *buf, size_t len)
{
	char path[PML_DESCRIBE_MAX], as[PML_DESCRIBE_MAX];

	pml_escape(options->source.path, path, sizeof(path));
	if (options->as != NULL)
		snprintf(buf, len, "%s as %s", path, pml_escape(options->as, as, sizeof(as)));
	else
		snprintf(buf, len, "%s", path);
}

unsigned check_host_warnings(unsigned kinds, struct lint_count count)
{
	unsigned n = 0;

	if (kinds & CLI_HOST_NAMES)
		n += count.names;
	if (kinds & CLI_HOST_BOUNDS)
		n += count.bounds;
	if (kinds & CLI_HOST_OTHER)
		n += count.host - count.names - count.bounds;
	return n;
}

/* Under --strict, warnings about the policy fail; under --strict-host,
 * those about this host of the kinds it names too. */
static bool strict_fails(const struct cli_options *options, const char *name,
			 struct lint_count count)
{
	unsigned host = check_host_warnings(options->strict_host, count);

	if (options->strict && count.policy > 0) {
		fprintf(stderr, "memlockctl: %s: %u %s, and --strict makes warnings fail\n",
			name, count.policy, cli_plural(count.policy, "warning", "warnings"));
		return true;
	}
	if (host > 0) {
		fprintf(stderr, "memlockctl: %s: %u host %s, and --strict-host makes them fail\n",
			name, host, cli_plural(host, "warning", "warnings"));
		return true;
	}
	return false;
}

int check_policy(const struct cli_options *options, const char *name, FILE *notes,
		 struct check_result *out)
{
	struct cli_log_state state;
	struct pml_log log;
	struct cli_source source;
	struct lint_names nss = {
		.user_known = user_known,
		.group_known = group_known,
		.user_uid = user_uid,
		.service_known = service_known,
		.ctx = out,
	};
	unsigned ignored;
	int rc;

	*out = (struct check_result){ .missing = NULL };
	rc = cli_source_init(options, &source);
	if (rc != CLI_EXIT_OK)
		return rc;
	cli_log_init(&log, &state);
	rc = pml_load_from(&source.source, &source.from, &options->assume, &log, &out->policy,
			   &out->machine);
	if (rc < 0) {
		if (state.errors > 0 && unreadable_here(options->source.path))
			fprintf(stderr,
				"memlockctl: %s: uid %lu cannot read it; pam_memlock runs as root and can: run memlockctl check as root\n",
				name, (unsigned long)geteuid());
		else if (state.errors > 0)
			fprintf(stderr,
				"memlockctl: %s: invalid (%u %s): pam_memlock would refuse this policy and change no limit\n",
				name, state.errors,
				cli_plural(state.errors, "error", "errors"));
		cli_source_free(&source);
		return CLI_EXIT_FAIL;
	}
	cli_note_source(notes, &source);
	/* The tree's own files the module never reads: about the files
	 * checked, so about the policy. */
	ignored = source.source.given ? 0 : warn_ignored_dropins(source.source.path, &log);
	out->count = lint_policy(&out->policy, &out->machine, &nss, &log);
	out->count.policy += ignored;
	out->count.host += lint_rings(&out->policy, &out->machine, options->kernel, &log).host;
	cli_source_free(&source);
	return CLI_EXIT_OK;
}

void check_result_free(struct check_result *result)
{
	size_t i;

	pml_policy_free(&result->policy);
	for (i = 0; i < result->n_missing; i++)
		free(result->missing[i].name);
	free(result->missing);
	*result = (struct check_result){ .missing = NULL };
}

int cli_check(const struct cli_options *options)
{
	struct check_result r;
	char name[CHECK_NAME_MAX];
	int rc;

	/* Escaped as the "FILE:LINE:" messages above it are. */
	check_policy_name(options, name, sizeof(name));
	rc = check_policy(options, name, stdout, &r);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (strict_fails(options, name, r.count)) {
		check_result_free(&r);
		return CLI_EXIT_FAIL;
	}
	printf("%s: %s", name,
	       cli_main_file_read(&r.policy) || options->as != NULL
		       ? "OK"
		       : "not present, built-in defaults; OK");
	if (r.count.policy > 0)
		printf(", %u %s", r.count.policy, cli_plural(r.count.policy, "warning", "warnings"));
	if (r.count.host > 0)
		printf(", %u host %s", r.count.host, cli_plural(r.count.host, "warning", "warnings"));
	/* Limits worked out for another host: said on the line read. */
	if (options->assume.ram != 0 || options->assume.page_size != 0 || options->kernel != NULL)
		printf(", for a hypothetical host (%s%s%s; names are this host's)",
		       options->assume.ram != 0 ? "--ram" : "",
		       options->assume.page_size != 0 ? (options->assume.ram != 0 ? ", --page-size" : "--page-size") : "",
		       options->kernel != NULL ? (options->assume.ram != 0 || options->assume.page_size != 0 ? ", --kernel" : "--kernel") : "");
	printf(" (%zu %s, %zu %s)\n", r.policy.n_files,
	       cli_plural(r.policy.n_files, "file", "files"), r.policy.n_rules,
	       cli_plural(r.policy.n_rules, "rule", "rules"));
	check_result_free(&r);
	return cli_finish_output(CLI_EXIT_OK);
}
