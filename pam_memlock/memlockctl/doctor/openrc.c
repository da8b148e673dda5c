/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "openrc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"
#include "dirfd/dirfd.h"

const char *const doc_init_names[DOC_INIT_COUNT] = {
	[DOC_INIT_UNKNOWN] = "unknown",
	[DOC_INIT_SYSTEMD] = "systemd",
	[DOC_INIT_OPENRC] = "openrc",
};

/* What a link /sbin/init names, by the last part of its target. */
static const struct {
	const char *target;
	const char *pid1;
	enum doc_init_kind kind; /* UNKNOWN: the files below decide */
} init_links[] = {
	{ .target = "systemd", .pid1 = "systemd", .kind = DOC_INIT_SYSTEMD },
	{ .target = "openrc-init", .pid1 = "openrc-init", .kind = DOC_INIT_OPENRC },
	/* busybox init runs whatever /etc/inittab says: OpenRC on Alpine. */
	{ .target = "busybox", .pid1 = "busybox init", .kind = DOC_INIT_UNKNOWN },
};

/* Files each init system installs, in the order they are asked about. */
static const struct {
	const char *path;
	enum doc_init_kind kind;
} init_files[] = {
	{ .path = "/sbin/openrc", .kind = DOC_INIT_OPENRC },
	{ .path = "/usr/sbin/openrc", .kind = DOC_INIT_OPENRC },
	{ .path = "/usr/lib/systemd/systemd", .kind = DOC_INIT_SYSTEMD },
	{ .path = "/lib/systemd/systemd", .kind = DOC_INIT_SYSTEMD },
};

/* The target of ROOT's /sbin/init, when it is a link, into BUF. */
static bool init_link(const char *root, char *buf, size_t len)
{
	int dir = dirfd_open_parent(root, "/sbin/init");
	ssize_t n;

	if (dir < 0)
		return false;
	n = readlinkat(dir, "init", buf, len - 1);
	close(dir);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return true;
}

void doc_init_probe(const char *root, struct doc_init *out)
{
	char target[256];
	const char *base;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (root[0] == '\0') {
		out->kind = DOC_INIT_SYSTEMD;
		snprintf(out->why, sizeof(out->why),
			 "this machine: systemd's units, and PID 1's limits from /proc/1");
		return;
	}
	if (init_link(root, target, sizeof(target))) {
		base = strrchr(target, '/') != NULL ? strrchr(target, '/') + 1 : target;
		for (i = 0; i < N_OF(init_links); i++)
			if (strcmp(base, init_links[i].target) == 0)
				break;
		if (i < N_OF(init_links)) {
			snprintf(out->pid1, sizeof(out->pid1), "%s", init_links[i].pid1);
			out->kind = init_links[i].kind;
			snprintf(out->why, sizeof(out->why), "/sbin/init is a link to %.120s", target);
			if (out->kind != DOC_INIT_UNKNOWN)
				return;
		}
	}
	for (i = 0; i < N_OF(init_files); i++)
		if (dirfd_exists(root, init_files[i].path)) {
			char link[sizeof(out->why)];

			snprintf(link, sizeof(link), "%s", out->why);
			out->kind = init_files[i].kind;
			snprintf(out->why, sizeof(out->why), "%.150s%s%s is there", link,
				 link[0] != '\0' ? ", " : "", init_files[i].path);
			return;
		}
	if (dirfd_exists(root, "/etc/init.d") && dirfd_exists(root, "/etc/runlevels")) {
		out->kind = DOC_INIT_OPENRC;
		snprintf(out->why, sizeof(out->why), "/etc/init.d and /etc/runlevels are there");
		return;
	}
	snprintf(out->why, sizeof(out->why),
		 "neither systemd's nor OpenRC's files are there: systemd's units assumed");
}

/* --- rc_ulimit's value, as openrc-run applies it. */

/* One ulimit option word: "-l", "-Hl", "-Sl".  False for any other. */
static bool memlock_option(const char *w, bool *soft, bool *hard)
{
	size_t i;

	*soft = *hard = false;
	if (w[0] != '-')
		return false;
	for (i = 1; w[i] == 'H' || w[i] == 'S'; i++)
		*(w[i] == 'H' ? hard : soft) = true;
	if (w[i] != 'l' || w[i + 1] != '\0')
		return false;
	/* Neither -H nor -S: both, as bash's and busybox's ulimit. */
	if (!*soft && !*hard)
		*soft = *hard = true;
	return true;
}

