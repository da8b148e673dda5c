/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl doctor [USER]: every layer between the kernel and a session's
 * RLIMIT_MEMLOCK, for each PAM service, with a verdict and the fix.
 *
 * For each path: where the session starts (units.c), the session stack as
 * libpam resolves and walks it (pamstack_read.c, pamstack_walk.c), and
 * every module that can change memlock, in the order it runs (path.c,
 * modules.c): pam_memlock, answered by the same pml_evaluate call as
 * `explain`, and pam_limits (limits.c).  This file picks the services and
 * reads the machine; report.c prints.  Nothing is written or executed;
 * with --root every path read is under DIR and /proc is not read.
 */
#include "path.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "output/json.h"
#include "output/text.h"
#include "dirfd/dirfd.h"
#include "slurm.h"
#include "unitrules.h"

/* Files that pam.d holds as building blocks for other stacks, not as
 * services of their own (pam-auth-update's, authselect's, pambase's,
 * Alpine's, openSUSE's and the -pc files pam-config writes for them). */
static const char *const building_blocks[] = {
	"common-auth",
	"common-account",
	"common-password",
	"common-session",
	"common-session-noninteractive",
	"system-auth",
	"password-auth",
	"fingerprint-auth",
	"smartcard-auth",
	"postlogin",
	"system-login",
	"system-local-login",
	"system-remote-login",
	"system-services",
	"base-auth",
	"base-account",
	"base-password",
	"base-session",
	"base-session-noninteractive",
	"common-auth-pc",
	"common-account-pc",
	"common-password-pc",
	"common-session-pc",
	"common-session-nonlogin",
	"common-session-nonlogin-pc",
	"postlogin-auth",
	"postlogin-account",
	"postlogin-password",
	"postlogin-session",
	"postlogin-auth-pc",
	"postlogin-account-pc",
	"postlogin-password-pc",
	"postlogin-session-pc",
	NULL,
};

/* Services only systemd opens sessions for: no path where it is not the
 * init system, whatever their files say. */
static const char *const systemd_only[] = { "systemd-user", "systemd-run0", NULL };

/*
 * "other" that refuses every session, as Fedora's and Arch's do (a lone
 * pam_deny), is no path: a service without a file of its own opens no
 * session there, by design.  ST: "other"'s walked stack.
 */
static bool other_refuses(const struct doc_stack *st)
{
	return st->session_fails && st->n_problems == 0 && !st->from_other;
}

/* The listed services' names and their resolved, walked stacks. */
static void listed_free(char **names, struct doc_stack *stacks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		doc_stack_free(&stacks[i]);
	free(stacks);
	dirfd_names_free(names, n);
}

/* NAME and ST kept as the next listed service; -ENOMEM leaves them the
 * caller's. */
static int add_listed(char ***names, struct doc_stack **stacks, size_t *n, char *name,
		      const struct doc_stack *st)
{
	char **grown = realloc(*names, (*n + 1) * sizeof(char *));
	struct doc_stack *more;

	if (grown == NULL)
		return -ENOMEM;
	*names = grown;
	more = realloc(*stacks, (*n + 1) * sizeof(*more));
	if (more == NULL)
		return -ENOMEM;
	*stacks = more;
	(*names)[*n] = name;
	(*stacks)[(*n)++] = *st;
	return 0;
}

/*
 * Every service with a session stack: /etc/pam.d, then /usr/lib/pam.d
 * for names /etc/pam.d lacks.  Each stack is resolved and walked once,
 * here: *STACKS_OUT keeps it for the check.
 */
