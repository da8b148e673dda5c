/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The log lines that tell an operator what a session got, and why. */
#ifndef PML_REPORT_H
#define PML_REPORT_H

#include <stdbool.h>

#include "apply.h"
#include "evaluate.h"
#include "log.h"

void pml_report_outcome(const struct pml_evaluation *evaluation,
			const struct pml_outcome *outcome, bool dry_run,
			const struct pml_log *log);

#endif
