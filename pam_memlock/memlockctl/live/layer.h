/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Which layer set a running process's RLIMIT_MEMLOCK: its PAM session
 * (the policy's rule), the systemd unit whose cgroup holds it (the file
 * whose LimitMEMLOCK= counts, read with the generator's own unit reader),
 * or neither: it inherited the limit (a container, a Slurm job step,
 * another process, or a unit whose files set none).
 */
#ifndef CLI_LAYER_H
#define CLI_LAYER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "log.h"
#include "unit.h"

enum live_layer {
	LIVE_LAYER_INHERITED,
	LIVE_LAYER_SESSION,
	LIVE_LAYER_UNIT,
};

/* "inherited", "session", "unit". */
const char *live_layer_name(enum live_layer layer);

/* The unit of units.  UNIT_NAME_MAX in systemd. */
#define LAYER_UNIT_MAX 256

/*
 * The system unit whose cgroup holds a process, from the text of its
 * /proc/PID/cgroup: the first component of the cgroup v2 path ("0::")
 * that names a unit that runs processes (a .service, .socket, .mount or
 * .swap; a .scope has no unit file).  False for none.
 */
bool layer_unit_of_cgroup(const char *cgroup, char *unit, size_t len);

struct layer_unit {
	bool set; /* false: its files set no LimitMEMLOCK= */
	/* The file and line whose LimitMEMLOCK= counts. */
	char from[PATH_MAX + 16];
	/* For the generator's drop-in, the policy's rule its comment names;
	 * else "". */
	char rule[PATH_MAX + 16];
};

/*
 * Which of UNIT's files under ROOT ("" for this machine) sets its
 * LimitMEMLOCK=: an admin's drop-in sorting after the generator's, the
 * generator's (in ROOT/run/systemd/generator), or the unit file or an
 * earlier drop-in.  PATH reads the unit search path (inside ROOT through
 * its files hook).  Returns 0 or -ENOMEM.
 */
int layer_of_unit(const char *root, const struct pml_unit_path *path,
		  const char *unit, const struct pml_log *log, struct layer_unit *out);

#endif