static int list_services(const struct doctor *d, char ***out, struct doc_stack **stacks_out,
			 size_t *n_out)
{
	char **all = NULL;
	struct doc_stack *stacks = NULL;
	size_t n_all = 0, k, i, j;

	for (k = 0; doc_service_dirs[k] != NULL; k++) {
		char **names;
		size_t n;
		int rc = dirfd_list_dir(d->root, doc_service_dirs[k], NULL, &names, &n);

		if (rc < 0) {
			fprintf(stderr, "memlockctl: cannot list %s%s: %s\n", d->root,
				doc_service_dirs[k], strerror(-rc));
			continue;
		}
		for (i = 0; i < n; i++) {
			struct doc_stack st;
			bool dup = false;

			for (j = 0; j < n_all && !dup; j++)
				dup = strcmp(all[j], names[i]) == 0;
			if (dup || doc_name_listed(building_blocks, names[i]) ||
			    (d->init.kind == DOC_INIT_OPENRC && doc_name_listed(systemd_only, names[i]))) {
				free(names[i]);
				continue;
			}
			rc = doc_stack_resolve_with(d->root, &d->libpam, names[i], &st);
			if (rc == 0) {
				doc_stack_walk(&st);
				if (!st.own_session ||
				    (strcmp(names[i], "other") == 0 && other_refuses(&st))) {
					doc_stack_free(&st);
					free(names[i]);
					continue;
				}
				rc = add_listed(&all, &stacks, &n_all, names[i], &st);
			}
			if (rc < 0) {
				doc_stack_free(&st);
				dirfd_names_free(names + i, n - i);
				free(names);
				listed_free(all, stacks, n_all);
				return rc;
			}
		}
		free(names);
	}
	/* In byte order, whichever directory a name came from. */
	for (i = 0; i < n_all; i++)
		for (j = i + 1; j < n_all; j++)
			if (strcmp(all[j], all[i]) < 0) {
				char *t = all[i];
				struct doc_stack s = stacks[i];

				all[i] = all[j];
				all[j] = t;
				stacks[i] = stacks[j];
				stacks[j] = s;
			}
	*out = all;
	*stacks_out = stacks;
	*n_out = n_all;
	return 0;
}

const struct doc_limits_model_info doc_limits_models[DOC_LIMITS_COUNT] = {
	[DOC_LIMITS_UPSTREAM] = {
		.name = "upstream",
		.text = "upstream's (memlock lines only; PID 1's limits with set_all)",
	},
	[DOC_LIMITS_DEBIAN] = {
		.name = "debian",
		.text = "Debian's from 1.7.0 (memlock lines only; PID 1's limits with set_all)",
		.root_exempt = true,
	},
	[DOC_LIMITS_DEBIAN_PID1] = {
		.name = "debian-pid1",
		.text = "Debian's before 1.7.0 (copies PID 1's limits into every session)",
		.pid1_first = true,
		.root_exempt = true,
	},
};

/*
 * Debian's pam_limits carries a patch that binds root by its own lines
 * only, and before 1.7.0 one that started every session from PID 1's limits
 * (1.7.0's NEWS.Debian: add set_all for the old behaviour).  libpam's
 * reader tells which, as Debian went from 1.5.3 to 1.7.0 (dpkg's database
 * is dpkg's own to read).
 */
static void probe_limits(struct doctor *d)
{
	const struct doc_family_info *f = &doc_families[d->os.family];

	if (!f->debian_limits) {
		d->limits = DOC_LIMITS_UPSTREAM;
		snprintf(d->limits_note, sizeof(d->limits_note), "%s: %s", f->text,
			 d->os.family == DOC_FAMILY_UNKNOWN ? "upstream's assumed"
							    : "not patched");
		return;
	}
	if (d->libpam.library[0] != '\0') {
		d->limits = d->libpam.dialect == DOC_LIBPAM_1_5 ? DOC_LIMITS_DEBIAN_PID1
								: DOC_LIMITS_DEBIAN;
		snprintf(d->limits_note, sizeof(d->limits_note), "from libpam %s's reader",
			 doc_libpam_dialect_name(d->libpam.dialect));
	} else {
		d->limits = DOC_LIMITS_DEBIAN_PID1;
		snprintf(d->limits_note, sizeof(d->limits_note),
			 "its version unknown: Debian 12's assumed");
	}
}

