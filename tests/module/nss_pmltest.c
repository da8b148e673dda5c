/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * libnss_pmltest.so.2: an NSS source for tests/module/test_nss, named "pmltest" in
 * a private nsswitch.conf.  It knows nobody, and fails for a few names the
 * way real sources fail:
 *   passwd "pml-unavail"        UNAVAIL, errno ENOENT (nss_files without its
 *                               file, nss-pam-ldapd without nslcd)
 *   passwd "pml-unavail-eio"    UNAVAIL, errno EIO
 *   passwd "pml-tryagain"       TRYAGAIN, errno EAGAIN (a busy daemon)
 *   group  "pml-unavail-group"  UNAVAIL, errno ENOENT
 * and fails halfway, as a directory that times out between two questions:
 *   group  "pml-remote"         gid 6000, its one member "pmlhalf"
 *   the group list of "pmlhalf" UNAVAIL, errno EAGAIN: glibc's
 *                               getgrouplist passes over it in silence
 * Every other name: NOTFOUND.
 */
#include <errno.h>
#include <grp.h>
#include <nss.h>
#include <pwd.h>
#include <string.h>

enum nss_status _nss_pmltest_getpwnam_r(const char *name, struct passwd *pw,
					char *buf, size_t len, int *errnop);
enum nss_status _nss_pmltest_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t len, int *errnop);
enum nss_status _nss_pmltest_initgroups_dyn(const char *user, gid_t group,
					    long int *start, long int *size,
					    gid_t **groups, long int limit,
					    int *errnop);

static enum nss_status answer(enum nss_status status, int error, int *errnop)
{
	*errnop = error;
	return status;
}

enum nss_status _nss_pmltest_getpwnam_r(const char *name, struct passwd *pw,
					char *buf, size_t len, int *errnop)
{
	(void)pw;
	(void)buf;
	(void)len;
	if (strcmp(name, "pml-unavail") == 0)
		return answer(NSS_STATUS_UNAVAIL, ENOENT, errnop);
	if (strcmp(name, "pml-unavail-eio") == 0)
		return answer(NSS_STATUS_UNAVAIL, EIO, errnop);
	if (strcmp(name, "pml-tryagain") == 0)
		return answer(NSS_STATUS_TRYAGAIN, EAGAIN, errnop);
	return answer(NSS_STATUS_NOTFOUND, ENOENT, errnop);
}

/* "pml-remote", gid 6000, member "pmlhalf", laid out in BUF. */
static enum nss_status remote_group(struct group *gr, char *buf, size_t len,
				    int *errnop)
{
	static const char text[] = "pml-remote\0x\0pmlhalf";
	char **members = (char **)(void *)buf;
	char *strings = buf + 2 * sizeof(char *);

	if (len < 2 * sizeof(char *) + sizeof(text))
		return answer(NSS_STATUS_TRYAGAIN, ERANGE, errnop);
	memcpy(strings, text, sizeof(text));
	members[0] = strings + 13;
	members[1] = NULL;
	*gr = (struct group){
		.gr_name = strings,
		.gr_passwd = strings + 11,
		.gr_gid = 6000,
		.gr_mem = members,
	};
	return NSS_STATUS_SUCCESS;
}

enum nss_status _nss_pmltest_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t len, int *errnop)
{
	if (strcmp(name, "pml-unavail-group") == 0)
		return answer(NSS_STATUS_UNAVAIL, ENOENT, errnop);
	if (strcmp(name, "pml-remote") == 0)
		return remote_group(gr, buf, len, errnop);
	return answer(NSS_STATUS_NOTFOUND, ENOENT, errnop);
}

enum nss_status _nss_pmltest_initgroups_dyn(const char *user, gid_t group,
					    long int *start, long int *size,
					    gid_t **groups, long int limit,
					    int *errnop)
{
	(void)group;
	(void)start;
	(void)size;
	(void)groups;
	(void)limit;
	if (strcmp(user, "pmlhalf") == 0)
		return answer(NSS_STATUS_UNAVAIL, EAGAIN, errnop);
	return answer(NSS_STATUS_NOTFOUND, ENOENT, errnop);
}
