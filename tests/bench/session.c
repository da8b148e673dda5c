/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <security/pam_appl.h>

#include "fixture.h"
#include "../lib/pam_session.h"

uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_session(const char *confdir, const char *service)
{
	struct pam_conv conv = { pml_no_conversation, NULL };
	pam_handle_t *pamh = NULL;
	uint64_t start = bench_now_ns(), took;
	int rc = pam_start_confdir(service, BENCH_USER, &conv, confdir, &pamh);

	if (rc == PAM_SUCCESS)
		rc = pam_open_session(pamh, PAM_SILENT);
	took = bench_now_ns() - start;
	if (rc != PAM_SUCCESS) {
		fprintf(stderr, "bench: service %s: pam_open_session: %s\n", service,
			pam_strerror(pamh, rc));
		exit(1);
	}
	pam_close_session(pamh, PAM_SILENT);
	pam_end(pamh, rc);
	return took;
}
