/*
 * Who the session is for: the facts rules match on.  Looked up from NSS
 * once per session, and only when some rule needs a uid or groups.
 */
#ifndef PML_IDENTITY_H
#define PML_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pml_identity {
	const char *user;	/* PAM_USER */
	const char *service;	/* PAM_SERVICE; may be NULL */
	bool looked_up;		/* uid and groups below are known */
	uid_t uid;
	char **groups;		/* names of the primary and supplementary groups */
	size_t n_groups;
};

/*
 * Fills in uid and group names for identity->user.  Returns 0, -ESRCH when
 * NSS does not know the user, -ENOMEM, or another -errno from NSS.
 */
int pml_identity_lookup(struct pml_identity *identity);

void pml_identity_free(struct pml_identity *identity);

/* USER's uid alone.  Returns 0, -ESRCH when NSS does not know the user,
 * -ENOMEM, or another -errno from NSS. */
int pml_user_uid(const char *user, uid_t *uid);

#endif
