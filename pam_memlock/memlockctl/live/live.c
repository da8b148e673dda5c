/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Live sessions (see live.h): list, read, and decide once per distinct
 * (user, service, cgroup).  User names come from NSS once per uid,
 * services from logind once per session, so 5,000 processes of a few
 * users cost a few lookups, not 5,000.
 */
#include "live.h"

#include <errno.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dirfd/dirfd.h"
#include "evaluate_from.h"
#include "index.h"
#include "output/json.h"
#include "output/text.h"

/* /proc/PID/cgroup: one line per hierarchy, a dozen at most. */
#define CGROUP_TEXT_MAX 8192

/* Tiny caches, searched linearly: the distinct uids and sessions of one
 * run are few.  Names and answers are not (one cgroup per process, where
 * the policy takes a share of "available"): they are indexed. */
struct uid_name {
	uid_t uid;
	const char *name;
	bool known;
};

struct session_service {
	unsigned session;
	const char *service; /* NULL: logind names none */
};

struct caches {
	struct uid_name *users;
	size_t n_users;
	struct session_service *sessions;
	size_t n_sessions;
	size_t procs_room;		 /* scan->procs has room for this many */
	size_t names_room, answers_room; /* the same for names, answers */
	struct live_index names;	 /* of scan->names */
	struct live_index answers;	 /* of scan->answers */
	const char *service;		 /* --service, interned: for sessions logind
			      * names no service of */
	bool per_cgroup;		 /* the policy takes a share of "available" */
	struct pml_unit_path unit_path;	 /* read inside the root */
	struct dirfd_files unit_files;
	struct unit_layer *units; /* the units met, each read once */
	size_t n_units;
};

struct unit_layer {
	const char *unit; /* interned */
	const char *from, *rule;
};

/* Grows *V (of *N elements of SIZE bytes) by one; NULL when out of memory. */
static void *grow(void *v, size_t *n, size_t size)
{
	char *bigger = realloc(v, (*n + 1) * size);

	if (bigger == NULL)
		return NULL;
	memset(bigger + *n * size, 0, size);
	(*n)++;
	return bigger;
}

/* Makes room in *V (ROOM elements of SIZE bytes) for one more after N,
 * doubling: there may be one a process.  Returns 0 or -ENOMEM. */
static int make_room(void **v, size_t n, size_t *room, size_t size)
{
	size_t more = *room == 0 ? 64 : *room * 2;
	void *bigger;

	if (n < *room)
		return 0;
	bigger = realloc(*v, more * size);
	if (bigger == NULL)
		return -ENOMEM;
	*v = bigger;
	*room = more;
	return 0;
}

struct name_key {
	char *const *names;
	const char *s;
};

static bool same_name(const void *context, size_t at)
{
	const struct name_key *k = context;

	return strcmp(k->names[at], k->s) == 0;
}

/* A copy of S kept until the scan is freed, the same pointer for equal
 * strings. */
static const char *intern(struct live_scan *scan, struct caches *c, const char *s)
{
	uint64_t hash = live_index_hash(&c->names, s, strlen(s));
	struct name_key key = { scan->names, s };
	size_t at = live_index_find(&c->names, hash, same_name, &key);
	char *copy;

	if (at != SIZE_MAX)
		return scan->names[at];
	if (make_room((void **)&scan->names, scan->n_names, &c->names_room,
		      sizeof(*scan->names)) < 0 ||
	    live_index_add(&c->names, hash, scan->n_names) < 0)
		return NULL;
	copy = strdup(s);
	if (copy == NULL) {
		/* The index has it: a placeholder that matches nothing. */
		scan->names[scan->n_names++] = NULL;
		return NULL;
	}
	scan->names[scan->n_names++] = copy;
	return copy;
}

