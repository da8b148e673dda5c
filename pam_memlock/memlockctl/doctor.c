/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * memlockctl doctor [USER]: every layer between the kernel and a session's
 * RLIMIT_MEMLOCK, for each PAM service, with a verdict and the fix.
 *
 * For each path: where the session starts (units.c), the session stack as
 * libpam resolves and walks it (pamstack.c), and every module that can
 * change memlock, in the order it runs: pam_memlock, answered by the same
 * pml_evaluate call as `explain`, and pam_limits (limits.c).  Nothing is
 * written or executed; with --root every path read is under DIR and /proc
 * is not read.
 */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "apply.h"
#include "evaluate.h"
#include "json.h"
#include "limits.h"
#include "pamstack.h"
#include "rootfs.h"
#include "size.h"
#include "text.h"
#include "units.h"

#define FIX_LINE "session optional pam_memlock.so"
#define MSG_MAX 1024
#define STEPS_MAX 64

/* A name no account has: the policy's answer for "any user". */
#define ANY_USER "(any user)"

/* Files that pam.d holds as building blocks for other stacks, not as
 * services of their own (pam-auth-update's, Fedora's authselect's). */
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
	NULL,
};

enum verdict {
	V_OK,
	V_OVERRIDDEN,
	V_MISSING,
	V_ERROR
};

static const char *const verdict_names[] = {
	[V_OK] = "ok",
	[V_OVERRIDDEN] = "overridden",
	[V_MISSING] = "missing",
	[V_ERROR] = "error",
};

/* What every path shares: the machine, the user, the models. */
struct doctor {
	const struct cli_options *options;
	const char *root;   /* "" for this machine */
	bool debian_limits; /* Debian's pam_limits: PID 1's limits first */
	char release[128];
	struct doc_value pid1_soft, pid1_hard;
	char pid1_note[128];
	struct doc_user user;
	bool have_user;
};

/* One layer: the start, or a module that ran (or could have). */
struct step {
	char file[DOC_PATH_MAX]; /* "" when no file is to blame */
	unsigned line;
	char module[64];
	char effect[MSG_MAX];
	struct doc_value soft, hard; /* the session's memlock after this step */
	bool changes;		     /* it sets memlock */
};

struct path {
	const char *service;
	const char *file;
	const char *unit;
	enum verdict verdict;
	struct doc_value soft, hard;
	bool depends_on_user;
	struct step steps[STEPS_MAX];
	size_t n_steps;
	char problem_file[DOC_PATH_MAX];
	unsigned problem_line;
	char problem[MSG_MAX];
	char fix[MSG_MAX];
	bool has_fix;
};

/* --- Values. */

static void value_text(struct doc_value v, char *buf, size_t len)
{
	if (!v.known)
		snprintf(buf, len, "unknown");
	else if (v.bytes == DOC_UNLIMITED)
		snprintf(buf, len, "unlimited");
	else
		pml_format_bytes(v.bytes, buf, len);
}

static void pair_text(struct doc_value soft, struct doc_value hard, char *buf, size_t len)
{
	char s[48], h[48];

	value_text(soft, s, sizeof(s));
	value_text(hard, h, sizeof(h));
	snprintf(buf, len, "soft %s, hard %s", s, h);
}

/* raise: max(current, target); set: target.  pml_plan decides where both
 * are known; an unknown current stays unknown under raise unless the
 * target is unlimited. */
static void plan(enum pml_mode mode, struct doc_value *soft, struct doc_value *hard,
		 uint64_t t_soft, uint64_t t_hard)
{
	struct pml_limits cur = { soft->bytes, hard->bytes }, target = { t_soft, t_hard }, got;

	got = pml_plan(mode, cur, target);
	if (mode == PML_MODE_SET || soft->known)
		soft->known = true, soft->bytes = got.soft;
	else if (t_soft == PML_UNLIMITED)
		soft->known = true, soft->bytes = PML_UNLIMITED;
	if (mode == PML_MODE_SET || hard->known)
		hard->known = true, hard->bytes = got.hard;
	else if (t_hard == PML_UNLIMITED)
		hard->known = true, hard->bytes = PML_UNLIMITED;
}

/* --- Paths as the system names them. */

static const char *shown(const struct doctor *d, const char *path)
{
	size_t rl = strlen(d->root);

	while (rl > 0 && d->root[rl - 1] == '/')
		rl--;
	if (rl > 0 && strncmp(path, d->root, rl) == 0 && path[rl] == '/')
		return path + rl;
	return path;
}

