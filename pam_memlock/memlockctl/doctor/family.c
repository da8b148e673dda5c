/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "family.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pamstack.h"
#include "dirfd/dirfd.h"

static const char *const debian_ids[] = { "debian", "ubuntu", NULL };
static const char *const fedora_ids[] = { "fedora", "rhel", "centos", NULL };
static const char *const arch_ids[] = { "arch", NULL };
static const char *const suse_ids[] = { "opensuse", "suse", "opensuse-tumbleweed",
					"opensuse-leap", "sles", NULL };
static const char *const alpine_ids[] = { "alpine", NULL };
static const char *const none[] = { NULL };

/* By name: a vendor's copy in /usr/lib/pam.d is the same file to fix. */
static const char *const debian_files[] = { "common-session", "common-session-noninteractive",
					    NULL };
static const char *const fedora_files[] = { "system-auth", "password-auth", NULL };
static const char *const arch_files[] = { "system-auth", NULL };
static const char *const suse_files[] = { "common-session", "common-session-nonlogin", NULL };
static const char *const alpine_files[] = { "base-session-noninteractive", NULL };

/* Only Debian patches pam_limits (to start from PID 1's limits before
 * 1.7.0, and to bind root by its own lines); everyone else runs
 * upstream's, which touches memlock only where a line sets it. */
const struct doc_family_info doc_families[DOC_FAMILY_COUNT] = {
	[DOC_FAMILY_DEBIAN] = {
		.name = "debian",
		.text = "Debian/Ubuntu",
		.ids = debian_ids,
		.debian_limits = true,
		.tool = "pam-auth-update",
		.managed = debian_files,
		.fix_style = DOC_FIX_EDIT,
	},
	[DOC_FAMILY_FEDORA] = {
		.name = "fedora",
		.text = "Fedora/RHEL",
		.ids = fedora_ids,
		.tool = "authselect",
		.managed = fedora_files,
		.fix_style = DOC_FIX_AUTHSELECT,
	},
	[DOC_FAMILY_ARCH] = {
		.name = "arch",
		.text = "Arch",
		.ids = arch_ids,
		.tool = "pambase",
		.managed = arch_files,
		.fix_style = DOC_FIX_EDIT,
	},
	[DOC_FAMILY_SUSE] = {
		.name = "suse",
		.text = "openSUSE/SLES",
		.ids = suse_ids,
		.tool = "pam-config",
		.managed = suse_files,
		.fix_style = DOC_FIX_PAMCONFIG,
		.shared_without_limits = true,
	},
	[DOC_FAMILY_ALPINE] = {
		.name = "alpine",
		.text = "Alpine",
		.ids = alpine_ids,
		.tool = "linux-pam",
		.managed = alpine_files,
		.fix_style = DOC_FIX_EDIT,
	},
	[DOC_FAMILY_UNKNOWN] = {
		.name = "unknown",
		.text = "an unknown family",
		.ids = none,
		.managed = none,
		.fix_style = DOC_FIX_EDIT,
	},
};

static enum doc_family family_of_id(const char *id, size_t len)
{
	enum doc_family f;
	size_t i;

	for (f = DOC_FAMILY_UNKNOWN + 1; f < DOC_FAMILY_COUNT; f++)
		for (i = 0; doc_families[f].ids[i] != NULL; i++)
			if (strlen(doc_families[f].ids[i]) == len &&
			    strncmp(doc_families[f].ids[i], id, len) == 0)
				return f;
	return DOC_FAMILY_UNKNOWN;
}

/* KEY's value in os-release TEXT, unquoted, into BUF ("" when absent). */
static void os_value(const char *text, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);
	const char *p;

	buf[0] = '\0';
	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t vl;

		if (strncmp(p, key, kl) != 0 || p[kl] != '=')
			continue;
		p += kl + 1;
		vl = strcspn(p, "\n");
		if (vl >= 2 && (p[0] == '"' || p[0] == '\'') && p[vl - 1] == p[0]) {
			p++;
			vl -= 2;
		}
		snprintf(buf, len, "%.*s", (int)(vl < len ? vl : len - 1), p);
		return;
	}
}

void doc_os_probe(const char *root, struct doc_os *out)
{
	/* os-release(5): /etc first, /usr/lib the vendor's fallback. */
	static const char *const files[] = { "/etc/os-release", "/usr/lib/os-release", NULL };
	struct dirfd_text text = { 0 };
	char like[256];
	const char *file = NULL, *w;
	size_t i, wl;

	memset(out, 0, sizeof(*out));
	out->family = DOC_FAMILY_UNKNOWN;
	for (i = 0; files[i] != NULL && file == NULL; i++)
		if (dirfd_read(root, files[i], &text) == 0)
			file = files[i];
	if (file == NULL) {
		if (dirfd_exists(root, "/usr/share/doc/libpam-modules")) {
			out->family = DOC_FAMILY_DEBIAN;
			snprintf(out->why, sizeof(out->why),
				 "no os-release; Debian's libpam-modules is installed");
		} else {
			snprintf(out->why, sizeof(out->why),
				 "no os-release: upstream's pam_limits assumed");
		}
		return;
	}
	os_value(text.data, "ID", out->id, sizeof(out->id));
	os_value(text.data, "VERSION_ID", out->version_id, sizeof(out->version_id));
	os_value(text.data, "ID_LIKE", like, sizeof(like));
	dirfd_text_free(&text);
	out->family = family_of_id(out->id, strlen(out->id));
	if (out->family != DOC_FAMILY_UNKNOWN) {
		snprintf(out->why, sizeof(out->why), "ID=%.60s in %s", out->id, file);
		return;
	}
	/* ID_LIKE lists the closest first. */
	for (w = like; *w != '\0'; w += wl) {
		w += strspn(w, " ");
		wl = strcspn(w, " ");
		if (wl > 0 && (out->family = family_of_id(w, wl)) != DOC_FAMILY_UNKNOWN) {
			snprintf(out->why, sizeof(out->why), "ID=%.60s, ID_LIKE=%.60s in %s",
				 out->id, like, file);
			return;
		}
	}
	snprintf(out->why, sizeof(out->why),
		 "ID=%.60s in %s is no family doctor knows: upstream's pam_limits assumed",
		 out->id[0] != '\0' ? out->id : "(none)", file);
}

