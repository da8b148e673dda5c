/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Generators run before syslog or the journal: their log is the kernel's
 * (/dev/kmsg), one line a message.  They may talk to no other process, so
 * this reads no user database (unit rules have no user keys) and opens no
 * socket.
 */
#include "generate.h"

#include <dirent.h>
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

/* The unit names to look at: sorted, each once. */
struct names {
	char **v;
	size_t n, cap;
};

static int add_name(struct names *names, const char *name)
{
	if (names->n == names->cap) {
		size_t grown = names->cap ? names->cap * 2 : 256;
		char **bigger = realloc(names->v, grown * sizeof(*bigger));

		if (bigger == NULL)
			return -ENOMEM;
		names->v = bigger;
		names->cap = grown;
	}
	names->v[names->n] = strdup(name);
	if (names->v[names->n] == NULL)
		return -ENOMEM;
	names->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The unit files and templates of each directory of PATH, and each unit a
 * unit rule names outright, whether or not it has a file. */
static int collect(const struct pml_policy *policy, const struct pml_unit_path *path,
		   struct names *names)
{
	size_t i, j, out;
	int rc = 0;

	for (i = 0; i < path->n && rc == 0; i++) {
		DIR *d = opendir(path->dirs[i]);
		struct dirent *e;

		if (d == NULL)
			continue;
		while (rc == 0 && (e = readdir(d)) != NULL)
			if (e->d_name[0] != '.' && pml_unit_section(e->d_name) != NULL)
				rc = add_name(names, e->d_name);
		closedir(d);
	}
	for (i = 0; i < policy->n_rules && rc == 0; i++)
		for (j = 0; j < policy->rules[i].units.n && rc == 0; j++) {
			const char *glob = policy->rules[i].units.v[j];

			if (pml_unit_glob_is_name(glob) && pml_unit_section(glob) != NULL)
				rc = add_name(names, glob);
		}
	if (rc < 0)
		return rc;
	qsort(names->v, names->n, sizeof(*names->v), by_name);
	for (i = 0, out = 0; i < names->n; i++) {
		if (out > 0 && strcmp(names->v[out - 1], names->v[i]) == 0)
			free(names->v[i]);
		else
			names->v[out++] = names->v[i];
	}
	names->n = out;
	return 0;
}

static void free_names(struct names *names)
{
	size_t i;

	for (i = 0; i < names->n; i++)
		free(names->v[i]);
	free(names->v);
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
	int rc = pml_unit_read(path, name, machine->ram, log, &files);

	if (rc < 0)
		return rc;
	pml_unit_decide(policy, name, &files, machine, &d);
	if (d.action != PML_UNIT_WRITE)
		return 0;
	pml_unit_dropin_text(policy, name, &d, text, sizeof(text));
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
	struct names names = { .n = 0 };
	size_t i;
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
		rc = collect(&policy, &path, &names);
	for (i = 0; i < names.n && rc == 0; i++) {
		result->units++;
		if (pml_match_unit(&policy, names.v[i]) == NULL)
			continue;
		result->matched++;
		rc = generate_unit(request, &policy, &path, &machine, names.v[i], &log, result);
	}
	if (rc == -ENOMEM)
		kmsg_write(&k, LOG_CRIT, "out of memory");
	free_names(&names);
	pml_unit_path_free(&path);
	pml_policy_free(&policy);
	return rc;
}
