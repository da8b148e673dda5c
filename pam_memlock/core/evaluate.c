#include "evaluate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "apply.h"

int pml_evaluate(const struct pml_request *request, const struct pml_log *log,
		 struct pml_evaluation *out)
{
	struct pml_load_options options;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pml_machine_probe(&out->machine);
	if (rc < 0) {
		pml_log(log, LOG_ERR, "cannot read this machine's memory size: %s",
			strerror(-rc));
		return rc;
	}
	options.path = request->conf;
	options.path_given = request->conf_given;
	options.owner = request->owner;
	options.page_size = out->machine.page_size;
	rc = pml_policy_load(&options, log, &out->policy);
	if (rc < 0)
		return rc;
	out->identity.user = request->user;
	out->identity.service = request->service;
	if (out->policy.needs_nss) {
		rc = pml_identity_lookup(&out->identity);
		if (rc == -ESRCH)
			pml_log(log, LOG_ERR,
				"user \"%s\" is unknown to NSS, and a rule needs their uid or groups",
				request->user);
		else if (rc < 0 && rc != -ENOMEM)
			pml_log(log, LOG_ERR, "cannot look up user \"%s\": %s",
				request->user, strerror(-rc));
		if (rc < 0) {
			pml_policy_free(&out->policy);
			return rc;
		}
	}
	pml_decide(&out->policy, &out->identity, &out->machine, &out->decision);
	return 0;
}

void pml_evaluation_free(struct pml_evaluation *evaluation)
{
	pml_identity_free(&evaluation->identity);
	pml_policy_free(&evaluation->policy);
}

void pml_describe_origin(const struct pml_policy *policy,
			 const struct pml_setting *setting,
			 char *buf, size_t len)
{
	if (setting == NULL)
		snprintf(buf, len, "built-in default");
	else
		snprintf(buf, len, "%s:%u", pml_policy_file_name(policy, setting->at),
			 setting->at.line);
}