/* pam-auth-update's profile, as the package installs it. */
#define PAM_CONFIGS_PROFILE "/usr/share/pam-configs/memlock"

/* Is pam_memlock.so in any directory libpam loads a relative name from? */
static bool module_installed(const char *root)
{
	char path[DOC_PATH_MAX];
	size_t i;

	for (i = 0; doc_module_dirs[i] != NULL; i++) {
		snprintf(path, sizeof(path), "%s/pam_memlock.so", doc_module_dirs[i]);
		if (dirfd_exists(root, path))
			return true;
	}
	return false;
}

/* The capability that lets a process raise its hard limits. */
#define CAP_SYS_RESOURCE_BIT 24

/* PID 1's bounding set, which every session's process inherits at most:
 * "CapBnd:\t<hex>" of ROOT/proc/1/status. */
static void probe_bounding_set(struct doctor *d)
{
	struct dirfd_text text;
	const char *line;
	unsigned long long set;
	char *end;

	d->cap_known = false;
	snprintf(d->cap_note, sizeof(d->cap_note), "/proc/1/status has no CapBnd line");
	if (dirfd_read(d->root, "/proc/1/status", &text) < 0) {
		snprintf(d->cap_note, sizeof(d->cap_note), "/proc/1/status is unreadable");
		return;
	}
	line = strstr(text.data, "\nCapBnd:");
	if (line != NULL) {
		set = strtoull(line + 8, &end, 16);
		if (end != line + 8 && (*end == '\n' || *end == '\0')) {
			d->cap_known = true;
			d->cap_resource = (set >> CAP_SYS_RESOURCE_BIT) & 1;
			snprintf(d->cap_note, sizeof(d->cap_note), "%s in PID 1's bounding set",
				 d->cap_resource ? "CAP_SYS_RESOURCE" : "no CAP_SYS_RESOURCE");
		}
	}
	dirfd_text_free(&text);
}

static void probe(struct doctor *d)
{
	struct utsname uts;
	struct dirfd_text text;

	doc_libpam_probe(d->root, &d->libpam);
	doc_os_probe(d->root, &d->os);
	doc_init_probe(d->root, &d->init);
	probe_limits(d);
	snprintf(d->release, sizeof(d->release), "%s", uname(&uts) == 0 ? uts.release : "");
	d->module_installed = module_installed(d->root);
	d->profile_shipped = dirfd_exists(d->root, PAM_CONFIGS_PROFILE);
	d->pid1_soft.known = d->pid1_hard.known = false;
	probe_bounding_set(d);
	if (d->root[0] != '\0') {
		snprintf(d->pid1_note, sizeof(d->pid1_note), "unknown under --root");
		return;
	}
	if (dirfd_read("", "/proc/1/limits", &text) == 0) {
		if (doc_parse_proc_limits(text.data, &d->pid1_soft, &d->pid1_hard) == 0)
			snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits");
		else
			snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits has no memlock line");
		dirfd_text_free(&text);
	} else {
		snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits is unreadable");
	}
}

static void check_one(const struct doctor *d, const char *service, struct doc_path *p,
		      struct doc_stack *st)
{
	doc_check_path(d, service, p, st);
	if (strcmp(service, DOC_SLURM_SERVICE) == 0)
		doc_slurm_check(d, st, p);
}

/*
 * Without a user, "ok" is to mean ok for everyone: P, checked for a user
 * no rule names, is checked again for each class its policy tells apart
 * (path.h), and the worst verdict is the path's, with that class's steps
 * and fix.  Returns 0 or -ENOMEM.
 */
static int check_classes(const struct doctor *d, const char *service, struct doc_path *p,
			 struct doc_stack *st)
{
	struct doctor dk = *d;
	struct doc_path *q, *worst, *t;
	enum doc_verdict v = p->verdict;
	size_t k, n = p->n_class_rules;