static struct step *add_step(struct path *p, const char *file, unsigned line,
			     const char *module)
{
	struct step *s;

	if (p->n_steps == STEPS_MAX)
		return NULL;
	s = &p->steps[p->n_steps++];
	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file != NULL ? file : "");
	s->line = line;
	snprintf(s->module, sizeof(s->module), "%s", module);
	return s;
}

static void set_error(struct path *p, const char *file, unsigned line, const char *message)
{
	if (p->verdict == V_ERROR)
		return;
	p->verdict = V_ERROR;
	snprintf(p->problem_file, sizeof(p->problem_file), "%s", file != NULL ? file : "");
	p->problem_line = line;
	snprintf(p->problem, sizeof(p->problem), "%s", message);
}

/* --- pam_memlock, through pml_evaluate. */

struct capture {
	char first_error[MSG_MAX];
};

static void capture_emit(void *ctx, int priority, const char *message)
{
	struct capture *c = ctx;

	if (priority <= LOG_ERR && c->first_error[0] == '\0')
		snprintf(c->first_error, sizeof(c->first_error), "%s", message);
}

/* "FILE:LINE: message" -> its parts; false when it names no file. */
static bool split_located(const char *message, char *file, size_t flen, unsigned *line,
			  const char **rest)
{
	const char *p = message;

	if (message[0] != '/')
		return false;
	while ((p = strchr(p, ':')) != NULL) {
		char *end;
		unsigned long n = strtoul(p + 1, &end, 10);

		if (end != p + 1 && *end == ':') {
			snprintf(file, flen, "%.*s", (int)(p - message), message);
			*line = (unsigned)n;
			*rest = end + 1 + (end[1] == ' ');
			return true;
		}
		p++;
	}
	return false;
}

static void run_memlock(const struct doctor *d, struct path *p, const struct doc_handler *h,
			struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock)
{
	const struct cli_options *o = d->options;
	struct pml_evaluation e;
	struct pml_request rq;
	struct capture cap = { "" };
	struct pml_log log = {
		.emit = capture_emit,
		.ctx = &cap,
		.max_priority = LOG_WARNING,
	};
	struct step *s = add_step(p, h->file, h->line, "pam_memlock");
	char *conf_arg, *conf, text[128], target[128];
	bool conf_given, dry_run, present;
	int rc;

	if (s == NULL)
		return;
	conf_arg = doc_arg_value(h->args, "conf", &present);
	conf_given = conf_arg != NULL || o->source.given;
	free(doc_arg_value(h->args, "dry_run", &dry_run));
	conf = doc_root_path(d->root, conf_arg != NULL ? conf_arg : o->source.path);
	free(conf_arg);
	if (conf == NULL) {
		set_error(p, h->file, h->line, "out of memory");
		return;
	}
	/* The same request the module's session code makes. */
	rq = (struct pml_request){
		.source = { .path = conf, .given = conf_given, .owner = 0 },
		.user = d->have_user ? d->user.name : ANY_USER,
		.service = p->service,
	};
	rc = pml_evaluate(&rq, &log, &e);
	if (rc == -ESRCH && !d->have_user) {
		/* Rules need the user's uid or groups: no answer for everyone. */
		soft->known = hard->known = false;
		p->depends_on_user = true;
		s->changes = !dry_run;
		snprintf(s->effect, sizeof(s->effect),
			 "the policy %s has rules on uids or groups: its answer depends on the user",
			 shown(d, conf));
	} else if (rc < 0) {
		char file[DOC_PATH_MAX], msg[MSG_MAX];
		const char *rest;
		unsigned line = 0;

		if (split_located(cap.first_error, file, sizeof(file), &line, &rest)) {
			snprintf(msg, sizeof(msg), "the policy is refused: %s", rest);
			set_error(p, shown(d, file), line, msg);
		} else {
			snprintf(msg, sizeof(msg), "the policy %s is refused: %s", shown(d, conf),
				 cap.first_error[0] != '\0' ? cap.first_error : strerror(-rc));
			set_error(p, h->file, h->line, msg);
		}
		snprintf(s->effect, sizeof(s->effect), "fails: %.900s", p->problem);
		s->soft = *soft;
		s->hard = *hard;
		free(conf);
		return;
	} else {
		const struct pml_decision *dec = &e.decision;

		pair_text((struct doc_value){ dec->soft.bytes, true },
			  (struct doc_value){ dec->hard.bytes, true }, target, sizeof(target));
		if (!d->have_user && e.policy.n_rules > 0)
			p->depends_on_user = true;
		if (dry_run) {
			snprintf(s->effect, sizeof(s->effect),
				 "dry_run: computes %s (%s) and changes nothing", target,
				 pml_mode_name(dec->mode->mode));
		} else {
			plan(dec->mode->mode, soft, hard, dec->soft.bytes, dec->hard.bytes);
			s->changes = true;
			pair_text(*soft, *hard, text, sizeof(text));
			snprintf(s->effect, sizeof(s->effect), "%s to %s from %s%s: %s",
				 dec->mode->mode == PML_MODE_SET ? "sets" : "raises", target, shown(d, conf),
				 p->depends_on_user ? " (for users no rule names)" : "", text);
		}
		pml_evaluation_free(&e);
	}
	free(conf);
	s->soft = *soft;
	s->hard = *hard;
	if (s->changes)
		*last_is_memlock = true;
}

