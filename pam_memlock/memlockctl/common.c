/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* What every memlockctl command shares: reporting on stderr, stdout. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "evaluate.h"
#include "output/json.h"
#include "output/text.h"
#include "safe_read.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif

static void emit_stderr(void *ctx, int priority, const char *message)
{
	struct cli_log_state *state = ctx;

	if (priority <= LOG_ERR)
		state->errors++;
	else if (priority == LOG_WARNING)
		state->warnings++;
	/* Policy paths are absolute: a message about a file starts with '/'. */
	if (message[0] == '/')
		fprintf(stderr, "%s\n", message);
	else
		fprintf(stderr, "memlockctl: %s\n", message);
}

void cli_log_init(struct pml_log *log, struct cli_log_state *state)
{
	*state = (struct cli_log_state){ .errors = 0 };
	*log = (struct pml_log){
		.emit = emit_stderr,
		.ctx = state,
		.max_priority = LOG_WARNING,
	};
}

bool cli_main_file_read(const struct pml_policy *policy)
{
	return policy->n_files > 0 && !policy->files[0].dropin;
}

int cli_source_tree(const char *target, const char *file, const char *name,
		    uid_t owner, struct cli_source *out)
{
	const char *base = strrchr(target, '/') + 1;
	const char *main_name = strrchr(PML_DEFAULT_CONF, '/') + 1;
	size_t dir_len = (size_t)(base - 1 - target), parent_len;
	char shown[PML_DESCRIBE_MAX];

	*out = (struct cli_source){
		.source = { .path = target, .owner = 0 },
		.from = { .candidate = &out->candidate },
		.candidate = { .path = file, .name = name, .owner = owner },
	};
	/* The parent of TARGET's directory, and that directory's name. */
	for (parent_len = dir_len; parent_len > 0 && target[parent_len - 1] != '/';)
		parent_len--;
	if (dir_len - parent_len == strlen(PML_DROPIN_DIR) &&
	    strncmp(target + parent_len, PML_DROPIN_DIR, dir_len - parent_len) == 0) {
		if (!pml_is_dropin_name(base)) {
			fprintf(stderr,
				"memlockctl: %s: pam_memlock never reads it: drop-ins are read only when their names end in \".conf\" and do not start with \".\"\n",
				pml_escape(target, shown, sizeof(shown)));
			return CLI_EXIT_FAIL;
		}
		out->main = malloc(parent_len + strlen(main_name) + 1);
		if (out->main == NULL) {
			fprintf(stderr, "memlockctl: out of memory\n");
			return CLI_EXIT_FAIL;
		}
		sprintf(out->main, "%.*s%s", (int)parent_len, target, main_name);
		out->source.path = out->main;
		out->candidate.dropin = base;
	} else {
		/* The main file of a tree, or a file the module reads alone. */
		out->source.given = strcmp(base, main_name) != 0;
	}
	return CLI_EXIT_OK;
}

int cli_source_init(const struct cli_options *options, struct cli_source *out)
{
	if (options->as != NULL)
		return cli_source_tree(options->as, options->source.path, NULL,
				       PML_ANY_OWNER, out);
	*out = (struct cli_source){ .source = options->source };
	if (options->source.given)
		out->source.owner = PML_ANY_OWNER;
	return CLI_EXIT_OK;
}

void cli_source_free(struct cli_source *source)
{
	free(source->main);
	source->main = NULL;
}

/*
 * A candidate is validated whatever its owner and mode: CI or
 * configuration management checks a file before it is installed.  What
 * the module would refuse once it is installed as it is, is a note.
 */
void cli_note_source(FILE *out, const struct cli_source *source)
{
	const char *file = NULL;
	char shown[PML_DESCRIBE_MAX];
	struct stat st;

	if (source->from.candidate != NULL)
		file = source->candidate.path;
	else if (source->source.owner == PML_ANY_OWNER)
		file = source->source.path;
	if (file == NULL || lstat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	pml_escape(file, shown, sizeof(shown));
	if (st.st_uid != 0)
		fprintf(out,
			"%s: note: owned by uid %lu: pam_memlock reads only files that root owns; install it as root, mode 0644 (memlockctl install)\n",
			shown, (unsigned long)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0)
		fprintf(out,
			"%s: note: writable by group or others: pam_memlock would refuse it; install it with mode 0644\n",
			shown);
}

int cli_finish_output(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "memlockctl: cannot write the output: %s\n",
			strerror(errno));
		return CLI_EXIT_FAIL;
	}
	return status;
}

bool cli_hypothetical(const struct cli_options *options)
{
	return options->assume.ram != 0 || options->assume.page_size != 0 ||
	       options->kernel != NULL;
}

void cli_print_hypothetical(const struct pml_machine *machine,
			    const struct cli_options *options)
{
	char ram[32], page[32]; /* "1023.9 GiB" and more */

	if (!cli_hypothetical(options))
		return;
	pml_format_size(machine->ram, false, ram, sizeof(ram));
	pml_format_size(machine->page_size, false, page, sizeof(page));
	printf("host:       hypothetical, not this one: RAM %s%s, pages of %s%s",
	       ram, options->assume.ram != 0 ? " (--ram; no cgroup limits it)" : "", page,
	       options->assume.page_size != 0 ? " (--page-size)" : "");
	if (options->kernel != NULL) {
		printf(", Linux ");
		cli_print_escaped(stdout, options->kernel);
		printf(" (--kernel)");
	}
	printf("\n");
}

void cli_json_machine(struct cli_json *j, const struct pml_machine *machine,
		      const struct cli_options *options)
{
	cli_json_open_object(j);
	cli_json_member_uint(j, "ram", machine->ram);
	cli_json_member_uint(j, "page_size", machine->page_size);
	/* Which facts are given, not this machine's: the whole answer is
	 * then about another host. */
	cli_json_member_bool(j, "hypothetical", cli_hypothetical(options));
	cli_json_member_array(j, "assumed");
	if (options->assume.ram != 0)
		cli_json_string(j, "ram");
	if (options->assume.page_size != 0)
		cli_json_string(j, "page_size");
	if (options->kernel != NULL)
		cli_json_string(j, "kernel");
	cli_json_close_array(j);
	cli_json_close_object(j);
}
