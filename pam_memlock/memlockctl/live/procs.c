/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Reading running processes from /proc (see procs.h).  Each process's
 * files are opened relative to one descriptor of its /proc/PID directory:
 * should the pid be reused midway, the kernel fails the reads (ESRCH)
 * rather than hand over another process's files.
 */
#include "procs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dirfd/dirfd.h"
#include "size.h"

/* The largest file read here (/proc/PID/status is about 1.5 KiB). */
#define PROC_FILE_MAX 16384
/* The kernel's PF_KTHREAD, in the flags of /proc/PID/stat. */
#define PROC_PF_KTHREAD 0x00200000u

/* A decimal number at *P, moving *P past it; false if there is none or it
 * overflows. */
static bool parse_u64(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return true;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int proc_parse_stat(const char *text, char *comm, size_t len,
		    bool *kernel_thread, uint64_t *start)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')'), *p;
	uint64_t field = 0;
	size_t n;
	int i;

	if (open == NULL || close == NULL || close < open || len == 0)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= len)
		n = len - 1;
	memcpy(comm, open + 1, n);
	comm[n] = '\0';
	/* After ") ": field 3 (the state), then numbers from field 4 on. */
	p = skip_blanks(close + 1);
	if (*p == '\0' || *p == ' ')
		return -EINVAL;
	p++;
	for (i = 4; i <= 22; i++) {
		const char *q = skip_blanks(p);

		if (q == p)
			return -EINVAL;
		/* Field 7 (tty_nr) and a few others may be negative. */
		if (*q == '-')
			q++;
		if (!parse_u64(&q, &field))
			return -EINVAL;
		p = q;
		if (i == 9)
			*kernel_thread = (field & PROC_PF_KTHREAD) != 0;
	}
	*start = field;
	return 0;
}

/* The value after "KEY:" at the start of a line of TEXT, or NULL. */
static const char *status_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line != NULL && *line != '\0') {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':')
			return skip_blanks(line + klen + 1);
		line = strchr(line, '\n');
		if (line != NULL)
			line++;
	}
	return NULL;
}

/* "1024 kB" at P; absent is 0. */
static int status_kib(const char *text, const char *key, uint64_t *bytes)
{
	const char *p = status_value(text, key);
	uint64_t kib;

	*bytes = 0;
	if (p == NULL)
		return 0;
	if (!parse_u64(&p, &kib) || strncmp(skip_blanks(p), "kB", 2) != 0 ||
	    kib > UINT64_MAX / 1024)
		return -EINVAL;
	*bytes = kib * 1024;
	return 0;
}

int proc_parse_status(const char *text, uid_t *uid, gid_t *gid,
		      uint64_t *locked, uint64_t *pinned)
{
	const char *p = status_value(text, "Uid");
	uint64_t v;

	if (p == NULL || !parse_u64(&p, &v) || v > (uid_t)-1)
		return -EINVAL;
	*uid = (uid_t)v;
	p = status_value(text, "Gid");
	if (p == NULL || !parse_u64(&p, &v) || v > (gid_t)-1)
		return -EINVAL;
	*gid = (gid_t)v;
	if (status_kib(text, "VmLck", locked) < 0 ||
	    status_kib(text, "VmPin", pinned) < 0)
		return -EINVAL;
	return 0;
}

/* One limit column of /proc/PID/limits: a number or "unlimited". */
static bool limit_value(const char **p, uint64_t *out)
{
	*p = skip_blanks(*p);
	if (strncmp(*p, "unlimited", 9) == 0) {
		*p += 9;
		*out = PML_UNLIMITED;
		return true;
	}
	return parse_u64(p, out);
}

int proc_parse_limits(const char *text, struct pml_limits *out)
{
	static const char name[] = "Max locked memory";
	const char *line = text;

	while (line != NULL && *line != '\0') {
		if (strncmp(line, name, sizeof(name) - 1) == 0) {
			const char *p = line + sizeof(name) - 1;

			if (!limit_value(&p, &out->soft) || !limit_value(&p, &out->hard))
				return -EINVAL;
			return 0;
		}
		line = strchr(line, '\n');
		if (line != NULL)
			line++;
	}
	return -EINVAL;
}

