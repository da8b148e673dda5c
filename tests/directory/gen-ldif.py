#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
"""The directory of tests/directory: 20,000 users, 5,000 groups, one user
in 300 groups, one group of 20,000 members.  LDIF on stdout, for slapadd.

  pmlu00001 .. pmlu20000   uid 200001.., primary group pmlusers (300000)
  pmlg0001 .. pmlg5000     gid 310001..; user N (N >= 2) is a member of
                           pmlg(N mod 5000 + 1); pmlu00001 of pmlg0001..0300
  pmlbig                   gid 320000, every user a member
test_directory.c computes what each user must get from the same layout.
"""
import sys

BASE = "dc=pml,dc=test"
USERS, GROUPS, MANY = 20000, 5000, 300
out = sys.stdout.write


def entry(dn, *lines):
    out("dn: %s\n%s\n\n" % (dn, "\n".join(lines)))


entry(BASE, "objectClass: dcObject", "objectClass: organization",
      "o: pml", "dc: pml")
entry("ou=people," + BASE, "objectClass: organizationalUnit", "ou: people")
entry("ou=groups," + BASE, "objectClass: organizationalUnit", "ou: groups")
for n in range(1, USERS + 1):
    name = "pmlu%05d" % n
    entry("uid=%s,ou=people,%s" % (name, BASE),
          "objectClass: account", "objectClass: posixAccount",
          "uid: " + name, "cn: " + name, "uidNumber: %d" % (200000 + n),
          "gidNumber: 300000", "homeDirectory: /nonexistent",
          "loginShell: /bin/sh")
entry("cn=pmlusers,ou=groups," + BASE, "objectClass: posixGroup",
      "cn: pmlusers", "gidNumber: 300000")
members = {g: [] for g in range(1, GROUPS + 1)}
for n in range(2, USERS + 1):
    members[n % GROUPS + 1].append("pmlu%05d" % n)
for g in range(1, MANY + 1):
    members[g].append("pmlu00001")
for g in range(1, GROUPS + 1):
    entry("cn=pmlg%04d,ou=groups,%s" % (g, BASE), "objectClass: posixGroup",
          "cn: pmlg%04d" % g, "gidNumber: %d" % (310000 + g),
          *["memberUid: " + m for m in members[g]])
entry("cn=pmlbig,ou=groups," + BASE, "objectClass: posixGroup", "cn: pmlbig",
      "gidNumber: 320000",
      *["memberUid: pmlu%05d" % n for n in range(1, USERS + 1)])