static int user_of(struct live_scan *scan, struct caches *c, uid_t uid,
		   const char **name, bool *known)
{
	struct uid_name *users;
	struct passwd *pw;
	char number[24];
	size_t i;

	for (i = 0; i < c->n_users; i++)
		if (c->users[i].uid == uid) {
			*name = c->users[i].name;
			*known = c->users[i].known;
			return 0;
		}
	errno = 0;
	pw = getpwuid(uid);
	snprintf(number, sizeof(number), "%u", (unsigned)uid);
	*known = pw != NULL;
	*name = intern(scan, c, pw != NULL ? pw->pw_name : number);
	users = grow(c->users, &c->n_users, sizeof(*users));
	if (*name == NULL || users == NULL)
		return -ENOMEM;
	c->users = users;
	users[c->n_users - 1] = (struct uid_name){ uid, *name, *known };
	return 0;
}

static int service_of(struct live_scan *scan, struct caches *c,
		      const char *root, unsigned session,
		      const struct pml_log *log, const char **service)
{
	struct session_service *sessions;
	char buf[PROC_SERVICE_MAX];
	size_t i;
	int rc;

	for (i = 0; i < c->n_sessions; i++)
		if (c->sessions[i].session == session) {
			*service = c->sessions[i].service;
			return 0;
		}
	*service = NULL;
	rc = proc_session_service(root, session, buf, sizeof(buf));
	/* The service is then unknown, as for a session logind does not know. */
	if (rc < 0 && rc != -ENOENT)
		pml_log(log, LOG_WARNING,
			"%s/run/systemd/sessions/%u: %s; its service is taken as unknown",
			root, session,
			rc == -EINVAL ? "not a regular file, or SERVICE too long"
				      : strerror(-rc));
	if (rc == 0) {
		*service = intern(scan, c, buf);
		if (*service == NULL)
			return -ENOMEM;
	}
	sessions = grow(c->sessions, &c->n_sessions, sizeof(*sessions));
	if (sessions == NULL)
		return -ENOMEM;
	c->sessions = sessions;
	sessions[c->n_sessions - 1] = (struct session_service){ session, *service };
	return 0;
}

/*
 * Would a rule with a service key, later than DECIDED (the rule that
 * decides without a service; NULL: none), match IDENTITY for one of its
 * services?  Only such a rule could change the answer: an earlier one is
 * overridden whatever the service is.
 */
static bool service_rule_could_apply(const struct pml_policy *policy,
				     const struct pml_identity *identity,
				     const struct pml_rule *decided)
{
	struct pml_identity as = *identity;
	size_t i = decided != NULL ? (size_t)(decided - policy->rules) + 1 : 0, k;

	for (; i < policy->n_rules; i++)
		for (k = 0; k < policy->rules[i].services.n; k++) {
			as.service = policy->rules[i].services.v[k];
			if (pml_rule_matches(&policy->rules[i], &as))
				return true;
		}
	return false;
}

/* The process whose answer is being decided. */
struct subject {
	const char *user; /* interned */
	bool user_known;
	uid_t uid;
	const char *service; /* interned, or NULL */
	const char *cgroup;  /* interned, or NULL */
	pid_t pid;
};

/* The first answer for SUBJECT, decided with the module's code.  A uid
 * NSS has no name for is no user name: it matches no user rule (names are
 * never numbers) and cannot be looked up for a uid or group rule. */
static void decide(struct live_scan *scan, const char *root,
		   const struct subject *who, const struct pml_log *log,
		   struct live_answer *a)
{
	struct dirfd_files files;
	const struct pml_scope scope = {
		.groups = PML_GROUPS_EVERY,
		/* A saved tree is read inside it; this machine's by path. */
		.files = root[0] != '\0' ? &files.files : NULL,
		.pid = who->pid,
	};

