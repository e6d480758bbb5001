"""Shared machinery of the semantics tests (stdlib only).

The rule under test: an instrumented program computes exactly what the plain
build computes.  A *case* is one program built twice with the same flags --
once with the plain compiler, once with the zeroinst wrapper (plus
-fchecking, so GCC verifies the IL after our pass) -- and run twice.

  * plain build fails to compile, times out, or (for self-checking programs)
    exits non-zero  -> the case is SKIPPED: nothing to compare against
    (also when the instrumented build fails and the plain one fails too
    once -fchecking is added: GCC's own checking, not our pass);
  * otherwise the instrumented build must compile, exit with the same status,
    print the same stdout (where the case asks for it: csmith's checksum),
    and leave a readable report.json  -> PASSED; anything else -> FAILED,
    with the compile error / exit statuses / stdout diff.

Each case works in its own directory (WORK/run-PID/<case>/<opt>/{plain,inst});
the directory is deleted when the case passes or is skipped, and kept with a
`repro.sh` when it fails, so a failure can be rerun by hand.  A run without
failures removes its WORK/run-PID; the next run removes stale ones.

Every runner prints failures as they happen, then a list of them, and
finally exactly one line `N passed, N failed, N skipped`.
"""

import concurrent.futures
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import run, describe_status  # noqa: E402  (tests/harness.py)

COMPILE_TIMEOUT = 300  # seconds; a hung plugin is a failure, not a CI hang


def clip(text, lines=30):
    """At most `lines` lines of text (compile errors can be huge)."""
    ls = text.rstrip("\n").splitlines()
    if len(ls) > lines:
        ls = ls[:lines] + ["... (%d more lines)" % (len(ls) - lines)]
    return "\n".join(ls)


def first_error(text):
    """The first error line of compiler output, without its file:line:col."""
    for line in text.splitlines():
        if "error" in line or "internal compiler" in line:
            return re.sub(r"^\S+:\d+(:\d+)?: ", "", line.strip())
    return text.strip().splitlines()[0] if text.strip() else "(no output)"


class Case:
    """One program: sources, extra flags, and how to judge the plain run.

    name          unique id, used in messages and as the work directory
    sources       files to compile (absolute, or relative to the build
                  directory <case>/<opt>/plain)
    flags         flags after the -O level (dg-options and the like)
    libs          flags after the sources (-lm)
    prepare       function(case directory), e.g. to generate the source
    must_exit_0   self-checking program (torture): plain must exit 0
    same_stdout   stdout must be identical (csmith's checksum); off for
                  torture programs, which check themselves and may print
                  addresses (return-addr.c prints stack addresses)
    """

    def __init__(self, name, sources, flags=(), libs=(), must_exit_0=True,
                 same_stdout=False, prepare=None):
        self.name, self.sources = name, list(sources)
        self.flags, self.libs = list(flags), list(libs)
        self.must_exit_0, self.same_stdout = must_exit_0, same_stdout
        self.prepare = prepare

    def command(self, compiler, opt, extra):
        return ([compiler, opt] + extra + self.flags + self.sources +
                ["-o", "prog"] + self.libs)


class Config:
    def __init__(self, plain, inst, work, timeout, inst_timeout, emulator=(),
                 keep=False, inst_flags=(), inst_env=()):
        self.plain, self.inst, self.work = plain, inst, work
        self.timeout, self.inst_timeout = timeout, inst_timeout
        self.emulator = list(emulator)
        self.keep = keep
        # Flags of the instrumented build only, before the test's own flags.
        self.inst_flags = ["-fchecking"] + list(inst_flags)
        self.inst_env = dict(kv.split("=", 1) for kv in inst_env)


def check(case, opt, cfg):
    """Build and run `case` at `opt` both ways.

    -> (verdict, detail, {phase: Run}) with phases plain-build, plain-run,
    inst-build, inst-run (their .elapsed feed the timing summary)."""
    d = os.path.join(cfg.work, case.name.replace("/", "_"), opt.lstrip("-"))
    shutil.rmtree(d, ignore_errors=True)
    pdir, idir = os.path.join(d, "plain"), os.path.join(d, "inst")
    os.makedirs(pdir)
    os.makedirs(idir)
    report = os.path.join(idir, "report")
    times = {}
    try:
        if case.prepare:
            case.prepare(d)
        verdict, detail = _check(case, opt, cfg, pdir, idir, report, times)
    except Exception as e:  # a harness bug must not pass silently
        verdict, detail = "fail", "harness error: %r" % (e,)
    if verdict == "fail":
        _write_repro(case, opt, cfg, d, report)
    elif not cfg.keep:
        shutil.rmtree(d, ignore_errors=True)
        try:
            os.rmdir(os.path.dirname(d))  # the case directory, if now empty
        except OSError:
            pass
    return verdict, detail, times


