/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl install NEW [--conf TARGET]: writes NEW beside TARGET (owned
 * by root, mode 0644) and validates what the module will then read (the
 * installed files of TARGET's tree, with the new file in TARGET's place)
 * with the module's own loader before it replaces TARGET in one rename,
 * as visudo does; on any error TARGET is left as it was (replace.h).
 *
 * NEW is read as check --conf reads a candidate: its type is looked at
 * before it is opened for reading, and a symbolic link, a device node or a
 * FIFO is refused unopened, so a NEW in a directory a user controls
 * cannot make root open a device.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "safe_read.h"
#include "evaluate.h"
#include "output/text.h"
#include "replace/replace.h"

/* NEW, by the loader's own reader (any owner and mode: it is not installed
 * yet); a relative name from the working directory. */
static int read_new(const char *path, struct pml_text *text, const char **why)
{
	int dirfd = path[0] == '/' ? AT_FDCWD : open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int rc;

	*why = NULL;
	if (dirfd < 0 && dirfd != AT_FDCWD)
		return -errno;
	rc = pml_read_file_at(dirfd, path, PML_ANY_OWNER, text, why);
	if (dirfd >= 0)
		close(dirfd);
	return rc;
}

static int fail(const char *what, const char *path, int err)
{
	char shown[PML_DESCRIBE_MAX];

	pml_escape(path, shown, sizeof(shown));
	fprintf(stderr, "memlockctl: cannot %s %s: %s\n", what, shown, strerror(-err));
	return CLI_EXIT_FAIL;
}

int cli_install(const struct cli_options *options)
{
	static const struct replace_how how = { .mode = 0644, .root_owned = true };
	const char *target = options->source.path;
	struct cli_log_state state;
	struct pml_log log;
	struct cli_source tree = { .main = NULL };
	struct pml_policy policy;
	struct pml_text text = { .data = NULL };
	struct replace r;
	char new_shown[PML_DESCRIBE_MAX], target_shown[PML_DESCRIBE_MAX];
	const char *why, *what;
	long page = sysconf(_SC_PAGESIZE);
	int rc;

	pml_escape(options->new_file, new_shown, sizeof(new_shown));
	pml_escape(target, target_shown, sizeof(target_shown));
	rc = read_new(options->new_file, &text, &why);
	if (rc < 0 && why != NULL) {
		fprintf(stderr, "%s: refused: %s\n", new_shown, why);
		return CLI_EXIT_FAIL;
	}
	if (rc < 0)
		return fail("read", options->new_file, rc);
	/* What the module will read once the new file is renamed: the files
	 * already installed beside TARGET, with its bytes in TARGET's place.
	 * Messages about them name NEW, which is what the user wrote and can
	 * fix. */
	if (cli_source_tree(target, NULL, options->new_file, 0, &tree) != CLI_EXIT_OK) {
		pml_text_free(&text);
		return CLI_EXIT_FAIL;
	}
	/* Owned by root (the loader accepts nothing else) and 0644, whatever
	 * the umask and NEW's own owner and mode. */
	rc = replace_write(&r, target, text.data, text.len, how, &what);
	pml_text_free(&text);
	if (rc < 0) {
		cli_source_free(&tree);
		return fail(what, target, rc);
	}
	tree.candidate.path = r.temp;
	/* The bytes on disk, through the module's loader and its checks. */
	cli_log_init(&log, &state);
	rc = pml_policy_load_from(&tree.source, &tree.from, page > 0 ? (uint64_t)page : 4096, &log,
				  &policy);
	if (rc < 0) {
		replace_abort(&r);
		cli_source_free(&tree);
		if (rc == -ENOMEM)
			fprintf(stderr, "memlockctl: out of memory\n");
		else
			fprintf(stderr, "memlockctl: %s%s%s: invalid (%u %s): %s left as it was\n",
				new_shown, tree.source.given ? "" : " as ",
				tree.source.given ? "" : target_shown, state.errors,
				cli_plural(state.errors, "error", "errors"), target_shown);
		return CLI_EXIT_FAIL;
	}
	pml_policy_free(&policy);
	cli_source_free(&tree);
	rc = replace_commit(&r, &what);
	if (rc < 0)
		return fail(what, target, rc);
	printf("%s: installed from %s\n", target_shown, new_shown);
	return cli_finish_output(CLI_EXIT_OK);
}
