/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The module's arguments on its line in /etc/pam.d. */
#ifndef PML_ARGS_H
#define PML_ARGS_H

#include <stdbool.h>

#include "log.h"
#include "policy.h"

struct pml_args {
	struct pml_source source; /* conf=PATH, or the default file */
	bool debug;		  /* log the decision at LOG_DEBUG */
	bool dry_run;		  /* decide and log, change nothing */
};

/* Unknown arguments are logged at LOG_ERR and otherwise ignored. */
void pml_args_parse(int argc, const char **argv, struct pml_args *args,
		    const struct pml_log *log);

#endif
