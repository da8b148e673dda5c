/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The loader's second entry, for memlockctl: the loader of policy.h,
 * reading what the module never reads - a candidate file in place of one
 * of the policy (check --as, install), a system's files through a
 * directory opened inside its root (doctor --root).  The module and the
 * generator never include this header (tests/project/layering.sh).
 */
#ifndef PML_POLICY_FROM_H
#define PML_POLICY_FROM_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "log.h"
#include "policy.h"

/*
 * A file read in place of one file of the policy, so that what the module
 * will read once it is installed is validated before it is.
 */
struct pml_candidate {
	const char *path; /* the file read, absolute */
	const char *name; /* as shown in messages; NULL: PATH */
	/* The drop-in of memlock.d/ it stands for ("50-site.conf"), which
	 * need not exist yet; NULL: the main file. */
	const char *dropin;
	uid_t owner; /* as pml_source's, for this file */
};

/* Where the files are read from, if not where the module reads them.
 * All zero: as the module does. */
struct pml_from {
	/* NULL, or read in place of the main file or of a drop-in: a
	 * drop-in candidate is read in its place by name, whether or not
	 * that drop-in or memlock.d/ exists.  A candidate drop-in whose name
	 * the loader would never read is an error. */
	const struct pml_candidate *candidate;
	/* The main file is read by its name in DIR_FD, its directory opened
	 * inside a root (a path joined as a string could lead out of it
	 * through a symbolic link), and memlock.d/ in DIR_FD.  DIR_FD is
	 * -errno when that directory could not be opened: the main file's
	 * error then.  source->path stays the name the checked system knows
	 * the file by, for messages. */
	bool in_dir;
	int dir_fd;
};

/* pml_policy_load of policy.h, reading FROM (NULL: as the module does). */
int pml_policy_load_from(const struct pml_source *source, const struct pml_from *from,
			 uint64_t page_size, const struct pml_log *log,
			 struct pml_policy *policy);

#endif