/* --- pam_limits, through the model. */

static void run_limits(const struct doctor *d, struct path *p, const struct doc_handler *h,
		       struct doc_value *soft, struct doc_value *hard, bool *last_is_memlock,
		       const struct doc_handler **overrider)
{
	struct doc_limits_request rq;
	struct doc_limits_result r;
	struct step *s = add_step(p, h->file, h->line, "pam_limits");
	char *conf, text[128];
	bool present, set_all;

	if (s == NULL)
		return;
	conf = doc_arg_value(h->args, "conf", &present);
	free(doc_arg_value(h->args, "set_all", &set_all));
	rq = (struct doc_limits_request){
		.root = d->root,
		.conf = conf,
		.set_all = d->debian_limits || set_all,
		.user = d->have_user ? &d->user : NULL,
		.pid1_soft = d->pid1_soft,
		.pid1_hard = d->pid1_hard,
		.soft = *soft,
		.hard = *hard,
	};
	if (doc_limits_eval(&rq, &r) < 0) {
		free(conf);
		set_error(p, h->file, h->line, "out of memory");
		return;
	}
	free(conf);
	if (r.problem_file != NULL) {
		char msg[MSG_MAX];

		snprintf(msg, sizeof(msg), "pam_limits: %s", r.problem);
		set_error(p, r.problem_file, r.problem_line, msg);
	}
	if (r.exempt) {
		snprintf(s->effect, sizeof(s->effect),
			 "%s:%u exempts the user (\"-\"): pam_limits sets no limit", r.exempt_file,
			 r.exempt_line);
	} else if (r.sets) {
		const char *why;

		*soft = r.soft.value;
		*hard = r.hard.value;
		s->changes = true;
		pair_text(*soft, *hard, text, sizeof(text));
		why = r.soft.rank == DOC_RANK_KERNEL && r.hard.rank == DOC_RANK_KERNEL
			      ? (d->debian_limits ? "Debian's pam_limits copies PID 1's limits"
						  : "set_all copies PID 1's limits")
			      : "memlock lines";
		if (r.soft.file != NULL || r.hard.file != NULL)
			snprintf(s->effect, sizeof(s->effect), "%s (soft from %s:%u, hard from %s:%u): %s",
				 why, r.soft.file != NULL ? r.soft.file : "PID 1", r.soft.line,
				 r.hard.file != NULL ? r.hard.file : "PID 1", r.hard.line, text);
		else
			snprintf(s->effect, sizeof(s->effect), "%s%s: %s", why,
				 d->pid1_soft.known ? "" : " (unknown under --root)", text);
	} else if (r.failed) {
		snprintf(s->effect, sizeof(s->effect), "fails the session: %s:%u: %s",
			 r.problem_file, r.problem_line, r.problem);
	} else {
		snprintf(s->effect, sizeof(s->effect),
			 "no memlock line matches%s: leaves memlock alone",
			 d->have_user ? "" : " users no line names");
	}
	if (r.depends_on_user) {
		size_t len = strlen(s->effect);

		p->depends_on_user = true;
		snprintf(s->effect + len, sizeof(s->effect) - len,
			 "; for some users %s:%u sets memlock", r.user_file, r.user_line);
	}
	s->soft = *soft;
	s->hard = *hard;
	if (s->changes || r.depends_on_user) {
		*last_is_memlock = false;
		*overrider = h;
	}
	doc_limits_free(&r);
}

