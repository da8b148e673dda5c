/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * What a unit's own files say about its memlock limit and its memory: a
 * small, strict reader of the two settings the generator needs, never a
 * parser of unit files at large.  It follows systemd.unit(5): the unit
 * file is the first of its name in the search path (an instance without
 * one uses its template's), drop-ins in NAME.d/ (and the template's) apply
 * in file-name order across all directories, and of two of one name the
 * one in the earlier directory counts.  Type-wide (service.d/) and
 * dash-prefix drop-in directories are not read.
 */
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* Larger unit files are skipped: no real one comes near. */
#define UNIT_FILE_MAX (1024 * 1024)

/* One number with an optional 1024-based suffix, as systemd's sizes. */
static int parse_bytes(const char *text, uint64_t *out)
{
	static const char suffixes[] = "BKMGTPE";
	uint64_t whole = 0, frac = 0, scale = 1, unit = 1;
	unsigned frac_digits = 0;
	const char *p = text, *s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (frac_digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				scale *= 10;
				frac_digits++;
			}
		if (frac_digits == 0)
			return -EINVAL;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '\0') {
		s = strchr(suffixes, *p);
		if (s == NULL || p[1] != '\0')
			return -EINVAL;
		unit = (uint64_t)1 << (10 * (s - suffixes));
	}
	if (whole > UINT64_MAX / unit)
		return -ERANGE;
	*out = whole * unit + frac * unit / scale;
	return 0;
}

static int parse_limit_side(const char *text, uint64_t *out)
{
	if (strcmp(text, "infinity") == 0) {
		*out = PML_UNLIMITED;
		return 0;
	}
	return parse_bytes(text, out);
}

/* "SOFT:HARD" or one value for both. */
static int parse_limit(const char *text, struct pml_unit_value *v)
{
	const char *colon = strchr(text, ':');
	char soft[64];

	if (colon == NULL) {
		if (parse_limit_side(text, &v->soft) < 0)
			return -EINVAL;
		v->hard = v->soft;
		return 0;
	}
	if ((size_t)(colon - text) >= sizeof(soft))
		return -EINVAL;
	snprintf(soft, sizeof(soft), "%.*s", (int)(colon - text), text);
	if (parse_limit_side(soft, &v->soft) < 0 || parse_limit_side(colon + 1, &v->hard) < 0 ||
	    v->soft > v->hard)
		return -EINVAL;
	return 0;
}

/* "N%" or "N.NN%" as hundredths of a percent; -EINVAL for anything else. */
static int parse_permyriad(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	unsigned decimals = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9' && v <= 100; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9' && decimals < 2; p++, decimals++)
			v = v * 10 + (uint64_t)(*p - '0');
	for (; decimals < 2; decimals++)
		v *= 10;
	if (p[0] != '%' || p[1] != '\0' || v > 10000)
		return -EINVAL;
	*out = v;
	return 0;
}

/* MemoryMax=: a size, "infinity" (no limit), or a share of RAM. */
static int parse_memory_max(const char *text, uint64_t ram, struct pml_unit_value *v)
{
	uint64_t permyriad;

	if (strcmp(text, "infinity") == 0) {
		v->hard = PML_UNLIMITED;
		return 0;
	}
	if (text[0] != '\0' && text[strlen(text) - 1] == '%') {
		if (parse_permyriad(text, &permyriad) < 0)
			return -EINVAL;
		v->hard = ram / 10000 * permyriad + ram % 10000 * permyriad / 10000;
		return 0;
	}
	return parse_bytes(text, &v->hard);
}

struct reader {
	const struct pml_files *files; /* NULL: by path */
	uint64_t ram;
	const struct pml_log *log;
	struct pml_unit_files *out;
	bool later; /* this drop-in applies after the generator's */
};

static void assign(struct pml_unit_value *to, const struct pml_unit_value *v,
		   const char *path, unsigned line)
{
	*to = *v;
	to->set = true;
	snprintf(to->file, sizeof(to->file), "%s", path);
	to->line = line;
}

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static bool exec_section(const char *name)
{
	return strcmp(name, "Service") == 0 || strcmp(name, "Socket") == 0 ||
	       strcmp(name, "Mount") == 0 || strcmp(name, "Swap") == 0;
}