	p->n_classes = 1;
	snprintf(p->classes[0].who, sizeof(p->classes[0].who), "a user no rule names");
	p->classes[0].verdict = p->verdict;
	if (n == 0)
		return 0;
	q = malloc(sizeof(*q));
	worst = malloc(sizeof(*worst));
	if (q == NULL || worst == NULL) {
		free(q);
		free(worst);
		return -ENOMEM;
	}
	worst->n_steps = 0;
	for (k = 0; k < n; k++) {
		dk.class_rule = (int)p->class_rules[k];
		check_one(&dk, service, q, st);
		snprintf(p->classes[k + 1].who, sizeof(p->classes[k + 1].who), "%s", q->who);
		p->classes[k + 1].verdict = q->verdict;
		if (q->verdict > v) {
			v = q->verdict;
			t = worst, worst = q, q = t;
		}
	}
	p->n_classes = n + 1;
	if (v > p->verdict) {
		memcpy(worst->class_rules, p->class_rules, sizeof(p->class_rules));
		memcpy(worst->classes, p->classes, sizeof(p->classes));
		worst->n_class_rules = p->n_class_rules;
		worst->n_classes = p->n_classes;
		worst->classes_truncated = p->classes_truncated;
		memcpy(p, worst, sizeof(*p));
	}
	free(q);
	free(worst);
	return 0;
}

int doc_run(const struct cli_options *options, const struct doc_visitor *v, bool *all_ok)
{
	struct doctor d = { .options = options,
			    .root = dirfd_root_canonical(options->root),
			    .class_rule = -1 };
	char **names = NULL;
	struct doc_stack *stacks = NULL; /* the listed services' */
	size_t n_names = 0, n, i;
	int rc;

	*all_ok = true;
	if (options->user != NULL) {
		rc = doc_user_lookup(options->user, &d.user);
		if (rc < 0) {
			fprintf(stderr, "memlockctl: user ");
			cli_print_quoted(stderr, options->user);
			fprintf(stderr, rc == -ESRCH ? " is unknown to NSS\n"
						     : " cannot be looked up\n");
			return CLI_EXIT_FAIL;
		}
		d.have_user = true;
	}
	probe(&d);
	if (options->n_services == 0) {
		rc = list_services(&d, &names, &stacks, &n_names);
		if (rc < 0) {
			fprintf(stderr, "memlockctl: out of memory\n");
			doc_user_free(&d.user);
			return CLI_EXIT_FAIL;
		}
	}
	n = options->n_services > 0 ? options->n_services : n_names;
	if (v->head != NULL)
		v->head(&d, v->ctx);
	for (i = 0; i < n; i++) {
		const char *service = options->n_services > 0 ? options->services[i] : names[i];
		struct doc_stack given, *st = stacks != NULL ? &stacks[i] : &given;
		struct doc_path *p = malloc(sizeof(*p));

		if (p == NULL ||
		    (stacks == NULL && doc_stack_resolve_with(d.root, &d.libpam, service, st) < 0)) {
			free(p);
			fprintf(stderr, "memlockctl: out of memory\n");
			*all_ok = false;
			break;
		}
		/* A listed service's stack was walked as it was listed. */
		if (stacks == NULL)
			doc_stack_walk(st);
		check_one(&d, service, p, st);
		if (!d.have_user && check_classes(&d, service, p, st) < 0) {
			doc_stack_free(st);
			free(p);
			fprintf(stderr, "memlockctl: out of memory\n");
			*all_ok = false;
			break;
		}
		if (!doc_verdict_is_fine(p->verdict))
			*all_ok = false;
		v->path(p, i + 1 == n, v->ctx);
		doc_stack_free(st);
		free(p);
	}
	/* doc_stack_free leaves a stack empty: those checked free again as none. */
	listed_free(names, stacks, n_names);
	doc_user_free(&d.user);
	return CLI_EXIT_OK;
}