/* --- One path. */

static const struct doc_handler *last_own_line(const struct doc_stack *st)
{
	const struct doc_handler *last = NULL;
	size_t i;

	for (i = 0; i < st->n; i++)
		if (st->file != NULL && strcmp(st->h[i].file, st->file) == 0)
			last = &st->h[i];
	return last;
}

static void check_path(const struct doctor *d, const char *service, struct path *p,
		       struct doc_stack *st)
{
	const struct doc_handler *overrider = NULL, *memlock_seen = NULL, *limits_ran = NULL;
	const struct doc_handler *dry_run_seen = NULL;
	struct doc_value soft, hard;
	struct doc_start start;
	struct step *s;
	bool last_is_memlock = false, user_conf_overrides = false;
	struct doc_setting user_conf;
	char text[128];
	size_t i;

	memset(p, 0, sizeof(*p));
	p->service = service;
	p->file = st->file;
	p->verdict = V_OK;

	/* Where the session starts. */
	doc_session_start(d->root, service, &start);
	p->unit = start.unit;
	soft = start.value.soft;
	hard = start.value.hard;
	if (!start.value.set)
		soft.known = hard.known = false;
	s = add_step(p, start.value.file, start.value.line,
		     start.unit != NULL ? start.unit : "caller");
	pair_text(soft, hard, text, sizeof(text));
	snprintf(s->effect, sizeof(s->effect), "start: %s: %s", start.value.what, text);
	s->soft = soft;
	s->hard = hard;

	for (i = 0; i < st->n_problems; i++)
		set_error(p, st->problems[i].file, st->problems[i].line, st->problems[i].message);
	if (st->session_fails && p->verdict != V_ERROR)
		set_error(p, st->file, 0, "the session stack fails on the success path: no session opens");

	for (i = 0; i < st->n; i++) {
		const struct doc_handler *h = &st->h[i];
		bool memlock = strcmp(h->name, "pam_memlock") == 0;
		bool limits = strcmp(h->name, "pam_limits") == 0;

		if (h->kind != DOC_H_MODULE || (!memlock && !limits))
			continue;
		if (!h->ran) {
			struct step *n = add_step(p, h->file, h->line, h->name);

			if (n != NULL) {
				snprintf(n->effect, sizeof(n->effect), "%s",
					 h->found ? "does not run: the controls before it skip it"
						  : "not installed: does not run");
				n->soft = soft;
				n->hard = hard;
			}
			continue;
		}
		if (memlock) {
			size_t before = p->n_steps;

			run_memlock(d, p, h, &soft, &hard, &last_is_memlock);
			/* With dry_run it runs but applies nothing. */
			if (p->n_steps > before && p->steps[before].changes)
				memlock_seen = h;
			else if (p->n_steps > before)
				dry_run_seen = h;
		} else {
			limits_ran = h;
			run_limits(d, p, h, &soft, &hard, &last_is_memlock, &overrider);
		}
	}

	/* The user manager gives the user's services its own default. */
	if (strcmp(service, "systemd-user") == 0) {
		doc_user_manager_default(d->root, &user_conf);
		if (user_conf.set) {
			struct doc_value u_soft = user_conf.soft, u_hard = user_conf.hard;
			bool clamped = false;

			/* The manager runs as the user: it cannot raise its hard
			 * limit, and systemd then sets the closest it can, each
			 * side at most the manager's hard limit. */
			if (hard.known && u_hard.known && u_hard.bytes > hard.bytes) {
				clamped = true;
				u_hard.bytes = hard.bytes;
				if (u_soft.known && u_soft.bytes > hard.bytes)
					u_soft.bytes = hard.bytes;
			}
			user_conf_overrides = !(u_soft.known && u_hard.known && soft.known &&
						u_soft.bytes == soft.bytes && u_hard.bytes == hard.bytes);
			s = add_step(p, user_conf.file, user_conf.line, "user.conf");
			if (s != NULL) {
				soft = u_soft;
				hard = u_hard;
				s->changes = user_conf_overrides;
				s->soft = soft;
				s->hard = hard;
				pair_text(soft, hard, text, sizeof(text));
				snprintf(s->effect, sizeof(s->effect), "%s: %s: %s", user_conf.what,
					 !clamped ? "the user's services get this, not the session's"
					 : user_conf_overrides
						 ? "above the manager's hard limit, so the user's services get the closest the manager can set"
						 : "above the manager's hard limit, so the user's services keep the session's",
					 text);
			} else {
				soft = u_soft;
				hard = u_hard;
			}
		}
	}
	p->soft = soft;
	p->hard = hard;

