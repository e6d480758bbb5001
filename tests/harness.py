"""harness.py - what the test runners share: running a command under a
time limit (its whole process group killed on timeout: a compiler's
children, qemu and what it runs), describing how it ended, and the
environment without the caller's ZEROINST_* variables (which must not
change a test).

Used by tests/semantics, tests/cross, tests/differential and
tests/reliability (each puts tests/ on sys.path).
"""
import os
import signal
import subprocess
import time


class Run:
    """Outcome of one command: rc (negative: killed by that signal; None
    only with timed_out), out, err (text), timed_out, elapsed seconds."""

    def __init__(self, rc, out, err, timed_out, elapsed):
        self.rc, self.out, self.err = rc, out, err
        self.timed_out, self.elapsed = timed_out, elapsed


def run(cmd, cwd, timeout, env=None):
    """Run CMD (a list) in CWD in a process group of its own, with no
    stdin; kill the whole group after TIMEOUT seconds."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        timed_out = True
    return Run(None if timed_out else p.returncode, out.decode("utf-8", "replace"),
               err.decode("utf-8", "replace"), timed_out, time.monotonic() - t0)


def describe_status(r):
    """"exit 3", "killed by SIGSEGV", "timed out after 12 s"."""
    if r.timed_out:
        return "timed out after %.0f s" % r.elapsed
    if r.rc < 0:
        try:
            return "killed by %s" % signal.Signals(-r.rc).name
        except ValueError:
            return "killed by signal %d" % -r.rc
    return "exit %d" % r.rc


def env_without_zeroinst(extra=None):
    """os.environ without ZEROINST_* (a ZEROINST_MODE, ZEROINST_DISABLE or
    ZEROINST_PLUGIN_ARGS of the caller's), plus EXTRA."""
    e = {k: v for k, v in os.environ.items() if not k.startswith("ZEROINST_")}
    e.update(extra or {})
    return e
