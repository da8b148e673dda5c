/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* memlockctl measure's output: a table for people, or JSON. */
#include "table.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "output/json.h"

/* The errors a try can end with, by the names the man pages use. */
static const char *error_name(int rc)
{
	static const struct {
		int errnum;
		const char *name;
	} names[] = {
		{ .errnum = ENOMEM, .name = "ENOMEM" },
		{ .errnum = ENOSYS, .name = "ENOSYS" },
		{ .errnum = EPERM, .name = "EPERM" },
		{ .errnum = EINVAL, .name = "EINVAL" },
		{ .errnum = EACCES, .name = "EACCES" },
		{ .errnum = EFAULT, .name = "EFAULT" },
		{ .errnum = EMFILE, .name = "EMFILE" },
		{ .errnum = ECHILD, .name = "ECHILD (the try died)" },
		{ .errnum = EUSERS, .name = "EUSERS (no unused uid left)" },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].errnum == -rc)
			return names[i].name;
	return strerror(-rc);
}

int measure_buffer_share(const struct measure_result *total,
			 const struct measure_result *small_ring, uint64_t *bytes)
{
	if (total->rc < 0 || small_ring->rc < 0)
		return total->rc < 0 ? total->rc : small_ring->rc;
	*bytes = total->bytes - small_ring->bytes;
	return 0;
}

/* Every answer is whole pages, so whole KiB: exact, and easy to compare. */
static void print_kib(FILE *out, int width, uint64_t bytes)
{
	fprintf(out, "%*" PRIu64 " KiB", width, bytes / 1024);
}

static void print_result(FILE *out, int width, const struct measure_result *r,
			 const struct measure_session *s)
{
	if (r->rc == 0)
		print_kib(out, width, r->bytes);
	else if (r->rc == -E2BIG)
		fprintf(out, "%*s%" PRIu64 " KiB", width > 8 ? width - 8 : 0, "> ",
			s->hard / 1024);
	else
		fprintf(out, "%*s", width + 4, error_name(r->rc));
}

static void print_kernel(FILE *out, const struct measure_session *s)
{
	fprintf(out, "Linux %s (%s), pages of %" PRIu64 " bytes; io_uring ",
		s->kernel.release, s->kernel.machine, s->page);
	if (s->io_uring == 0)
		fprintf(out, "enabled");
	else if (s->io_uring == -ENOSYS)
		fprintf(out, "missing (io_uring_setup: ENOSYS)");
	else
		fprintf(out, "refused (io_uring_setup: %s)", error_name(s->io_uring));
	if (s->io_uring_disabled >= 0)
		fprintf(out, ", kernel.io_uring_disabled = %d", s->io_uring_disabled);
	if (s->id.extra_group)
		fprintf(out, " (tries in io_uring_group %u)", (unsigned)s->id.group);
	fprintf(out, "\nThe smallest RLIMIT_MEMLOCK at which an unprivileged process succeeds,\n"
		     "to the page; each try a new process of an unused uid (%u tries,\n"
		     "up to the hard limit, ",
		s->tries);
	if (s->hard == UINT64_MAX)
		fprintf(out, "unlimited: searched up to ");
	print_kib(out, 0, s->hard < MEASURE_SEARCH_MAX ? s->hard : MEASURE_SEARCH_MAX);
	fprintf(out, ").\n");
}

static const char *const alignment[2] = { "page-aligned", "16 bytes past a page" };