/* One logical line of PATH, from line LINE. */
static void read_line(struct reader *r, const char *path, unsigned line,
		      char *text, bool *in_exec)
{
	struct pml_unit_value v = { .set = true };
	char *key, *value, *eq, *close;
	bool limit;
	int rc;

	text = trim(text);
	if (text[0] == '\0' || text[0] == '#' || text[0] == ';')
		return;
	if (text[0] == '[') {
		close = strchr(text, ']');
		if (close != NULL)
			*close = '\0';
		*in_exec = close != NULL && exec_section(text + 1);
		return;
	}
	eq = strchr(text, '=');
	if (!*in_exec || eq == NULL)
		return;
	*eq = '\0';
	key = trim(text);
	value = trim(eq + 1);
	limit = strcmp(key, "LimitMEMLOCK") == 0;
	if (!limit && strcmp(key, "MemoryMax") != 0)
		return;
	/* An empty assignment resets what earlier lines said. */
	if (value[0] == '\0') {
		if (limit) {
			r->out->limit.set = false;
			if (r->later)
				r->out->later.set = false;
		} else
			r->out->memory_max.set = false;
		return;
	}
	rc = limit ? parse_limit(value, &v) : parse_memory_max(value, r->ram, &v);
	if (rc < 0) {
		char quoted[96];

		pml_log_at(r->log, LOG_WARNING, path, line,
			   "%s=%s: not a value this reader knows; skipped, as systemd skips what it cannot parse",
			   key, pml_quote(value, quoted, sizeof(quoted)));
		return;
	}
	if (!limit) {
		if (v.hard == PML_UNLIMITED)
			r->out->memory_max.set = false;
		else
			assign(&r->out->memory_max, &v, path, line);
		return;
	}
	assign(&r->out->limit, &v, path, line);
	if (r->later)
		assign(&r->out->later, &v, path, line);
}

/* read_file through R->files, which reads regular files only: a mask
 * there is an empty file. */
static int read_file_at(const struct reader *r, const char *path, char **text,
			bool *masked)
{
	char *buf = malloc(UNIT_FILE_MAX + 2);
	ssize_t n;

	if (buf == NULL)
		return -ENOMEM;
	n = r->files->read(r->files, path, buf, UNIT_FILE_MAX + 2);
	if (n <= 0 || n > UNIT_FILE_MAX) {
		if (n > UNIT_FILE_MAX)
			pml_log(r->log, LOG_WARNING, "%s: larger than %d bytes; skipped", path,
				UNIT_FILE_MAX);
		*masked = n == 0;
		free(buf);
		return n == -ENOMEM ? -ENOMEM : 0;
	}
	*text = buf;
	return 0;
}

/*
 * PATH's text, NUL-terminated, into *TEXT (free it); *TEXT NULL and 0 for
 * a file that is not there or not a regular file, and *MASKED for one that
 * is /dev/null or empty.
 */
static int read_file(const struct reader *r, const char *path, char **text, bool *masked)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd;

	*text = NULL;
	*masked = false;
	if (r->files != NULL)
		return read_file_at(r, path, text, masked);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode))) {
		close(fd);
		return 0;
	}
	if (S_ISCHR(st.st_mode) || st.st_size == 0) {
		*masked = S_ISCHR(st.st_mode) ? st.st_rdev == makedev(1, 3) : true;
		close(fd);
		return 0;
	}
	if (st.st_size > UNIT_FILE_MAX) {
		pml_log(r->log, LOG_WARNING, "%s: larger than %d bytes; skipped", path,
			UNIT_FILE_MAX);
		close(fd);
		return 0;
	}
	*text = malloc((size_t)st.st_size + 1);
	if (*text == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size &&
	       (n = read(fd, *text + got, (size_t)st.st_size - got)) > 0)
		got += (size_t)n;
	(*text)[got] = '\0';
	close(fd);
	return 0;
}