	dirfd_files_init(&files, root);
	*a = (struct live_answer){
		.user = who->user,
		.service = who->service,
		.cgroup = who->cgroup,
		.identity = {
			.user = who->user_known ? who->user : NULL,
			.service = who->service,
			.uid_known = true,
			.uid = who->uid,
		},
		.machine = scan->machine,
	};
	if (!who->user_known && scan->policy.needs_nss) {
		pml_log(log, LOG_WARNING,
			"uid %u has no name in the user database, and a rule needs a user's uid or groups: no answer for its processes",
			(unsigned)who->uid);
		a->rc = -ESRCH;
		return;
	}
	a->rc = pml_decide_loaded(&scan->policy, &a->identity, &scope, &a->machine,
				  log, &a->decision);
	if (a->rc == 0 && who->service == NULL)
		a->service_rule_could_apply = service_rule_could_apply(
			&scan->policy, &a->identity, a->decision.rule);
}

static bool same_answer(const void *context, size_t at)
{
	const struct live_scan *scan = context;
	const struct live_answer *a = &scan->answers[at], *k = &scan->answers[scan->n_answers];

	/* Interned: equal names are equal pointers. */
	return a->user == k->user && a->service == k->service && a->cgroup == k->cgroup;
}

/* The index of the answer for WHO, decided on first use. */
static int answer_for(struct live_scan *scan, struct caches *c, const char *root,
		      const struct subject *who, const struct pml_log *log,
		      size_t *index)
{
	uint64_t hash = live_index_mix(live_index_mix(live_index_mix(c->answers.seed,
								     (uintptr_t)who->user),
						      (uintptr_t)who->service),
				       (uintptr_t)who->cgroup);
	struct live_answer *a;
	size_t at;

	/* The key is written in the free element past the last, room for
	 * which the answer will need anyway. */
	if (make_room((void **)&scan->answers, scan->n_answers, &c->answers_room,
		      sizeof(*scan->answers)) < 0)
		return -ENOMEM;
	a = &scan->answers[scan->n_answers];
	*a = (struct live_answer){ .user = who->user, .service = who->service, .cgroup = who->cgroup };
	at = live_index_find(&c->answers, hash, same_answer, scan);
	if (at != SIZE_MAX) {
		*index = at;
		return 0;
	}
	if (live_index_add(&c->answers, hash, scan->n_answers) < 0)
		return -ENOMEM;
	decide(scan, root, who, log, a);
	scan->n_answers++;
	if (a->rc == -ENOMEM)
		return -ENOMEM;
	*index = scan->n_answers - 1;
	return 0;
}

const struct live_answer *live_answer_of(const struct live_scan *scan,
					 const struct live_proc *proc)
{
	const struct live_answer *a = &scan->answers[proc->answer];

	return a->rc == 0 && !a->service_rule_could_apply ? a : NULL;
}

static enum live_verdict verdict_of(const struct live_scan *scan,
				    const struct live_proc *proc)
{
	const struct live_answer *a = live_answer_of(scan, proc);
	const struct pml_limits *have = &proc->info.limits;

	if (a == NULL)
		return LIVE_UNKNOWN;
	if (have->soft < a->decision.soft.bytes || have->hard < a->decision.hard.bytes)
		return LIVE_BELOW;
	if (have->soft > a->decision.soft.bytes || have->hard > a->decision.hard.bytes)
		return LIVE_ABOVE;
	return LIVE_OK;
}

const char *live_verdict_name(enum live_verdict verdict)
{
	static const char *const names[] = {
		[LIVE_OK] = "ok",
		[LIVE_BELOW] = "below",
		[LIVE_ABOVE] = "above",
		[LIVE_UNKNOWN] = "unknown",
	};

	return names[verdict];
}

static bool selected(const struct live_selection *selection,
		     const struct proc_info *info)
{
	size_t i;

	if (info->kernel_thread)
		return false;
	switch (selection->which) {
	case LIVE_SESSIONS:
		return info->has_login || info->has_job;
	case LIVE_USERS:
		for (i = 0; i < selection->n_uids; i++)
			if (selection->uids[i] == info->uid)
				return true;
		return false;
	default:
		return true;
	}
}

static uint64_t usage(const struct live_proc *p)
{
	uint64_t sum = p->info.locked + p->info.pinned;

	return sum < p->info.locked ? UINT64_MAX : sum;
}