bool doc_family_manages(enum doc_family family, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t i, dl;

	if (slash == NULL)
		return false;
	dl = (size_t)(slash - path);
	for (i = 0; doc_service_dirs[i] != NULL; i++)
		if (strlen(doc_service_dirs[i]) == dl && strncmp(doc_service_dirs[i], path, dl) == 0)
			break;
	if (doc_service_dirs[i] == NULL)
		return false;
	for (i = 0; doc_families[family].managed[i] != NULL; i++)
		if (strcmp(doc_families[family].managed[i], slash + 1) == 0)
			return true;
	return false;
}

/* FAMILY's shared files by name, separated by ", " (LAST before the
 * last one), into BUF. */
static void shared_names(enum doc_family family, const char *last, char *buf, size_t len)
{
	const char *const *m = doc_families[family].managed;
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; m[i] != NULL && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i == 0 ? "" : m[i + 1] == NULL ? last
									: ", ",
					 m[i]);
}

/* authselect's current profile (the first line of its authselect.conf). */
static void authselect_profile(const char *root, char *buf, size_t len)
{
	struct dirfd_text text;

	snprintf(buf, len, "local");
	if (dirfd_read(root, "/etc/authselect/authselect.conf", &text) < 0)
		return;
	if (text.data[0] != '\0' && text.data[0] != '\n')
		snprintf(buf, len, "%.*s", (int)strcspn(text.data, "\n"), text.data);
	dirfd_text_free(&text);
}

/* Is FILE pam-config's link (/etc/pam.d/NAME to NAME-pc, which it
 * rewrites on every run) rather than a file of the admin's? */
static bool pamconfig_link(const char *root, const char *file)
{
	char pc[PATH_MAX];
	struct stat st;
	int fd;

	if (strncmp(file, "/etc/pam.d/", strlen("/etc/pam.d/")) != 0)
		return false;
	fd = dirfd_open_path(root, file, true, &st);
	if (fd < 0)
		return false;
	close(fd);
	snprintf(pc, sizeof(pc), "%s-pc", file);
	return S_ISLNK(st.st_mode) && dirfd_exists(root, pc);
}

void doc_family_fix(const char *root, enum doc_family family, const char *line,
		    const char *file, unsigned after, const char *after_what,
		    bool reaches_shared, char *buf, size_t len)
{
	static const char *const vendor_dirs[] = { "/usr/lib/pam.d/", "/usr/etc/pam.d/", NULL };
	const struct doc_family_info *f = &doc_families[family];
	char where[96] = "", why[256] = "", shared[128], both[128], base[64];
	const char *vendor = NULL;
	size_t i;

	if (after_what != NULL)
		snprintf(where, sizeof(where), " (%s)", after_what);
	for (i = 0; vendor_dirs[i] != NULL; i++)
		if (strncmp(file, vendor_dirs[i], strlen(vendor_dirs[i])) == 0)
			vendor = file + strlen(vendor_dirs[i]);
	shared_names(family, ", ", shared, sizeof(shared));
	shared_names(family, " and ", both, sizeof(both));
	if (!reaches_shared && f->managed[0] != NULL)
		snprintf(why, sizeof(why),
			 "this stack includes none of %s, so the line there does not reach it", shared);

	if (f->fix_style == DOC_FIX_AUTHSELECT && doc_family_manages(family, file)) {
		authselect_profile(root, base, sizeof(base));
		snprintf(buf, len,
			 "authselect rewrites %s: run `authselect create-profile memlock --base-on=%s`, add \"%s\" to /etc/authselect/custom/memlock/system-auth and password-auth, each right after its pam_limits line (before any pam_succeed_if skip), then `authselect select custom/memlock` with the features `authselect current` lists",
			 file, base, line);
	} else if (f->fix_style == DOC_FIX_PAMCONFIG && doc_family_manages(family, file) &&
		   pamconfig_link(root, file)) {
		/* The -pc file's own header gives the copy (sed drops its
		 * comments, which say that pam-config owns it). */
		snprintf(buf, len,
			 "pam-config rewrites %s-pc, which %s links to: in /etc/pam.d replace %s each by a copy of its -pc file (`rm NAME; sed '/^#/d' NAME-pc > NAME`), then add \"%s\" to each, %s; pam-config changes no longer reach the copies",
			 file, file, both, line,
			 after_what != NULL ? "right after its pam_limits line" : "as its last line");
	} else if (vendor != NULL) {
		snprintf(buf, len,
			 "copy %s to /etc/pam.d/%s and add \"%s\" there, right after line %u%s: libpam reads /etc/pam.d first, and the package owns %s%s%s",
			 file, vendor, line, after, where, file, why[0] != '\0' ? "; " : "", why);
	} else {
		snprintf(buf, len, "add \"%s\" to %s, right after line %u%s%s%s", line, file, after,
			 where, why[0] != '\0' ? ": " : "", why);
	}
}
