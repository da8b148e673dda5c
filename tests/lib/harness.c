/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Did a case named NAME run?  check's TAP lines say "FILE:TCASE:NAME: ...". */
static bool ran(const char *tap, const char *name)
{
	size_t len = strlen(name);
	const char *p = tap;

	while ((p = strstr(p, name)) != NULL) {
		if (p > tap && p[-1] == ':' && p[len] == ':')
			return true;
		p += len;
	}
	return false;
}

int pml_run_tap(Suite *suite, const struct pml_skip *skips, size_t n_skips)
{
	char path[] = "/tmp/pml-tap-XXXXXX";
	char line[4096];
	char *seen = NULL;
	size_t seen_len = 0;
	SRunner *runner;
	FILE *tap, *seen_file;
	int fd, count = 0;
	size_t i;

	fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		return 1;
	}
	close(fd);
	runner = srunner_create(suite);
	srunner_set_tap(runner, path);
	srunner_run_all(runner, CK_SILENT);
	srunner_free(runner);

	tap = fopen(path, "r");
	if (tap == NULL) {
		perror(path);
		return 1;
	}
	seen_file = open_memstream(&seen, &seen_len);
	if (seen_file == NULL) {
		perror("open_memstream");
		return 1;
	}
	/* Pass check's lines through, dropping its plan: ours comes last. */
	while (fgets(line, sizeof(line), tap) != NULL) {
		if (strncmp(line, "1..", 3) == 0)
			continue;
		if (strncmp(line, "ok ", 3) == 0 || strncmp(line, "not ok ", 7) == 0)
			count++;
		fputs(line, stdout);
		fputs(line, seen_file);
	}
	fclose(tap);
	unlink(path);
	fclose(seen_file);
	/* A skip counts a case that did not run: one that ran as well is a
	 * mistake in the suite, and fails rather than be counted twice. */
	for (i = 0; i < n_skips; i++) {
		if (ran(seen, skips[i].name))
			printf("not ok %d - %s: reported skipped (%s), but it ran\n", ++count,
			       skips[i].name, skips[i].reason);
		else
			printf("ok %d - %s # SKIP %s\n", ++count, skips[i].name,
			       skips[i].reason);
	}
	free(seen);
	printf("1..%d\n", count);
	return 0;
}

const char *pml_test_env(const char *name)
{
	const char *value = getenv(name);

	if (value == NULL || value[0] == '\0') {
		fprintf(stderr, "%s is not set: run the tests with make check\n", name);
		exit(99);
	}
	return value;
}