static int compare_procs(const void *x, const void *y)
{
	const struct live_proc *a = x, *b = y;
	int by_user = strcmp(a->user, b->user);

	if (by_user != 0)
		return by_user;
	if (usage(a) != usage(b))
		return usage(a) > usage(b) ? -1 : 1;
	return (a->info.pid > b->info.pid) - (a->info.pid < b->info.pid);
}

/* The cgroup text that keys PROC's answer, or NULL where it plays no part
 * (or cannot be read: the process ended, and is then skipped soon). */
static int cgroup_of(struct live_scan *scan, struct caches *c,
		     const char *root, pid_t pid, const char **cgroup)
{
	char text[CGROUP_TEXT_MAX];

	*cgroup = NULL;
	if (!c->per_cgroup || proc_cgroup(root, pid, text, sizeof(text)) < 0)
		return 0;
	*cgroup = intern(scan, c, text);
	return *cgroup != NULL ? 0 : -ENOMEM;
}

/* What PROC's unit's files say: read once per unit. */
static int unit_layer_of(struct live_scan *scan, struct caches *c, const char *root,
			 const char *unit, const struct pml_log *log, struct live_proc *proc)
{
	struct unit_layer *u;
	struct layer_unit l;
	size_t i;
	int rc;

	for (i = 0; i < c->n_units && strcmp(c->units[i].unit, unit) != 0; i++)
		;
	if (i == c->n_units) {
		rc = layer_of_unit(root, &c->unit_path, unit, log, &l);
		if (rc < 0)
			return rc;
		u = grow(c->units, &c->n_units, sizeof(*u));
		if (u == NULL)
			return -ENOMEM;
		c->units = u;
		u[i] = (struct unit_layer){ .unit = intern(scan, c, unit) };
		if (l.set)
			u[i].from = intern(scan, c, l.from);
		if (l.rule[0] != '\0')
			u[i].rule = intern(scan, c, l.rule);
		if (u[i].unit == NULL || (l.set && u[i].from == NULL) ||
		    (l.rule[0] != '\0' && u[i].rule == NULL))
			return -ENOMEM;
	}
	if (c->units[i].from != NULL) {
		proc->layer = LIVE_LAYER_UNIT;
		proc->layer_unit = c->units[i].unit;
		proc->layer_from = c->units[i].from;
		proc->layer_rule = c->units[i].rule;
	}
	return 0;
}

/*
 * Which layer set PROC's limit: a login session's PAM stack (the rule that
 * decided), else the unit whose cgroup holds it where its files set
 * LimitMEMLOCK=, else it was inherited.  A Slurm job step's processes
 * inherit slurmstepd's limit.
 */
static int layer_of(struct live_scan *scan, struct caches *c, const char *root,
		    const struct pml_log *log, struct live_proc *proc)
{
	const struct live_answer *a = live_answer_of(scan, proc);
	char text[CGROUP_TEXT_MAX], unit[LAYER_UNIT_MAX], from[PATH_MAX + 16];
	const struct pml_origin *at;

	proc->layer = LIVE_LAYER_INHERITED;
	if (proc->info.has_session && !proc->info.has_job) {
		proc->layer = LIVE_LAYER_SESSION;
		if (a == NULL)
			return 0;
		/* The rule that decided, else the top level's hard limit. */
		at = a->decision.rule != NULL ? &a->decision.rule->at : NULL;
		if (at == NULL && a->decision.hard.from->set)
			at = &a->decision.hard.from->at;
		if (at == NULL)
			return 0; /* the built-in default */
		snprintf(from, sizeof(from), "%s:%u", pml_policy_file_name(&scan->policy, *at),
			 at->line);
		proc->layer_from = intern(scan, c, from);
		return proc->layer_from != NULL ? 0 : -ENOMEM;
	}
	if (proc->info.has_job || proc_cgroup(root, proc->info.pid, text, sizeof(text)) < 0 ||
	    !layer_unit_of_cgroup(text, unit, sizeof(unit)))
		return 0;
	return unit_layer_of(scan, c, root, unit, log, proc);
}

