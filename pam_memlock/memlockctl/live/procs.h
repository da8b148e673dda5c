/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * Running processes, as memlockctl status and apply see them: what
 * /proc/PID/{stat,status,limits,loginuid,sessionid,cgroup} and logind's
 * /run/systemd/sessions/ID say.  Every path is prefixed with a root ("" for
 * this machine; the tests give a tree of their own).  Nothing here writes.
 *
 * Processes come and go while they are read: a process that is gone when
 * one of its files is opened is "gone" (skipped without a word), one whose
 * files the caller may not read is "unreadable" (counted and reported).
 */
#ifndef CLI_PROCS_H
#define CLI_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "apply.h"

#define PROC_COMM_MAX 64
#define PROC_SERVICE_MAX 256
/* What loginuid and sessionid hold when the process has none. */
#define PROC_NO_ID 4294967295u

struct proc_info {
	pid_t pid;
	uid_t uid;		  /* real uid */
	gid_t gid;		  /* real gid */
	char comm[PROC_COMM_MAX]; /* the command name, as the kernel keeps it */
	uint64_t start;		  /* start time, clock ticks after boot */
	bool kernel_thread;
	bool has_login; /* a loginuid: in a login session */
	uid_t loginuid;
	bool has_session;
	unsigned session;	  /* the audit session id logind names */
	bool has_job;		  /* a process of a Slurm job step */
	unsigned job;		  /* its job id, from the cgroup slurmstepd made */
	struct pml_limits limits; /* RLIMIT_MEMLOCK: soft and hard */
	uint64_t locked, pinned;  /* VmLck, VmPin, in bytes */
};

/*
 * Parsers of one file's text each; they return 0 or -EINVAL (the text is
 * not what the kernel writes).  The tests feed them directly.
 */
/* /proc/PID/stat: comm (it may hold spaces and parentheses: the last ')'
 * ends it), flags (field 9) and starttime (field 22). */
int proc_parse_stat(const char *text, char *comm, size_t len,
		    bool *kernel_thread, uint64_t *start);
/* /proc/PID/status: Uid and Gid (the real ones), VmLck and VmPin (0 when
 * absent). */
int proc_parse_status(const char *text, uid_t *uid, gid_t *gid,
		      uint64_t *locked, uint64_t *pinned);
/* /proc/PID/limits: the "Max locked memory" line. */
int proc_parse_limits(const char *text, struct pml_limits *out);
/*
 * /proc/PID/cgroup: the Slurm job whose cgroup holds the process.  Slurm
 * names it .../NODE_slurmstepd.scope/job_ID/... under cgroup v2 (NODE_ on
 * Debian, built for several slurmd per host), .../slurm_NODE/uid_UID/
 * job_ID/... under v1.  *has is false for any other process.
 */
int proc_parse_slurm_job(const char *text, bool *has, unsigned *job);
/* A logind session file: SERVICE=; "" when it names none. */
int proc_parse_session_service(const char *text, char *service, size_t len);

/*
 * The pids under ROOT/proc, ascending, in a malloc'd array (the caller
 * frees).  Returns 0 or -errno.
 */
int proc_list(const char *root, pid_t **pids, size_t *n);

/*
 * Reads process PID under ROOT.  Returns 0, -ESRCH (it is gone), -EACCES
 * (a file the caller may not read), -ENOMEM, or -EINVAL (a file not as
 * the kernel writes it: not its format, or not a regular file, which is
 * never opened for reading).  *FILE: the name of the file read last
 * ("stat"... "cgroup"), the one that failed.
 */
int proc_read(const char *root, pid_t pid, struct proc_info *out,
	      const char **file);

/* PID's start time alone: 0, -ESRCH or another -errno. */
int proc_start_time(const char *root, pid_t pid, uint64_t *start);

/* Is PID still the process that started at START?  False when it is gone,
 * or its pid went to another process since. */
bool proc_still(const char *root, pid_t pid, uint64_t start);

/* The text of ROOT/proc/PID/cgroup (at most LEN - 1 bytes): 0 or -errno. */
int proc_cgroup(const char *root, pid_t pid, char *buf, size_t len);

/*
 * The PAM service of logind session SESSION (ROOT/run/systemd/sessions/
 * SESSION, SERVICE=), read inside ROOT.  Returns 0 with SERVICE filled, or
 * -errno (-ENOENT: logind does not know the session, or names no service;
 * -EINVAL: not a regular file, or SERVICE too long).
 */
int proc_session_service(const char *root, unsigned session, char *service,
			 size_t len);

#endif
