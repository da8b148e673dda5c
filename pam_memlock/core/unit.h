/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Unit rules: what the policy gives a systemd unit.  The generator writes
 * it as a LimitMEMLOCK= drop-in and `memlockctl explain --unit` prints it,
 * both from pml_unit_decide, so the two cannot disagree.  The module never
 * comes here: a unit rule matches no session (pml_rule_matches).
 */
#ifndef PML_UNIT_H
#define PML_UNIT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decide.h"
#include "log.h"
#include "memory.h"
#include "policy.h"

/* The drop-in the generator writes, in the output directory's UNIT.d/.
 * Drop-ins apply in file-name order across all directories, so an admin's
 * override.conf (systemctl edit) or any 51- and later name comes after it
 * and wins; a file of this very name in the unit search path masks it. */
#define PML_UNIT_DROPIN "50-pam-memlock.conf"

/* The unit search path when $SYSTEMD_UNIT_PATH does not say one, highest
 * priority first, without the generators' own output directories. */
#define PML_UNIT_PATH_DEFAULT                                                    \
	"/etc/systemd/system:/run/systemd/system:/usr/local/lib/systemd/system:" \
	"/usr/lib/systemd/system:/lib/systemd/system"

#define PML_UNIT_PATH_MAX 32

struct pml_unit_path {
	char *text; /* the directories, NUL-separated in place */
	const char *dirs[PML_UNIT_PATH_MAX];
	size_t n;
	/* How the files are read (memlockctl --root: inside a tree, never
	 * outside it); NULL, as pml_unit_path_init leaves it: by path. */
	const struct pml_files *files;
};

/*
 * The unit search path from ENV, $SYSTEMD_UNIT_PATH's value (NULL or ""
 * for none): its directories, and the default after them when it ends in
 * ":" (systemd.unit(5)).  Relative directories are skipped.  Returns 0 (free
 * it with pml_unit_path_free) or -ENOMEM.
 */
int pml_unit_path_init(struct pml_unit_path *path, const char *env);
void pml_unit_path_free(struct pml_unit_path *path);

/* Is NAME one of RULE's globs (fnmatch on the whole name, a backslash a
 * plain character, as in unit names)?  False for a rule without unit. */
bool pml_unit_rule_matches(const struct pml_rule *rule, const char *name);

/* The last unit rule that matches NAME, or NULL. */
const struct pml_rule *pml_match_unit(const struct pml_policy *policy,
				      const char *name);

/* Is GLOB one unit's name, without wildcards? */
bool pml_unit_glob_is_name(const char *glob);

/* Does a unit rule name NAME outright (not by a wildcard)?  The generator
 * writes a drop-in for such a name even where no file of it exists. */
bool pml_unit_named(const struct pml_policy *policy, const char *name);

/* The template "foo@.service" of an instance "foo@bar.service", into BUF;
 * false for a name that is no instance. */
bool pml_unit_template(const char *name, char *buf, size_t len);

/* The unit whose drop-in covers NAME: an instance that no unit rule
 * names outright has none of its own, and its template's (put in BUF)
 * covers it, as its template's file does; any other name is its own. */
const char *pml_unit_covering(const struct pml_policy *policy, const char *name, char *buf,
			      size_t len);

/* The section a unit of NAME's type takes LimitMEMLOCK= in ("Service"),
 * or NULL for a type that starts no process (target, timer, ...). */
const char *pml_unit_section(const char *name);

/* A setting a unit's files give: where the last assignment is. */
struct pml_unit_value {
	bool set;
	uint64_t soft, hard; /* MemoryMax=: hard alone */
	char file[PATH_MAX];
	unsigned line;
};