/* Reads PID and, if SELECTION picks it, adds it to SCAN. */
static int add_process(struct live_scan *scan, struct caches *c,
		       const char *root, pid_t pid,
		       const struct live_selection *selection,
		       const struct pml_log *log)
{
	struct live_proc proc = { .service = NULL };
	struct subject who = { .pid = pid };
	struct live_proc *procs;
	const char *file;
	int rc = proc_read(root, pid, &proc.info, &file);

	if (rc == -ESRCH)
		return 0; /* it ended: nothing to say */
	if (rc == -EACCES) {
		scan->unreadable++;
		return 0;
	}
	if (rc == -EINVAL) {
		pml_log(log, LOG_WARNING,
			"%s/proc/%d/%s: not as the kernel writes it (not a regular file, or not its format); process skipped",
			root, (int)pid, file);
		return 0;
	}
	if (rc < 0)
		return rc;
	if (!proc.info.kernel_thread && proc.info.has_login)
		scan->with_login++;
	if (!selected(selection, &proc.info))
		return 0;
	rc = user_of(scan, c, proc.info.uid, &proc.user, &proc.user_known);
	if (rc == 0 && proc.info.has_session)
		rc = service_of(scan, c, root, proc.info.session, log, &proc.service);
	/* A job step's processes: slurmstepd opened the session, service
	 * "slurm", before it forked them. */
	else if (rc == 0 && proc.info.has_job)
		proc.service = LIVE_SLURM_SERVICE;
	if (proc.service == NULL && c->service != NULL) {
		proc.service = c->service;
		proc.service_given = true;
	}
	if (rc == 0)
		rc = cgroup_of(scan, c, root, pid, &who.cgroup);
	who.user = proc.user;
	who.user_known = proc.user_known;
	who.uid = proc.info.uid;
	who.service = proc.service;
	if (rc == 0)
		rc = answer_for(scan, c, root, &who, log, &proc.answer);
	if (rc < 0)
		return rc;
	proc.verdict = verdict_of(scan, &proc);
	rc = layer_of(scan, c, root, log, &proc);
	if (rc < 0)
		return rc;
	if (scan->n_procs == c->procs_room) {
		/* Doubling: there may be tens of thousands. */
		size_t room = c->procs_room == 0 ? 256 : c->procs_room * 2;

		procs = realloc(scan->procs, room * sizeof(*procs));
		if (procs == NULL)
			return -ENOMEM;
		scan->procs = procs;
		c->procs_room = room;
	}
	scan->procs[scan->n_procs++] = proc;
	return 0;
}

/* Does any level of POLICY take a share of "available" memory? */
static bool takes_available(const struct pml_policy *policy)
{
	size_t i;

	if (pml_needs_available(policy, NULL))
		return true;
	for (i = 0; i < policy->n_rules; i++)
		if (pml_needs_available(policy, &policy->rules[i]))
			return true;
	return false;
}

int live_scan(const char *root, const struct pml_source *source,
	      const struct live_selection *selection, const char *service,
	      const struct pml_log *log, struct live_scan *out)
{
	struct pml_policy policy;
	struct pml_machine machine;
	int rc;

	*out = (struct live_scan){ .procs = NULL };
	rc = pml_load(source, log, &policy, &machine);
	if (rc < 0)
		return rc;
	return live_scan_loaded(root, &policy, &machine, selection, service, log, out);
}

