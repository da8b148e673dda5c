/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl measure: what io_uring rings, registered buffers and mlock
 * need under RLIMIT_MEMLOCK on the running kernel, measured; or, with
 * --rings, what one workload needs, from those measurements, then tried
 * whole where this machine's hard limit allows.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "size.h"
#include "table.h"

/* io_uring's largest ring (IORING_MAX_ENTRIES). */
#define ENTRIES_MAX 32768u
#define RINGS_MAX 1000000u
#define DEFAULT_BYTES (UINT64_C(1) << 20)
/* Descriptors a try keeps for itself beside its rings. */
#define SPARE_FDS 16u

/* A whole number from 1 to MAX, digits only.  0 or -EINVAL. */
static int parse_count(const char *text, unsigned max, unsigned *out)
{
	unsigned long long n = 0;
	const char *p;

	if (*text == '\0')
		return -EINVAL;
	for (p = text; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		n = n * 10 + (unsigned)(*p - '0');
		if (n > max)
			return -EINVAL;
	}
	if (n == 0)
		return -EINVAL;
	*out = (unsigned)n;
	return 0;
}

static int usage(const char *option, const char *value, const char *why)
{
	fprintf(stderr, "memlockctl: measure %s \"%s\": %s\nTry 'memlockctl --help'.\n",
		option, value, why);
	return CLI_EXIT_USAGE;
}

static int parse(const struct cli_options *options, struct measure_table *t)
{
	struct pml_amount amount;
	const char *why;
	unsigned e;
	size_t i;

	t->workload_mode = options->rings != NULL;
	for (i = 0; i < options->n_entries; i++)
		if (parse_count(options->entries[i], ENTRIES_MAX, &t->entries[i]) < 0)
			return usage("--entries", options->entries[i], "a number of entries from 1 to 32768");
	t->n_entries = options->n_entries;
	if (t->n_entries == 0 && t->workload_mode)
		t->entries[t->n_entries++] = MEASURE_DEFAULT_ENTRIES;
	/* By default every power of two io_uring takes, from 8. */
	if (t->n_entries == 0)
		for (e = 8; e <= ENTRIES_MAX; e *= 2)
			t->entries[t->n_entries++] = e;
	if (t->workload_mode && t->n_entries != 1)
		return usage("--entries", options->entries[1], "--rings takes one ring size");
	t->bytes = t->workload_mode ? 0 : DEFAULT_BYTES;
	if (options->buffers != NULL) {
		if (pml_parse_size(options->buffers, &amount, &why) < 0)
			return usage("--buffers", options->buffers, why);
		if (amount.bytes == 0 || amount.bytes == PML_UNLIMITED)
			return usage("--buffers", options->buffers, "a size of at least one byte");
		t->bytes = amount.bytes;
	}
	if (t->workload_mode &&
	    parse_count(options->rings, RINGS_MAX, &t->workload.rings) < 0)
		return usage("--rings", options->rings, "a number of rings from 1 to 1000000");
	return CLI_EXIT_OK;
}

static void need(struct measure_table *t, const struct measure_probe *probe,
		 struct measure_result *result)
{
	result->rc = measure_need(&t->session, probe, &result->bytes);
}

static void measure_table(struct measure_table *t)
{
	struct measure_probe probe = { .kind = MEASURE_RING, .entries = MEASURE_BUFFER_RING };
	size_t i;
	int u;

	for (i = 0; i < t->n_entries && t->session.io_uring == 0; i++) {
		probe = (struct measure_probe){ .kind = MEASURE_RING, .entries = t->entries[i] };
		need(t, &probe, &t->ring[i]);
		probe.no_mmap = true;
		need(t, &probe, &t->no_mmap[i]);
	}
	probe = (struct measure_probe){ .kind = MEASURE_RING, .entries = MEASURE_BUFFER_RING };
	if (t->session.io_uring == 0)
		need(t, &probe, &t->small_ring);
	for (u = 0; u < 2; u++) {
		probe = (struct measure_probe){ .kind = MEASURE_BUFFER, .bytes = t->bytes, .unaligned = u };
		if (t->session.io_uring == 0)
			need(t, &probe, &t->buffer[u]);
		probe.kind = MEASURE_MLOCK;
		need(t, &probe, &t->mlock[u]);
	}
}

/* The whole workload at NEED and a page below it, where that can be
 * tried here: under the hard limit, with a descriptor for each ring. */
