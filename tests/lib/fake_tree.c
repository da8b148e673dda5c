/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

void pml_tree_new(char *root, size_t len, const char *name)
{
	ck_assert_int_lt(snprintf(root, len, "/tmp/pml-test-%s-XXXXXX", name), (int)len);
	ck_assert_msg(mkdtemp(root) != NULL, "mkdtemp: %s", strerror(errno));
	ck_assert_int_eq(chmod(root, 0755), 0);
}

void pml_tree_remove(const char *root)
{
	char command[128];

	ck_assert_int_lt(snprintf(command, sizeof(command), "rm -rf '%s'", root),
			 (int)sizeof(command));
	ck_assert_int_eq(system(command), 0);
}

void pml_tree_put(const char *root, const char *path, const char *text)
{
	char full[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root, path + (path[0] == '/'));
	for (slash = strchr(full + strlen(root) + 1, '/'); slash != NULL;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		ck_assert_msg(mkdir(full, 0755) == 0 || errno == EEXIST, "%s: %s",
			      full, strerror(errno));
		*slash = '/';
	}
	f = fopen(full, "w");
	ck_assert_msg(f != NULL, "%s: %s", full, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}
