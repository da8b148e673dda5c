/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The path of service "slurm": slurm.conf's part, and the verdicts only
 * Slurm makes (see slurm.h).
 */
#include "slurm.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "dirfd/dirfd.h"

/* Where make install (and Debian's package, with its docdir) puts the
 * example stack. */
#ifndef PML_PAMEXAMPLESDIR
#define PML_PAMEXAMPLESDIR "/usr/local/share/doc/pam_memlock/examples/pam.d"
#endif
#define EXAMPLE PML_PAMEXAMPLESDIR "/slurm"

/* Where Debian's packages keep slurm.conf, then where they kept it. */
static const char *const conf_files[] = { "/etc/slurm/slurm.conf", "/etc/slurm-llnl/slurm.conf" };

enum key {
	K_USE_PAM,
	K_PROPAGATE,
	K_PROPAGATE_EXCEPT,
	K_OTHER
};

static const char *const key_names[] = {
	[K_USE_PAM] = "UsePAM",
	[K_PROPAGATE] = "PropagateResourceLimits",
	[K_PROPAGATE_EXCEPT] = "PropagateResourceLimitsExcept",
};

static enum key key_of(const char *token, size_t len)
{
	size_t k;

	for (k = 0; k < N_OF(key_names); k++)
		if (strlen(key_names[k]) == len && strncasecmp(token, key_names[k], len) == 0)
			return (enum key)k;
	return K_OTHER;
}

/* Is WORD one of VALUE's comma-separated names (any case)? */
static bool list_has(const char *value, size_t len, const char *word)
{
	size_t wl = strlen(word), i = 0;

	while (i < len) {
		size_t j = i;

		while (j < len && value[j] != ',')
			j++;
		if (j - i == wl && strncasecmp(value + i, word, wl) == 0)
			return true;
		i = j + 1;
	}
	return false;
}

static bool is_true(const char *value, size_t len)
{
	static const char *const yes[] = { "1", "yes", "true" };
	size_t i;

	for (i = 0; i < N_OF(yes); i++)
		if (strlen(yes[i]) == len && strncasecmp(value, yes[i], len) == 0)
			return true;
	return false;
}

static void take(struct doc_slurm_conf *out, enum key k, const char *value, size_t len,
		 unsigned line)
{
	bool named = list_has(value, len, "ALL") || list_has(value, len, "MEMLOCK");

	switch (k) {
	case K_USE_PAM:
		out->use_pam = is_true(value, len);
		out->use_pam_line = line;
		break;
	case K_PROPAGATE:
		out->memlock_propagated = named;
		out->propagate_line = line;
		break;
	case K_PROPAGATE_EXCEPT:
		out->memlock_propagated = !named;
		out->propagate_line = line;
		break;
	case K_OTHER:
		break;
	}
}

void doc_slurm_parse(const char *text, struct doc_slurm_conf *out)
{
	const char *p = text;
	unsigned line = 0;

	*out = (struct doc_slurm_conf){ .memlock_propagated = true };
	while (*p != '\0') {
		const char *eol = p + strcspn(p, "\n"), *end = p + strcspn(p, "#\n");

		line++;
		/* Each whitespace-separated "Key=Value" of the line. */
		while (p < end) {
			const char *tok, *eq;

			while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
				p++;
			tok = p;
			while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
				p++;
			eq = memchr(tok, '=', (size_t)(p - tok));
			if (eq != NULL)
				take(out, key_of(tok, (size_t)(eq - tok)), eq + 1,
				     (size_t)(p - eq - 1), line);
		}
		p = *eol == '\n' ? eol + 1 : eol;
	}
}

/* A finding's verdict and fix: the worse verdict stands, and so does an
 * error; every fix the path needs is given, in order, REPLACE dropping the
 * path's own fix (the stack it was about is not the one Slurm runs). */
static void finding(struct doc_path *p, enum doc_verdict verdict, bool replace, const char *fix)
{
	char had[DOC_MSG_MAX];

	if (p->verdict == DOC_V_ERROR)
		return;
	if (verdict > p->verdict)
		p->verdict = verdict;
	if (replace || !p->has_fix) {
		snprintf(p->fix, sizeof(p->fix), "%s", fix);
	} else {
		snprintf(had, sizeof(had), "%s", p->fix);
		snprintf(p->fix, sizeof(p->fix), "%.500s; and %.500s", had, fix);
	}
	p->has_fix = true;
}

