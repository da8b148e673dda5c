# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
# conf/: the files shipped besides the programs, included by the top
# Makefile.am: the policy, the pam-auth-update profile, the examples and
# the systemd units.
# The policy: installed when absent; an edited file is kept and the new
# default goes beside it as memlock.conf.dist.
securitydir = $(sysconfdir)/security
EXTRA_DIST += conf/memlock.conf
# memlock.d/ too, empty, so that `memlockctl install NEW --conf
# .../memlock.d/50-site.conf` works on a fresh install.
install-data-local:
	$(MKDIR_P) $(DESTDIR)$(securitydir)/memlock.d
	@target=$(DESTDIR)$(securitydir)/memlock.conf; \
	if test ! -e $$target; then \
	  echo " INSTALL  $$target"; \
	  $(INSTALL_DATA) $(srcdir)/conf/memlock.conf $$target; \
	elif cmp -s $(srcdir)/conf/memlock.conf $$target; then :; \
	else \
	  echo " KEEP     $$target (edited; new default in memlock.conf.dist)"; \
	  $(INSTALL_DATA) $(srcdir)/conf/memlock.conf $$target.dist; \
	fi
uninstall-conf:
	@target=$(DESTDIR)$(securitydir)/memlock.conf; \
	if cmp -s $(srcdir)/conf/memlock.conf $$target; then rm -f $$target; fi; \
	rm -f $$target.dist; \
	rmdir $(DESTDIR)$(securitydir)/memlock.d 2>/dev/null || :
.PHONY: uninstall-conf

# The Debian pam-auth-update profile.  pam-auth-update stacks its profiles
# by Priority, highest first, ties in reverse name order.  Priority -1 puts
# pam_memlock after every module of a stock Debian profile (all are 0 or
# more) in common-session and common-session-noninteractive, so after
# pam_limits too should a profile carry it.  The profile format has no
# comment syntax: this is its comment.
pamconfigsdir = $(datadir)/pam-configs
dist_pamconfigs_DATA = conf/pam-configs/memlock

# An example /etc/pam.d/slurm, for a Slurm compute node: documentation, not
# a live file (the stacks are the cluster admin's); make check-slurm runs it.
pamexamplesdir = $(docdir)/examples/pam.d
dist_pamexamples_DATA = conf/pam.d/slurm

# The policy recipes and their index (doc/recipes): documentation, each
# held to its own "# expect:" comments by tests/memlockctl/policy/recipes.sh.
policyexamplesdir = $(docdir)/examples
dist_policyexamples_DATA = conf/examples/everyone-8mib.conf conf/examples/group-share.conf \
	conf/examples/unlimited-group.conf conf/examples/slurm.conf conf/examples/mixed-fleet.conf \
	conf/examples/postgresql.conf

# memlockctl metrics every minute into node_exporter's textfile directory,
# as a oneshot service and a timer that nothing enables on install.  The
# service names memlockctl where this build installs it.
EXTRA_DIST += conf/systemd/memlock-metrics.service.in conf/systemd/memlock-metrics.timer
if SYSTEMD_UNITS
systemdsystemunit_DATA = conf/systemd/memlock-metrics.service \
	conf/systemd/memlock-metrics.timer
endif
conf/systemd/memlock-metrics.service: conf/systemd/memlock-metrics.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) conf/systemd && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' $(srcdir)/conf/systemd/memlock-metrics.service.in >$@.tmp && \
	mv $@.tmp $@
CLEANFILES += conf/systemd/memlock-metrics.service
