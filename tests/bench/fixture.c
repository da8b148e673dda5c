/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "fixture.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

static const char *const policy_names[BENCH_POLICY_COUNT] = {
	"one", "users", "groups"
};
static const char *const module_names[BENCH_MODULE_COUNT] = {
	"permit", "memlock", "limits", "ref"
};

const char *bench_policy_name(enum bench_policy policy)
{
	return policy_names[policy];
}

const char *bench_module_name(enum bench_module module)
{
	return module_names[module];
}

void bench_service(enum bench_module module, enum bench_policy policy,
		   char *buf, size_t len)
{
	snprintf(buf, len, "%s-%s", module_names[module], policy_names[policy]);
}

/* Opens DIR/NAME for writing, mode 0644 (pam_memlock wants no group write). */
static FILE *create(const char *dir, const char *name)
{
	char path[4096 + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (f != NULL)
		fchmod(fileno(f), 0644);
	return f;
}

static int finish(FILE *f)
{
	if (f == NULL)
		return -errno;
	return fclose(f) == 0 ? 0 : -errno;
}

/* The user is in groups g0, g(N/2) and g(N-1): the last rule matches. */
static int write_nss(const char *dir, unsigned n)
{
	FILE *f = create(dir, "passwd");
	unsigned i;
	int rc;

	if (f == NULL)
		return -errno;
	fprintf(f, "root:x:0:0:root:/root:/bin/sh\n");
	fprintf(f, BENCH_USER ":x:5000:5000:bench:/nonexistent:/bin/sh\n");
	for (i = 0; i + 1 < n; i++)
		fprintf(f, "u%u:x:%u:5000::/nonexistent:/bin/sh\n", i, 6000 + i);
	if ((rc = finish(f)) < 0)
		return rc;
	f = create(dir, "group");
	if (f == NULL)
		return -errno;
	fprintf(f, "root:x:0:\n" BENCH_USER ":x:5000:\n");
	for (i = 0; i < n; i++)
		fprintf(f, "g%u:x:%u:%s\n", i, 10000 + i,
			i == 0 || i == n / 2 || i + 1 == n ? BENCH_USER : "");
	return finish(f);
}

/* pam_memlock's policies; the reference module reads the same files. */
static int write_memlock(const char *dir, unsigned n, unsigned long long kib)
{
	FILE *f = create(dir, "memlock-one.conf");
	unsigned i;
	int rc;

	if (f == NULL)
		return -errno;
	fprintf(f, "limit = \"%llu KiB\";\n", kib);
	if ((rc = finish(f)) < 0)
		return rc;
	f = create(dir, "memlock-users.conf");
	if (f == NULL)
		return -errno;
	fprintf(f, "rules = (\n");
	for (i = 0; i + 1 < n; i++)
		fprintf(f, "{user=\"u%u\";limit=\"%llu KiB\";},\n", i, kib);
	fprintf(f, "{user=\"" BENCH_USER "\";limit=\"%llu KiB\";}\n);\n", kib);
	if ((rc = finish(f)) < 0)
		return rc;
	f = create(dir, "memlock-groups.conf");
	if (f == NULL)
		return -errno;
	fprintf(f, "rules = (\n");
	for (i = 0; i < n; i++)
		fprintf(f, "{group=\"g%u\";limit=\"%llu KiB\";}%s\n", i, kib,
			i + 1 < n ? "," : "");
	fprintf(f, ");\n");
	return finish(f);
}

/* pam_limits' equivalents: "-" sets soft and hard, in KiB. */
static int write_limits(const char *dir, unsigned n, unsigned long long kib)
{
	FILE *f = create(dir, "limits-one.conf");
	unsigned i;
	int rc;

	if (f == NULL)
		return -errno;
	fprintf(f, "* - memlock %llu\n", kib);
	if ((rc = finish(f)) < 0)
		return rc;
	f = create(dir, "limits-users.conf");
	if (f == NULL)
		return -errno;
	for (i = 0; i + 1 < n; i++)
		fprintf(f, "u%u - memlock %llu\n", i, kib);
	fprintf(f, BENCH_USER " - memlock %llu\n", kib);
	if ((rc = finish(f)) < 0)
		return rc;
	f = create(dir, "limits-groups.conf");
	if (f == NULL)
		return -errno;
	for (i = 0; i < n; i++)
		fprintf(f, "@g%u - memlock %llu\n", i, kib);
	return finish(f);
}

static int write_services(const char *dir, const struct bench_paths *paths)
{
	char pamd[4000], name[64];
	int p, m, rc = 0;
	FILE *f;

	snprintf(pamd, sizeof(pamd), "%s/pam.d", dir);
	if (mkdir(pamd, 0755) < 0 && errno != EEXIST)
		return -errno;
	/* libpam falls back to "other" for a service it cannot find. */
	if ((rc = finish(create(pamd, "other"))) < 0)
		return rc;
	for (p = 0; p < BENCH_POLICY_COUNT && rc == 0; p++) {
		const char *policy = policy_names[p];

		for (m = 0; m < BENCH_MODULE_COUNT && rc == 0; m++) {
			bench_service(m, p, name, sizeof(name));
			f = create(pamd, name);
			if (f == NULL)
				return -errno;
			fprintf(f, "session required pam_permit.so\n");
			if (m == BENCH_MEMLOCK)
				fprintf(f, "session required %s conf=%s/memlock-%s.conf\n",
					paths->memlock, dir, policy);
			else if (m == BENCH_LIMITS)
				fprintf(f, "session required %s conf=%s/limits-%s.conf\n",
					paths->limits, dir, policy);
			else if (m == BENCH_REF)
				fprintf(f, "session required %s conf=%s/memlock-%s.conf\n",
					paths->ref, dir, policy);
			rc = finish(f);
		}
	}
	return rc;
}

int bench_fixture_write(const char *dir, const struct bench_paths *paths,
			unsigned n_rules, unsigned long long limit_kib)
{
	int rc = write_nss(dir, n_rules);

	if (rc == 0)
		rc = write_memlock(dir, n_rules, limit_kib);
	if (rc == 0)
		rc = write_limits(dir, n_rules, limit_kib);
	if (rc == 0)
		rc = write_services(dir, paths);
	return rc;
}

int bench_write_user_rules(const char *path, unsigned n_rules,
			   unsigned long long limit_kib)
{
	FILE *f = fopen(path, "we");
	unsigned i;

	if (f == NULL)
		return -errno;
	fchmod(fileno(f), 0644);
	fprintf(f, "rules = (\n");
	for (i = 0; i < n_rules; i++)
		fprintf(f, "{user=\"u%u\";limit=\"%llu KiB\";}%s\n", i, limit_kib,
			i + 1 < n_rules ? "," : "");
	fprintf(f, ");\n");
	return finish(f);
}