/* The pam_memlock step whose raise mode kept a limit above the policy's. */
static const struct doc_step *raise_kept(const struct doc_path *p)
{
	const struct doc_step *kept = NULL;
	size_t i;

	for (i = 0; i < p->n_steps; i++)
		if (strcmp(p->steps[i].module, "pam_memlock") == 0 && p->steps[i].changes)
			kept = p->steps[i].kept_higher ? &p->steps[i] : NULL;
	return kept;
}

void doc_slurm_check(const struct doctor *d, const struct doc_stack *st, struct doc_path *p)
{
	struct doc_slurm_conf c;
	struct dirfd_text text;
	const char *file = NULL;
	const struct doc_step *kept;
	struct doc_step *s;
	char fix[DOC_MSG_MAX];
	size_t i;

	for (i = 0; i < N_OF(conf_files) && file == NULL; i++)
		if (dirfd_read(d->root, conf_files[i], &text) == 0)
			file = conf_files[i];
	s = doc_add_step(p, file, 0, "slurm.conf");
	if (file == NULL) {
		if (s != NULL) {
			snprintf(s->effect, sizeof(s->effect),
				 "not found (%s, %s): no Slurm node to check", conf_files[0],
				 conf_files[1]);
			s->soft = p->soft;
			s->hard = p->hard;
		}
		return;
	}
	doc_slurm_parse(text.data, &c);
	dirfd_text_free(&text);
	if (s != NULL) {
		s->line = c.propagate_line != 0 ? c.propagate_line : c.use_pam_line;
		snprintf(s->effect, sizeof(s->effect), "%s; %s",
			 c.use_pam ? "UsePAM=1: slurmstepd opens this session for each job step"
				   : "UsePAM is off: no job step opens this session",
			 c.memlock_propagated
				 ? "MEMLOCK is propagated: each task's soft limit becomes the submitting shell's, at most the hard limit"
				 : "MEMLOCK is not propagated: the tasks keep the session's limits");
		s->soft = p->soft;
		s->hard = p->hard;
		if (c.use_pam && c.memlock_propagated)
			s->soft.known = false;
	}
	/* Every fix the path needs, in the order the admin makes them. */
	if (st->from_other) {
		snprintf(fix, sizeof(fix),
			 "copy %s to /etc/pam.d/slurm: without it libpam runs /etc/pam.d/other for each job step",
			 EXAMPLE);
		finding(p, DOC_V_MISSING, true, fix);
	} else if ((kept = raise_kept(p)) != NULL) {
		/* The rule that decides, which need not be the one for the
		 * service: a later group rule decides for its members' jobs. */
		if (kept->rule[0] != '\0')
			snprintf(fix, sizeof(fix),
				 "give the rule at %.400s, which decides for this session, mode = \"set\": in raise mode the session keeps slurmd's higher limit (%.500s)",
				 kept->rule, p->n_steps > 0 ? p->steps[0].effect : "its start");
		else
			snprintf(fix, sizeof(fix),
				 "give the policy's top level, which decides for this session, mode = \"set\", or add a rule for service \"%s\" with mode = \"set\": in raise mode the session keeps slurmd's higher limit (%.500s)",
				 DOC_SLURM_SERVICE, p->n_steps > 0 ? p->steps[0].effect : "its start");
		finding(p, DOC_V_OVERRIDDEN, false, fix);
	}
	if (!c.use_pam) {
		snprintf(fix, sizeof(fix), "set UsePAM=1 in %s", file);
		finding(p, DOC_V_MISSING, false, fix);
		/* The jobs keep what slurmd has. */
		if (p->verdict == DOC_V_MISSING && p->n_steps > 0)
			p->soft = p->steps[0].soft, p->hard = p->steps[0].hard;
	}
	if (c.memlock_propagated) {
		snprintf(fix, sizeof(fix), "add PropagateResourceLimitsExcept=MEMLOCK to %s", file);
		finding(p, DOC_V_OVERRIDDEN, false, fix);
		/* Each task's soft limit is the submitting shell's. */
		if (c.use_pam && p->verdict != DOC_V_ERROR) {
			p->soft.known = false;
			p->soft_from_shell = true;
		}
	}
}
