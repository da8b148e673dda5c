/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What a monitoring system reads of a host: check's answer about the
 * policy, doctor's verdict for each session path and for each unit the
 * unit rules match, and status's reading of the running processes, each
 * taken from the command that prints it (check_policy, doc_run,
 * doc_check_units, live_scan), never worked out a second time.
 * metrics.c writes them for Prometheus, nagios.c as a plugin's one line.
 */
#ifndef CLI_MONITOR_H
#define CLI_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cli.h"
#include "doctor/path.h"
#include "doctor/unitrules.h"
#include "live/live.h"
#include "policy/check.h"

#define MONITOR_DOC_VERDICTS (DOC_V_ERROR + 1)
#define MONITOR_LIVE_VERDICTS (LIVE_UNKNOWN + 1)

struct monitor_path {
	char *service;
	enum doc_verdict verdict;
};

struct monitor_unit {
	char *name;
	enum doc_unit_verdict verdict;
};

struct monitor_facts {
	struct timespec when; /* the run's start */
	/* check: the policy loads, and its warnings and the names it uses
	 * that this host lacks when it does (the policy itself is status's
	 * then: loaded once). */
	bool policy_loads;
	struct check_result check;
	/* doctor: each path, in doctor's order; false when it could not run. */
	bool doctor_ran;
	struct monitor_path *paths;
	size_t n_paths;
	size_t paths_not_ok;
	/* doctor's units, in name order: none without unit rules, or when
	 * the policy is invalid (check says so). */
	struct monitor_unit *units;
	size_t n_units;
	size_t units_not_ok;
	/* status: 0, or live_scan's error (-EINVAL: the policy is invalid;
	 * another: the processes could not be listed). */
	int scan_rc;
	struct live_scan scan; /* when scan_rc is 0 */
	size_t processes[MONITOR_LIVE_VERDICTS];
	uint64_t locked, pinned;
};

/*
 * Runs check, doctor and status as OPTIONS says (--conf, --root,
 * --service, --all), their messages on stderr and none on stdout; the
 * policy is loaded once, by check, and its errors said once.
 * Returns CLI_EXIT_OK with *F filled (free it with monitor_free), or
 * CLI_EXIT_FAIL with a message: out of memory, an unknown user.
 */
int monitor_collect(const struct cli_options *options, struct monitor_facts *f);
void monitor_free(struct monitor_facts *f);

#endif
