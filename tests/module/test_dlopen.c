/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/* The built module loads with every symbol bound (RTLD_NOW, as libpam
 * loads it), offers both entry points, and hides its internals. */
#include <dlfcn.h>

#include "harness.h"

static void *module;

static void open_module(void)
{
	module = dlopen(pml_test_env("PML_MODULE"), RTLD_NOW | RTLD_LOCAL);
	ck_assert_msg(module != NULL, "dlopen: %s", dlerror());
}

static void close_module(void)
{
	if (module != NULL)
		dlclose(module);
}

START_TEST(entry_points_resolve)
{
	ck_assert_ptr_nonnull(dlsym(module, "pam_sm_open_session"));
	ck_assert_ptr_nonnull(dlsym(module, "pam_sm_close_session"));
}
END_TEST

START_TEST(internals_are_hidden)
{
	ck_assert_ptr_null(dlsym(module, "pml_session_open"));
	ck_assert_ptr_null(dlsym(module, "pml_policy_load"));
	ck_assert_ptr_null(dlsym(module, "pml_decide"));
	ck_assert_ptr_null(dlsym(module, "pam_sm_authenticate"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dlopen");
	TCase *tc = tcase_create("dlopen");

	tcase_add_checked_fixture(tc, open_module, close_module);
	tcase_add_test(tc, entry_points_resolve);
	tcase_add_test(tc, internals_are_hidden);
	suite_add_tcase(s, tc);
	return pml_run_tap(s, NULL, 0);
}