/* ulimit's number: KiB for -l, or "unlimited". */
static bool ulimit_number(const char *w, uint64_t *bytes)
{
	unsigned long long kib;
	char *end;

	if (strcmp(w, "unlimited") == 0) {
		*bytes = DOC_UNLIMITED;
		return true;
	}
	if (!isdigit((unsigned char)w[0]))
		return false;
	errno = 0;
	kib = strtoull(w, &end, 10);
	if (errno != 0 || *end != '\0' || kib > (UINT64_MAX >> 10))
		return false;
	*bytes = (uint64_t)kib << 10;
	return true;
}

enum doc_rc_ulimit doc_apply_rc_ulimit(const char *value, struct doc_value *soft,
				       struct doc_value *hard)
{
	char buf[512], *words[64], *save = NULL, *w;
	enum doc_rc_ulimit result = DOC_RCU_NONE;
	size_t n = 0, i;

	if (strpbrk(value, "$`\\") != NULL)
		return DOC_RCU_UNKNOWN;
	snprintf(buf, sizeof(buf), "%s", value);
	for (w = strtok_r(buf, " \t\n", &save); w != NULL; w = strtok_r(NULL, " \t\n", &save))
		if (n < N_OF(words))
			words[n++] = w;
	/* openrc-run takes the words in pairs, and refuses an odd count
	 * (from 0.56; before, one ulimit call took them all, which differs
	 * only for an odd count). */
	if (n % 2 == 1)
		return DOC_RCU_REFUSED;
	for (i = 0; i < n; i += 2) {
		struct doc_value s = *soft, h = *hard;
		bool set_soft, set_hard;
		uint64_t bytes;

		if (!memlock_option(words[i], &set_soft, &set_hard))
			continue;
		/* ulimit fails on a bad number, or a soft limit above the hard
		 * one (setrlimit's EINVAL); openrc-run says so and goes on. */
		if (!ulimit_number(words[i + 1], &bytes)) {
			result = result == DOC_RCU_SET ? DOC_RCU_SET : DOC_RCU_REFUSED;
			continue;
		}
		if (set_soft)
			s.bytes = bytes;
		if (set_hard)
			h.bytes = bytes;
		s.known = h.known = true;
		if (s.bytes > h.bytes) {
			result = result == DOC_RCU_SET ? DOC_RCU_SET : DOC_RCU_REFUSED;
			continue;
		}
		*soft = s;
		*hard = h;
		result = DOC_RCU_SET;
	}
	return result;
}

/* --- The files openrc-run sources. */

/* The last assignment of one variable: its value, or that doctor cannot
 * tell it (a quote that goes on past the line, a command after it). */
struct rc_var {
	bool set, unknown;
	char value[256];
	char file[DOC_PATH_MAX];
	unsigned line;
};

/* VALUE: a shell word as the assignment gives it ("...", '...', bare). */
static bool shell_word(const char *v, char *out, size_t len)
{
	const char *end;
	size_t n;

	if (*v == '"' || *v == '\'') {
		end = strchr(v + 1, *v);
		if (end == NULL)
			return false;
		n = (size_t)(end - v - 1);
		v++;
		end++;
	} else {
		n = strcspn(v, " \t;&|#");
		end = v + n;
	}
	end += strspn(end, " \t;");
	if (*end != '\0' && *end != '#')
		return false;
	if (n >= len)
		return false;
	memcpy(out, v, n);
	out[n] = '\0';
	return true;
}

/* Assignments of rc_ulimit (vars[0]) and RC_ULIMIT (vars[1]) in PATH. */
static void scan_conf(const char *root, const char *path, struct rc_var vars[2])
{
	static const char *const names[] = { "rc_ulimit=", "RC_ULIMIT=" };
	struct dirfd_text text;
	char *line, *next;
	unsigned lineno = 0;
	size_t k;

	if (dirfd_read(root, path, &text) < 0)
		return;
	for (line = text.data; line != NULL; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		lineno++;
		line += strspn(line, " \t");
		if (strncmp(line, "export", 6) == 0 && (line[6] == ' ' || line[6] == '\t'))
			line += 6 + strspn(line + 6, " \t");
		for (k = 0; k < N_OF(names); k++) {
			size_t nl = strlen(names[k]);

			if (strncmp(line, names[k], nl) != 0)
				continue;
			vars[k].set = true;
			vars[k].unknown = !shell_word(line + nl, vars[k].value, sizeof(vars[k].value));
			snprintf(vars[k].file, sizeof(vars[k].file), "%s", path);
			vars[k].line = lineno;
		}
	}
	dirfd_text_free(&text);
}