/* Reads PATH's lines, a backslash at the end joining a line to the next. */
static int read_unit_file(struct reader *r, const char *path, bool *masked)
{
	char *text, *line, *rest, *logical = NULL;
	unsigned no = 0, start = 0;
	size_t len = 0;
	bool in_exec = false;
	int rc = read_file(r, path, &text, masked);

	if (rc < 0 || text == NULL)
		return rc;
	logical = malloc(strlen(text) + 1);
	if (logical == NULL) {
		free(text);
		return -ENOMEM;
	}
	for (rest = text; (line = strsep(&rest, "\n")) != NULL;) {
		size_t n = strlen(line);
		bool more = n > 0 && line[n - 1] == '\\';

		no++;
		if (len == 0)
			start = no;
		memcpy(logical + len, line, n - more);
		len += n - more;
		if (more) {
			logical[len++] = ' ';
			continue;
		}
		logical[len] = '\0';
		read_line(r, path, start, logical, &in_exec);
		len = 0;
	}
	if (len > 0) {
		logical[len] = '\0';
		read_line(r, path, start, logical, &in_exec);
	}
	free(logical);
	free(text);
	return 0;
}

struct dropin {
	char *name; /* points into path */
	char *path;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct dropin *)a)->name, ((const struct dropin *)b)->name);
}

/* Adds DIR/FILE to *LIST unless a drop-in of its name is there already. */
static int add_dropin(const char *dir, const char *file, struct dropin **list,
		      size_t *n, size_t *cap)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strcmp((*list)[i].name, file) == 0)
			return 0;
	if (*n == *cap) {
		size_t grown = *cap ? *cap * 2 : 8;
		struct dropin *bigger = realloc(*list, grown * sizeof(*bigger));

		if (bigger == NULL)
			return -ENOMEM;
		*list = bigger;
		*cap = grown;
	}
	if (asprintf(&(*list)[*n].path, "%s/%s", dir, file) < 0)
		return -ENOMEM;
	(*list)[*n].name = (*list)[*n].path + strlen(dir) + 1;
	(*n)++;
	return 0;
}

/* list_dropins through FILES. */
static int list_dropins_at(const struct pml_files *files, const char *dir,
			   struct dropin **list, size_t *n, size_t *cap)
{
	char **names;
	size_t count, i;
	int rc = files->list(files, dir, ".conf", &names, &count);

	for (i = 0; i < count && rc == 0; i++)
		if (strlen(names[i]) >= 6)
			rc = add_dropin(dir, names[i], list, n, cap);
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return rc < 0 ? rc : 0;
}

/* Adds DIR's *.conf files not already in *LIST by name. */
static int list_dropins(const struct pml_files *files, const char *dir,
			struct dropin **list, size_t *n, size_t *cap)
{
	DIR *d;
	struct dirent *e;
	int rc;

	if (files != NULL)
		return list_dropins_at(files, dir, list, n, cap);
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".conf") != 0)
			continue;
		rc = add_dropin(dir, e->d_name, list, n, cap);
		if (rc < 0) {
			closedir(d);
			return rc;
		}
	}
	closedir(d);
	return 0;
}

