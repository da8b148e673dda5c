/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * pam-memlock-generator NORMAL-DIR [EARLY-DIR LATE-DIR]: systemd runs it
 * at boot and at every daemon-reload (systemd.generator(7)).  It writes
 * only into NORMAL-DIR, whose drop-ins rank below /etc's.  It exits 0
 * whatever the policy says, so that no policy can fail a boot.
 */
#include <stdio.h>
#include <stdlib.h>

#include "generate.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif

int main(int argc, char **argv)
{
	struct gen_request request = {
		.source = { .path = PML_DEFAULT_CONF },
		.unit_path = getenv("SYSTEMD_UNIT_PATH"),
		.kmsg = "/dev/kmsg",
	};
	struct gen_result result;

	/* One directory for tests, or systemd's three. */
	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: %s NORMAL-DIR [EARLY-DIR LATE-DIR]\n", argv[0]);
		return 2;
	}
	request.normal_dir = argv[1];
	gen_run(&request, &result);
	return 0;
}
