/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "golden.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pml_golden_list(const char *kind, char **names)
{
	char path[4096];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", pml_test_env("PML_TESTDATA"), kind);
	d = opendir(path);
	if (d == NULL) {
		perror(path);
		exit(99);
	}
	while ((e = readdir(d)) != NULL && n < PML_GOLDEN_MAX) {
		size_t len = strlen(e->d_name);

		if (len > 5 && strcmp(e->d_name + len - 5, ".conf") == 0)
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(*names), by_name);
	return n;
}

char *pml_golden_read(const char *path, size_t *len)
{
	/* Twice the loader's cap: oversized files are in the corpus too. */
	const size_t cap = 1 << 20;
	FILE *f = fopen(path, "re");
	char *buf = malloc(cap);
	size_t n;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (len != NULL)
		*len = n;
	return buf;
}
