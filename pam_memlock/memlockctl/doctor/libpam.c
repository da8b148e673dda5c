/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* Where libpam looks for stacks and modules, and which reader it has. */
#include "pamstack.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dirfd/dirfd.h"

#ifndef PML_PAMMODDIR
#define PML_PAMMODDIR "/usr/local/lib/security"
#endif
#ifndef PML_MULTIARCH
#define PML_MULTIARCH ""
#endif

/* Debian's multiarch directory; "/lib//security" (the same as
 * "/lib/security") where the build has no triplet. */
#define ARCH_DIR(prefix, leaf) prefix "/" PML_MULTIARCH leaf

const char *const doc_module_dirs[] = {
	ARCH_DIR("/lib", "/security"),	   /* Debian 12 (libpam's securedir) */
	ARCH_DIR("/usr/lib", "/security"), /* Debian 13 */
	"/lib/security",		   /* Debian's second (isadir), Alpine, upstream's */
	"/usr/lib/security",		   /* Debian 13's second, Arch */
	"/lib64/security",		   /* Fedora, openSUSE */
	"/usr/lib64/security",
	PML_PAMMODDIR, /* where this build installs pam_memlock */
	NULL,
};

const char *const doc_service_dirs[] = { "/etc/pam.d", "/usr/lib/pam.d", "/usr/etc/pam.d", NULL };

/* Where distributions put libpam.so.0. */
static const char *const library_paths[] = {
	ARCH_DIR("/lib", "/libpam.so.0"),
	ARCH_DIR("/usr/lib", "/libpam.so.0"),
	"/lib64/libpam.so.0",
	"/usr/lib64/libpam.so.0",
	"/lib/libpam.so.0",
	"/usr/lib/libpam.so.0",
	NULL,
};

/* What _pam_load_conf_file logs at its nesting limit: 1.6.0 changed both
 * the limit (includes too) and the reader, in the same release. */
static const struct {
	const char *message;
	enum doc_libpam_dialect dialect;
} fingerprints[] = {
	{ "maximum level of inclusions reached", DOC_LIBPAM_1_6 },
	{ "maximum level of substacks reached", DOC_LIBPAM_1_5 },
};

void doc_libpam_probe(const char *root, struct doc_libpam *out)
{
	size_t i, f;

	out->dialect = DOC_LIBPAM_1_6;
	out->library[0] = '\0';
	for (i = 0; library_paths[i] != NULL; i++) {
		struct dirfd_text text;

		if (dirfd_read(root, library_paths[i], &text) < 0)
			continue;
		for (f = 0; f < N_OF(fingerprints); f++)
			if (memmem(text.data, text.len, fingerprints[f].message,
				   strlen(fingerprints[f].message)) != NULL)
				break;
		dirfd_text_free(&text);
		if (f < N_OF(fingerprints)) {
			out->dialect = fingerprints[f].dialect;
			snprintf(out->library, sizeof(out->library), "%s", library_paths[i]);
			return;
		}
	}
}

const char *doc_libpam_dialect_name(enum doc_libpam_dialect dialect)
{
	return dialect == DOC_LIBPAM_1_5 ? "1.5" : "1.6";
}
