/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Open-session: read the arguments, decide, apply, log, and map the result
 * to a PAM code here and nowhere else.
 */
#include "session.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <security/pam_ext.h>

#include "apply.h"
#include "args.h"
#include "evaluate.h"
#include "report.h"

/*
 * The module may stand twice in one stack (common-session, and again
 * after pam_limits), so that the later run decides.  Both runs would log
 * the same warnings and errors; what one run of this handle logged at
 * LOG_WARNING or above is kept here, newline-separated, and not logged
 * again.  It lives as long as the handle (pam_end frees it).
 */
#define LOGGED_KEY "pam_memlock_logged"
#define LOGGED_MAX 8192

static void free_logged(pam_handle_t *pamh, void *data, int error_status)
{
	(void)pamh;
	(void)error_status;
	free(data);
}

static bool logged_before(const char *logged, const char *message, size_t len)
{
	const char *line = logged;

	while (line != NULL && *line != '\0') {
		const char *end = strchr(line, '\n');

		if ((size_t)(end - line) == len && strncmp(line, message, len) == 0)
			return true;
		line = end + 1;
	}
	return false;
}

/* True when MESSAGE is new for this handle (and now remembered). */
static bool first_time(pam_handle_t *pamh, const char *message)
{
	const void *data = NULL;
	const char *logged;
	size_t len = strlen(message), used;
	char *grown;

	if (pam_get_data(pamh, LOGGED_KEY, &data) != PAM_SUCCESS)
		data = NULL;
	logged = data;
	if (logged != NULL && logged_before(logged, message, len))
		return false;
	used = logged != NULL ? strlen(logged) : 0;
	if (used + len + 2 > LOGGED_MAX)
		return true; /* log it; forgetting costs only a repeat */
	grown = malloc(used + len + 2);
	if (grown == NULL)
		return true;
	snprintf(grown, used + len + 2, "%s%s\n", logged != NULL ? logged : "", message);
	if (pam_set_data(pamh, LOGGED_KEY, grown, free_logged) != PAM_SUCCESS)
		free(grown);
	return true;
}

static void emit_syslog(void *ctx, int priority, const char *message)
{
	pam_handle_t *pamh = ctx;

	if (priority <= LOG_WARNING && !first_time(pamh, message))
		return;
	pam_syslog(pamh, priority, "%s", message);
}

static const char *get_string_item(pam_handle_t *pamh, int item)
{
	const void *value = NULL;

	if (pam_get_item(pamh, item, &value) != PAM_SUCCESS)
		return NULL;
	return value;
}

/* Errors before the limits are touched: the policy or the user. */
static int decide_error(int rc)
{
	switch (rc) {
	case -ENOMEM:
		return PAM_BUF_ERR;
	case -ESRCH:
		return PAM_USER_UNKNOWN;
	default:
		return PAM_SERVICE_ERR;
	}
}

int pml_session_open(pam_handle_t *pamh, int argc, const char **argv)
{
	struct pml_log log = {
		.emit = emit_syslog,
		.ctx = pamh,
		.max_priority = LOG_INFO,
	};
	struct pml_evaluation evaluation;
	struct pml_outcome outcome;
	struct pml_request request;
	struct pml_args args;
	char user[256];
	int rc;

	pml_args_parse(argc, argv, &args, &log);
	if (args.debug)
		log.max_priority = LOG_DEBUG;
	request = (struct pml_request){
		.source = args.source,
		.user = get_string_item(pamh, PAM_USER),
		.service = get_string_item(pamh, PAM_SERVICE),
	};
	if (request.user == NULL || request.user[0] == '\0') {
		pml_log(&log, LOG_ERR, "no user name (PAM_USER) for this session");
		return PAM_SESSION_ERR;
	}
	rc = pml_evaluate(&request, &log, &evaluation);
	if (rc < 0)
		return decide_error(rc);
	rc = pml_apply(&evaluation.decision, args.dry_run, &outcome);
	if (rc == 0)
		pml_report_outcome(&evaluation, &outcome, args.dry_run, &log);
	else
		pml_log(&log, LOG_ERR, "setrlimit(RLIMIT_MEMLOCK) for user %s: %s",
			pml_quote(request.user, user, sizeof(user)), strerror(-rc));
	pml_evaluation_free(&evaluation);
	return rc == 0 ? PAM_SUCCESS : PAM_SESSION_ERR;
}
