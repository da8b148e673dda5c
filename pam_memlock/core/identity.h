/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Who the session is for: the facts rules match on.  Looked up from NSS
 * once per session, and only when some rule needs a uid or groups.
 */
#ifndef PML_IDENTITY_H
#define PML_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pml_policy;

struct pml_identity {
	const char *user;    /* PAM_USER */
	const char *service; /* PAM_SERVICE; may be NULL */
	bool looked_up;	     /* uid and groups below are known */
	uid_t uid;
	/* Of the group names the policy's rules name, those the user is in:
	 * by gid (primary and supplementary), or by the group's own member
	 * list.  Only the names the decision can depend on are looked up:
	 * see identity.c. */
	char **groups;
	size_t n_groups;
	/* A group above that its member list names but getgrouplist did not
	 * return: some group source failed while the list was made.  NULL
	 * when the two agree. */
	const char *missed_group;
};

/*
 * Fills in the uid and the groups above for identity->user, for the rules
 * of POLICY.  Returns 0; -ESRCH when NSS does not know the user (no entry,
 * no error); -ENOMEM; or another -errno when the user or group database
 * could not be read (a source was unavailable or said "try again", or an
 * entry was larger than we are willing to hold).  On error, nothing is kept.
 */
int pml_identity_lookup(struct pml_identity *identity,
			const struct pml_policy *policy);

void pml_identity_free(struct pml_identity *identity);

/* USER's uid alone.  Returns 0, -ESRCH when NSS does not know the user,
 * -ENOMEM, or another -errno from NSS. */
int pml_user_uid(const char *user, uid_t *uid);

#endif
