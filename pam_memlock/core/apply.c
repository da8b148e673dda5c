/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Turning a decision into RLIMIT_MEMLOCK: planning is pure, and every
 * syscall pam_memlock makes on the session is in this file.  prlimit(2)
 * serves both: the module on its own process (pid 0), memlockctl apply on
 * running processes, through the same plan and fallback.
 */
#include "apply.h"

#include <errno.h>
#include <sys/resource.h>
#include <unistd.h>

#include "size.h"

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

static uint64_t from_rlim(rlim_t v)
{
	return v == RLIM_INFINITY ? PML_UNLIMITED : (uint64_t)v;
}

static rlim_t to_rlim(uint64_t v)
{
	return v == PML_UNLIMITED ? RLIM_INFINITY : (rlim_t)v;
}

/* PID 0 is this process: prlimit(2) serves the module and apply alike. */
static int get_limits(pid_t pid, struct pml_limits *out)
{
	struct rlimit rl;

	if (prlimit(pid, RLIMIT_MEMLOCK, NULL, &rl) < 0)
		return -errno;
	out->soft = from_rlim(rl.rlim_cur);
	out->hard = from_rlim(rl.rlim_max);
	return 0;
}

static int set_limits(pid_t pid, struct pml_limits limits)
{
	struct rlimit rl = { to_rlim(limits.soft), to_rlim(limits.hard) };

	return prlimit(pid, RLIMIT_MEMLOCK, &rl, NULL) < 0 ? -errno : 0;
}

static bool same(struct pml_limits a, struct pml_limits b)
{
	return a.soft == b.soft && a.hard == b.hard;
}

int pml_apply_to(pid_t pid, const struct pml_decision *decision,
		 bool dry_run, struct pml_outcome *out)
{
	struct pml_limits target = { decision->soft.bytes, decision->hard.bytes };
	int rc;

	rc = get_limits(pid, &out->before);
	if (rc < 0)
		return rc;
	out->wanted = pml_plan(decision->mode->mode, out->before, target);
	out->after = out->before;
	out->hard_refused = false;
	if (dry_run || same(out->wanted, out->before))
		return 0;
	rc = set_limits(pid, out->wanted);
	if (rc == 0) {
		out->after = out->wanted;
	} else if (rc == -EPERM && out->wanted.hard > out->before.hard) {
		/* No CAP_SYS_RESOURCE (a container, an unprivileged caller). */
		struct pml_limits got = pml_plan_within_hard(out->before, out->wanted);

		out->hard_refused = true;
		rc = same(got, out->before) ? 0 : set_limits(pid, got);
		if (rc == 0)
			out->after = got;
	}
	return rc;
}

int pml_apply(const struct pml_decision *decision, bool dry_run,
	      struct pml_outcome *out)
{
	return pml_apply_to(0, decision, dry_run, out);
}