int proc_parse_session_service(const char *text, char *service, size_t len)
{
	const char *line = text;

	service[0] = '\0';
	while (line != NULL && *line != '\0') {
		if (strncmp(line, "SERVICE=", 8) == 0) {
			const char *v = line + 8;
			size_t n = strcspn(v, "\n");

			if (n >= len)
				return -EINVAL;
			memcpy(service, v, n);
			service[n] = '\0';
			return 0;
		}
		line = strchr(line, '\n');
		if (line != NULL)
			line++;
	}
	return 0;
}

/* Is COMPONENT (LEN bytes) "job_" and a job id?  Sets *job. */
static bool job_component(const char *component, size_t len, unsigned *job)
{
	const char *p = component + 4;
	uint64_t v;

	if (len <= 4 || strncmp(component, "job_", 4) != 0 || !parse_u64(&p, &v) ||
	    p != component + len || v > UINT32_MAX)
		return false;
	*job = (unsigned)v;
	return true;
}

/* Does COMPONENT (LEN bytes) end in SUFFIX? */
static bool ends_with(const char *component, size_t len, const char *suffix)
{
	size_t sl = strlen(suffix);

	return len >= sl && memcmp(component + len - sl, suffix, sl) == 0;
}

int proc_parse_slurm_job(const char *text, bool *has, unsigned *job)
{
	const char *line = text;

	*has = false;
	while (*line != '\0') {
		const char *end = line + strcspn(line, "\n"), *path = line, *prev = NULL;
		size_t prev_len = 0, before_len = 0;
		const char *before = NULL;
		int colons;

		/* "HIERARCHY:CONTROLLERS:PATH" */
		for (colons = 0; colons < 2 && path < end; path++)
			colons += *path == ':';
		while (colons == 2 && path < end) {
			const char *c = path + (*path == '/');
			size_t len = strcspn(c, "/\n");

			if (c + len > end)
				len = (size_t)(end - c);
			unsigned id;

			/* *job is written only for a job's cgroup: a
			 * "job_N" anywhere else is not Slurm's. */
			if (prev != NULL && job_component(c, len, &id) &&
			    (ends_with(prev, prev_len, "slurmstepd.scope") ||
			     (before != NULL && strncmp(prev, "uid_", 4) == 0 &&
			      (ends_with(before, before_len, "slurm") ||
			       strncmp(before, "slurm_", 6) == 0)))) {
				*has = true;
				*job = id;
				return 0;
			}
			before = prev, before_len = prev_len;
			prev = c, prev_len = len;
			path = c + len;
			if (len == 0)
				break;
		}
		line = *end == '\n' ? end + 1 : end;
	}
	return 0;
}

/* Reads file NAME of directory DIR, through the root reader: never a
 * link, a FIFO or a device.  A process that went away fails its reads
 * with ESRCH, or its open with ENOENT. */
static int read_at(int dir, const char *name, char *buf, size_t len)
{
	return dirfd_read_at(dir, name, buf, len);
}

/* A gone process, to the caller: its files vanish or refuse reads. */
static int gone_or(int rc)
{
	if (rc == -ENOENT || rc == -ESRCH)
		return -ESRCH;
	if (rc == -EPERM)
		return -EACCES;
	return rc;
}

/* loginuid or sessionid: PROC_NO_ID, or absent (a kernel without audit),
 * is none. */
static int read_id(int dir, const char *name, bool *has, unsigned *id)
{
	char buf[32];
	const char *p = buf;
	uint64_t v;
	int rc = read_at(dir, name, buf, sizeof(buf));

	*has = false;
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	if (!parse_u64(&p, &v) || v > PROC_NO_ID)
		return -EINVAL;
	*has = v != PROC_NO_ID;
	*id = (unsigned)v;
	return 0;
}

static int open_pid_dir(const char *root, pid_t pid)
{
	char path[64];
	int dir;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	dir = dirfd_open_dir(root, path);
	return dir < 0 ? gone_or(dir) : dir;
}

