/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Generators run before syslog or the journal: their log is the kernel's
 * (/dev/kmsg), one line a message.  They may talk to no other process, so
 * this reads no user database (unit rules have no user keys) and opens no
 * socket.
 */
#include "generate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evaluate.h"
#include "unit.h"

#define PREFIX "pam-memlock-generator: "

struct kmsg {
	const char *path;
	/* While the policy loads: the first error, and how many there were;
	 * an invalid policy is one line, not one per problem. */
	bool collect;
	char first[1024];
	unsigned errors;
};

static void kmsg_write(const struct kmsg *k, int priority, const char *message)
{
	char line[1200];
	int fd, n;

	n = snprintf(line, sizeof(line), "<%d>" PREFIX "%s\n", LOG_DAEMON | priority, message);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1, line[n - 1] = '\n';
	fd = open(k->path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	if (write(fd, line, (size_t)n) < 0) {
		/* Nowhere else to say it. */
	}
	close(fd);
}

static void kmsg_emit(void *ctx, int priority, const char *message)
{
	struct kmsg *k = ctx;

	if (k->collect) {
		if (priority <= LOG_ERR && k->errors++ == 0)
			snprintf(k->first, sizeof(k->first), "%s", message);
		return;
	}
	kmsg_write(k, priority, message);
}

/* NORMAL_DIR/NAME.d/PML_UNIT_DROPIN holding TEXT. */
static int write_dropin(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	size_t len = strlen(text), done = 0;
	ssize_t n;
	int fd, rc = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s.d", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	if (mkdir(path, 0755) < 0 && errno != EEXIST)
		return -errno;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s.d/%s", dir, name, PML_UNIT_DROPIN) >=
	    sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	if (fd < 0)
		return -errno;
	while (done < len && (n = write(fd, text + done, len - done)) > 0)
		done += (size_t)n;
	if (done < len)
		rc = -EIO;
	if (close(fd) < 0 && rc == 0)
		rc = -errno;
	return rc;
}

static bool has_unit_rules(const struct pml_policy *policy)
{
	size_t i;

	for (i = 0; i < policy->n_rules; i++)
		if (policy->rules[i].units.n > 0)
			return true;
	return false;
}

/* One unit: what its files say, what the policy gives it, the drop-in. */
static int generate_unit(const struct gen_request *request, const struct pml_policy *policy,
			 const struct pml_unit_path *path, const struct pml_machine *machine,
			 const char *name, const struct pml_log *log, struct gen_result *result)
{
	struct pml_unit_files files;
	struct pml_unit_decision d;
	char text[PML_DESCRIBE_MAX + 1024], unit[512];
	int rc = pml_unit_generate(policy, path, machine, name, log, &files, &d, text,
				   sizeof(text));

	if (rc == -ENOMEM)
		return rc;
	if (rc == 0 && d.action != PML_UNIT_WRITE)
		return 0;
	if (rc == 0)
		rc = write_dropin(request->normal_dir, name, text);
	if (rc < 0) {
		pml_log(log, LOG_ERR, "%s: cannot write its drop-in in %s: %s",
			pml_quote(name, unit, sizeof(unit)), request->normal_dir, strerror(-rc));
		result->failed++;
		return 0;
	}
	result->written++;
	return 0;
}

int gen_run(const struct gen_request *request, struct gen_result *result)
{
	struct kmsg k = { .path = request->kmsg, .collect = true };
	struct pml_log log = { .emit = kmsg_emit, .ctx = &k, .max_priority = LOG_WARNING };
	struct pml_policy policy;
	struct pml_machine machine;
	struct pml_unit_path path;
	char **names = NULL;
	size_t n_names = 0, i;
	int rc;

	*result = (struct gen_result){ .policy_ok = false };
	rc = pml_load(&request->source, &log, &policy, &machine);
	k.collect = false;
	if (rc < 0) {
		char line[1200];

		snprintf(line, sizeof(line),
			 "the policy is not valid, so no unit gets a drop-in: %s%s",
			 k.errors > 0 ? k.first : strerror(-rc),
			 k.errors > 1 ? " (and more: memlockctl check)" : "");
		kmsg_write(&k, LOG_ERR, line);
		return rc == -ENOMEM ? rc : 0;
	}
	result->policy_ok = true;
	if (!has_unit_rules(&policy)) {
		pml_policy_free(&policy);
		return 0;
	}
	rc = pml_unit_path_init(&path, request->unit_path);
	if (rc == 0)
		rc = pml_unit_names(&policy, &path, &names, &n_names);
	for (i = 0; i < n_names && rc == 0; i++) {
		result->units++;
		if (pml_match_unit(&policy, names[i]) == NULL)
			continue;
		result->matched++;
		rc = generate_unit(request, &policy, &path, &machine, names[i], &log, result);
	}
	if (rc == -ENOMEM)
		kmsg_write(&k, LOG_CRIT, "out of memory");
	pml_unit_names_free(names, n_names);
	pml_unit_path_free(&path);
	pml_policy_free(&policy);
	return rc;
}