/* conf.d/NAME.RUNLEVEL where it exists, else conf.d/NAME. */
static void scan_conf_d(const char *root, const char *name, size_t len, const char *runlevel,
			struct rc_var vars[2])
{
	char path[DOC_PATH_MAX];

	snprintf(path, sizeof(path), "/etc/conf.d/%.*s.%s", (int)len, name, runlevel);
	if (!dirfd_exists(root, path))
		snprintf(path, sizeof(path), "/etc/conf.d/%.*s", (int)len, name);
	scan_conf(root, path, vars);
}

/* The runlevel that starts NAME (RC_RUNLEVEL for its conf.d), into BUF:
 * the first of /etc/runlevels that holds it, else "default". */
static void runlevel_of(const char *root, const char *name, char *buf, size_t len)
{
	char **levels, path[DOC_PATH_MAX];
	size_t n, i;

	snprintf(buf, len, "default");
	if (dirfd_list_dir(root, "/etc/runlevels", NULL, &levels, &n) < 0)
		return;
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/etc/runlevels/%s/%s", levels[i], name);
		if (dirfd_exists(root, path)) {
			snprintf(buf, len, "%s", levels[i]);
			break;
		}
	}
	dirfd_names_free(levels, n);
}

static void kernel_start(struct doc_setting *v, char *release, size_t len)
{
	struct utsname uts;

	snprintf(release, len, "%s", uname(&uts) == 0 ? uts.release : "0.0");
	v->set = true;
	v->soft.known = v->hard.known = true;
	v->soft.bytes = v->hard.bytes = doc_kernel_default(release);
}

/* The start of init script NAME: PID 1's limit, then rc_ulimit. */
static void script_start(const char *root, const char *name, struct doc_start *out)
{
	struct rc_var vars[2];
	const struct rc_var *v;
	char runlevel[64], release[128], **confs;
	const char *dot = strchr(name, '.');
	enum doc_rc_ulimit r;
	size_t n, i;

	memset(vars, 0, sizeof(vars));
	runlevel_of(root, name, runlevel, sizeof(runlevel));
	scan_conf(root, "/etc/rc.conf", vars);
	if (dirfd_list_dir(root, "/etc/rc.conf.d", ".conf", &confs, &n) == 0) {
		for (i = 0; i < n; i++) {
			char path[DOC_PATH_MAX];

			snprintf(path, sizeof(path), "/etc/rc.conf.d/%s", confs[i]);
			scan_conf(root, path, vars);
		}
		dirfd_names_free(confs, n);
	}
	/* net.eth0 reads conf.d/net first. */
	if (dot != NULL && dot != name)
		scan_conf_d(root, name, (size_t)(dot - name), runlevel, vars);
	scan_conf_d(root, name, strlen(name), runlevel, vars);

	kernel_start(&out->value, release, sizeof(release));
	/* ${rc_ulimit:-$RC_ULIMIT}: rc_ulimit unless it is empty. */
	v = vars[0].set && (vars[0].unknown || vars[0].value[0] != '\0') ? &vars[0] : &vars[1];
	if (!v->set || (!v->unknown && v->value[0] == '\0')) {
		snprintf(out->value.what, sizeof(out->value.what),
			 "no rc_ulimit in /etc/rc.conf or /etc/conf.d/%.100s: PID 1's limit, which OpenRC leaves alone: the kernel default for Linux %.100s",
			 name, release);
		return;
	}
	snprintf(out->value.file, sizeof(out->value.file), "%s", v->file);
	out->value.line = v->line;
	r = v->unknown ? DOC_RCU_UNKNOWN
		       : doc_apply_rc_ulimit(v->value, &out->value.soft, &out->value.hard);
	if (r == DOC_RCU_UNKNOWN) {
		out->value.set = false;
		snprintf(out->value.what, sizeof(out->value.what),
			 "%s is a value doctor does not expand: the start is unknown",
			 v == &vars[0] ? "rc_ulimit" : "RC_ULIMIT");
		return;
	}
	snprintf(out->value.what, sizeof(out->value.what), "%s=\"%.100s\": %s%.100s",
		 v == &vars[0] ? "rc_ulimit" : "RC_ULIMIT", v->value,
		 r == DOC_RCU_SET ? "openrc-run's ulimit sets memlock (-l counts KiB)"
		 : r == DOC_RCU_NONE
			 ? "sets no -l, so PID 1's limit stays: the kernel default for Linux "
			 : "openrc-run's ulimit refuses it, so PID 1's limit stays: the kernel default for Linux ",
		 r == DOC_RCU_SET ? "" : release);
}

