/*
 * Open-session: read the arguments, decide, apply, log, and map the result
 * to a PAM code here and nowhere else.
 */
#include "session.h"

#include <errno.h>
#include <string.h>
#include <security/pam_ext.h>

#include "apply.h"
#include "args.h"
#include "evaluate.h"
#include "report.h"

#ifndef PML_DEFAULT_CONF
#error "PML_DEFAULT_CONF must name the default policy file"
#endif

static void emit_syslog(void *ctx, int priority, const char *message)
{
	pam_syslog((pam_handle_t *)ctx, priority, "%s", message);
}

static const char *get_string_item(pam_handle_t *pamh, int item)
{
	const void *value = NULL;

	if (pam_get_item(pamh, item, &value) != PAM_SUCCESS)
		return NULL;
	return value;
}

/* Errors before the limits are touched: the policy or the user. */
static int decide_error(int rc, const struct pml_log *log)
{
	switch (rc) {
	case -ENOMEM:
		pml_log(log, LOG_CRIT, "out of memory");
		return PAM_BUF_ERR;
	case -ESRCH:
		return PAM_USER_UNKNOWN;
	default:
		return PAM_SERVICE_ERR;
	}
}

int pml_session_open(pam_handle_t *pamh, int argc, const char **argv)
{
	struct pml_log log = { emit_syslog, pamh, LOG_INFO };
	struct pml_request request = { PML_DEFAULT_CONF, false, NULL, NULL, 0 };
	struct pml_evaluation evaluation;
	struct pml_outcome outcome;
	struct pml_args args;
	int rc;

	pml_args_parse(argc, argv, &args, &log);
	if (args.debug)
		log.max_priority = LOG_DEBUG;
	if (args.conf != NULL) {
		request.conf = args.conf;
		request.conf_given = true;
	}
	request.user = get_string_item(pamh, PAM_USER);
	request.service = get_string_item(pamh, PAM_SERVICE);
	if (request.user == NULL || request.user[0] == '\0') {
		pml_log(&log, LOG_ERR, "no user name (PAM_USER) for this session");
		return PAM_SESSION_ERR;
	}
	rc = pml_evaluate(&request, &log, &evaluation);
	if (rc < 0)
		return decide_error(rc, &log);
	rc = pml_apply(&evaluation.decision, args.dry_run, &outcome);
	if (rc == 0)
		pml_report_outcome(&evaluation, &outcome, args.dry_run, &log);
	else
		pml_log(&log, LOG_ERR, "setrlimit(RLIMIT_MEMLOCK) for user \"%s\": %s",
			request.user, strerror(-rc));
	pml_evaluation_free(&evaluation);
	if (rc == -ENOMEM)
		return PAM_BUF_ERR;
	return rc == 0 ? PAM_SUCCESS : PAM_SESSION_ERR;
}