/* What a unit's own files say, without the generator's drop-in. */
struct pml_unit_files {
	char path[PATH_MAX];		  /* its unit file (a template's for an instance); "" none */
	bool masked;			  /* a link to /dev/null, or an empty file */
	struct pml_unit_value limit;	  /* LimitMEMLOCK= */
	struct pml_unit_value memory_max; /* MemoryMax=, below RAM only */
	/* A file named PML_UNIT_DROPIN in the search path: the admin's,
	 * which masks the generator's (what it sets is in limit). */
	char masked_by[PATH_MAX];
	/* The last drop-in after the generator's that sets LimitMEMLOCK=. */
	struct pml_unit_value later;
};

/*
 * Reads NAME's unit file (the first in PATH; for an instance, its
 * template's) and its drop-ins (NAME.d/ and, for an instance, the
 * template's, merged by file name, the first directory winning) into
 * *OUT.  RAM resolves MemoryMax= percentages.  A value this reader cannot
 * parse is skipped, as systemd skips it, with a warning to LOG.  Returns
 * 0 or -ENOMEM; a missing unit is 0 with out->path "".
 */
int pml_unit_read(const struct pml_unit_path *path, const char *name,
		  uint64_t ram, const struct pml_log *log,
		  struct pml_unit_files *out);

/*
 * The unit names the generator looks at, sorted, each once, into *NAMES
 * (each and the array malloc'd; free with pml_unit_names_free): the unit
 * files and templates of each directory of PATH (through PATH->files
 * where set) of a type that starts processes, and each unit a unit rule
 * of POLICY names outright.  Returns 0 or -ENOMEM.
 */
int pml_unit_names(const struct pml_policy *policy, const struct pml_unit_path *path,
		   char ***names, size_t *n);
void pml_unit_names_free(char **names, size_t n);

enum pml_unit_action {
	PML_UNIT_NO_RULE,    /* no unit rule matches: untouched */
	PML_UNIT_NO_PROCESS, /* a type without LimitMEMLOCK=: untouched */
	PML_UNIT_MASKED,     /* the unit is masked: untouched */
	PML_UNIT_ADMIN,	     /* an admin's file of the drop-in's name */
	PML_UNIT_KEEP,	     /* raise: its files give as much already */
	PML_UNIT_WRITE,	     /* the drop-in sets SOFT:HARD */
};

struct pml_unit_decision {
	const struct pml_rule *rule;
	struct pml_decision decision; /* the policy's targets */
	struct pml_machine machine;   /* available: RAM or MemoryMax= */
	enum pml_unit_action action;
	uint64_t soft, hard; /* what the drop-in says (PML_UNIT_WRITE) */
};

/*
 * What POLICY gives the unit NAME whose files say FILES, on a machine of
 * MACHINE's RAM and page size: the rule, the targets (a share of
 * "available" is of MemoryMax= where the files set one below RAM), and
 * whether the generator writes a drop-in, with what.
 */
void pml_unit_decide(const struct pml_policy *policy, const char *name,
		     const struct pml_unit_files *files,
		     const struct pml_machine *machine,
		     struct pml_unit_decision *out);

/* A limit as LimitMEMLOCK= takes it: bytes, or "infinity". */
void pml_unit_format_limit(uint64_t bytes, char *buf, size_t len);

/*
 * The drop-in's text for D, naming the deciding rule at its file:line.
 * Returns the length written (as snprintf).
 */
int pml_unit_dropin_text(const struct pml_policy *policy, const char *name,
			 const struct pml_unit_decision *d, char *buf, size_t len);

/*
 * What the generator does for NAME: reads its files into *FILES, decides
 * into *D and, for PML_UNIT_WRITE, puts the drop-in's text in BUF ("" for
 * any other action).  The generator and memlockctl doctor both call it,
 * so what doctor expects is what the generator writes.  Returns 0, or
 * -ENOMEM, or -ENAMETOOLONG when the text does not fit LEN.
 */
int pml_unit_generate(const struct pml_policy *policy, const struct pml_unit_path *path,
		      const struct pml_machine *machine, const char *name,
		      const struct pml_log *log, struct pml_unit_files *files,
		      struct pml_unit_decision *d, char *buf, size_t len);

#endif
