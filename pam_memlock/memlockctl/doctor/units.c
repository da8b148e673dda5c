/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli.h"
#include "dirfd/dirfd.h"

static const char *const ssh_units[] = { "ssh.service", "sshd.service", NULL };
static const char *const cron_units[] = { "cron.service", "crond.service", NULL };
static const char *const login_units[] = { "getty@.service", "serial-getty@.service",
					   "console-getty.service", NULL };
static const char *const user_units[] = { "user@.service", NULL };
static const char *const gdm_units[] = { "gdm.service", "gdm3.service", NULL };
static const char *const lightdm_units[] = { "lightdm.service", NULL };
static const char *const sddm_units[] = { "sddm.service", NULL };
/* cockpit-ws hands each login to a cockpit-session@.service instance of
 * cockpit-session.socket (Accept=yes), which runs cockpit-session, the
 * program that opens the PAM session. */
static const char *const cockpit_units[] = { "cockpit-session@.service", NULL };
static const char *const xrdp_units[] = { "xrdp-sesman.service", NULL };
/* slurmstepd, which opens the "slurm" session, is slurmd's child. */
static const char *const slurm_units[] = { "slurmd.service", NULL };
/* run0 starts a transient run-u<N>.service: no unit file, only the drop-ins
 * of every service and of the "run-" prefix, and the manager's default. */
static const char *const run0_units[] = { "run-.service", NULL };

/* PAM service (or, ending in '*', a prefix of one) -> the units it runs in. */
static const struct service_unit {
	const char *service;
	const char *const *units;
	bool transient; /* made at run time, never a file */
} service_units[] = {
	{ .service = "sshd", .units = ssh_units },
	{ .service = "cron", .units = cron_units },
	{ .service = "login", .units = login_units },
	{ .service = "systemd-user", .units = user_units },
	{ .service = "gdm-*", .units = gdm_units },
	{ .service = "lightdm*", .units = lightdm_units },
	{ .service = "sddm*", .units = sddm_units },
	{ .service = "cockpit", .units = cockpit_units },
	{ .service = "xrdp-sesman", .units = xrdp_units },
	{ .service = "slurm", .units = slurm_units },
	{ .service = "systemd-run0", .units = run0_units, .transient = true },
};

/* Unit directories, strongest first. */
static const char *const unit_dirs[] = {
	"/etc/systemd/system",
	"/run/systemd/system",
	"/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system",
	"/lib/systemd/system",
	NULL,
};
/* Where system.conf.d and user.conf.d drop-ins live, strongest first. */
static const char *const manager_dirs[] = {
	"/etc/systemd",
	"/run/systemd",
	"/usr/local/lib/systemd",
	"/usr/lib/systemd",
	"/lib/systemd",
	NULL,
};

static const struct service_unit *service_unit(const char *service)
{
	size_t i;

	for (i = 0; i < N_OF(service_units); i++) {
		const char *s = service_units[i].service;
		size_t len = strlen(s);

		if (s[len - 1] == '*' ? strncmp(service, s, len - 1) == 0
				      : strcmp(service, s) == 0)
			return &service_units[i];
	}
	return NULL;
}

const char *const *doc_service_units(const char *service)
{
	const struct service_unit *row = service_unit(service);

	return row != NULL ? row->units : NULL;
}

uint64_t doc_kernel_default(const char *release)
{
	unsigned major = 0, minor = 0;

	if (sscanf(release, "%u.%u", &major, &minor) == 2 &&
	    (major > 5 || (major == 5 && minor >= 16)))
		return (uint64_t)8 << 20;
	return (uint64_t)64 << 10;
}

