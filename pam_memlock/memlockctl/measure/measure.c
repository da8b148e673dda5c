/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "measure.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bisect.h"

#define UID_RANGE_START 0x70000000u
#define UID_RANGE_END 0x7ffe0000u
/* A run never needs more tries than this. */
#define UID_SPAN (1u << 20)

static int read_int(const char *path, long *value)
{
	FILE *f = fopen(path, "re");
	int rc = f != NULL && fscanf(f, "%ld", value) == 1 ? 0 : -ENOENT;

	if (f != NULL)
		fclose(f);
	return rc;
}

/* The uids of running processes that fall in [first, end): a uid in use
 * has charges of its own. */
static void note_uids_in_use(struct measure_session *s)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	char path[64], line[256];
	unsigned long ids[4];
	size_t i, n;
	FILE *f;

	while (proc != NULL && (e = readdir(proc)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/status", e->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		n = 0;
		while (n == 0 && fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "Uid: %lu %lu %lu %lu", &ids[0], &ids[1], &ids[2], &ids[3]) == 4)
				n = 4;
		fclose(f);
		for (i = 0; i < n; i++)
			if (ids[i] >= s->first_uid && ids[i] < s->end_uid &&
			    s->n_in_use < MEASURE_IN_USE_MAX)
				s->in_use[s->n_in_use++] = (uid_t)ids[i];
	}
	if (proc != NULL)
		closedir(proc);
}

static bool in_use(const struct measure_session *s, uid_t uid)
{
	size_t i;

	for (i = 0; i < s->n_in_use; i++)
		if (s->in_use[i] == uid)
			return true;
	return false;
}

/* The next uid no try has used and no process holds. */
static int next_identity(struct measure_session *s)
{
	while (s->next_uid < s->end_uid && in_use(s, s->next_uid))
		s->next_uid++;
	if (s->next_uid >= s->end_uid)
		return -EUSERS;
	s->id.uid = s->next_uid++;
	s->id.gid = s->id.uid;
	s->tries++;
	return 0;
}

int measure_try(struct measure_session *session,
		const struct measure_probe *probe, uint64_t limit)
{
	int rc = next_identity(session);

	return rc < 0 ? rc : measure_probe_run(probe, &session->id, limit);
}

struct search {
	struct measure_session *session;
	const struct measure_probe *probe;
};

static int fits(uint64_t pages, void *ctx)
{
	struct search *search = ctx;

	return measure_try(search->session, search->probe, pages * search->session->page);
}

int measure_need(struct measure_session *session,
		 const struct measure_probe *probe, uint64_t *bytes)
{
	struct search search = { .session = session, .probe = probe };
	uint64_t max = session->hard, pages = 0;
	int rc;

	if (max > MEASURE_SEARCH_MAX)
		max = MEASURE_SEARCH_MAX;
	rc = measure_bisect(max / session->page, fits, &search, &pages);
	*bytes = pages * session->page;
	return rc;
}

int measure_start(struct measure_session *s)
{
	static const struct measure_probe small_ring = {
		.kind = MEASURE_RING,
		.entries = MEASURE_BUFFER_RING,
	};
	struct rlimit limit;
	uint32_t draw = 0;
	long value;

	*s = (struct measure_session){ .page = (uint64_t)sysconf(_SC_PAGESIZE) };
	if (uname(&s->kernel) < 0 || getrlimit(RLIMIT_MEMLOCK, &limit) < 0)
		return -errno;
	s->hard = limit.rlim_max;
	s->io_uring_disabled = read_int("/proc/sys/kernel/io_uring_disabled", &value) == 0
				       ? (int)value
				       : -1;
	/* At 1, only members of this group may set up rings: the tries join
	 * it, as a user allowed io_uring would be. */
	if (s->io_uring_disabled == 1 &&
	    read_int("/proc/sys/kernel/io_uring_group", &value) == 0 && value >= 0) {
		s->id.extra_group = true;
		s->id.group = (gid_t)value;
	}
	if (geteuid() != 0)
		return -EPERM;
	if (getrandom(&draw, sizeof(draw), 0) != (ssize_t)sizeof(draw))
		return -errno;
	s->first_uid = UID_RANGE_START + draw % (UID_RANGE_END - UID_SPAN - UID_RANGE_START);
	s->next_uid = s->first_uid;
	s->end_uid = s->first_uid + UID_SPAN;
	note_uids_in_use(s);
	s->io_uring = measure_try(s, &small_ring, s->hard > MEASURE_SEARCH_MAX ? MEASURE_SEARCH_MAX : s->hard);
	if (s->io_uring == -EACCES)
		return -EACCES;
	/* No room for even a small ring is a measurement, not an absence. */
	if (s->io_uring == -ENOMEM)
		s->io_uring = 0;
	return 0;
}
