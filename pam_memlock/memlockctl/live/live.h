/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Live sessions: the running processes memlockctl status and apply look
 * at, each with the policy's answer for its user and its session's PAM
 * service.  The policy is loaded once; the answer is decided once per
 * distinct (user, service, cgroup), with the module's own code
 * (pml_decide_loaded), every group a rule names looked up, and "available"
 * memory taken from the process's own cgroup and its user's slice.
 */
#ifndef CLI_LIVE_H
#define CLI_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "decide.h"
#include "layer.h"
#include "log.h"
#include "policy.h"
#include "procs.h"

/* The PAM service slurmstepd opens for each job step (UsePAM=1). */
#define LIVE_SLURM_SERVICE "slurm"

/* Which processes. */
enum live_which {
	LIVE_SESSIONS, /* in a login session (a loginuid) or a Slurm job */
	LIVE_USERS,    /* whose real uid is one of the users named */
	LIVE_ALL,      /* every process (kernel threads are never listed) */
};

/* More users than this on one command line is a mistake in a script. */
#define LIVE_USERS_MAX 256

struct live_selection {
	enum live_which which;
	uid_t uids[LIVE_USERS_MAX]; /* LIVE_USERS */
	size_t n_uids;
	bool root_named; /* uid 0 is among them */
};

struct cli_options;

/*
 * The processes status, apply, metrics and nagios look at, from USER
 * operands and --all.  Returns CLI_EXIT_OK, or CLI_EXIT_FAIL with a
 * message for a user NSS does not know.
 */
int live_select(const struct cli_options *options,
		struct live_selection *selection);

/* How a process's limits compare with the policy's answer. */
enum live_verdict {
	LIVE_OK,      /* both sides are what the policy gives */
	LIVE_BELOW,   /* a side is lower than the policy's */
	LIVE_ABOVE,   /* a side is higher (normal in raise mode), none lower */
	LIVE_UNKNOWN, /* no answer: the service is unknown and a rule with
			 * a service key could apply, or the user could not
			 * be looked up for a rule that needs it */
};

/* The policy's answer for one (user, service, cgroup). */
struct live_answer {
	const char *user;    /* interned: the uid's name, or its number */
	const char *service; /* NULL: not known */
	/* The text of /proc/PID/cgroup where the policy takes a share of
	 * "available" memory, else NULL: one answer serves every process
	 * of the user and service. */
	const char *cgroup;
	int rc; /* 0, or pml_decide_loaded's error */
	struct pml_identity identity;
	struct pml_decision decision; /* when rc is 0 */
	struct pml_machine machine;   /* its base of "available" memory */
	/* The service is not known, and a rule with a service key, later
	 * than the rule that decided, would match this user for one of its
	 * services: the answer could be another. */
	bool service_rule_could_apply;
};

struct live_proc {
	struct proc_info info;
	const char *user;    /* the real uid's name, or its number */
	bool user_known;     /* NSS knows the uid */
	const char *service; /* the session's PAM service, or NULL */
	bool service_given;  /* SERVICE is --service's: logind named none */
	size_t answer;	     /* index into live_scan.answers */
	enum live_verdict verdict;
	/* Which layer set its limit, and where: the session's rule, the
	 * file whose LimitMEMLOCK= counts (interned; NULL for inherited). */
	enum live_layer layer;
	const char *layer_unit; /* LIVE_LAYER_UNIT: the unit */
	const char *layer_from;
	const char *layer_rule; /* the generator's drop-in: the rule it names */
};

struct live_scan {
	struct pml_policy policy;
	struct pml_machine machine;
	/* Sorted: by user, then locked+pinned descending, then pid. */
	struct live_proc *procs;
	size_t n_procs;
	struct live_answer *answers;
	size_t n_answers;
	unsigned unreadable; /* processes skipped: not readable */
	unsigned with_login; /* processes read that have a loginuid */
	/* Interned names, freed with the scan. */
	char **names;
	size_t n_names;
};

/*
 * Loads the policy from SOURCE (errors logged), lists the processes under
 * ROOT ("" for this machine) that SELECTION picks, and decides for each:
 * for a process whose session's service logind does not name, as if it
 * were SERVICE (NULL: unknown).  Returns 0 (free *out with
 * live_scan_free), -EINVAL (the policy is invalid), or another -errno
 * (logged).
 */
int live_scan(const char *root, const struct pml_source *source,
	      const struct live_selection *selection, const char *service,
	      const struct pml_log *log, struct live_scan *out);
/*
 * live_scan with the policy already loaded (memlockctl nagios and metrics
 * load it once, with check): takes *POLICY over, leaving it empty, and
 * frees it with the scan or on error.
 */
int live_scan_loaded(const char *root, struct pml_policy *policy,
		     const struct pml_machine *machine,
		     const struct live_selection *selection, const char *service,
		     const struct pml_log *log, struct live_scan *out);
void live_scan_free(struct live_scan *scan);

/* The answer for PROC, or NULL when there is none (verdict unknown). */
const struct live_answer *live_answer_of(const struct live_scan *scan,
					 const struct live_proc *proc);

/* One user's processes of a scan, which are consecutive: [first, end),
 * and what the kernel charges the user (status's totals). */
struct live_user_total {
	size_t first, end;
	uint64_t locked, pinned, smallest_soft;
};

/* The totals of the user of SCAN's process FIRST, from there on. */
void live_user_total(const struct live_scan *scan, size_t first,
		     struct live_user_total *t);

/* "ok", "below", "above", "unknown". */
const char *live_verdict_name(enum live_verdict verdict);

/* Why SELECTION picked no process of SCAN: a sentence to follow "no
 * process selected: ". */
const char *live_none_selected(const struct live_scan *scan,
			       const struct live_selection *selection);

/*
 * On stderr, what the listing leaves out: processes not readable by this
 * user, and those without an answer only because their session's service
 * is unknown (--service answers for them).
 */
void live_print_notes(const struct live_scan *scan);

struct cli_json;

/* PROC's members of a JSON object, the same in status and apply: pid,
 * user, uid, user_known, command, session, slurm_job, service,
 * service_given, layer, layer_unit, layer_from, layer_rule.  The caller opens and closes the object. */
void live_json_process(struct cli_json *j, const struct live_proc *p);

#endif
