#include "apply.h"

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

struct pml_limits pml_plan(enum pml_mode mode, struct pml_limits current,
			   struct pml_limits target)
{
	struct pml_limits wanted = target;

	if (mode == PML_MODE_RAISE) {
		wanted.soft = max_u64(current.soft, target.soft);
		wanted.hard = max_u64(current.hard, target.hard);
	}
	return wanted;
}

struct pml_limits pml_plan_within_hard(struct pml_limits current,
				       struct pml_limits wanted)
{
	struct pml_limits got = { wanted.soft, current.hard };

	if (got.soft > got.hard)
		got.soft = got.hard;
	return got;
}