int pml_unit_read(const struct pml_unit_path *path, const char *name,
		  uint64_t ram, const struct pml_log *log,
		  struct pml_unit_files *out)
{
	struct reader r = { .files = path->files, .ram = ram, .log = log, .out = out };
	const char *names[2] = { name, NULL };
	struct dropin *list = NULL;
	size_t n = 0, cap = 0, i, k;
	char template[PATH_MAX], file[PATH_MAX];
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (pml_unit_template(name, template, sizeof(template)))
		names[1] = template;
	/* The unit file: the instance's own, else its template's. */
	for (k = 0; k < 2 && names[k] != NULL && out->path[0] == '\0'; k++)
		for (i = 0; i < path->n && out->path[0] == '\0'; i++) {
			struct stat st;

			if ((size_t)snprintf(file, sizeof(file), "%s/%s", path->dirs[i], names[k]) <
				    sizeof(file) &&
			    (path->files != NULL ? path->files->exists(path->files, file)
						 : lstat(file, &st) == 0))
				snprintf(out->path, sizeof(out->path), "%s", file);
		}
	if (out->path[0] != '\0') {
		rc = read_unit_file(&r, out->path, &out->masked);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < path->n && rc == 0; i++)
		for (k = 0; k < 2 && names[k] != NULL && rc == 0; k++) {
			if ((size_t)snprintf(file, sizeof(file), "%s/%s.d", path->dirs[i],
					     names[k]) < sizeof(file))
				rc = list_dropins(path->files, file, &list, &n, &cap);
		}
	if (rc == 0 && n > 1)
		qsort(list, n, sizeof(*list), by_name);
	for (i = 0; i < n && rc == 0; i++) {
		int cmp = strcmp(list[i].name, PML_UNIT_DROPIN);
		bool masked;

		/* An admin's file of the generator's name takes its place:
		 * what it sets is the unit's own, before any later drop-in. */
		if (cmp == 0)
			snprintf(out->masked_by, sizeof(out->masked_by), "%s", list[i].path);
		r.later = cmp > 0;
		rc = read_unit_file(&r, list[i].path, &masked);
	}
	for (i = 0; i < n; i++)
		free(list[i].path);
	free(list);
	return rc;
}

/* The unit names to look at, as pml_unit_names builds them. */
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

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR's unit files of a type that starts processes, into NAMES. */
static int add_dir(const struct pml_files *files, const char *dir, struct names *names)
{
	char **list;
	size_t count, i;
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (files != NULL) {
		rc = files->list(files, dir, "", &list, &count);
		for (i = 0; i < count && rc == 0; i++)
			if (list[i][0] != '.' && pml_unit_section(list[i]) != NULL)
				rc = add_name(names, list[i]);
		for (i = 0; i < count; i++)
			free(list[i]);
		free(list);
		return rc == -ENOMEM ? rc : 0;
	}
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while (rc == 0 && (e = readdir(d)) != NULL)
		if (e->d_name[0] != '.' && pml_unit_section(e->d_name) != NULL)
			rc = add_name(names, e->d_name);
	closedir(d);
	return rc;
}

int pml_unit_names(const struct pml_policy *policy, const struct pml_unit_path *path,
		   char ***out, size_t *n_out)
{
	struct names names = { .n = 0 };
	size_t i, j, kept;
	int rc = 0;

	for (i = 0; i < path->n && rc == 0; i++)
		rc = add_dir(path->files, path->dirs[i], &names);
	for (i = 0; i < policy->n_rules && rc == 0; i++)
		for (j = 0; j < policy->rules[i].units.n && rc == 0; j++) {
			const char *glob = policy->rules[i].units.v[j];

			if (pml_unit_glob_is_name(glob) && pml_unit_section(glob) != NULL)
				rc = add_name(&names, glob);
		}
	if (rc < 0) {
		pml_unit_names_free(names.v, names.n);
		return rc;
	}
	if (names.n > 1)
		qsort(names.v, names.n, sizeof(*names.v), by_string);
	for (i = 0, kept = 0; i < names.n; i++) {
		if (kept > 0 && strcmp(names.v[kept - 1], names.v[i]) == 0)
			free(names.v[i]);
		else
			names.v[kept++] = names.v[i];
	}
	*out = names.v;
	*n_out = kept;
	return 0;
}

void pml_unit_names_free(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int pml_unit_generate(const struct pml_policy *policy, const struct pml_unit_path *path,
		      const struct pml_machine *machine, const char *name,
		      const struct pml_log *log, struct pml_unit_files *files,
		      struct pml_unit_decision *d, char *buf, size_t len)
{
	int rc = pml_unit_read(path, name, machine->ram, log, files);

	if (len > 0)
		buf[0] = '\0';
	if (rc < 0)
		return rc;
	pml_unit_decide(policy, name, files, machine, d);
	if (d->action != PML_UNIT_WRITE)
		return 0;
	if ((size_t)pml_unit_dropin_text(policy, name, d, buf, len) >= len)
		return -ENAMETOOLONG;
	return 0;
}