int proc_read(const char *root, pid_t pid, struct proc_info *out,
	      const char **file)
{
	char *buf;
	unsigned loginuid = 0;
	int dir, rc;

	*out = (struct proc_info){ .pid = pid };
	*file = "stat";
	buf = malloc(PROC_FILE_MAX);
	if (buf == NULL)
		return -ENOMEM;
	dir = open_pid_dir(root, pid);
	if (dir < 0) {
		free(buf);
		return dir;
	}
	rc = read_at(dir, "stat", buf, PROC_FILE_MAX);
	if (rc == 0)
		rc = proc_parse_stat(buf, out->comm, sizeof(out->comm),
				     &out->kernel_thread, &out->start);
	if (rc == 0 && (*file = "status") != NULL)
		rc = read_at(dir, "status", buf, PROC_FILE_MAX);
	if (rc == 0)
		rc = proc_parse_status(buf, &out->uid, &out->gid, &out->locked,
				       &out->pinned);
	if (rc == 0 && (*file = "limits") != NULL)
		rc = read_at(dir, "limits", buf, PROC_FILE_MAX);
	if (rc == 0)
		rc = proc_parse_limits(buf, &out->limits);
	if (rc == 0 && (*file = "loginuid") != NULL)
		rc = read_id(dir, "loginuid", &out->has_login, &loginuid);
	if (rc == 0 && (*file = "sessionid") != NULL)
		rc = read_id(dir, "sessionid", &out->has_session, &out->session);
	/* No cgroup file (a kernel without cgroups): no job. */
	if (rc == 0 && (*file = "cgroup") != NULL &&
	    (rc = read_at(dir, "cgroup", buf, PROC_FILE_MAX)) == -ENOENT)
		rc = 0, buf[0] = '\0';
	if (rc == 0)
		rc = proc_parse_slurm_job(buf, &out->has_job, &out->job);
	out->loginuid = (uid_t)loginuid;
	/* A process that ended between two reads may leave a half-read
	 * record: it is gone, whatever the last read said. */
	if (rc == -EINVAL && faccessat(dir, "stat", F_OK, 0) < 0)
		rc = -ESRCH;
	close(dir);
	free(buf);
	return gone_or(rc);
}

int proc_start_time(const char *root, pid_t pid, uint64_t *start)
{
	char buf[1024], comm[PROC_COMM_MAX];
	bool kernel_thread;
	int dir = open_pid_dir(root, pid), rc;

	if (dir < 0)
		return dir;
	rc = read_at(dir, "stat", buf, sizeof(buf));
	close(dir);
	if (rc < 0)
		return gone_or(rc);
	return proc_parse_stat(buf, comm, sizeof(comm), &kernel_thread, start);
}

bool proc_still(const char *root, pid_t pid, uint64_t start)
{
	uint64_t now;

	return proc_start_time(root, pid, &now) == 0 && now == start;
}

static int compare_pids(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int proc_list(const char *root, pid_t **pids, size_t *n)
{
	struct dirent *entry;
	size_t used = 0, room = 0;
	pid_t *list = NULL;
	int fd = dirfd_open_dir(root, "/proc");
	DIR *dir;

	if (fd < 0)
		return fd;
	dir = fdopendir(fd);
	if (dir == NULL) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	while ((entry = readdir(dir)) != NULL) {
		const char *p = entry->d_name;
		uint64_t v;

		if (!parse_u64(&p, &v) || *p != '\0' || v == 0 || v > INT32_MAX)
			continue;
		if (used == room) {
			size_t grown = room == 0 ? 1024 : room * 2;
			pid_t *bigger = realloc(list, grown * sizeof(*list));

			if (bigger == NULL) {
				free(list);
				closedir(dir);
				return -ENOMEM;
			}
			list = bigger;
			room = grown;
		}
		list[used++] = (pid_t)v;
	}
	closedir(dir);
	if (used > 1)
		qsort(list, used, sizeof(*list), compare_pids);
	*pids = list;
	*n = used;
	return 0;
}

int proc_cgroup(const char *root, pid_t pid, char *buf, size_t len)
{
	int dir = open_pid_dir(root, pid), rc;

	if (dir < 0)
		return dir;
	rc = read_at(dir, "cgroup", buf, len);
	close(dir);
	return gone_or(rc);
}

int proc_session_service(const char *root, unsigned session, char *service,
			 size_t len)
{
	struct dirfd_text text;
	char path[64];
	int rc;

	snprintf(path, sizeof(path), "/run/systemd/sessions/%u", session);
	rc = dirfd_read(root, path, &text);
	if (rc < 0)
		return rc;
	rc = proc_parse_session_service(text.data, service, len);
	dirfd_text_free(&text);
	if (rc == 0 && service[0] == '\0')
		rc = -ENOENT;
	return rc;
}