static void verify(struct measure_table *t)
{
	struct measure_workload *w = &t->workload;
	struct measure_probe whole = {
		.kind = MEASURE_WORKLOAD,
		.rings = w->rings,
		.entries = w->entries,
		.bytes = w->buffer,
	};
	struct rlimit files;

	w->verify_rc = -ENOTSUP;
	if (w->need > t->session.hard) {
		w->why = "it needs more than this machine's hard limit";
		return;
	}
	if (getrlimit(RLIMIT_NOFILE, &files) < 0 || files.rlim_cur < w->rings + SPARE_FDS) {
		w->why = "a descriptor for each ring is more than RLIMIT_NOFILE allows";
		return;
	}
	w->at_need = measure_try(&t->session, &whole, w->need);
	w->below_need = w->need == 0 ? -ENOMEM
				     : measure_try(&t->session, &whole, w->need - t->session.page);
	w->verify_rc = w->at_need == 0 && w->below_need == -ENOMEM ? 0 : -EPROTO;
}

static void measure_workload(struct measure_table *t)
{
	struct measure_workload *w = &t->workload;
	struct measure_probe probe = { .kind = MEASURE_RING, .entries = t->entries[0] };
	uint64_t share = 0;

	w->entries = t->entries[0];
	w->buffer = t->bytes;
	need(t, &probe, &w->ring);
	probe.entries = MEASURE_BUFFER_RING;
	need(t, &probe, &t->small_ring);
	if (w->buffer > 0) {
		probe = (struct measure_probe){ .kind = MEASURE_BUFFER, .bytes = w->buffer };
		need(t, &probe, &w->buffer_total);
	}
	if (w->ring.rc < 0 || measure_buffer_share(&w->buffer_total, &t->small_ring, &share) < 0) {
		w->verify_rc = -ENODATA;
		w->why = "a part could not be measured";
		return;
	}
	w->need = (uint64_t)w->rings * w->ring.bytes + (w->buffer > 0 ? share : 0);
	verify(t);
}

/*
 * What check and explain show, kept from the table: the small ring and
 * the ring of MEASURE_DEFAULT_ENTRIES, where the table has both, or that
 * io_uring is missing or refused.  Said on standard error, apart from the
 * table programs read; a failure to save fails nothing.
 */
static void save(const struct measure_table *t)
{
	const struct measure_session *s = &t->session;
	struct measure_rings rings = {
		.status = s->io_uring == 0 ? 0 : s->io_uring == -ENOSYS ? -ENOSYS
									: -EPERM,
		.small = t->small_ring.bytes,
		.page = s->page,
	};
	char path[PATH_MAX], shown[PATH_MAX];
	size_t i;
	int rc;

	for (i = 0; i < t->n_entries && t->entries[i] != MEASURE_DEFAULT_ENTRIES; i++)
		;
	if (s->io_uring == 0 &&
	    (i == t->n_entries || t->ring[i].rc < 0 || t->small_ring.rc < 0))
		return;
	if (s->io_uring == 0)
		rings.large = t->ring[i].bytes;
	snprintf(rings.release, sizeof(rings.release), "%s", s->kernel.release);
	rc = measure_save_rings(&rings, path, sizeof(path));
	if (rc < 0)
		fprintf(stderr, "memlockctl: measure: cannot save what check and explain show in %s/: %s\n",
			pml_escape(measure_saved_dir(), shown, sizeof(shown)), strerror(-rc));
	else
		fprintf(stderr, "memlockctl: measure: saved for check and explain: %s\n",
			pml_escape(path, shown, sizeof(shown)));
}

static int cannot_measure(int rc)
{
	if (rc == -EPERM)
		fprintf(stderr, "memlockctl: measure needs root: each try runs as a fresh, unused uid, since a uid's rings are uncharged only a while after they are closed (it never raises a limit)\n");
	else if (rc == -EACCES)
		fprintf(stderr, "memlockctl: measure: a child cannot become an unprivileged uid here (a user namespace, or no CAP_SETUID)\n");
	else
		fprintf(stderr, "memlockctl: measure: %s\n", strerror(-rc));
	return CLI_EXIT_FAIL;
}

int cli_measure(const struct cli_options *options)
{
	struct measure_table *t = calloc(1, sizeof(*t));
	int rc;

	if (t == NULL)
		return cannot_measure(-ENOMEM);
	rc = parse(options, t);
	if (rc == CLI_EXIT_OK && (rc = measure_start(&t->session)) < 0)
		rc = cannot_measure(rc);
	if (rc == CLI_EXIT_OK) {
		if (t->workload_mode)
			measure_workload(t);
		else
			measure_table(t);
		if (!t->workload_mode)
			save(t);
		if (options->json)
			measure_print_json(stdout, t);
		else
			measure_print_text(stdout, t);
		rc = cli_finish_output(t->workload_mode && t->workload.verify_rc == -EPROTO
					       ? CLI_EXIT_FAIL
					       : CLI_EXIT_OK);
	}
	free(t);
	return rc;
}
