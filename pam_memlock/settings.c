#include "settings.h"

static const char *const key_names[PML_KEY_COUNT] = {
	[PML_KEY_LIMIT] = "limit",
	[PML_KEY_SOFT] = "soft",
	[PML_KEY_HARD] = "hard",
	[PML_KEY_FLOOR] = "floor",
	[PML_KEY_CEILING] = "ceiling",
	[PML_KEY_MODE] = "mode",
};

const char *pml_key_name(enum pml_key key)
{
	return key_names[key];
}

const struct pml_setting *pml_pick(const struct pml_settings *own,
				   const struct pml_settings *top,
				   enum pml_key key)
{
	if (own != NULL && own->v[key].set)
		return &own->v[key];
	if (top->v[key].set)
		return &top->v[key];
	return NULL;
}

uint64_t pml_floor_bytes(const struct pml_setting *floor, uint64_t page_size)
{
	if (floor == NULL || floor->amount.kind == PML_AMOUNT_PAGE)
		return page_size;
	return floor->amount.bytes;
}

uint64_t pml_ceiling_bytes(const struct pml_setting *ceiling)
{
	return ceiling == NULL ? PML_UNLIMITED : ceiling->amount.bytes;
}