/* A getty line of inittab ("tty1::respawn:/sbin/getty 38400 tty1"): the
 * command of a respawn or askfirst entry whose program ends in "getty". */
static bool getty_line(const char *line)
{
	const char *action, *command, *prog, *end;

	if (line[0] == '#' || (action = strchr(line, ':')) == NULL ||
	    (action = strchr(action + 1, ':')) == NULL)
		return false;
	action++;
	if (strncmp(action, "respawn:", 8) != 0 && strncmp(action, "askfirst:", 9) != 0)
		return false;
	command = strchr(action, ':') + 1;
	end = command + strcspn(command, " \t#");
	for (prog = end; prog > command && prog[-1] != '/'; prog--)
		;
	return end - prog >= 5 && strncmp(end - 5, "getty", 5) == 0;
}

/* login: the first getty init spawns from /etc/inittab, which has PID 1's
 * limit; without one (openrc-init), an agetty.* init script. */
static bool inittab_start(const char *root, struct doc_start *out)
{
	struct dirfd_text text;
	char *line, *next, release[128];
	unsigned lineno = 0;

	if (dirfd_read(root, "/etc/inittab", &text) < 0)
		return false;
	for (line = text.data; line != NULL; line = next) {
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = '\0';
		lineno++;
		if (!getty_line(line))
			continue;
		out->unit = "inittab";
		out->has_unit = true;
		kernel_start(&out->value, release, sizeof(release));
		snprintf(out->value.file, sizeof(out->value.file), "/etc/inittab");
		out->value.line = lineno;
		snprintf(out->value.what, sizeof(out->value.what),
			 "init spawns \"%.150s\" with PID 1's limit, which it never changes: the kernel default for Linux %.100s",
			 line, release);
		dirfd_text_free(&text);
		return true;
	}
	dirfd_text_free(&text);
	return false;
}

/* PAM service -> the init scripts whose daemon opens its sessions. */
static const char *const ssh_scripts[] = { "sshd", NULL };
static const char *const cron_scripts[] = { "cronie", "crond", NULL };
static const char *const getty_scripts[] = { "agetty.", NULL }; /* a prefix */

static const struct {
	const char *service;
	const char *const *scripts;
	bool inittab; /* the gettys of /etc/inittab come first */
} openrc_services[] = {
	{ .service = "sshd", .scripts = ssh_scripts },
	{ .service = "crond", .scripts = cron_scripts },
	{ .service = "cron", .scripts = cron_scripts },
	{ .service = "login", .scripts = getty_scripts, .inittab = true },
};

/* The first of SCRIPTS in /etc/init.d (a name ending in '.' is a prefix
 * of one), into BUF. */
static bool find_script(const char *root, const char *const *scripts, char *buf, size_t len)
{
	char **names;
	size_t n, i, s;
	bool found = false;

	if (dirfd_list_dir(root, "/etc/init.d", NULL, &names, &n) < 0)
		return false;
	for (s = 0; scripts[s] != NULL && !found; s++) {
		size_t sl = strlen(scripts[s]);
		bool prefix = scripts[s][sl - 1] == '.';

		for (i = 0; i < n && !found; i++)
			if (prefix ? strncmp(names[i], scripts[s], sl) == 0 && names[i][sl] != '\0'
				   : strcmp(names[i], scripts[s]) == 0) {
				snprintf(buf, len, "%s", names[i]);
				found = true;
			}
	}
	dirfd_names_free(names, n);
	return found;
}

void doc_openrc_start(const char *root, const char *service, struct doc_start *out)
{
	static char unit[DOC_PATH_MAX]; /* out->unit outlives this call */
	char name[256];
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < N_OF(openrc_services); i++)
		if (strcmp(openrc_services[i].service, service) == 0)
			break;
	if (i == N_OF(openrc_services)) {
		snprintf(out->value.what, sizeof(out->value.what),
			 "no init script: the session starts from its caller's limits");
		return;
	}
	if (openrc_services[i].inittab && inittab_start(root, out))
		return;
	if (!find_script(root, openrc_services[i].scripts, name, sizeof(name))) {
		const char *first = openrc_services[i].scripts[0];

		snprintf(out->value.what, sizeof(out->value.what),
			 "no %s%s in /etc/init.d%s: the start is unknown", first,
			 first[strlen(first) - 1] == '.' ? "*" : "",
			 openrc_services[i].inittab ? " and no getty in /etc/inittab" : "");
		return;
	}
	snprintf(unit, sizeof(unit), "/etc/init.d/%s", name);
	out->unit = unit;
	out->has_unit = true;
	script_start(root, name, out);
}
