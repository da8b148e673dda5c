/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The distribution family of the system doctor checks, and what follows
 * from it: whose pam_limits runs, which files the distribution's own tool
 * manages, and how a fix to them is made so that it lasts.  The family is
 * read from the root's os-release (ID, then each word of ID_LIKE); a root
 * without one that holds Debian's libpam-modules is Debian's (a root
 * unpacked from packages has no base-files).  Anything else is "unknown",
 * checked with upstream's pam_limits, and the head says so.
 */
#ifndef DOC_FAMILY_H
#define DOC_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

/* Unknown first: a zeroed struct doctor checks with no family's habits. */
enum doc_family {
	DOC_FAMILY_UNKNOWN,
	DOC_FAMILY_DEBIAN, /* Debian, Ubuntu: pam-auth-update */
	DOC_FAMILY_FEDORA, /* Fedora, RHEL and its rebuilds: authselect */
	DOC_FAMILY_ARCH,   /* Arch and its derivatives: pambase */
	DOC_FAMILY_SUSE,   /* openSUSE, SLES: upstream's pam_limits */
	DOC_FAMILY_ALPINE, /* Alpine: linux-pam's base-* */
	DOC_FAMILY_COUNT
};

/* How a line gets into a file the distribution's tool manages. */
enum doc_fix_style {
	DOC_FIX_EDIT,	    /* edit the file itself: the tool keeps the edit */
	DOC_FIX_AUTHSELECT, /* a custom profile: authselect rewrites its files */
	DOC_FIX_PAMCONFIG,  /* a copy in place of pam-config's link to its -pc file */
};

struct doc_family_info {
	const char *name;	      /* "fedora": doctor --json's models.family.name */
	const char *text;	      /* "Fedora/RHEL" */
	const char *const *ids;	      /* os-release IDs that name it */
	bool debian_limits;	      /* Debian's patched pam_limits (else upstream's) */
	const char *tool;	      /* what manages the shared files, NULL: none */
	const char *const *managed;   /* the shared files' names in pam.d */
	enum doc_fix_style fix_style; /* how they are changed */
	/* Where no pam_limits runs, the line still goes into the shared file
	 * the stack reads (openSUSE's hold no pam_limits since 2024), not
	 * into the service's own. */
	bool shared_without_limits;
};

extern const struct doc_family_info doc_families[DOC_FAMILY_COUNT];

struct doc_os {
	enum doc_family family;
	char id[64];	     /* os-release's ID, "" when none */
	char version_id[64]; /* its VERSION_ID, "" when none */
	char why[192];	     /* what told the family */
};

/* The family of the system in ROOT ("" for this machine). */
void doc_os_probe(const char *root, struct doc_os *out);

/* Is PATH (as the system names it: /etc/pam.d/NAME, or a vendor
 * directory's) one of FAMILY's shared files? */
bool doc_family_manages(enum doc_family family, const char *path);

/*
 * The fix that puts LINE into FILE right after line AFTER (AFTER_WHAT, if
 * not NULL, names what is there: "pam_limits"), as FAMILY makes such an
 * edit last, into BUF.  SERVICE_FILE is the service's own stack file;
 * REACHES_SHARED says whether its path includes any of the shared files
 * (when it does not, the fix says why the service file must be edited).
 * ROOT is read for authselect's current profile, and for whether FILE is
 * pam-config's link to the -pc file it rewrites (then the fix is a copy).
 */
void doc_family_fix(const char *root, enum doc_family family, const char *line,
		    const char *file, unsigned after, const char *after_what,
		    bool reaches_shared, char *buf, size_t len);

#endif