int live_scan_loaded(const char *root, struct pml_policy *policy,
		     const struct pml_machine *machine,
		     const struct live_selection *selection, const char *service,
		     const struct pml_log *log, struct live_scan *out)
{
	struct caches c = { .users = NULL };
	pid_t *pids = NULL;
	size_t n = 0, i;
	int rc = 0;

	*out = (struct live_scan){ .policy = *policy, .machine = *machine };
	*policy = (struct pml_policy){ .n_rules = 0 };
	live_index_init(&c.names);
	live_index_init(&c.answers);
	c.per_cgroup = takes_available(&out->policy);
	dirfd_files_init(&c.unit_files, root);
	if (pml_unit_path_init(&c.unit_path, NULL) < 0)
		rc = -ENOMEM;
	c.unit_path.files = &c.unit_files.files;
	if (rc == 0 && service != NULL && (c.service = intern(out, &c, service)) == NULL)
		rc = -ENOMEM;
	if (rc == 0 && (rc = proc_list(root, &pids, &n)) < 0)
		pml_log(log, LOG_ERR, "cannot list the processes in %s/proc: %s",
			root, strerror(-rc));
	for (i = 0; rc == 0 && i < n; i++)
		rc = add_process(out, &c, root, pids[i], selection, log);
	if (rc == -ENOMEM)
		pml_log(log, LOG_CRIT, "out of memory");
	free(pids);
	free(c.users);
	free(c.sessions);
	free(c.units);
	pml_unit_path_free(&c.unit_path);
	live_index_free(&c.names);
	live_index_free(&c.answers);
	if (rc < 0) {
		live_scan_free(out);
		return rc;
	}
	if (out->n_procs > 1)
		qsort(out->procs, out->n_procs, sizeof(*out->procs), compare_procs);
	return 0;
}

const char *live_none_selected(const struct live_scan *scan,
			       const struct live_selection *selection)
{
	switch (selection->which) {
	case LIVE_SESSIONS:
		if (scan->with_login == 0)
			return "no process has a login uid: is pam_loginuid in the PAM stacks? (--all selects every process)";
		return "no process in a login session could be read";
	case LIVE_USERS:
		return selection->n_uids == 1 ? "the user named has no process"
					      : "the users named have no process";
	default:
		return "no process could be read";
	}
}

void live_print_notes(const struct live_scan *scan)
{
	size_t i, unknown = 0;

	if (scan->unreadable > 0)
		fprintf(stderr, "memlockctl: %u %s skipped: not readable by this user\n",
			scan->unreadable,
			cli_plural(scan->unreadable, "process", "processes"));
	for (i = 0; i < scan->n_procs; i++) {
		const struct live_answer *a = &scan->answers[scan->procs[i].answer];

		unknown += a->rc == 0 && a->service_rule_could_apply;
	}
	if (unknown > 0)
		fprintf(stderr,
			"memlockctl: %zu %s without an answer: logind names no service for the session, and a rule with a service key could apply; --service NAME answers as if it were NAME\n",
			unknown, cli_plural(unknown, "process", "processes"));
}

void live_json_process(struct cli_json *j, const struct live_proc *p)
{
	cli_json_member_uint(j, "pid", (uint64_t)p->info.pid);
	cli_json_member_string(j, "user", p->user);
	cli_json_member_uint(j, "uid", p->info.uid);
	cli_json_member_bool(j, "user_known", p->user_known);
	cli_json_member_string(j, "command", p->info.comm);
	cli_json_uint_or_null(j, "session", p->info.has_session, p->info.session);
	cli_json_uint_or_null(j, "slurm_job", p->info.has_job, p->info.job);
	cli_json_member_string(j, "service", p->service);
	cli_json_member_bool(j, "service_given", p->service_given);
	cli_json_member_string(j, "layer", live_layer_name(p->layer));
	cli_json_member_string(j, "layer_unit", p->layer_unit);
	cli_json_member_string(j, "layer_from", p->layer_from);
	cli_json_member_string(j, "layer_rule", p->layer_rule);
}

void live_scan_free(struct live_scan *scan)
{
	size_t i;

	for (i = 0; i < scan->n_answers; i++)
		if (scan->answers[i].rc == 0)
			pml_identity_free(&scan->answers[i].identity);
	for (i = 0; i < scan->n_names; i++)
		free(scan->names[i]);
	free(scan->answers);
	free(scan->names);
	free(scan->procs);
	pml_policy_free(&scan->policy);
	*scan = (struct live_scan){ .procs = NULL };
}