	if (p->verdict == V_ERROR) {
		if (p->problem_line > 0)
			snprintf(p->fix, sizeof(p->fix), "correct %.400s:%u: %.500s", p->problem_file,
				 p->problem_line, p->problem);
		else
			snprintf(p->fix, sizeof(p->fix), "correct %.400s: %.500s",
				 p->problem_file[0] != '\0' ? p->problem_file : "the stack",
				 p->problem);
		p->has_fix = true;
		return;
	}
	if (memlock_seen == NULL) {
		const struct doc_handler *after = limits_ran != NULL ? limits_ran : last_own_line(st);

		p->verdict = V_MISSING;
		p->has_fix = true;
		if (dry_run_seen != NULL && dry_run_seen->file != NULL)
			snprintf(p->fix, sizeof(p->fix), "remove dry_run from %.500s line %u",
				 dry_run_seen->file, dry_run_seen->line);
		else if (after != NULL)
			snprintf(p->fix, sizeof(p->fix),
				 "add \"%s\" to %s, right after line %u%s", FIX_LINE, after->file,
				 after->line, after == limits_ran ? " (pam_limits)" : "");
		else
			snprintf(p->fix, sizeof(p->fix), "add \"%s\" to %s", FIX_LINE,
				 st->file != NULL ? st->file : "/etc/pam.d/other");
		return;
	}
	if (user_conf_overrides) {
		p->verdict = V_OVERRIDDEN;
		p->has_fix = true;
		snprintf(p->fix, sizeof(p->fix),
			 "remove DefaultLimitMEMLOCK= from %.500s line %u, so that the user's services keep the session's limit",
			 user_conf.file, user_conf.line);
		return;
	}
	if (!last_is_memlock && overrider != NULL) {
		p->verdict = V_OVERRIDDEN;
		p->has_fix = true;
		snprintf(p->fix, sizeof(p->fix), "add \"%s\" to %s, right after line %u (pam_limits)",
			 FIX_LINE, overrider->file, overrider->line);
	}
}

/* --- Output. */

/* TEXT as it is, but no byte that could act on a terminal: controls, DEL
 * and bytes that are not well-formed UTF-8 as \xNN.  Quotes stay quotes:
 * the fixes quote the line to add. */
static void print_safe(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p != '\0') {
		size_t n = cli_utf8_sequence(p);

		if (*p < 0x20 || *p == 0x7f || n == 0) {
			printf("\\x%02x", *p);
			n = 1;
		} else {
			fwrite(p, 1, n, stdout);
		}
		p += n;
	}
}

static void json_value(struct cli_json *j, const char *key, struct doc_value v)
{
	char ukey[64];

	cli_json_key(j, key);
	if (v.known && v.bytes != DOC_UNLIMITED)
		cli_json_uint(j, v.bytes);
	else
		cli_json_null(j);
	snprintf(ukey, sizeof(ukey), "%s_unlimited", key);
	cli_json_key(j, ukey);
	cli_json_bool(j, v.known && v.bytes == DOC_UNLIMITED);
}

static void print_json_path(struct cli_json *j, const struct path *p)
{
	size_t i;

	cli_json_open_object(j);
	cli_json_key(j, "service");
	cli_json_string(j, p->service);
	cli_json_key(j, "file");
	cli_json_string(j, p->file);
	cli_json_key(j, "unit");
	cli_json_string(j, p->unit);
	cli_json_key(j, "verdict");
	cli_json_string(j, verdict_names[p->verdict]);
	json_value(j, "soft", p->soft);
	json_value(j, "hard", p->hard);
	cli_json_key(j, "depends_on_user");
	cli_json_bool(j, p->depends_on_user);
	cli_json_key(j, "steps");
	cli_json_open_array(j);
	for (i = 0; i < p->n_steps; i++) {
		const struct step *s = &p->steps[i];

		cli_json_open_object(j);
		cli_json_key(j, "file");
		cli_json_string(j, s->file[0] != '\0' ? s->file : NULL);
		cli_json_key(j, "line");
		if (s->line > 0)
			cli_json_uint(j, s->line);
		else
			cli_json_null(j);
		cli_json_key(j, "module");
		cli_json_string(j, s->module);
		cli_json_key(j, "effect");
		cli_json_string(j, s->effect);
		cli_json_key(j, "changes_memlock");
		cli_json_bool(j, s->changes);
		json_value(j, "soft", s->soft);
		json_value(j, "hard", s->hard);
		cli_json_close_object(j);
	}
	cli_json_close_array(j);
	cli_json_key(j, "problem");
	if (p->verdict == V_ERROR) {
		cli_json_open_object(j);
		cli_json_key(j, "file");
		cli_json_string(j, p->problem_file[0] != '\0' ? p->problem_file : NULL);
		cli_json_key(j, "line");
		if (p->problem_line > 0)
			cli_json_uint(j, p->problem_line);
		else
			cli_json_null(j);
		cli_json_key(j, "message");
		cli_json_string(j, p->problem);
		cli_json_close_object(j);
	} else {
		cli_json_null(j);
	}
	cli_json_key(j, "fix");
	cli_json_string(j, p->has_fix ? p->fix : NULL);
	cli_json_close_object(j);
}

