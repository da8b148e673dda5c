/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
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
	PML_MODE_RAISE, /* never lower a limit that is already higher */
	PML_MODE_SET,	/* apply exactly, lowering if need be */
};

/* What a share of RAM is a share of. */
enum pml_base {
	PML_BASE_AVAILABLE, /* RAM, or less where cgroups limit memory */
	PML_BASE_RAM,	    /* physical RAM alone */
};

/*
 * The words a key takes: "raise"/"set" for mode, "available"/"ram" for
 * share_of; VALUE is the enum value.  NULL for a value out of range.
 */
const char *pml_mode_name(enum pml_mode mode);
const char *pml_base_name(enum pml_base base);

/* The settings every level shares, in the order show prints them. */
enum pml_key {
	PML_KEY_LIMIT,
	PML_KEY_SOFT,
	PML_KEY_HARD,
	PML_KEY_FLOOR,
	PML_KEY_CEILING,
	PML_KEY_SHARE_OF,
	PML_KEY_MODE,
	PML_KEY_COUNT
};

/* "limit", "soft", ...; PML_KEY_COUNT for a NAME that is none of them. */
const char *pml_key_name(enum pml_key key);
enum pml_key pml_key_from_name(const char *name);

/* Which level of the policy a setting belongs to. */
enum pml_level {
	PML_LEVEL_BUILTIN, /* nothing in the files said it */
	PML_LEVEL_TOP,	   /* a top-level key */
	PML_LEVEL_RULE,	   /* a key inside a rule */
};

/* Where a value came from: an index into pml_policy.files, and a line. */
struct pml_origin {
	unsigned file;
	unsigned line;
};

/* The file index of the built-in defaults, which have no file. */
#define PML_FILE_BUILTIN UINT32_MAX

/*
 * One setting: which key it is, at which level, whether the files gave it,
 * where, and its value.  Every pml_setting in a policy knows its key and
 * level from the start (pml_settings_init), so code that holds one needs
 * no other context to name it.
 */
struct pml_setting {
	enum pml_key key;
	enum pml_level level;
	bool set;
	struct pml_origin at;
	struct pml_amount amount; /* limit, soft, hard, floor, ceiling */
	enum pml_base base;	  /* share_of */
	enum pml_mode mode;	  /* mode */
};

struct pml_settings {
	struct pml_setting v[PML_KEY_COUNT];
};

/* Empty settings of LEVEL: each knows its key, none is set. */
void pml_settings_init(struct pml_settings *settings, enum pml_level level);

/*
 * The built-in default of KEY, as a setting of level PML_LEVEL_BUILTIN:
 * limit 8 MiB, floor "page", ceiling "unlimited", share_of "available",
 * mode "raise".  soft and
 * hard have none of their own (they follow limit): NULL.
 */
const struct pml_setting *pml_builtin(enum pml_key key);

/* The kernel default since Linux 5.16, and ours when nothing is said. */
#define PML_DEFAULT_LIMIT ((uint64_t)8 << 20)

/* A list of names; the strings belong to the parsed file, the array to
 * the policy. */
struct pml_names {
	const char **v;
	size_t n;
};

struct pml_uid_range {
	uint32_t first, last; /* inclusive */
};

struct pml_rule {
	struct pml_origin at;
	struct pml_names users, groups, services;
	/* systemd unit name globs: a unit rule, which matches no session. */
	struct pml_names units;
	struct pml_uid_range *uids; /* the policy's, as the name arrays */
	size_t n_uids;
	struct pml_settings settings;
};

struct pml_file {
	char *name;   /* as shown in messages */
	void *config; /* the libconfig tree the names point into */
	bool dropin;  /* read from memlock.d/, not as the main file */
};

struct pml_policy {
	struct pml_file *files;
	size_t n_files;
	struct pml_settings top;
	struct pml_rule *rules;
	size_t n_rules;
	/* Some rule has a uid or group key: the user must be looked up. */
	bool needs_nss;
	/* For each top-level key that a later file set again, the value it
	 * replaced, as the earlier file had it (memlockctl check warns when
	 * two drop-ins set one key); not set where no file replaced one. */
	struct pml_settings replaced;
	/* Where the rules' name and uid arrays live (policy.c). */
	struct pml_room *room;
};

/*
 * Where the policy comes from, and whom to trust: the one description of
 * a policy source that the module's arguments, memlockctl's options and
 * the loader share.
 */
struct pml_source {
	const char *path; /* the main file, absolute */
	/* conf= or --conf: a missing file is an error, and no drop-ins are
	 * read. */
	bool given;
	/* Who must own every file: 0, or PML_ANY_OWNER of safe_read.h for a
	 * candidate not installed yet. */
	uid_t owner;
};

/* The drop-in directory beside the main file. */
#define PML_DROPIN_DIR "memlock.d"

/* Is NAME one the loader reads in PML_DROPIN_DIR: ending in ".conf", not
 * starting with "."? */
bool pml_is_dropin_name(const char *name);

/*
 * Loads SOURCE's main file and, unless source->given, the drop-ins of
 * memlock.d/ beside it.  PAGE_SIZE checks a floor of "page" against the
 * ceilings.  Returns 0 with *policy filled (free it with pml_policy_free),
 * -ENOMEM, or -EINVAL after logging every problem found.  On error nothing
 * of the policy is kept.
 */
int pml_policy_load(const struct pml_source *source, uint64_t page_size,
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

struct pml_rule;

/*
 * KEY's value for RULE (NULL: the top level alone): the rule's own, else
 * the top level's, else the built-in default (NULL for soft and hard).
 */
const struct pml_setting *pml_pick(const struct pml_policy *policy,
				   const struct pml_rule *rule, enum pml_key key);

/* The byte values of a floor or ceiling setting. */
uint64_t pml_floor_bytes(const struct pml_setting *floor, uint64_t page_size);
uint64_t pml_ceiling_bytes(const struct pml_setting *ceiling);

void pml_policy_init(struct pml_policy *policy);
void pml_policy_free(struct pml_policy *policy);

/* The name of the file an origin points into. */
const char *pml_policy_file_name(const struct pml_policy *policy,
				 struct pml_origin at);

#endif
