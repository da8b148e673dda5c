/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* A hash index with linear probing (see index.h). */
#include "index.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

/* FNV-1a's 64-bit prime and offset basis. */
#define FNV_PRIME 0x100000001b3ull
#define FNV_BASIS 0xcbf29ce484222325ull

void live_index_init(struct live_index *index)
{
	uint64_t seed = 0;

	*index = (struct live_index){ .slots = NULL };
	/* Without entropy (early boot) the index still works, unseeded. */
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != (ssize_t)sizeof(seed))
		seed = 0;
	index->seed = seed;
}

void live_index_free(struct live_index *index)
{
	free(index->slots);
	*index = (struct live_index){ .slots = NULL };
}

/* A final mix (splitmix64's), so that every bit of the hash counts in the
 * low bits that pick a slot. */
static uint64_t finish(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebull;
	return h ^ (h >> 31);
}

uint64_t live_index_hash(const struct live_index *index, const void *data,
			 size_t len)
{
	const unsigned char *p = data;
	uint64_t h = FNV_BASIS ^ index->seed;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * FNV_PRIME;
	return finish(h);
}

uint64_t live_index_mix(uint64_t hash, uint64_t value)
{
	return finish(hash ^ finish(value + 0x9e3779b97f4a7c15ull));
}

size_t live_index_find(const struct live_index *index, uint64_t hash,
		       bool (*same)(const void *context, size_t at),
		       const void *context)
{
	size_t mask = index->n_slots - 1, i;

	if (index->n_slots == 0)
		return SIZE_MAX;
	for (i = hash & mask; index->slots[i].at != 0; i = (i + 1) & mask)
		if (index->slots[i].hash == hash && same(context, index->slots[i].at - 1))
			return index->slots[i].at - 1;
	return SIZE_MAX;
}

static void put(struct live_index_slot *slots, size_t n_slots,
		struct live_index_slot slot)
{
	size_t i;

	for (i = slot.hash & (n_slots - 1); slots[i].at != 0; i = (i + 1) & (n_slots - 1))
		;
	slots[i] = slot;
}

int live_index_add(struct live_index *index, uint64_t hash, size_t at)
{
	/* At most half full: probes stay short. */
	if ((index->n + 1) * 2 > index->n_slots) {
		size_t n_slots = index->n_slots == 0 ? 64 : index->n_slots * 2, i;
		struct live_index_slot *slots = calloc(n_slots, sizeof(*slots));

		if (slots == NULL)
			return -ENOMEM;
		for (i = 0; i < index->n_slots; i++)
			if (index->slots[i].at != 0)
				put(slots, n_slots, index->slots[i]);
		free(index->slots);
		index->slots = slots;
		index->n_slots = n_slots;
	}
	put(index->slots, index->n_slots,
	    (struct live_index_slot){ .hash = hash, .at = at + 1 });
	index->n++;
	return 0;
}