/* systemd's parse_size with base 1024: "8M", "1.5G", "65536". */
static bool parse_size(const char *s, uint64_t *out)
{
	static const struct {
		char suffix;
		unsigned shift;
	} units[] = {
		{ 'B', 0 },
		{ 'K', 10 },
		{ 'M', 20 },
		{ 'G', 30 },
		{ 'T', 40 },
		{ 'P', 50 },
		{ 'E', 60 },
	};
	unsigned long long whole, frac = 0, scale = 1;
	unsigned shift = 0;
	char *end;
	size_t i;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	whole = strtoull(s, &end, 10);
	if (errno != 0)
		return false;
	if (*end == '.') {
		const char *f = end + 1;

		while (isdigit((unsigned char)*f) && scale < 1000000000000ULL) {
			frac = frac * 10 + (unsigned long long)(*f - '0');
			scale *= 10;
			f++;
		}
		end = (char *)f;
	}
	while (*end == ' ')
		end++;
	if (*end != '\0') {
		for (i = 0; i < N_OF(units); i++)
			if (*end == units[i].suffix)
				break;
		if (i == N_OF(units) || end[1] != '\0')
			return false;
		shift = units[i].shift;
	}
	if (shift < 64 && whole > (UINT64_MAX >> shift))
		return false;
	*out = ((uint64_t)whole << shift) + (uint64_t)(((long double)frac / scale) * ((uint64_t)1 << shift));
	return true;
}

static bool parse_one(const char *s, struct doc_value *v)
{
	v->known = true;
	if (strcmp(s, "infinity") == 0) {
		v->bytes = DOC_UNLIMITED;
		return true;
	}
	return parse_size(s, &v->bytes);
}

bool doc_parse_systemd_limit(const char *text, struct doc_value *soft,
			     struct doc_value *hard, bool *empty)
{
	char buf[128], *colon;

	*empty = text[0] == '\0';
	if (*empty)
		return true;
	if (strlen(text) >= sizeof(buf))
		return false;
	strcpy(buf, text);
	colon = strchr(buf, ':');
	if (colon == NULL)
		return parse_one(buf, soft) && parse_one(buf, hard);
	*colon = '\0';
	return parse_one(buf, soft) && parse_one(colon + 1, hard);
}

/* systemd's LONG_LINE_MAX: a longer line fails the whole file. */
#define SYSTEMD_LINE_MAX (1u << 20)

/* systemd's WHITESPACE, which strstrip() trims. */
#define WHITESPACE " \t\n\r"

static char *strip(char *s)
{
	size_t len;

	s += strspn(s, WHITESPACE);
	len = strlen(s);
	while (len > 0 && strchr(WHITESPACE, s[len - 1]) != NULL)
		s[--len] = '\0';
	return s;
}

struct setting_scan {
	const char *path, *section, *key;
	struct doc_setting *out, *documented;
	bool in_section;
};

/* One logical line, as systemd's parse_line: false when it fails the file
 * (a section header without its ']'). */
static bool setting_line(struct setting_scan *sc, char *l, unsigned lineno)
{
	size_t klen = strlen(sc->key);
	struct doc_value soft, hard;
	char *eq, *key, *value;
	bool empty;

	l = strip(l);
	if (*l == '\0')
		return true;
	if (*l == '[') {
		size_t len = strlen(l);

		if (l[len - 1] != ']')
			return false;
		l[len - 1] = '\0';
		sc->in_section = strcmp(l + 1, sc->section) == 0;
		return true;
	}
	eq = strchr(l, '=');
	if (!sc->in_section || eq == NULL || eq == l)
		return true; /* systemd warns and goes on */
	*eq = '\0';
	key = strip(l);
	value = strip(eq + 1);
	if (strlen(key) != klen || strcmp(key, sc->key) != 0)
		return true;
	/* systemd ignores a value it cannot parse, with a warning. */
	if (!doc_parse_systemd_limit(value, &soft, &hard, &empty))
		return true;
	sc->out->set = !empty;
	if (empty)
		return true;
	sc->out->soft = soft;
	sc->out->hard = hard;
	snprintf(sc->out->file, sizeof(sc->out->file), "%s", sc->path);
	sc->out->line = lineno;
	snprintf(sc->out->what, sizeof(sc->out->what), "%s=%.400s", key, value);
	return true;
}

/* A comment "#KEY=value": systemd's shipped files document built-in
 * defaults that way. */
