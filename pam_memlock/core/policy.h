/*
 * The policy: what /etc/security/memlock.conf and memlock.d/ say, merged.
 * Top-level settings are the defaults; rules override them for the sessions
 * they match.  Every value remembers the file and line it came from, so
 * that errors, debug logs and `memlockctl explain` can point at it.
 */
#ifndef PML_POLICY_H
#define PML_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "log.h"
#include "size.h"

enum pml_mode {
	PML_MODE_RAISE,		/* never lower a limit that is already higher */
	PML_MODE_SET,		/* apply exactly, lowering if need be */
};

/* Where a value came from: an index into pml_policy.files, and a line. */
struct pml_origin {
	unsigned file;
	unsigned line;
};

struct pml_setting {
	bool set;
	struct pml_origin at;
	struct pml_amount amount;	/* limit, soft, hard, floor, ceiling */
	enum pml_mode mode;		/* mode */
};

enum pml_key {
	PML_KEY_LIMIT,
	PML_KEY_SOFT,
	PML_KEY_HARD,
	PML_KEY_FLOOR,
	PML_KEY_CEILING,
	PML_KEY_MODE,
	PML_KEY_COUNT
};

struct pml_settings {
	struct pml_setting v[PML_KEY_COUNT];
};

/* A list of names; the strings belong to the parsed file. */
struct pml_names {
	const char **v;
	size_t n;
};

struct pml_uid_range {
	uint32_t first, last;		/* inclusive */
};

struct pml_rule {
	struct pml_origin at;
	struct pml_names users, groups, services;
	struct pml_uid_range *uids;
	size_t n_uids;
	struct pml_settings settings;
};

struct pml_file {
	char *name;			/* as shown in messages */
	void *config;			/* the libconfig tree the names point into */
};

struct pml_policy {
	struct pml_file *files;
	size_t n_files;
	struct pml_settings top;
	struct pml_rule *rules;
	size_t n_rules;
	/* Some rule has a uid or group key: the user must be looked up. */
	bool needs_nss;
};

/* How to find and trust the policy files. */
struct pml_load_options {
	const char *path;	/* the main file */
	bool path_given;	/* conf=: a missing file is an error, no drop-ins */
	uid_t owner;		/* who must own every file: 0 */
	uint64_t page_size;	/* for checking floor "page" against ceilings */
};

/*
 * Loads the main file and, unless path_given, the drop-ins of memlock.d/
 * beside it.  Returns 0 with *policy filled (free it with pml_policy_free),
 * -ENOMEM, or -EINVAL after logging every problem found.  On error nothing
 * of the policy is kept.
 */
int pml_policy_load(const struct pml_load_options *options,
		    const struct pml_log *log, struct pml_policy *policy);

/*
 * Parses one policy text into POLICY, on top of what is there.  NAME is
 * used in messages.  Returns 0, -ENOMEM, or -EINVAL after logging.
 * Exposed for the tests and fuzz targets, which have no files.
 */
int pml_policy_add_text(struct pml_policy *policy, const char *name,
			const char *text, size_t len,
			const struct pml_log *log);

/* Checks what only the merged policy can show (floor above ceiling). */
int pml_policy_validate(const struct pml_policy *policy, uint64_t page_size,
			const struct pml_log *log);

/* The kernel default since Linux 5.16, and ours when nothing is said. */
#define PML_DEFAULT_LIMIT ((uint64_t)8 << 20)

const char *pml_key_name(enum pml_key key);

/* OWN's value if it has one, else TOP's, else NULL: the built-in default. */
const struct pml_setting *pml_pick(const struct pml_settings *own,
				   const struct pml_settings *top,
				   enum pml_key key);

/* The byte values of a floor or ceiling; NULL means the built-in default. */
uint64_t pml_floor_bytes(const struct pml_setting *floor, uint64_t page_size);
uint64_t pml_ceiling_bytes(const struct pml_setting *ceiling);

void pml_policy_init(struct pml_policy *policy);
void pml_policy_free(struct pml_policy *policy);

/* The name of the file an origin points into. */
const char *pml_policy_file_name(const struct pml_policy *policy,
				 struct pml_origin at);

#endif
