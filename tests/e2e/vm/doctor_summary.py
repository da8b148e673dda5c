#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
"""Lines from `memlockctl doctor USER --service S... --json` on stdin, one
per SERVICE named, for the check-vm cases that hold doctor's prediction
against a real session:

    SERVICE VERDICT SOFT HARD [pam_limits@FILE:LINE] [start=SOFT:HARD]

SOFT and HARD are bytes, "unlimited", or "unknown" (doctor's null).  With
--limits, the pam_limits part names the last pam_limits step that changed
memlock (what an "overridden" verdict blames); with --start, the start
part is the path's first step (the unit or manager default the session
starts from).  A service that is not exactly one path prints "SERVICE
bad: ...".  One run for all the services: python starts slowly under TCG.
"""
import json
import sys


def value(obj, key):
    if obj.get(key + "_unlimited"):
        return "unlimited"
    v = obj.get(key)
    return "unknown" if v is None else str(v)


def summary(p, limits_part, start_part):
    out = [p["verdict"], value(p, "soft"), value(p, "hard")]
    limits = [s for s in p["steps"]
              if s["module"] == "pam_limits" and s["changes_memlock"]]
    if limits_part and limits:
        out.append("pam_limits@%s:%s" % (limits[-1]["file"], limits[-1]["line"]))
    if start_part and p["steps"]:
        s = p["steps"][0]
        out.append("start=%s:%s" % (value(s, "soft"), value(s, "hard")))
    return " ".join(out)


def main():
    services = [a for a in sys.argv[1:] if not a.startswith("--")]
    try:
        paths = json.load(sys.stdin)["paths"]
    except (ValueError, KeyError, TypeError) as e:
        paths = None
        why = "bad: no doctor JSON (%s)" % e
    for service in services:
        if paths is None:
            print(service, why)
            continue
        mine = [p for p in paths if p.get("service") == service]
        if len(mine) != 1:
            print(service, "bad: %d paths" % len(mine))
        else:
            print(service, summary(mine[0], "--limits" in sys.argv, "--start" in sys.argv))


main()
