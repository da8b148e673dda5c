/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * libnss_pmltest.so.2: an NSS source for tests/test_nss, named "pmltest" in
 * a private nsswitch.conf.  It knows nobody, and fails for a few names the
 * way real sources fail:
 *   passwd "pml-unavail"        UNAVAIL, errno ENOENT (nss_files without its
 *                               file, nss-pam-ldapd without nslcd)
 *   passwd "pml-unavail-eio"    UNAVAIL, errno EIO
 *   passwd "pml-tryagain"       TRYAGAIN, errno EAGAIN (a busy daemon)
 *   group  "pml-unavail-group"  UNAVAIL, errno ENOENT
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

enum nss_status _nss_pmltest_getgrnam_r(const char *name, struct group *gr,
					char *buf, size_t len, int *errnop)
{
	(void)gr;
	(void)buf;
	(void)len;
	if (strcmp(name, "pml-unavail-group") == 0)
		return answer(NSS_STATUS_UNAVAIL, ENOENT, errnop);
	return answer(NSS_STATUS_NOTFOUND, ENOENT, errnop);
}