def _check(case, opt, cfg, pdir, idir, report, times):
    c = times["plain-build"] = run(case.command(cfg.plain, opt, []), pdir,
                                   COMPILE_TIMEOUT)
    if c.rc != 0 or c.timed_out:
        return "skip", "plain build does not compile"
    p = times["plain-run"] = run(cfg.emulator + ["./prog"], pdir, cfg.timeout)
    if p.timed_out:
        return "skip", "plain run times out"
    if case.must_exit_0 and p.rc != 0:
        return "skip", "plain run fails (%s)" % describe_status(p)

    c = times["inst-build"] = run(case.command(cfg.inst, opt, cfg.inst_flags),
                                  idir, COMPILE_TIMEOUT)
    if c.rc != 0 or c.timed_out:
        # -fchecking is there to verify our pass; if GCC's own checking
        # rejects the program without the plugin too, it is not our bug.
        g = run(case.command(cfg.plain, opt, ["-fchecking"]) + ["-o", "prog2"],
                pdir, COMPILE_TIMEOUT)
        if g.rc != 0 or g.timed_out:
            return "skip", "plain build fails with -fchecking too"
        return "fail", "instrumented build fails (%s): %s\n%s" % (
            describe_status(c), first_error(c.err + c.out),
            clip(c.err + c.out))
    # Every passing run must leave a valid report, also one that loads
    # nothing (which by default writes no directory).
    env = dict(os.environ, ZEROINST_OUTPUT=report, ZEROINST_EMPTY_REPORT="1", **cfg.inst_env)
    i = times["inst-run"] = run(cfg.emulator + ["./prog"], idir,
                                cfg.inst_timeout, env)
    problems = []
    if i.timed_out or i.rc != p.rc:
        problems.append("status: plain %s, instrumented %s (plain took %.2f s)"
                        % (describe_status(p), describe_status(i), p.elapsed))
    if case.same_stdout and i.out != p.out:
        diff = difflib.unified_diff(p.out.splitlines(), i.out.splitlines(),
                                    "plain", "instrumented", lineterm="", n=1)
        problems.append("stdout differs:\n" + clip("\n".join(diff), 20))
    if problems:
        if i.err.strip():
            problems.append("instrumented stderr:\n" + clip(i.err, 10))
        return "fail", "\n".join(problems)
    try:
        with open(os.path.join(report, "report.json")) as f:
            json.load(f)
    except (OSError, ValueError) as e:
        with open(os.path.join(idir, "prog"), "rb") as f:
            linked = b"libzeroinst" in f.read()
        return "fail", "no readable report.json after a passing run (%s)%s%s" % (
            e.__class__.__name__,
            "" if linked else "; the executable does not use libzeroinst",
            ("\ninstrumented stderr:\n" + clip(i.err, 10)) if i.err else "")
    return "pass", ""


