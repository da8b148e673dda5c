/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "identity.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "decide.h"
#include "policy.h"

/*
 * One buffer serves every getpwnam_r and getgrnam_r of a lookup.  It grows
 * while NSS says ERANGE and stays grown for the next call: glibc's files
 * backend needs room for the longest line it reads past, not only for the
 * entry it returns, so one huge group makes every later lookup need as much.
 *
 * Each ERANGE costs a whole fetch again: with nslcd, one more LDAP search
 * of the group and all its members.  So the first buffer holds a big group
 * already: 1 MiB is some 50,000 members of 9-byte names (each name, its NUL
 * and a pointer).  glibc's own suggestion, sysconf(_SC_GETGR_R_SIZE_MAX),
 * is 1 KiB: room for a small group, not for sizing a big one.  An
 * allocation this large is mapped, not carved from the heap, and NSS
 * touches only the pages it writes, so a lookup of small entries costs
 * no more memory than before.
 *
 * An Active Directory "Domain Users" of a million members needs some
 * 18 MiB; growing eightfold, that is the third fetch.  64 MiB holds over
 * three million such members; a source that still says ERANGE then counts
 * as unreadable, rather than growing a buffer without end inside sshd or
 * login.
 */
#define NSS_BUFFER_START ((size_t)1024 * 1024)
#define NSS_BUFFER_GROWTH 8
#define NSS_BUFFER_MAX ((size_t)64 * 1024 * 1024)

struct nss_buffer {
	char *data;
	size_t size;
};

/* getpwnam_r and getgrnam_r behind one signature. */
typedef int nss_by_name(const char *name, void *entry, char *buf, size_t len,
			bool *found);

static int passwd_by_name(const char *name, void *entry, char *buf, size_t len,
			  bool *found)
{
	struct passwd *result = NULL;
	int rc = getpwnam_r(name, entry, buf, len, &result);

	*found = result != NULL;
	return rc;
}

static int group_by_name(const char *name, void *entry, char *buf, size_t len,
			 bool *found)
{
	struct group *result = NULL;
	int rc = getgrnam_r(name, entry, buf, len, &result);

	*found = result != NULL;
	return rc;
}

/* The contents need not survive: each call starts afresh. */
static int nss_buffer_grow(struct nss_buffer *b)
{
	size_t size = b->size == 0 ? NSS_BUFFER_START : b->size * NSS_BUFFER_GROWTH;

	if (size > NSS_BUFFER_MAX)
		return -EOVERFLOW;
	free(b->data);
	b->data = malloc(size);
	b->size = b->data != NULL ? size : 0;
	return b->data != NULL ? 0 : -ENOMEM;
}

/*
 * Looks NAME up with GET into ENTRY.  Returns 1 (found), 0 (not found),
 * -ENOMEM, or another -errno, never -ESRCH: the database could not be read.
 *
 * glibc says "not found" (every source answered NOTFOUND) as 0 with no
 * entry, and nothing else.  An error number means some source answered
 * UNAVAIL or TRYAGAIN, and glibc passes on the errno that source set: EIO,
 * EAGAIN, ECONNREFUSED... and ENOENT too, which nss_files sets when its
 * file cannot be opened and nss-pam-ldapd when nslcd cannot be reached.
 * So ENOENT and ESRCH, which getpwnam_r(3) lists as "not found" for other
 * systems, mean here that the database could not be read: a login must
 * not be told "no such user" because the directory is down.
 */
static int nss_by_name_lookup(struct nss_buffer *b, nss_by_name *get,
			      const char *name, void *entry)
{
	bool found = false;
	int rc;

	if (b->size == 0 && (rc = nss_buffer_grow(b)) < 0)
		return rc;
	while ((rc = get(name, entry, b->data, b->size, &found)) == ERANGE)
		if ((rc = nss_buffer_grow(b)) < 0)
			return rc;
	if (rc == 0)
		return found ? 1 : 0;
	return rc > 0 && rc != ESRCH ? -rc : -EIO;
}

/*
 * The user's gids.  getgrouplist asks every source again each time it is
 * called (with nslcd, an LDAP search), so the first buffer is sized to
 * hold the groups of nearly every user: 1,024 gids, 4 KiB.  A user in
 * more costs one more call.
 */
#define GROUP_IDS_START 1024

