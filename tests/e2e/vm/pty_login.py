#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later
"""login(1) on a pseudo-terminal, the way a person at a console uses it.

Usage: pty_login.py USER PASSWORD COMMAND

Runs /bin/login USER on a new pseudo-terminal, waits for its password
prompt, types PASSWORD, waits for the shell's prompt, types COMMAND and
`exit`, and prints what COMMAND printed.  Exit status 0 if it got that far,
1 with a reason on stderr (and the terminal's text so far) if not.
"""
import os
import pty
import re
import select
import sys
import time

STEP_TIMEOUT = 60  # seconds for each step: a bound, not a measurement

user, password, command = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    os.execve("/bin/login", ["login", user],
              {"TERM": "dumb", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})

text = b""


def fail(why):
    sys.stderr.write("pty_login: %s; the terminal showed:\n%s\n"
                     % (why, text.decode(errors="replace")))
    try:
        os.kill(pid, 9)
    except OSError:
        pass
    sys.exit(1)


def read_until(pattern, what):
    """Reads the terminal until PATTERN matches the text so far."""
    global text
    deadline = time.monotonic() + STEP_TIMEOUT
    while not re.search(pattern, text):
        left = deadline - time.monotonic()
        if left <= 0:
            fail("no %s within %d s" % (what, STEP_TIMEOUT))
        ready, _, _ = select.select([fd], [], [], min(left, 0.5))
        if not ready:
            continue
        try:
            data = os.read(fd, 4096)
        except OSError:
            # EIO: no process has the terminal open, as between login's
            # vhangup() and its reopening, or after the shell has exited.
            data = b""
        if data:
            text += data
            continue
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            fail("login exited before the %s" % what)
        time.sleep(0.05)


read_until(rb"[Pp]assword: *$", "password prompt")
os.write(fd, password.encode() + b"\n")
read_until(rb"[$#] *$", "shell prompt")
# The quotes keep the markers as typed (and echoed) from matching the
# markers as printed.
os.write(fd, ("echo PML-BEGIN''X; %s; echo PML-END''X; exit\n" % command).encode())
read_until(rb"PML-ENDX", "command's output")
out = re.search(rb"PML-BEGINX\r?\n(.*?)PML-ENDX", text, re.S)
if not out:
    fail("no output between the markers")
sys.stdout.write(out.group(1).decode(errors="replace").replace("\r", ""))
# Let login close the session and exit.
deadline = time.monotonic() + STEP_TIMEOUT
while time.monotonic() < deadline:
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(0)
    ready, _, _ = select.select([fd], [], [], 0.2)
    if ready:
        try:
            os.read(fd, 4096)
        except OSError:
            time.sleep(0.05)
fail("login did not exit within %d s of the shell's exit" % STEP_TIMEOUT)
