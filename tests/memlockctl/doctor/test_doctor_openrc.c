/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor's OpenRC model on its own (doctor/openrc.c): which init system a
 * root has, rc_ulimit's value as openrc-run and busybox's ulimit apply it,
 * the files it comes from and their order, and inittab's gettys, on files
 * written to a private root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fake_tree.h"
#include "harness.h"
#include "doctor/openrc.h"

static char root[64];

static void put(const char *path, const char *text)
{
	pml_tree_put(root, path, text);
}

/* ROOT/PATH as a symbolic link to TARGET. */
static void link_to(const char *target, const char *path)
{
	char full[256];

	snprintf(full, sizeof(full), "%s%s", root, path);
	ck_assert_int_eq(symlink(target, full), 0);
}

static void remove_file(const char *path)
{
	char full[256];

	snprintf(full, sizeof(full), "%s%s", root, path);
	ck_assert_int_eq(unlink(full), 0);
}

static void setup(void)
{
	pml_tree_new(root, sizeof(root), "openrc");
}

static void teardown(void)
{
	pml_tree_remove(root);
}

/* VALUE applied to an 8 MiB start: the result, and soft and hard in KiB. */
static enum doc_rc_ulimit apply(const char *value, uint64_t *soft_kib, uint64_t *hard_kib)
{
	struct doc_value s = { .bytes = 8 << 20, .known = true }, h = s;
	enum doc_rc_ulimit r = doc_apply_rc_ulimit(value, &s, &h);

	*soft_kib = s.bytes == DOC_UNLIMITED ? 0 : s.bytes >> 10;
	*hard_kib = h.bytes == DOC_UNLIMITED ? 0 : h.bytes >> 10;
	return r;
}

START_TEST(rc_ulimit_as_ulimit_applies_it)
{
	uint64_t s, h;

	/* KiB, both sides without -H or -S. */
	ck_assert_int_eq(apply("-l 65536", &s, &h), DOC_RCU_SET);
	ck_assert_uint_eq(s, 65536);
	ck_assert_uint_eq(h, 65536);
	ck_assert_int_eq(apply("-l unlimited", &s, &h), DOC_RCU_SET);
	ck_assert_uint_eq(s, 0);
	ck_assert_uint_eq(h, 0);
	/* One side, and pairs of other limits around it. */
	ck_assert_int_eq(apply("-Sl 1024", &s, &h), DOC_RCU_SET);
	ck_assert_uint_eq(s, 1024);
	ck_assert_uint_eq(h, 8192);
	ck_assert_int_eq(apply("-n 4096  -Hl 16384\t-u 30", &s, &h), DOC_RCU_SET);
	ck_assert_uint_eq(s, 8192);
	ck_assert_uint_eq(h, 16384);
	/* The later pair wins. */
	ck_assert_int_eq(apply("-l 1024 -l 2048", &s, &h), DOC_RCU_SET);
	ck_assert_uint_eq(s, 2048);
	ck_assert_int_eq(apply("-u 30", &s, &h), DOC_RCU_NONE);
	ck_assert_uint_eq(s, 8192);
	/* An odd count, a bad number, a soft limit above the hard one. */
	ck_assert_int_eq(apply("-l", &s, &h), DOC_RCU_REFUSED);
	ck_assert_int_eq(apply("-n 10 -l", &s, &h), DOC_RCU_REFUSED);
	ck_assert_int_eq(apply("-l 64M", &s, &h), DOC_RCU_REFUSED);
	ck_assert_int_eq(apply("-Sl 16384", &s, &h), DOC_RCU_REFUSED);
	ck_assert_uint_eq(s, 8192);
	ck_assert_int_eq(apply("-l $LIMIT", &s, &h), DOC_RCU_UNKNOWN);
}
END_TEST

START_TEST(init_system_of_a_root)
{
	struct doc_init in;

	doc_init_probe("", &in);
	ck_assert_int_eq(in.kind, DOC_INIT_SYSTEMD);
	doc_init_probe(root, &in);
	ck_assert_int_eq(in.kind, DOC_INIT_UNKNOWN);
	put("/etc/init.d/sshd", "");
	put("/etc/runlevels/default/.keep", "");
	doc_init_probe(root, &in);
	ck_assert_int_eq(in.kind, DOC_INIT_OPENRC);
	ck_assert_str_eq(in.why, "/etc/init.d and /etc/runlevels are there");
	/* A Debian root with an init.d of its own is systemd's. */
	put("/usr/lib/systemd/systemd", "");
	doc_init_probe(root, &in);
	ck_assert_int_eq(in.kind, DOC_INIT_SYSTEMD);
	/* busybox init as PID 1, with OpenRC installed: OpenRC first. */
	put("/sbin/openrc", "");
	link_to("/bin/busybox", "/sbin/init");
	doc_init_probe(root, &in);
	ck_assert_int_eq(in.kind, DOC_INIT_OPENRC);
	ck_assert_str_eq(in.pid1, "busybox init");
	ck_assert_str_eq(in.why, "/sbin/init is a link to /bin/busybox, /sbin/openrc is there");
	/* PID 1 decides where it is systemd or openrc-init. */
	remove_file("/sbin/init");
	link_to("../lib/systemd/systemd", "/sbin/init");
	doc_init_probe(root, &in);
	ck_assert_int_eq(in.kind, DOC_INIT_SYSTEMD);
	ck_assert_str_eq(in.pid1, "systemd");
}
END_TEST

