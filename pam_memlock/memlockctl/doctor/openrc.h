/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * The init system of the root doctor checks, and where a session starts
 * on a system that OpenRC runs (Alpine, Gentoo without systemd).
 *
 * OpenRC changes no limit by itself: PID 1 (busybox init, as Alpine boots,
 * or openrc-init) never calls setrlimit for RLIMIT_MEMLOCK, so everything
 * it starts begins at the kernel's default.  openrc-run then sources
 * /etc/rc.conf, /etc/rc.conf.d/ *.conf, /etc/conf.d/BASE for a service
 * named BASE.SUFFIX, and /etc/conf.d/SERVICE (each conf.d file as
 * NAME.RUNLEVEL instead, where that exists), and applies
 * ${rc_ulimit:-$RC_ULIMIT} with the shell's ulimit, in pairs ("-l 65536":
 * KiB, or "unlimited"; neither -H nor -S sets both), before it runs
 * start-stop-daemon or supervise-daemon, which pass the limit on to the
 * daemon as they find it.  The later file wins, as the later assignment
 * does in the shell.  A getty that init spawns from /etc/inittab has
 * PID 1's limit.
 */
#ifndef DOC_OPENRC_H
#define DOC_OPENRC_H

#include <stdbool.h>

#include "limits.h"
#include "units.h"

enum doc_init_kind {
	DOC_INIT_UNKNOWN, /* nothing told: systemd's units are read, as before */
	DOC_INIT_SYSTEMD,
	DOC_INIT_OPENRC,
	DOC_INIT_COUNT
};

/* "unknown", "systemd", "openrc": doctor --json's models.init.name. */
extern const char *const doc_init_names[DOC_INIT_COUNT];

struct doc_init {
	enum doc_init_kind kind;
	char pid1[32]; /* "busybox init", "openrc-init", "systemd"; "" unknown */
	char why[192]; /* what told it */
};

/* The init system of ROOT ("" for this machine: systemd, as doctor has
 * always read this machine's units and /proc/1). */
void doc_init_probe(const char *root, struct doc_init *out);

/* What openrc-run's ulimit does to memlock with rc_ulimit's VALUE. */
enum doc_rc_ulimit {
	DOC_RCU_NONE,	 /* no pair names -l: memlock is left alone */
	DOC_RCU_SET,	 /* *soft and *hard are what it sets */
	DOC_RCU_REFUSED, /* openrc-run or ulimit refuses it: left alone */
	DOC_RCU_UNKNOWN, /* a word doctor does not expand ($, `) */
};

/* Applies VALUE's pairs to *SOFT and *HARD (the limits before it) as
 * openrc-run's apply_ulimits and busybox's ulimit do. */
enum doc_rc_ulimit doc_apply_rc_ulimit(const char *value, struct doc_value *soft,
				       struct doc_value *hard);

/* Fills *out for SERVICE under ROOT as OpenRC starts it: its init script
 * (out->unit, "/etc/init.d/sshd") or inittab's getty ("/etc/inittab"),
 * or no start of its own (su, sudo: their caller's).  Never fails. */
void doc_openrc_start(const char *root, const char *service, struct doc_start *out);

#endif