static int group_ids(const char *user, gid_t primary, gid_t **gids, int *count)
{
	int n = GROUP_IDS_START;

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

/* A group name a rule names, asked of NSS once per lookup. */
struct asked {
	const char *name;
	bool member;
};

struct lookup {
	struct nss_buffer buffer;
	gid_t *gids;
	int n_gids;
	struct asked *asked;
	size_t n_asked;
};

static bool has_gid(const struct lookup *l, gid_t gid)
{
	int i;

	for (i = 0; i < l->n_gids; i++)
		if (l->gids[i] == gid)
			return true;
	return false;
}

static bool lists(char *const *members, const char *user)
{
	for (; *members != NULL; members++)
		if (strcmp(*members, user) == 0)
			return true;
	return false;
}

/*
 * Is NAME one of the user's groups?  By gid: getgrnam_r gives the gid the
 * name stands for, and that gid is either among the user's or not.  So
 * every name of a shared gid matches, and no group the user is in has its
 * member list fetched unless a rule names it.  A name NSS does not know
 * matches nothing.
 *
 * Or by the member list that getgrnam_r brought anyway: glibc's
 * getgrouplist skips a source that fails while it asks (an LDAP server
 * that times out, an SSSD that restarts) and reports no error, so a group
 * rule would quietly stop matching.  A group whose own entry names the
 * user is the user's, as pam_limits counts it; the disagreement is kept
 * for the caller to log.  A source that fails in both ways, or lists no
 * members (SSSD's ignore_group_members), cannot be caught here.
 *
 * Each name the user is in goes into identity->groups.
 */
static int ask_group(struct lookup *l, struct pml_identity *identity,
		     const char *name, bool *member)
{
	struct group gr;
	bool by_gid;
	size_t i;
	int rc;

	for (i = 0; i < l->n_asked; i++) {
		if (strcmp(l->asked[i].name, name) == 0) {
			*member = l->asked[i].member;
			return 0;
		}
	}
	rc = nss_by_name_lookup(&l->buffer, group_by_name, name, &gr);
	if (rc < 0)
		return rc;
	by_gid = rc == 1 && has_gid(l, gr.gr_gid);
	*member = by_gid || (rc == 1 && gr.gr_mem != NULL && lists(gr.gr_mem, identity->user));
	if (*member) {
		char *copy = strdup(name);

		if (copy == NULL)
			return -ENOMEM;
		identity->groups[identity->n_groups++] = copy;
		if (!by_gid && identity->missed_group == NULL)
			identity->missed_group = copy;
	}
	l->asked[l->n_asked++] = (struct asked){ name, *member };
	return 0;
}

/* Asks RULE's group names until one is the user's. */
static int ask_groups_of(struct lookup *l, struct pml_identity *identity,
			 const struct pml_rule *rule, bool *member)
{
	size_t j;
	int rc;

	*member = false;
	for (j = 0; j < rule->groups.n && !*member; j++)
		if ((rc = ask_group(l, identity, rule->groups.v[j], member)) < 0)
			return rc;
	return 0;
}

/*
 * The group names SCOPE asks.  PML_GROUPS_DECIDING: the last matching rule
 * decides, so the rules are walked from the end and the walk stops at the
 * first one that matches: what only earlier rules name cannot change the
 * decision and is never asked of NSS.  Nor are the groups of a rule whose
 * other keys (user, service, uid) already fail.  pml_decide, given these
 * groups, finds the same rule as it would given all of them.
 * PML_GROUPS_EVERY: the groups of every rule whose user and uid keys
 * match, the service left aside.
 */
static int ask_rule_groups(struct lookup *l, struct pml_identity *identity,
			   const struct pml_policy *policy,
			   enum pml_groups_scope scope)
{
	size_t i;

	for (i = policy->n_rules; i-- > 0;) {
		const struct pml_rule *rule = &policy->rules[i];
		struct pml_rule others = *rule;
		bool member;
		int rc;

		others.groups.n = 0;
		if (scope == PML_GROUPS_EVERY)
			others.services.n = 0;
		if (!pml_rule_matches(&others, identity))
			continue;
		if ((rc = ask_groups_of(l, identity, rule, &member)) < 0)
			return rc;
		if (scope == PML_GROUPS_DECIDING && (rule->groups.n == 0 || member))
			return 0;
	}
	return 0;
}

int pml_identity_lookup(struct pml_identity *identity,
			const struct pml_policy *policy,
			enum pml_groups_scope scope)
{
	struct lookup l = { .gids = NULL };
	struct passwd pw;
	size_t i, names = 0;
	int rc;

	if (identity->user == NULL)
		return -ESRCH;
	rc = nss_by_name_lookup(&l.buffer, passwd_by_name, identity->user, &pw);
	if (rc == 0)
		rc = -ESRCH;
	if (rc > 0) {
		identity->uid = pw.pw_uid;
		identity->uid_known = true;
		rc = group_ids(identity->user, pw.pw_gid, &l.gids, &l.n_gids);
	}
	for (i = 0; i < policy->n_rules; i++)
		names += policy->rules[i].groups.n;
	if (rc == 0 && names > 0) {
		l.asked = calloc(names, sizeof(*l.asked));
		identity->groups = calloc(names, sizeof(*identity->groups));
		if (l.asked == NULL || identity->groups == NULL)
			rc = -ENOMEM;
	}
	if (rc == 0) {
		identity->looked_up = true;
		rc = ask_rule_groups(&l, identity, policy, scope);
	}
	free(l.asked);
	free(l.gids);
	free(l.buffer.data);
	if (rc < 0) {
		pml_identity_free(identity);
		return rc;
	}
	return 0;
}

int pml_user_uid(const char *user, uid_t *uid)
{
	struct nss_buffer buffer = { .data = NULL };
	struct passwd pw;
	int rc = nss_by_name_lookup(&buffer, passwd_by_name, user, &pw);

	if (rc > 0)
		*uid = pw.pw_uid;
	free(buffer.data);
	if (rc > 0)
		return 0;
	return rc == 0 ? -ESRCH : rc;
}

void pml_identity_free(struct pml_identity *identity)
{
	size_t i;

	for (i = 0; i < identity->n_groups; i++)
		free(identity->groups[i]);
	free(identity->groups);
	identity->groups = NULL;
	identity->n_groups = 0;
	identity->missed_group = NULL;
	identity->looked_up = false;
}
