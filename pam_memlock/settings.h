/*
 * The settings every level shares (limit, soft, hard, floor, ceiling,
 * mode): their names, their built-in defaults, and which level's value
 * counts.
 */
#ifndef PML_SETTINGS_H
#define PML_SETTINGS_H

#include "policy.h"

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

#endif