static void documented_line(struct setting_scan *sc, const char *l, unsigned lineno)
{
	size_t klen = strlen(sc->key);
	bool empty;

	if (sc->documented == NULL || !sc->in_section || l[0] != '#' ||
	    strncmp(l + 1, sc->key, klen) != 0 || l[1 + klen] != '=')
		return;
	if (doc_parse_systemd_limit(l + 2 + klen, &sc->documented->soft, &sc->documented->hard,
				    &empty) &&
	    !empty) {
		sc->documented->set = true;
		snprintf(sc->documented->file, sizeof(sc->documented->file), "%s", sc->path);
		sc->documented->line = lineno;
		snprintf(sc->documented->what, sizeof(sc->documented->what), "%.500s", l);
	}
}

/*
 * Reads KEY= in [SECTION] of ROOT/PATH into *out as systemd's
 * config_parse reads it: lines of any length up to 1 MiB, a backslash at
 * the end continuing a line (comment lines inside skipped, a blank one
 * ending it), '#' and ';' starting a comment only at the start of a line,
 * the last assignment winning and an empty one resetting.  A file systemd
 * refuses (a line over 1 MiB, a section header without ']') sets nothing.
 * A commented "#KEY=value" goes to *documented.
 */
static void read_setting(const char *root, const char *path, const char *section,
			 const char *key, struct doc_setting *out,
			 struct doc_setting *documented)
{
	struct setting_scan sc = { path, section, key, NULL, documented, false };
	struct doc_setting result = *out;
	struct dirfd_text text;
	char *continuation = NULL;
	size_t pos = 0, clen = 0;
	unsigned lineno = 0, first = 0;
	bool ok = true;

	if (dirfd_read(root, path, &text) < 0)
		return;
	sc.out = &result;
	while (ok && pos < text.len) {
		char *line = text.data + pos, *nl = memchr(line, '\n', text.len - pos), *p, *grown;
		size_t len = nl != NULL ? (size_t)(nl - line) : text.len - pos;
		bool escaped = false;
		size_t i;

		pos += len + 1;
		lineno++;
		line[len] = '\0';
		len = strlen(line); /* a NUL ends systemd's line too */
		if (len >= SYSTEMD_LINE_MAX || clen + len > SYSTEMD_LINE_MAX) {
			ok = false;
			break;
		}
		if (lineno == 1 && strncmp(line, "\xef\xbb\xbf", 3) == 0)
			line += 3, len -= 3;
		p = line + strspn(line, WHITESPACE);
		if (*p == '#' || *p == ';') {
			documented_line(&sc, p, lineno);
			continue;
		}
		if (continuation == NULL)
			first = lineno;
		grown = realloc(continuation, clen + len + 1);
		if (grown == NULL)
			break;
		continuation = grown;
		memcpy(continuation + clen, line, len + 1);
		clen += len;
		for (i = 0; i < clen; i++)
			escaped = !escaped && continuation[i] == '\\';
		if (escaped) {
			continuation[clen - 1] = ' ';
			continue;
		}
		ok = setting_line(&sc, continuation, first);
		free(continuation);
		continuation = NULL;
		clen = 0;
	}
	if (ok && continuation != NULL)
		ok = setting_line(&sc, continuation, first);
	free(continuation);
	dirfd_text_free(&text);
	if (ok)
		*out = result;
}

/* Drop-ins NAME.d/ *.conf over DIRS: a name in a stronger directory hides
 * the same name in a weaker one; all are read in name order. */