static void print_text_path(const struct path *p)
{
	char text[128];
	size_t i;

	print_safe(p->service);
	printf(": %s\n", verdict_names[p->verdict]);
	printf("  stack:  ");
	print_safe(p->file != NULL ? p->file : "(none)");
	printf("\n");
	for (i = 0; i < p->n_steps; i++) {
		const struct step *s = &p->steps[i];

		printf("  ");
		if (s->file[0] != '\0') {
			print_safe(s->file);
			if (s->line > 0)
				printf(":%u", s->line);
			printf(" ");
		}
		print_safe(s->module);
		printf(": ");
		print_safe(s->effect);
		printf("\n");
	}
	pair_text(p->soft, p->hard, text, sizeof(text));
	printf("  result: %s%s\n", text,
	       p->depends_on_user ? " (for users no line names; it depends on the user)" : "");
	if (p->has_fix) {
		printf("  fix:    ");
		print_safe(p->fix);
		printf("\n");
	}
}

/* --- The set of services, and the machine. */

static bool is_building_block(const char *name)
{
	size_t i;

	for (i = 0; building_blocks[i] != NULL; i++)
		if (strcmp(building_blocks[i], name) == 0)
			return true;
	return false;
}

/* Every service with a session stack: /etc/pam.d, then /usr/lib/pam.d
 * for names /etc/pam.d lacks. */
static int list_services(const char *root, char ***out, size_t *n_out)
{
	static const char *const dirs[] = { "/etc/pam.d", "/usr/lib/pam.d" };
	char **all = NULL;
	size_t n_all = 0, d, i, j;

	for (d = 0; d < 2; d++) {
		char **names;
		size_t n;
		int rc = doc_list_dir(root, dirs[d], NULL, &names, &n);

		if (rc < 0) {
			fprintf(stderr, "memlockctl: cannot list %s%s: %s\n", root, dirs[d],
				strerror(-rc));
			continue;
		}
		for (i = 0; i < n; i++) {
			bool dup = false;

			for (j = 0; j < n_all && !dup; j++)
				dup = strcmp(all[j], names[i]) == 0;
			if (dup || is_building_block(names[i]) ||
			    !doc_service_has_session(root, names[i])) {
				free(names[i]);
				continue;
			}
			{
				char **grown = realloc(all, (n_all + 1) * sizeof(char *));

				if (grown == NULL) {
					doc_names_free(names + i, n - i);
					free(names);
					doc_names_free(all, n_all);
					return -ENOMEM;
				}
				all = grown;
				all[n_all++] = names[i];
			}
		}
		free(names);
	}
	/* In byte order, whichever directory a name came from. */
	for (i = 0; i < n_all; i++)
		for (j = i + 1; j < n_all; j++)
			if (strcmp(all[j], all[i]) < 0) {
				char *t = all[i];

				all[i] = all[j];
				all[j] = t;
			}
	*out = all;
	*n_out = n_all;
	return 0;
}

