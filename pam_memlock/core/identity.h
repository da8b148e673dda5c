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
	/* PAM_USER; NULL for a process whose uid has no name (memlockctl
	 * status): it then matches no user rule and cannot be looked up. */
	const char *user;
	const char *service; /* PAM_SERVICE; may be NULL */
	bool looked_up;	     /* uid and groups below are known */
	bool uid_known;	     /* uid is known: looked up, or given by the caller */
	uid_t uid;
	/* Of the group names the policy's rules name, those the user is in:
	 * by gid (primary and supplementary), or by the group's own member
	 * list.  Which names are asked: see enum pml_groups_scope. */
	char **groups;
	size_t n_groups;
	/* A group above that its member list names but getgrouplist did not
	 * return: some group source failed while the list was made.  NULL
	 * when the two agree. */
	const char *missed_group;
};

/* Which of the group names the rules hold a lookup asks NSS about. */
enum pml_groups_scope {
	/* Those the decision can depend on, and no more: the walk from the
	 * last rule stops at the first that matches.  The module's. */
	PML_GROUPS_DECIDING,
	/* Those of every rule whose user and uid keys match, whatever its
	 * service: for listing every rule that matches (memlockctl explain),
	 * or answering for a session whose service is not known (status). */
	PML_GROUPS_EVERY,
};

/*
 * Fills in the uid and the groups above for identity->user, for the rules
 * of POLICY.  Returns 0; -ESRCH when NSS does not know the user (no entry,
 * no error), or there is no user name; -ENOMEM; or another -errno when the
 * user or group database could not be read (a source was unavailable or
 * said "try again", or an entry was larger than we are willing to hold).
 * On error, nothing is kept.
 */
int pml_identity_lookup(struct pml_identity *identity,
			const struct pml_policy *policy,
			enum pml_groups_scope scope);

void pml_identity_free(struct pml_identity *identity);

/* USER's uid alone.  Returns 0, -ESRCH when NSS does not know the user,
 * -ENOMEM, or another -errno from NSS. */
int pml_user_uid(const char *user, uid_t *uid);

#endif