START_TEST(conf_d_wins_over_rc_conf)
{
	struct doc_start st;

	put("/etc/init.d/sshd", "#!/sbin/openrc-run\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_str_eq(st.unit, "/etc/init.d/sshd");
	ck_assert(st.has_unit && st.value.set && st.value.file[0] == '\0');
	put("/etc/rc.conf", "#rc_ulimit=\"-l 1\"\nrc_ulimit=\"-l 1024\"\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 1 << 20);
	ck_assert_str_eq(st.value.file, "/etc/rc.conf");
	ck_assert_uint_eq(st.value.line, 2);
	put("/etc/rc.conf.d/50-mem.conf", "export rc_ulimit='-l 2048'\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 2 << 20);
	put("/etc/conf.d/sshd", "cfgfile=/etc/ssh/sshd_config\n  rc_ulimit=\"-l 65536\" # more\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 64 << 20);
	ck_assert_uint_eq(st.value.hard.bytes, 64 << 20);
	ck_assert_str_eq(st.value.file, "/etc/conf.d/sshd");
	ck_assert_uint_eq(st.value.line, 2);
	/* conf.d/NAME.RUNLEVEL replaces conf.d/NAME, for the runlevel that
	 * starts the service. */
	put("/etc/conf.d/sshd.boot", "rc_ulimit=\"-l 4096\"\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 64 << 20);
	put("/etc/runlevels/boot/sshd", "");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 4 << 20);
	/* An empty rc_ulimit gives way to RC_ULIMIT. */
	put("/etc/conf.d/sshd.boot", "rc_ulimit=\nRC_ULIMIT=\"-l unlimited\"\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert_uint_eq(st.value.soft.bytes, DOC_UNLIMITED);
	/* What doctor cannot read leaves the start unknown. */
	put("/etc/conf.d/sshd.boot", "rc_ulimit=\"-l ${MEM}\"\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert(!st.value.set);
	put("/etc/conf.d/sshd.boot", "rc_ulimit=\"-l\n1024\"\n");
	doc_openrc_start(root, "sshd", &st);
	ck_assert(!st.value.set);
	/* Services without a daemon of their own start from their caller. */
	doc_openrc_start(root, "su", &st);
	ck_assert(!st.has_unit && !st.value.set && st.unit == NULL);
}
END_TEST

START_TEST(login_from_inittab_or_agetty)
{
	struct doc_start st;

	doc_openrc_start(root, "login", &st);
	ck_assert(!st.has_unit && !st.value.set);
	/* openrc-init: gettys are services, agetty.TTY reading conf.d/agetty
	 * and then conf.d/agetty.TTY. */
	put("/etc/init.d/agetty.tty1", "");
	put("/etc/conf.d/agetty", "rc_ulimit=\"-l 1024\"\n");
	doc_openrc_start(root, "login", &st);
	ck_assert_str_eq(st.unit, "/etc/init.d/agetty.tty1");
	ck_assert_uint_eq(st.value.soft.bytes, 1 << 20);
	put("/etc/conf.d/agetty.tty1", "rc_ulimit=\"-l 2048\"\n");
	doc_openrc_start(root, "login", &st);
	ck_assert_uint_eq(st.value.soft.bytes, 2 << 20);
	/* busybox init: the first getty line inittab respawns. */
	put("/etc/inittab", "::sysinit:/sbin/openrc sysinit\n"
			    "#tty1::respawn:/sbin/getty 38400 tty1\n"
			    "tty2::once:/sbin/getty 38400 tty2\n"
			    "ttyS0::respawn:/sbin/agetty -L 115200 ttyS0 vt100\n");
	doc_openrc_start(root, "login", &st);
	ck_assert_str_eq(st.unit, "inittab");
	ck_assert_str_eq(st.value.file, "/etc/inittab");
	ck_assert_uint_eq(st.value.line, 4);
	ck_assert(st.value.set && st.value.soft.bytes == st.value.hard.bytes);
	ck_assert(st.value.soft.bytes == 64 << 10 || st.value.soft.bytes == 8 << 20);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_openrc");
	TCase *tc = tcase_create("openrc");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, rc_ulimit_as_ulimit_applies_it);
	tcase_add_test(tc, init_system_of_a_root);
	tcase_add_test(tc, conf_d_wins_over_rc_conf);
	tcase_add_test(tc, login_from_inittab_or_agetty);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
