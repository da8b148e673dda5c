/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "fake_tree.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

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
