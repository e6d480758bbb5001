#!/usr/bin/env python3
"""GCC torture execution tests: plain compiler vs zeroinst wrapper.

Runs GCC 12's own gcc.c-torture/execute (top level, builtins/, ieee/) or
gfortran.fortran-torture/execute programs.  Each program exits 0 when it
computed the right thing and aborts otherwise, so every program that
compiles and passes with the plain compiler at an -O level must also compile
and pass when built with the zeroinst wrapper (+ -fchecking) at that level,
and leave a report.json behind.  See common.py for the verdicts.

Sources come from /work/shared/tools/gcc-torture (Debian's gcc-12-source),
unpacked once into CACHE/torture and reused by later runs.

Options are taken the way the DejaGnu drivers take them, as far as they
matter on x86-64 Linux:
  * every C program: -w -lm; builtins/: the flags of builtins.exp and the
    extra sources X-lib.c and lib/main.c; ieee/: -fno-inline (ieee.exp);
  * `lappend/set additional_flags` lines of a sibling .x file (unconditional
    ones only: the conditional ones are for other targets);
  * `{ dg-options "..." }` and `{ dg-additional-options "..." }`, honouring a
    `{ target ... }` selector only if it names x86_64 (not ia32) or fpic;
  * dg-add-options (stack_size, ieee) adds nothing on x86-64; other dg-
    directives (require-effective-target, skip-if, xfail) are not needed:
    the plain build decides whether a program counts.
Flags from the test come after the -O level, as in DejaGnu, so a test's own
-O option wins for both builds.

  torture.py --lang c --cc gcc --inst zeroinst-cc --opt O2 --opt O0:3 ...
  --opt O0:3 means: at -O0, every 3rd program of the sorted list (the 1st,
  4th, 7th, ...); -O2 alone means all programs.
"""

import argparse
import fcntl
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

TOOL = "/work/shared/tools/gcc-torture"
SUBDIR = "gcc-12.2.0/gcc/testsuite"
BUILTINS_FLAGS = ["-fno-tree-dse", "-fno-tree-loop-distribute-patterns",
                  "-fno-tracer", "-fno-ipa-ra", "-fno-inline-functions"]
FORTRAN_EXT = (".f", ".F", ".f90", ".F90", ".f95", ".F95", ".f03", ".F03",
               ".f08", ".F08")


def torture_sources(cache, tool):
    """CACHE/torture/<gcc testsuite>, unpacked once (locked: ctest -j)."""
    final = os.path.join(cache, "torture")
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, "torture.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(final):
            tmp = final + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            subprocess.run([tool, tmp], check=True, stdout=subprocess.DEVNULL)
            os.rename(tmp, final)
    return os.path.join(final, SUBDIR)


def selector_matches(sel):
    """A dg `{ target ... }` selector, evaluated for x86_64-linux-gnu, LP64."""
    if sel is None:
        return True
    if "ia32" in sel or sel.strip().startswith("!"):
        return False
    return "x86_64" in sel or sel.strip() == "fpic"


DG_RE = re.compile(
    r'\{\s*dg-(options|additional-options)\s+'
    r'(?:"([^"]*)"|\{\s*"?([^}"]*)"?\s*\})'      # "flags" or { "flags" }
    r'\s*(?:\{\s*target\s+(.*?)\s*\}\s*)?\}')


def dg_flags(text):
    flags = []
    for m in DG_RE.finditer(text):
        if selector_matches(m.group(4)):
            flags += (m.group(2) if m.group(2) is not None else m.group(3)).split()
    return flags


def x_file_flags(xfile, flags):
    """Apply the unconditional `set/lappend additional_flags` of a .x file."""
    if not os.path.exists(xfile):
        return flags
    for line in open(xfile):
        m = re.match(r'(set|lappend) additional_flags (.*)', line)  # column 0
        if m:
            new = [w.strip('"') for w in m.group(2).split()]
            flags = new if m.group(1) == "set" else flags + new
    return flags


def c_cases(root):
    base = os.path.join(root, "gcc.c-torture", "execute")
    cases = []
    for sub in ("", "builtins", "ieee"):
        d = os.path.join(base, sub)
        for f in sorted(os.listdir(d)):
            if not f.endswith(".c") or f.endswith("-lib.c"):
                continue
            src = os.path.join(d, f)
            srcs, flags = [src], ["-w"]
            if sub == "builtins":
                srcs += [src[:-2] + "-lib.c", os.path.join(d, "lib", "main.c")]
                flags += BUILTINS_FLAGS
            elif sub == "ieee":
                flags += ["-fno-inline"]
            flags = x_file_flags(src[:-2] + ".x", flags)
            flags += dg_flags(open(src, errors="replace").read())
            cases.append(common.Case(os.path.join(sub, f), srcs, flags,
                                     libs=["-lm"]))
    return cases


def fortran_cases(root):
    d = os.path.join(root, "gfortran.fortran-torture", "execute")
    return [common.Case(f, [os.path.join(d, f)], ["-w"])
            for f in sorted(os.listdir(d)) if f.endswith(FORTRAN_EXT)]


def parse_opt(spec):
    """'O2' or '-O2' -> ('-O2', 1); 'O0:3' -> ('-O0', 3)."""
    level, _, share = spec.partition(":")
    return "-" + level.lstrip("-"), int(share or 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", choices=["c", "fortran"], required=True)
    ap.add_argument("--cc", required=True, help="plain compiler (gcc, gfortran)")
    ap.add_argument("--inst", required=True,
                    help="instrumenting wrapper (zeroinst-cc, zeroinst-fortran)")
    ap.add_argument("--opt", action="append", required=True,
                    help="OLEVEL[:K]: that -O level, every K-th program"
                         " (e.g. O2, O0:3; write --opt=-O2 with the dash)")
    ap.add_argument("--cache", required=True,
                    help="directory for the unpacked torture sources")
    ap.add_argument("--tool", default=TOOL, help="the gcc-torture script")
    ap.add_argument("--flags", default="",
                    help="extra flags for both builds, space-separated"
                         " (exploring: -march=native, -flto, ...)")
    ap.add_argument("--only", action="append", default=[],
                    help="run only programs whose name contains this")
    common.add_common_args(ap)
    args = ap.parse_args()
    cfg = common.config_from(args, args.cc, args.inst)

    root = torture_sources(os.path.abspath(args.cache), args.tool)
    cases = c_cases(root) if args.lang == "c" else fortran_cases(root)
    for c in cases:
        c.flags += args.flags.split()
    if args.only:
        cases = [c for c in cases if any(s in c.name for s in args.only)]
    jobs = []
    for spec in args.opt:
        level, share = parse_opt(spec)
        jobs += [(c, level) for c in cases[::share]]
    title = "%s torture %s" % (args.lang, " ".join(args.opt))
    sys.exit(common.run_all(jobs, cfg, args.jobs, title))


if __name__ == "__main__":
    main()