static void read_dropins(const char *root, const char *const *dirs, const char *name,
			 const char *section, const char *key, struct doc_setting *out)
{
	char *seen[256];
	const char *from[256];
	size_t n_seen = 0, i, j, d;

	for (d = 0; dirs[d] != NULL; d++) {
		char dir[DOC_PATH_MAX], **names;
		size_t n;

		snprintf(dir, sizeof(dir), "%s/%s.d", dirs[d], name);
		if (dirfd_list_dir(root, dir, ".conf", &names, &n) < 0)
			continue;
		for (i = 0; i < n; i++) {
			for (j = 0; j < n_seen; j++)
				if (strcmp(seen[j], names[i]) == 0)
					break;
			if (j < n_seen || n_seen == N_OF(seen)) {
				free(names[i]);
				continue;
			}
			seen[n_seen] = names[i];
			from[n_seen++] = dirs[d];
		}
		free(names);
	}
	/* In name order, as systemd reads them. */
	for (i = 0; i < n_seen; i++)
		for (j = i + 1; j < n_seen; j++)
			if (strcmp(seen[j], seen[i]) < 0) {
				char *t = seen[i];
				const char *f = from[i];

				seen[i] = seen[j];
				from[i] = from[j];
				seen[j] = t;
				from[j] = f;
			}
	for (i = 0; i < n_seen; i++) {
		char path[DOC_PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s.d/%s", from[i], name, seen[i]);
		read_setting(root, path, section, key, out, NULL);
		free(seen[i]);
	}
}

/* The manager's DefaultLimitMEMLOCK for "system" or "user". */
static void manager_default(const char *root, const char *which, struct doc_setting *out,
			    struct doc_setting *documented)
{
	char main_file[64], name[32];

	snprintf(main_file, sizeof(main_file), "/etc/systemd/%s.conf", which);
	snprintf(name, sizeof(name), "%s.conf", which);
	read_setting(root, main_file, "Manager", "DefaultLimitMEMLOCK", out, documented);
	read_dropins(root, manager_dirs, name, "Manager", "DefaultLimitMEMLOCK", out);
}

void doc_user_manager_default(const char *root, struct doc_setting *out)
{
	memset(out, 0, sizeof(*out));
	manager_default(root, "user", out, NULL);
}

void doc_session_start(const char *root, const char *service, struct doc_start *out)
{
	const struct service_unit *row = service_unit(service);
	const char *const *units = row != NULL ? row->units : NULL;
	struct doc_setting documented;
	struct utsname uts;
	size_t u, d;

	memset(out, 0, sizeof(*out));
	memset(&documented, 0, sizeof(documented));
	out->has_unit = units != NULL;
	if (units == NULL) {
		snprintf(out->value.what, sizeof(out->value.what),
			 "no unit: the session starts from its caller's limits");
		return;
	}
	if (row->transient)
		out->unit = units[0];
	for (u = 0; units[u] != NULL && out->unit == NULL; u++)
		for (d = 0; unit_dirs[d] != NULL; d++) {
			char path[DOC_PATH_MAX];

			snprintf(path, sizeof(path), "%s/%s", unit_dirs[d], units[u]);
			if (dirfd_exists(root, path)) {
				out->unit = units[u];
				read_setting(root, path, "Service", "LimitMEMLOCK", &out->value, NULL);
				break;
			}
		}
	if (out->unit == NULL) {
		out->has_unit = false;
		snprintf(out->value.what, sizeof(out->value.what),
			 "no unit file for %s: the start is unknown", units[0]);
		return;
	}
	read_dropins(root, unit_dirs, "service", "Service", "LimitMEMLOCK", &out->value);
	read_dropins(root, unit_dirs, out->unit, "Service", "LimitMEMLOCK", &out->value);
	if (out->value.set) {
		char what[sizeof(out->value.what)];

		snprintf(what, sizeof(what), "%s", out->value.what);
		snprintf(out->value.what, sizeof(out->value.what), "%s: %.300s", out->unit, what);
		return;
	}
	manager_default(root, "system", &out->value, &documented);
	if (out->value.set) {
		char what[sizeof(out->value.what)];

		snprintf(what, sizeof(what), "%s", out->value.what);
		snprintf(out->value.what, sizeof(out->value.what),
			 "%s sets no LimitMEMLOCK; manager default %.300s", out->unit, what);
		return;
	}
	if (documented.set) {
		out->value = documented;
		snprintf(out->value.what, sizeof(out->value.what),
			 "%s sets no LimitMEMLOCK, system.conf no DefaultLimitMEMLOCK: systemd's built-in default for services, which its system.conf documents",
			 out->unit);
		return;
	}
	out->value.set = true;
	out->value.soft.known = out->value.hard.known = true;
	out->value.soft.bytes = out->value.hard.bytes =
		doc_kernel_default(uname(&uts) == 0 ? uts.release : "0.0");
	out->value.file[0] = '\0';
	snprintf(out->value.what, sizeof(out->value.what),
		 "%s sets no LimitMEMLOCK, system.conf no DefaultLimitMEMLOCK: the kernel default for Linux %s",
		 out->unit, uname(&uts) == 0 ? uts.release : "(unknown)");
}