static void print_table(FILE *out, const struct measure_table *t)
{
	uint64_t share;
	size_t i;
	int u;

	if (t->session.io_uring == 0) {
		fprintf(out, "\nio_uring_setup of a ring and its mappings (io_uring_queue_init):\n"
			     "  entries      needs  with IORING_SETUP_NO_MMAP\n");
		for (i = 0; i < t->n_entries; i++) {
			fprintf(out, "  %7u ", t->entries[i]);
			print_result(out, 6, &t->ring[i], &t->session);
			fprintf(out, "  ");
			print_result(out, 6, &t->no_mmap[i], &t->session);
			fprintf(out, "\n");
		}
		fprintf(out, "\nIORING_REGISTER_BUFFERS of %" PRIu64 " bytes beside an %u-entry ring:\n",
			t->bytes, MEASURE_BUFFER_RING);
		for (u = 0; u < 2; u++) {
			fprintf(out, "  %-21s", alignment[u]);
			print_result(out, 7, &t->buffer[u], &t->session);
			if (measure_buffer_share(&t->buffer[u], &t->small_ring, &share) == 0) {
				fprintf(out, "  (the buffer's share: ");
				print_kib(out, 0, share);
				fprintf(out, ")");
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out, "\nmlock of %" PRIu64 " bytes:\n", t->bytes);
	for (u = 0; u < 2; u++) {
		fprintf(out, "  %-21s", alignment[u]);
		print_result(out, 7, &t->mlock[u], &t->session);
		fprintf(out, "\n");
	}
}

static void print_workload(FILE *out, const struct measure_table *t)
{
	const struct measure_workload *w = &t->workload;
	uint64_t share = 0;

	fprintf(out, "\n%u ring%s of %u entries", w->rings, w->rings == 1 ? "" : "s", w->entries);
	if (w->buffer > 0)
		fprintf(out, " and %" PRIu64 " bytes of registered buffers", w->buffer);
	fprintf(out, ":\n  one ring             ");
	print_result(out, 8, &w->ring, &t->session);
	if (w->buffer > 0) {
		fprintf(out, "\n  the buffers' share   ");
		if (measure_buffer_share(&w->buffer_total, &t->small_ring, &share) == 0)
			print_kib(out, 8, share);
		else
			print_result(out, 8, w->buffer_total.rc < 0 ? &w->buffer_total : &t->small_ring,
				     &t->session);
	}
	if (w->verify_rc != -ENODATA) {
		fprintf(out, "\n  needs                ");
		print_kib(out, 8, w->need);
	}
	fprintf(out, "\n");
	if (w->verify_rc == 0) {
		fprintf(out, "Tried whole: it runs at ");
		print_kib(out, 0, w->need);
		if (w->need > 0) {
			fprintf(out, " and fails with ENOMEM at ");
			print_kib(out, 0, w->need - t->session.page);
		}
		fprintf(out, ".\n");
	} else if (w->verify_rc == -EPROTO) {
		fprintf(out, "Tried whole, it disagrees: at the sum %s, a page below %s.\n",
			w->at_need == 0 ? "it runs" : error_name(w->at_need),
			w->below_need == 0 ? "it runs" : error_name(w->below_need));
	} else {
		fprintf(out, "Not tried whole: %s.\n", w->why);
	}
}

void measure_print_text(FILE *out, const struct measure_table *t)
{
	print_kernel(out, &t->session);
	if (t->workload_mode)
		print_workload(out, t);
	else
		print_table(out, t);
}

static void json_result(struct cli_json *j, const struct measure_result *r,
			const struct measure_session *s)
{
	cli_json_open_object(j);
	cli_json_uint_or_null(j, "needed", r->rc == 0, r->bytes);
	if (r->rc == -E2BIG) {
		cli_json_member_bytes(j, "more_than", s->hard);
	} else if (r->rc < 0) {
		cli_json_member_string(j, "error", error_name(r->rc));
	}
	cli_json_close_object(j);
}

static void json_pair(struct cli_json *j, const char *key,
		      const struct measure_result pair[2],
		      const struct measure_table *t, bool with_share)
{
	static const char *const keys[2] = { "aligned", "unaligned" };
	uint64_t share = 0;
	bool known;
	int u;

	cli_json_member_object(j, key);
	cli_json_member_uint(j, "bytes", t->bytes);
	for (u = 0; u < 2; u++) {
		cli_json_key(j, keys[u]);
		json_result(j, &pair[u], &t->session);
		if (!with_share)
			continue;
		known = measure_buffer_share(&pair[u], &t->small_ring, &share) == 0;
		cli_json_uint_or_null(j, u == 0 ? "aligned_share" : "unaligned_share", known,
				      share);
	}
	cli_json_close_object(j);
}

static void json_workload(struct cli_json *j, const struct measure_table *t)
{
	const struct measure_workload *w = &t->workload;

	cli_json_member_object(j, "workload");
	cli_json_member_uint(j, "rings", w->rings);
	cli_json_member_uint(j, "entries", w->entries);
	cli_json_member_uint(j, "buffer_bytes", w->buffer);
	cli_json_key(j, "ring");
	json_result(j, &w->ring, &t->session);
	cli_json_uint_or_null(j, "needed", w->verify_rc != -ENODATA, w->need);
	cli_json_member_bool(j, "verified", w->verify_rc == 0);
	cli_json_member_string(j, "not_verified_because", w->verify_rc == -EPROTO ? "the whole workload disagreed with the sum" : w->why);
	cli_json_close_object(j);
}

void measure_print_json(FILE *out, const struct measure_table *t)
{
	const struct measure_session *s = &t->session;
	struct cli_json j;
	size_t i;

	cli_json_start(&j, out);
	cli_json_open_object(&j);
	cli_json_member_string(&j, "kernel", s->kernel.release);
	cli_json_member_string(&j, "machine", s->kernel.machine);
	cli_json_member_uint(&j, "page_size", s->page);
	cli_json_member_string(&j, "io_uring", s->io_uring == 0 ? "enabled" : error_name(s->io_uring));
	cli_json_uint_or_null(&j, "io_uring_disabled", s->io_uring_disabled >= 0,
			      (uint64_t)s->io_uring_disabled);
	cli_json_member_bytes(&j, "hard_limit", s->hard);
	cli_json_member_uint(&j, "tries", s->tries);
	if (t->workload_mode) {
		json_workload(&j, t);
	} else {
		cli_json_member_array(&j, "rings");
		for (i = 0; i < t->n_entries && s->io_uring == 0; i++) {
			cli_json_open_object(&j);
			cli_json_member_uint(&j, "entries", t->entries[i]);
			cli_json_key(&j, "mmap");
			json_result(&j, &t->ring[i], s);
			cli_json_key(&j, "no_mmap");
			json_result(&j, &t->no_mmap[i], s);
			cli_json_close_object(&j);
		}
		cli_json_close_array(&j);
		if (s->io_uring == 0)
			json_pair(&j, "registered_buffers", t->buffer, t, true);
		json_pair(&j, "mlock", t->mlock, t, false);
	}
	cli_json_close_object(&j);
	cli_json_finish(&j);
}