def _write_repro(case, opt, cfg, d, report):
    """repro.sh in a kept failure directory: the exact two builds and runs."""
    q = lambda argv: " ".join(shlex.quote(a) for a in argv)
    emu = q(cfg.emulator) + " " if cfg.emulator else ""
    with open(os.path.join(d, "repro.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s at %s: plain vs instrumented\nset -x\n"
                % (case.name, opt))
        f.write("cd %s && %s && %s./prog; echo \"plain: $?\"\n"
                % (shlex.quote(os.path.join(d, "plain")),
                   q(case.command(cfg.plain, opt, [])), emu))
        env = ["ZEROINST_OUTPUT=" + report, "ZEROINST_EMPTY_REPORT=1"] + [
            "%s=%s" % kv for kv in sorted(cfg.inst_env.items())]
        f.write("cd %s && %s && %s %s./prog; echo \"instrumented: $?\"\n"
                % (shlex.quote(os.path.join(d, "inst")),
                   q(case.command(cfg.inst, opt, cfg.inst_flags)),
                   q(env), emu))
    os.chmod(os.path.join(d, "repro.sh"), 0o755)


def run_all(jobs_list, cfg, njobs, title):
    """Run (case, opt) pairs on njobs workers; print; return exit status."""
    t0 = time.monotonic()
    print("%s: %d builds-and-runs, %d jobs, timeout %g s (instrumented %g s)"
          % (title, len(jobs_list), njobs, cfg.timeout, cfg.inst_timeout),
          flush=True)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    failures, skips, spent = [], {}, {}
    with concurrent.futures.ThreadPoolExecutor(njobs) as pool:
        futs = {pool.submit(check, c, o, cfg): (c, o) for c, o in jobs_list}
        for fut in concurrent.futures.as_completed(futs):
            case, opt = futs[fut]
            verdict, detail, times = fut.result()
            counts[verdict] += 1
            for phase, r in times.items():
                spent[phase] = spent.get(phase, 0) + r.elapsed
            if verdict == "fail":
                failures.append((case.name, opt, detail))
                print("FAIL %s %s\n%s\n" % (case.name, opt,
                                           _indent(detail)), flush=True)
            elif verdict == "skip":
                skips.setdefault(detail.split(" (")[0], []).append(
                    "%s %s" % (case.name, opt))
    for reason, names in sorted(skips.items()):
        print("skipped, %s: %d (%s%s)" % (reason, len(names),
              ", ".join(sorted(names)[:8]), ", ..." if len(names) > 8 else ""))
    if failures:
        print("\n%d failure(s):" % len(failures))
        for name, opt, detail in sorted(failures):
            print("  %s %s: %s" % (name, opt, detail.splitlines()[0]))
        print("(work directories with repro.sh kept under %s)" % cfg.work)
        kinds = {}
        for name, opt, detail in failures:
            kind = re.sub(r"\d+", "N", detail.splitlines()[0])
            kinds[kind] = kinds.get(kind, 0) + 1
        print("failures by kind:")
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
            print("  %5d  %s" % (n, kind))
    print("%s took %.0f s (summed over jobs: %s)" % (
        title, time.monotonic() - t0,
        ", ".join("%s %.0f s" % kv for kv in sorted(spent.items()))))
    if not failures and not cfg.keep:
        shutil.rmtree(cfg.work, ignore_errors=True)
    print("%d passed, %d failed, %d skipped"
          % (counts["pass"], counts["fail"], counts["skip"]), flush=True)
    return 1 if counts["fail"] else 0


def _indent(text):
    return "\n".join("    " + l for l in text.splitlines())


def add_common_args(ap):
    ap.add_argument("--work", required=True,
                    help="scratch directory (failures are kept here)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds for a plain run (default 10)")
    ap.add_argument("--inst-timeout", type=float,
                    help="seconds for an instrumented run (default 3x --timeout:"
                         " instrumentation may slow a program down)")
    ap.add_argument("--emulator", default="",
                    help="run programs through this (e.g. qemu-aarch64)")
    ap.add_argument("--inst-flags", default="",
                    help="extra flags for the instrumented build only, e.g."
                         " -fplugin-arg-zeroinst-out-of-line")
    ap.add_argument("--env", action="append", default=[], metavar="VAR=VALUE",
                    help="environment of the instrumented run, e.g."
                         " ZEROINST_MODE=code,data")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directories of passing cases too")


def run_directory(work):
    """A fresh WORK/run-PID directory, so that concurrent runs (two ctest
    invocations on one build tree) never share case directories.  Left-over
    directories of runs whose process is gone are removed first."""
    work = os.path.abspath(work)
    os.makedirs(work, exist_ok=True)
    for name in os.listdir(work):
        m = re.fullmatch(r"run-(\d+)", name)
        if m and not os.path.exists("/proc/" + m.group(1)):
            shutil.rmtree(os.path.join(work, name), ignore_errors=True)
    d = os.path.join(work, "run-%d" % os.getpid())
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def config_from(args, plain, inst):
    # Builds run in per-case directories: make compiler paths absolute.
    plain, inst = [os.path.abspath(c) if os.sep in c else c
                   for c in (plain, inst)]
    for c in (plain, inst):
        if shutil.which(c) is None:
            sys.exit("error: compiler %r not found" % c)
    return Config(plain, inst, run_directory(args.work), args.timeout,
                  args.inst_timeout or 3 * args.timeout,
                  shlex.split(args.emulator), args.keep,
                  shlex.split(args.inst_flags), args.env)
