# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# tests/memlockctl/policy: the policy commands (pam_memlock/memlockctl/policy):
# check's warnings and --strict-host, explain against real sessions,
# install, the policy as a tree of files, and the recipes in conf/examples.
POLICY_TESTS = tests/memlockctl/policy/install-cmd.sh tests/memlockctl/policy/check-host.sh \
	tests/memlockctl/policy/recipes.sh
TESTS += $(POLICY_TESTS)
EXTRA_DIST += $(POLICY_TESTS)
tests/memlockctl/policy/install-cmd.log tests/memlockctl/policy/check-host.log \
	tests/memlockctl/policy/recipes.log: memlockctl$(EXEEXT)
tests/memlockctl/policy/install-cmd.log: tests/lib/libfault_cue.la
if HAVE_CHECK
check_PROGRAMS += tests/memlockctl/policy/test_lint tests/memlockctl/policy/test_lint_order \
	tests/memlockctl/policy/test_tree tests/memlockctl/policy/test_memlockctl_pam
tests_memlockctl_policy_test_tree_SOURCES = tests/memlockctl/policy/test_tree.c $(HARNESS) \
	$(LINT_SOURCES) $(CTL)/output/text.h $(CTL)/output/text.c
tests_memlockctl_policy_test_tree_CPPFLAGS = $(CTL_CPPFLAGS)
tests_memlockctl_policy_test_tree_CFLAGS = $(TEST_CFLAGS)
# Lint on a made-up machine and NSS: the warnings about values, and those
# about the order of rules.
LINT_ENV = tests/memlockctl/policy/lint_env.h tests/memlockctl/policy/lint_env.c $(HARNESS) \
	$(LINT_SOURCES) $(CTL)/output/text.h $(CTL)/output/text.c
tests_memlockctl_policy_test_lint_SOURCES = tests/memlockctl/policy/test_lint.c $(LINT_ENV)
tests_memlockctl_policy_test_lint_CPPFLAGS = $(CTL_CPPFLAGS)
tests_memlockctl_policy_test_lint_CFLAGS = $(TEST_CFLAGS)
tests_memlockctl_policy_test_lint_order_SOURCES = tests/memlockctl/policy/test_lint_order.c \
	$(LINT_ENV)
tests_memlockctl_policy_test_lint_order_CPPFLAGS = $(CTL_CPPFLAGS)
tests_memlockctl_policy_test_lint_order_CFLAGS = $(TEST_CFLAGS)
# explain must say what the module does, on real sessions.
tests_memlockctl_policy_test_memlockctl_pam_SOURCES = \
	tests/memlockctl/policy/test_memlockctl_pam.c $(PAM_TEST_SOURCES)
tests_memlockctl_policy_test_memlockctl_pam_CFLAGS = $(TEST_CFLAGS)
EXTRA_tests_memlockctl_policy_test_memlockctl_pam_DEPENDENCIES = memlockctl$(EXEEXT)
TESTS += tests/memlockctl/policy/test_lint tests/memlockctl/policy/test_lint_order \
	tests/memlockctl/policy/test_tree tests/memlockctl/policy/test_memlockctl_pam
endif