/* doctor's own report: text, or one JSON document. */
struct report {
	const struct cli_options *options;
	struct cli_json json;
	const struct doctor *d; /* the run's, while it lasts */
	struct doc_summary summary;
	unsigned n_units;
	unsigned units[DOC_UNIT_ERROR + 1]; /* how many of each verdict */
};

static void report_head(const struct doctor *d, void *ctx)
{
	struct report *r = ctx;

	r->d = d;
	if (!r->options->json) {
		doc_print_text_head(d);
		return;
	}
	cli_json_start(&r->json, stdout);
	cli_json_open_object(&r->json);
	doc_print_json_head(&r->json, d);
	cli_json_member_array(&r->json, "paths");
}

static void report_path(const struct doc_path *p, bool last, void *ctx)
{
	struct report *r = ctx;

	doc_summary_add(&r->summary, r->d, p);
	if (r->options->json) {
		doc_print_json_path(&r->json, p);
		return;
	}
	doc_print_text_path(p);
	if (!last)
		printf("\n");
}

static void report_unit(const struct doc_unit *u, void *ctx)
{
	struct report *r = ctx;

	if (r->options->json) {
		doc_print_json_unit(&r->json, u);
	} else {
		if (r->n_units > 0 || r->options->unit == NULL)
			printf("\n");
		doc_print_text_unit(u);
	}
	r->n_units++;
	r->units[u->verdict]++;
}

/* The units' verdicts: in JSON, "units", an array.  Returns 0 or -ENOMEM
 * (said). */
static int report_units(struct report *r, bool *all_ok)
{
	const struct cli_options *o = r->options;
	const struct doctor d = { .options = o, .root = dirfd_root_canonical(o->root) };
	int rc;

	if (o->json) {
		cli_json_member_array(&r->json, "units");
	}
	rc = doc_check_units(&d, o->unit, report_unit, r, all_ok);
	if (o->json)
		cli_json_close_array(&r->json);
	if (rc < 0) {
		fprintf(stderr, "memlockctl: out of memory\n");
		*all_ok = false;
	}
	return rc;
}

/* doctor --unit NAME: that unit's verdict alone. */
static int doctor_unit(const struct cli_options *options)
{
	struct report r = { .options = options };
	bool all_ok = true;

	if (options->json) {
		cli_json_start(&r.json, stdout);
		cli_json_open_object(&r.json);
		cli_json_member_string(&r.json, "root", options->root != NULL ? options->root : "/");
	}
	report_units(&r, &all_ok);
	if (options->json) {
		cli_json_close_object(&r.json);
		cli_json_finish(&r.json);
	}
	return cli_finish_output(all_ok ? CLI_EXIT_OK : CLI_EXIT_FAIL);
}

int cli_doctor(const struct cli_options *options)
{
	struct report r = { .options = options };
	const struct doc_visitor v = { .head = report_head, .path = report_path, .ctx = &r };
	bool all_ok;
	int rc;

	if (options->unit != NULL)
		return doctor_unit(options);
	rc = doc_run(options, &v, &all_ok);
	if (rc != CLI_EXIT_OK)
		return rc;
	if (options->json)
		cli_json_close_array(&r.json);
	/* Without a user, every unit the unit rules match. */
	if (options->user == NULL && options->n_services == 0)
		report_units(&r, &all_ok);
	if (options->json) {
		doc_print_json_summary(&r.json, &r.summary);
		cli_json_close_object(&r.json);
		cli_json_finish(&r.json);
	} else {
		doc_print_text_summary(&r.summary);
		if (r.n_units > 0)
			printf("units:   %u ok, %u stale, %u overridden, %u error\n",
			       r.units[DOC_UNIT_OK], r.units[DOC_UNIT_STALE],
			       r.units[DOC_UNIT_OVERRIDDEN], r.units[DOC_UNIT_ERROR]);
	}
	return cli_finish_output(all_ok ? CLI_EXIT_OK : CLI_EXIT_FAIL);
}
