#include "identity.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

/* Calls an NSS *_r function, growing its buffer while it says ERANGE. */
#define NSS_BUFFER_START 1024
#define NSS_BUFFER_MAX (1024 * 1024)

static int lookup_user(const char *name, uid_t *uid, gid_t *gid)
{
	size_t size = NSS_BUFFER_START;
	struct passwd pw, *found = NULL;
	char *buf = NULL;
	int rc;

	do {
		char *grown = realloc(buf, size);

		if (grown == NULL) {
			free(buf);
			return -ENOMEM;
		}
		buf = grown;
		rc = getpwnam_r(name, &pw, buf, size, &found);
		size *= 2;
	} while (rc == ERANGE && size <= NSS_BUFFER_MAX);
	if (rc == 0 && found != NULL) {
		*uid = pw.pw_uid;
		*gid = pw.pw_gid;
	}
	free(buf);
	/* Some NSS modules say "not found" with an error number. */
	if (rc == 0 || rc == ENOENT || rc == ESRCH)
		return found != NULL ? 0 : -ESRCH;
	return -rc;
}

/* The group's name, or NULL when it has none (a gid without an entry). */
static int group_name(gid_t gid, char **name)
{
	size_t size = NSS_BUFFER_START;
	struct group gr, *found = NULL;
	char *buf = NULL;
	int rc;

	*name = NULL;
	do {
		char *grown = realloc(buf, size);

		if (grown == NULL) {
			free(buf);
			return -ENOMEM;
		}
		buf = grown;
		rc = getgrgid_r(gid, &gr, buf, size, &found);
		size *= 2;
	} while (rc == ERANGE && size <= NSS_BUFFER_MAX);
	if (rc == 0 && found != NULL && (*name = strdup(gr.gr_name)) == NULL)
		rc = ENOMEM;
	free(buf);
	return rc == 0 || rc == ENOENT || rc == ESRCH ? 0 : -rc;
}

static int group_ids(const char *user, gid_t primary, gid_t **gids, int *count)
{
	int n = 32;

	for (;;) {
		gid_t *list = malloc((size_t)n * sizeof(*list));
		int want = n;

		if (list == NULL)
			return -ENOMEM;
		if (getgrouplist(user, primary, list, &want) >= 0) {
			*gids = list;
			*count = want;
			return 0;
		}
		free(list);
		/* glibc reports the size it needs; guard against one that does not. */
		if (want <= n || want > 65536)
			return -EIO;
		n = want;
	}
}

int pml_identity_lookup(struct pml_identity *identity)
{
	gid_t primary = 0, *gids = NULL;
	int count = 0, i, rc;

	rc = lookup_user(identity->user, &identity->uid, &primary);
	if (rc == 0)
		rc = group_ids(identity->user, primary, &gids, &count);
	if (rc == 0 && count > 0) {
		identity->groups = calloc((size_t)count, sizeof(*identity->groups));
		if (identity->groups == NULL)
			rc = -ENOMEM;
	}
	for (i = 0; rc == 0 && i < count; i++) {
		char *name;

		rc = group_name(gids[i], &name);
		if (rc == 0 && name != NULL)
			identity->groups[identity->n_groups++] = name;
	}
	free(gids);
	if (rc < 0) {
		pml_identity_free(identity);
		return rc;
	}
	identity->looked_up = true;
	return 0;
}

int pml_user_uid(const char *user, uid_t *uid)
{
	gid_t gid;

	return lookup_user(user, uid, &gid);
}

void pml_identity_free(struct pml_identity *identity)
{
	size_t i;

	for (i = 0; i < identity->n_groups; i++)
		free(identity->groups[i]);
	free(identity->groups);
	identity->groups = NULL;
	identity->n_groups = 0;
	identity->looked_up = false;
}
