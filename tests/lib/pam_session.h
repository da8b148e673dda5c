/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * A private PAM configuration (pam_start_confdir) holding one service whose
 * session stack is pam_memlock, so that tests and the demo go through the
 * real libpam without touching /etc/pam.d.
 */
#ifndef PML_PAM_SESSION_H
#define PML_PAM_SESSION_H

#include <stdint.h>

#define PML_TEST_SERVICE "pml-test"

struct pml_pam_env {
	char dir[64];		/* a fresh directory under /tmp, root-owned */
	char confdir[96];	/* DIR/pam.d */
	char policy[96];	/* DIR/memlock.conf */
};

/*
 * Makes the directory, writes DIR/pam.d/pml-test with the line
 * "session required MODULE ARGS" (ARGS may name DIR as %s, e.g.
 * "conf=%s/memlock.conf"), and DIR/memlock.conf holding POLICY unless NULL.
 * Returns 0 or -errno.
 */
int pml_pam_env_make(struct pml_pam_env *env, const char *module,
		     const char *args, const char *policy);

/* Writes a file under the env's directory. */
int pml_pam_env_write(const struct pml_pam_env *env, const char *name,
		      const char *text);

/* Removes everything pml_pam_env_make made. */
void pml_pam_env_remove(const struct pml_pam_env *env);

/* pml_pam_start, then pml_pam_session; returns what pam_open_session
 * returned, or the pam_start error. */
int pml_pam_open_close(const struct pml_pam_env *env, const char *service,
		       const char *user);

/* The two halves, for a process that starts a handle once and opens it in
 * each forked child: pam_start_confdir with pml_no_conversation; and
 * pam_open_session, pam_close_session, pam_end, returning what
 * pam_open_session returned. */
struct pam_handle;
int pml_pam_start(const struct pml_pam_env *env, const char *service, const char *user,
		  struct pam_handle **pamh);
int pml_pam_session(struct pam_handle *pamh);

/* A PAM conversation that answers nothing: sessions here ask no one. */
struct pam_message;
struct pam_response;
int pml_no_conversation(int n, const struct pam_message **msg,
			struct pam_response **resp, void *data);

/* RLIMIT_MEMLOCK now, and setting it; UINT64_MAX is unlimited. */
void pml_memlock_get(uint64_t *soft, uint64_t *hard);
int pml_memlock_set(uint64_t soft, uint64_t hard);

/* Descriptors open in this process now (from /proc/self/fd). */
int pml_count_fds(void);

#endif
