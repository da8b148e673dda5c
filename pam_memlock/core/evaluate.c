/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
#include "evaluate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "evaluate_from.h"

/* RAM and page size of this machine. */
static int probe_machine(struct pml_machine *machine)
{
	long page = sysconf(_SC_PAGESIZE), pages;

	errno = 0;
	pages = sysconf(_SC_PHYS_PAGES);
	if (pages < 0)
		return errno != 0 ? -errno : -ENOSYS;
	machine->page_size = page > 0 ? (uint64_t)page : 4096;
	machine->ram = (uint64_t)pages * machine->page_size;
	machine->available = (struct pml_available){ .bytes = machine->ram };
	return 0;
}

int pml_load_from(const struct pml_source *source, const struct pml_from *from,
		  const struct pml_assume *assume, const struct pml_log *log,
		  struct pml_policy *policy, struct pml_machine *machine)
{
	int rc;

	pml_policy_init(policy);
	rc = probe_machine(machine);
	if (rc < 0) {
		pml_log(log, LOG_ERR, "cannot read this machine's memory size: %s",
			strerror(-rc));
		return rc;
	}
	/* Before the policy is read: a floor of "page" is checked against
	 * the page size. */
	if (assume != NULL && assume->ram != 0)
		machine->ram = machine->available.bytes = assume->ram;
	if (assume != NULL && assume->page_size != 0)
		machine->page_size = assume->page_size;
	/* The module's own path goes through the module's entry. */
	rc = from != NULL ? pml_policy_load_from(source, from, machine->page_size, log, policy)
			  : pml_policy_load(source, machine->page_size, log, policy);
	if (rc == -ENOMEM)
		pml_log(log, LOG_CRIT, "out of memory");
	return rc;
}

int pml_load(const struct pml_source *source, const struct pml_log *log,
	     struct pml_policy *policy, struct pml_machine *machine)
{
	return pml_load_from(source, NULL, NULL, log, policy, machine);
}

/*
 * The memory a share of "available" is a share of.  The user slice needs
 * the uid: known already when a rule needed NSS or the caller knew it,
 * else asked of NSS only where systemd's user.slice is there to read.
 */
static int probe_available(struct pml_identity *identity,
			   const struct pml_scope *scope,
			   const struct pml_log *log, struct pml_machine *machine)
{
	struct pml_base_query query = {
		.files = scope->files,
		.pid = scope->pid,
		.uid_known = identity->uid_known,
		.uid = identity->uid,
	};

	/* Another host's cgroups are not this one's. */
	if (scope->assume.ram != 0) {
		machine->available = (struct pml_available){ .bytes = machine->ram,
							     .scope = PML_BASE_TOP };
		return 0;
	}
	if (!query.uid_known && identity->user != NULL &&
	    pml_has_user_slice(query.files)) {
		int rc = pml_user_uid(identity->user, &query.uid);

		if (rc == -ENOMEM) {
			pml_log(log, LOG_CRIT, "out of memory");
			return rc;
		}
		query.uid_known = identity->uid_known = rc == 0;
		identity->uid = query.uid;
		if (!query.uid_known)
			pml_log(log, LOG_DEBUG, "no uid for the user slice: %s",
				strerror(-rc));
	}
	pml_available_memory(&query, machine->ram, log, &machine->available);
	return 0;
}

int pml_decide_loaded(const struct pml_policy *policy,
		      struct pml_identity *identity,
		      const struct pml_scope *scope, struct pml_machine *machine,
		      const struct pml_log *log, struct pml_decision *decision)
{
	const struct pml_rule *rule;
	int rc;

	if (policy->needs_nss) {
		char user[256], group[256];

		rc = pml_identity_lookup(identity, policy, scope->groups);
		if (rc == -ESRCH)
			pml_log(log, LOG_ERR,
				"user %s is unknown to NSS, and a rule needs their uid or groups",
				pml_quote(identity->user, user, sizeof(user)));
		else if (rc == -ENOMEM)
			pml_log(log, LOG_CRIT, "out of memory");
		else if (rc < 0)
			pml_log(log, LOG_ERR,
				"the user database could not be read for user %s, and a rule needs their uid or groups: %s",
				pml_quote(identity->user, user, sizeof(user)),
				strerror(-rc));
		if (rc < 0)
			return rc;
		if (identity->missed_group != NULL)
			pml_log(log, LOG_WARNING,
				"group %s lists user %s as a member, but getgrouplist did not return it: a group source may have failed; the group counts",
				pml_quote(identity->missed_group, group, sizeof(group)),
				pml_quote(identity->user, user, sizeof(user)));
	}
	rule = pml_match(policy, identity);
	if (pml_needs_available(policy, rule)) {
		rc = probe_available(identity, scope, log, machine);
		if (rc < 0) {
			pml_identity_free(identity);
			return rc;
		}
	}
	pml_resolve(policy, rule, machine, decision);
	return 0;
}

int pml_evaluate_from(const struct pml_request *request, const struct pml_from *from,
		      const struct pml_scope *scope, const struct pml_log *log,
		      struct pml_evaluation *out)
{
	/* The module's: the groups the decision needs, this process's cgroup. */
	static const struct pml_scope module_scope = { .groups = PML_GROUPS_DECIDING };
	int rc;

	if (scope == NULL)
		scope = &module_scope;
	*out = (struct pml_evaluation){
		.identity = { .user = request->user, .service = request->service },
	};
	rc = pml_load_from(&request->source, from, &scope->assume, log, &out->policy,
			   &out->machine);
	if (rc < 0)
		return rc;
	rc = pml_decide_loaded(&out->policy, &out->identity, scope, &out->machine, log,
			       &out->decision);
	if (rc < 0)
		pml_policy_free(&out->policy);
	return rc;
}

int pml_evaluate(const struct pml_request *request, const struct pml_log *log,
		 struct pml_evaluation *out)
{
	return pml_evaluate_from(request, NULL, NULL, log, out);
}

void pml_evaluation_free(struct pml_evaluation *evaluation)
{
	pml_identity_free(&evaluation->identity);
	pml_policy_free(&evaluation->policy);
}

void pml_describe_at(const struct pml_policy *policy, struct pml_origin at,
		     char *buf, size_t len)
{
	char file[PML_DESCRIBE_MAX];

	snprintf(buf, len, "%s:%u",
		 pml_escape(pml_policy_file_name(policy, at), file, sizeof(file)),
		 at.line);
}

void pml_describe_origin(const struct pml_policy *policy,
			 const struct pml_setting *setting,
			 char *buf, size_t len)
{
	if (setting->level == PML_LEVEL_BUILTIN)
		snprintf(buf, len, "built-in default");
	else
		pml_describe_at(policy, setting->at, buf, len);
}
