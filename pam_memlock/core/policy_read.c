/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * One policy text -> the text check -> libconfig -> the tree parser.
 * libconfig's own errors are logged here, with a hint where one fits.
 */
#include "policy.h"

#include <errno.h>
#include <libconfig.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hints.h"
#include "policy_parse.h"
#include "text_check.h"

static int add_file(struct pml_policy *policy, const char *name)
{
	struct pml_file *grown;
	char *copy = strdup(name);

	if (copy == NULL)
		return -ENOMEM;
	grown = realloc(policy->files, (policy->n_files + 1) * sizeof(*grown));
	if (grown == NULL) {
		free(copy);
		return -ENOMEM;
	}
	policy->files = grown;
	policy->files[policy->n_files] = (struct pml_file){ .name = copy };
	policy->n_files++;
	return 0;
}

/* The last line of TEXT: where libconfig's errors at its end belong. */
static unsigned last_line(const char *text, size_t len)
{
	unsigned line = 1;
	const char *nl = text, *end = text + len;

	while ((nl = memchr(nl, '\n', (size_t)(end - nl))) != NULL && ++nl < end)
		line++;
	return line;
}

/* libconfig's message, with a hint for the usual mistakes. */
static void log_syntax_error(const struct pml_log *log, const char *name,
			     const char *text, size_t len, unsigned line,
			     const char *error)
{
	char hint[256], key[64];

	if (pml_syntax_hint(text, len, line, error, hint, sizeof(hint)) != NULL)
		pml_log_at(log, LOG_ERR, name, line, "%s: %s", error, hint);
	else if (strcmp(error, "duplicate setting name") == 0 &&
		 pml_name_on_line(text, len, line, key, sizeof(key)) != NULL)
		pml_log_at(log, LOG_ERR, name, line,
			   "duplicate setting \"%s\": each key once per level (a later file may set it again)",
			   key);
	else
		pml_log_at(log, LOG_ERR, name, line, "%s", error);
}

/*
 * libconfig (1.5 and 1.7.3 alike) reads in a "C" locale of its own
 * (uselocale), and then switches the thread to LC_GLOBAL_LOCALE, not back
 * to what it had: a host thread that set its own locale with uselocale()
 * would lose it in pam_open_session.  config_read_string is the only
 * libconfig call here that switches locales (config_init, config_destroy
 * and the setting getters do not), so it is the one wrapped.
 */
static int read_keeping_locale(config_t *config, const char *text)
{
	locale_t thread = uselocale((locale_t)0);
	int rc = config_read_string(config, text);

	uselocale(thread);
	return rc;
}

int pml_policy_add_text(struct pml_policy *policy, const char *name,
			const char *text, size_t len,
			const struct pml_log *log)
{
	struct pml_prepared prepared;
	config_t *config;
	unsigned file, line;
	int rc, read;

	rc = add_file(policy, name);
	if (rc < 0)
		return rc;
	file = (unsigned)policy->n_files - 1;
	rc = pml_text_prepare(name, text, len, log, &prepared);
	if (rc < 0)
		return rc;
	config = malloc(sizeof(*config));
	if (config == NULL) {
		pml_prepared_free(&prepared);
		return -ENOMEM;
	}
	config_init(config);
	policy->files[file].config = config;
	read = read_keeping_locale(config, prepared.text);
	pml_prepared_free(&prepared);
	if (read != CONFIG_TRUE) {
		if (config_error_type(config) == CONFIG_ERR_FILE_IO)
			return -ENOMEM;
		line = (unsigned)config_error_line(config);
		/* An error at the end, past the newline added. */
		if (prepared.newline_added && line > last_line(text, len))
			line = last_line(text, len);
		log_syntax_error(log, name, text, len, line, config_error_text(config));
		return -EINVAL;
	}
	return pml_parse_tree(policy, file, config_root_setting(config), log);
}