static void probe(struct doctor *d)
{
	struct utsname uts;
	struct doc_text text;

	/* Debian's libpam-modules carries the patch that copies PID 1's limits. */
	d->debian_limits = doc_exists(d->root, "/usr/share/doc/libpam-modules");
	snprintf(d->release, sizeof(d->release), "%s", uname(&uts) == 0 ? uts.release : "");
	d->pid1_soft.known = d->pid1_hard.known = false;
	if (d->root[0] != '\0') {
		snprintf(d->pid1_note, sizeof(d->pid1_note), "unknown under --root");
		return;
	}
	if (doc_read("", "/proc/1/limits", &text) == 0) {
		if (doc_parse_proc_limits(text.data, &d->pid1_soft, &d->pid1_hard) == 0)
			snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits");
		else
			snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits has no memlock line");
		doc_text_free(&text);
	} else {
		snprintf(d->pid1_note, sizeof(d->pid1_note), "/proc/1/limits is unreadable");
	}
}

static void print_json_head(struct cli_json *j, const struct doctor *d)
{
	cli_json_key(j, "user");
	cli_json_string(j, d->have_user ? d->user.name : NULL);
	cli_json_key(j, "root");
	cli_json_string(j, d->root[0] != '\0' ? d->root : "/");
	cli_json_key(j, "models");
	cli_json_open_object(j);
	cli_json_key(j, "pam_limits");
	cli_json_string(j, d->debian_limits ? "debian" : "upstream");
	cli_json_key(j, "kernel_release");
	cli_json_string(j, d->release);
	cli_json_key(j, "kernel_default");
	cli_json_uint(j, doc_kernel_default(d->release));
	cli_json_key(j, "pid1");
	cli_json_open_object(j);
	json_value(j, "soft", d->pid1_soft);
	json_value(j, "hard", d->pid1_hard);
	cli_json_key(j, "source");
	cli_json_string(j, d->pid1_note);
	cli_json_close_object(j);
	cli_json_close_object(j);
}

static void print_text_head(const struct doctor *d)
{
	char text[128];

	printf("user:       ");
	if (d->have_user)
		cli_print_quoted(stdout, d->user.name);
	else
		printf("(any: verdicts for every user the files tell apart)");
	printf("\nroot:       ");
	cli_print_escaped(stdout, d->root[0] != '\0' ? d->root : "/");
	pair_text(d->pid1_soft, d->pid1_hard, text, sizeof(text));
	printf("\npam_limits: %s\n", d->debian_limits
					     ? "Debian's (copies PID 1's limits into every session)"
					     : "upstream (memlock lines only; PID 1's limits with set_all)");
	printf("PID 1:      %s (%s)\n", text, d->pid1_note);
	printf("kernel:     %s (default memlock %s)\n\n", d->release,
	       doc_kernel_default(d->release) >= ((uint64_t)8 << 20) ? "8 MiB" : "64 KiB");
}

int cli_doctor(const struct cli_options *options)
{
	struct doctor d = { .options = options, .root = options->root != NULL ? options->root : "" };
	char **names = NULL;
	size_t n_names = 0, i;
	struct cli_json j;
	bool all_ok = true;
	int rc;

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
		rc = list_services(d.root, &names, &n_names);
		if (rc < 0) {
			fprintf(stderr, "memlockctl: out of memory\n");
			doc_user_free(&d.user);
			return CLI_EXIT_FAIL;
		}
	}
	if (options->json) {
		cli_json_start(&j, stdout);
		cli_json_open_object(&j);
		print_json_head(&j, &d);
		cli_json_key(&j, "paths");
		cli_json_open_array(&j);
	} else {
		print_text_head(&d);
	}
	for (i = 0; i < (options->n_services > 0 ? options->n_services : n_names); i++) {
		const char *service = options->n_services > 0 ? options->services[i] : names[i];
		struct doc_stack st;
		struct path *p = malloc(sizeof(*p));

		if (p == NULL || doc_stack_resolve(d.root, service, &st) < 0) {
			free(p);
			fprintf(stderr, "memlockctl: out of memory\n");
			all_ok = false;
			break;
		}
		doc_stack_walk(&st);
		check_path(&d, service, p, &st);
		if (p->verdict != V_OK)
			all_ok = false;
		if (options->json)
			print_json_path(&j, p);
		else
			print_text_path(p);
		if (!options->json && i + 1 < (options->n_services > 0 ? options->n_services : n_names))
			printf("\n");
		doc_stack_free(&st);
		free(p);
	}
	if (options->json) {
		cli_json_close_array(&j);
		cli_json_close_object(&j);
		cli_json_finish(&j);
	}
	doc_names_free(names, n_names);
	doc_user_free(&d.user);
	return cli_finish_output(all_ok ? CLI_EXIT_OK : CLI_EXIT_FAIL);
}
