#!/usr/bin/env python3
"""One line from `memlockctl doctor USER --service S --json` on stdin, for
the check-vm cases that hold doctor's prediction against a real session:

    VERDICT SOFT HARD [pam_limits@FILE:LINE] [start=SOFT:HARD]

SOFT and HARD are bytes, "unlimited", or "unknown" (doctor's null).  The
pam_limits part names the last pam_limits step that changed memlock (what
an "overridden" verdict blames); the start part is the path's first step
(the unit or manager default the session starts from).  Anything that is
not a single path of that service prints "bad: ..." instead.
"""
import json
import sys


def value(obj, key):
    if obj.get(key + "_unlimited"):
        return "unlimited"
    v = obj.get(key)
    return "unknown" if v is None else str(v)


def main():
    service = sys.argv[1]
    try:
        doc = json.load(sys.stdin)
        paths = [p for p in doc["paths"] if p["service"] == service]
    except (ValueError, KeyError, TypeError) as e:
        print("bad: no doctor JSON (%s)" % e)
        return
    if len(paths) != 1:
        print("bad: %d paths for %s" % (len(paths), service))
        return
    p = paths[0]
    out = [p["verdict"], value(p, "soft"), value(p, "hard")]
    limits = [s for s in p["steps"]
              if s["module"] == "pam_limits" and s["changes_memlock"]]
    if "--limits" in sys.argv and limits:
        out.append("pam_limits@%s:%s" % (limits[-1]["file"], limits[-1]["line"]))
    if "--start" in sys.argv and p["steps"]:
        s = p["steps"][0]
        out.append("start=%s:%s" % (value(s, "soft"), value(s, "hard")))
    print(" ".join(out))


main()
