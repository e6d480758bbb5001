"""Shared by the reliability drivers (tests/reliability/*.py).

A driver defines functions case_NAME() and ends with `common.main(globals())`.
`driver.py --bin BUILD/bin list` prints its cases; `driver.py --bin BUILD/bin
NAME` runs one in a fresh temporary directory (common.TMP) and exits non-zero
on failure.  Expectations are exact and derived in each case's docstring.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)
from harness import env_without_zeroinst  # noqa: E402,F401  (tests/harness.py; drivers use it)

BIN = None      # the build's bin/ (zeroinst-cc, zeroinst, ...)
TMP = None      # this case's scratch directory

# Programs count what they load through load_ones(N): N int64 ones, 7
# redundant bytes each.  The sum goes to a volatile sink, so GCC cannot
# delete the call.
PRELUDE = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int64_t ones[1000];
volatile int64_t sink;
__attribute__ ((noinline)) int64_t load_ones (int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += ones[i % 1000]; sink = s; return s; }
static void init (void) { for (int i = 0; i < 1000; i++) ones[i] = 1; }
"""


class Failure(Exception):
    pass


class Skip(Exception):
    """The case cannot run here (not root, no mount namespace): ctest shows
    it as skipped (exit status 77)."""


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def tool(name):
    return os.path.join(BIN, name)


def build(name, body, flags=(), plugin=True, prelude=True, cc=None):
    """Compile BODY (after PRELUDE) into TMP/NAME.inst (or .plain)."""
    src = os.path.join(TMP, name + ".c")
    exe = os.path.join(TMP, name + (".inst" if plugin else ".plain"))
    with open(src, "w") as f:
        f.write((PRELUDE if prelude else "") + body)
    cc = cc or (tool("zeroinst-cc") if plugin else "gcc")
    r = subprocess.run([cc, "-O1", "-pthread", src, "-o", exe] + list(flags),
                       capture_output=True, text=True)
    check(r.returncode == 0, "compile failed:\n" + r.stderr)
    return exe


def run(cmd, env=None, cwd=None, timeout=120, **kw):
    """Run CMD (a list) with no ZEROINST_* from the caller's environment."""
    return subprocess.run(cmd, capture_output=True, text=True, env=env_without_zeroinst(env),
                          cwd=cwd or TMP, timeout=timeout, **kw)


REQUIRED = ("format", "program", "pid", "arch", "modes", "summary", "threads", "code", "data")


def valid_report(directory):
    """The parsed report.json of DIRECTORY, after checking that it is a
    complete report: every required key, and a non-empty summary.txt."""
    path = os.path.join(directory, "report.json")
    check(os.path.isfile(path), "no report at " + path)
    try:
        rep = report_format.load(path)
    except ValueError as e:
        raise Failure("invalid report.json in %s: %s" % (directory, e))
    for k in REQUIRED:
        check(k in rep, "report.json in %s lacks %r" % (directory, k))
    summary = os.path.join(directory, "summary.txt")
    check(os.path.isfile(summary) and os.path.getsize(summary) > 0,
          "no or empty summary.txt in " + directory)
    return rep


def elements_of(rep, function="load_ones"):
    """Elements loaded by FUNCTION, summed over its records."""
    return sum(r["elements"] for r in rep["code"] if r["site"]["function"] == function)


def main(cases_globals):
    global BIN, TMP
    cases = {n[5:]: f for n, f in sorted(cases_globals.items()) if n.startswith("case_")}
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("case")
    opt = ap.parse_args()
    if opt.case == "list":
        print("\n".join(cases))
        return
    BIN = os.path.abspath(opt.bin)
    TMP = tempfile.mkdtemp(prefix="zi-rel-")
    os.chmod(TMP, 0o755)
    try:
        cases[opt.case]()
        print("ok: " + opt.case)
    except Failure as e:
        print("FAIL: %s: %s" % (opt.case, e))
        sys.exit(1)
    except Skip as e:
        print("SKIP: %s: %s" % (opt.case, e))
        sys.exit(77)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
