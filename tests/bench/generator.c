/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What pam-memlock-generator costs at boot and at each daemon-reload: its
 * whole run (load the policy, list the unit search path, match, read the
 * matched units' files, write their drop-ins) over UNITS unit files in two
 * directories and RULES unit rules, each rule naming one unit outright
 * but the last, a glob over a tenth of them.  Prints the median and the
 * slowest of RUNS runs, in milliseconds, of wall time and of the CPU time
 * the run took (on a busy machine the wall time counts others' work).  Usage: generator [UNITS RULES RUNS]
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "generate.h"
#include "safe_read.h"

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
		perror(path);
		exit(1);
	}
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int units = argc > 1 ? atoi(argv[1]) : 1000, rules = argc > 2 ? atoi(argv[2]) : 100;
	int runs = argc > 3 ? atoi(argv[3]) : 21, i;
	char tmp[2048], path[4200], dirs[2][4200], kmsg[4200],
		conf[4200], unit_path[8500], out[4200];
	double *ms, *cpu;
	FILE *policy;

	/* systemd's /run is a tmpfs: TMPDIR=/dev/shm comes closer to it. */
	snprintf(tmp, sizeof(tmp), "%s/pml-bench-gen-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (units < 1 || rules < 1 || runs < 1 || mkdtemp(tmp) == NULL) {
		fprintf(stderr, "usage: generator [UNITS RULES RUNS]\n");
		return 2;
	}
	ms = calloc((size_t)runs, sizeof(*ms));
	cpu = calloc((size_t)runs, sizeof(*cpu));
	snprintf(dirs[0], sizeof(dirs[0]), "%s/etc", tmp);
	snprintf(dirs[1], sizeof(dirs[1]), "%s/lib", tmp);
	mkdir(dirs[0], 0755);
	mkdir(dirs[1], 0755);
	for (i = 0; i < units; i++) {
		snprintf(path, sizeof(path), "%s/svc%04d.service", dirs[i % 10 == 0 ? 0 : 1], i);
		write_file(path, i % 3 == 0 ? "[Unit]\nDescription=x\n[Service]\nExecStart=/bin/true\n"
					      "LimitMEMLOCK=64M\nMemoryMax=2G\n"
					    : "[Unit]\nDescription=x\n[Service]\nExecStart=/bin/true\n");
	}
	snprintf(conf, sizeof(conf), "%s/memlock.conf", tmp);
	policy = fopen(conf, "we");
	fprintf(policy, "limit = \"8 MiB\";\nrules = (\n");
	for (i = 0; i < rules - 1; i++)
		fprintf(policy, "  { unit = \"svc%04d.service\"; limit = \"%d%%\"; ceiling = \"1 GiB\"; },\n",
			i * (units / rules), 1 + i % 5);
	fprintf(policy, "  { unit = \"svc09*.service\"; limit = \"256 MiB\"; }\n);\n");
	fclose(policy);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", tmp);
	write_file(kmsg, "");
	snprintf(unit_path, sizeof(unit_path), "%s:%s", dirs[0], dirs[1]);
	for (i = 0; i < runs; i++) {
		struct gen_request request = {
			.source = { .path = conf, .given = true, .owner = PML_ANY_OWNER },
			.normal_dir = out,
			.unit_path = unit_path,
			.kmsg = kmsg,
		};
		struct gen_result result;
		struct timespec t0, t1, c0, c1;

		snprintf(out, sizeof(out), "%s/out%d", tmp, i);
		mkdir(out, 0755);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		gen_run(&request, &result);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
		cpu[i] = (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6;
		ms[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
		if (!result.policy_ok || result.units != (unsigned)units) {
			fprintf(stderr, "generator: the run saw %u units, wanted %d\n", result.units, units);
			return 1;
		}
		if (i == 0)
			printf("generator: %d unit files, %d unit rules: %u matched, %u drop-ins written\n",
			       units, rules, result.matched, result.written);
	}
	qsort(ms, (size_t)runs, sizeof(*ms), by_value);
	qsort(cpu, (size_t)runs, sizeof(*cpu), by_value);
	printf("generator: wall median %.2f ms, slowest %.2f ms; CPU median %.2f ms, slowest %.2f ms; %d runs\n",
	       ms[runs / 2], ms[runs - 1], cpu[runs / 2], cpu[runs - 1], runs);
	nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(ms);
	free(cpu);
	return 0;
}
