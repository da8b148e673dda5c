/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A hash index over an array the caller keeps: it maps a key to the
 * position of its element, so that finding one among n costs the same
 * whatever n is.  status, apply and metrics meet one distinct cgroup per
 * process where the policy takes a share of "available" memory, and a
 * user with a delegated cgroup subtree chooses how many: a linear search
 * there made a scan quadratic.
 *
 * The hashes are seeded per index from getrandom(2), so that names a
 * user chooses do not pile up on one chain by design of the user.
 */
#ifndef CLI_INDEX_H
#define CLI_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct live_index_slot {
	uint64_t hash;
	size_t at; /* the element's position + 1; 0: empty */
};

struct live_index {
	struct live_index_slot *slots;
	size_t n_slots; /* 0, or a power of two */
	size_t n;
	uint64_t seed;
};

/* An empty index (nothing to free until the first add). */
void live_index_init(struct live_index *index);
void live_index_free(struct live_index *index);

/* The hash of LEN bytes at DATA, and of one more value, with INDEX's seed. */
uint64_t live_index_hash(const struct live_index *index, const void *data,
			 size_t len);
uint64_t live_index_mix(uint64_t hash, uint64_t value);

/*
 * The position of the element with HASH for which SAME(CONTEXT, position)
 * is true, or SIZE_MAX when there is none.
 */
size_t live_index_find(const struct live_index *index, uint64_t hash,
		       bool (*same)(const void *context, size_t at),
		       const void *context);

/* Records that the element at AT has HASH.  Returns 0 or -ENOMEM. */
int live_index_add(struct live_index *index, uint64_t hash, size_t at);

#endif
