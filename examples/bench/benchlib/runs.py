"""runs.py - one build or run of a workload's variant: the compile
command, the measured run (through launcher.c), -fstack-usage frames,
and the checks of a run's output and report."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from .common import BENCH, BUILDS, FLAGS, TESTS

sys.path.insert(0, TESTS)
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)

# Peak RSS needs a small launcher (launcher.c: why).
LAUNCHER = None       # path of the compiled launcher.c (build_launcher)


def build_launcher(work):
    """Compile launcher.c into WORK, for run_child's measured runs."""
    global LAUNCHER
    LAUNCHER = os.path.join(work, "launcher")
    subprocess.run(["gcc", "-O2", "-o", LAUNCHER, os.path.join(BENCH, "launcher.c")], check=True)


class Usage:
    """What the launcher measured (or rusage when running directly)."""
    def __init__(self, maxrss_kb, utime, stime, wall):
        self.ru_maxrss, self.ru_utime, self.ru_stime, self.wall = maxrss_kb, utime, stime, wall


def run_child(argv, env, cwd, timeout, measure=False):
    """Run argv; return (status, wall seconds, usage, stdout bytes, stderr bytes).
    status is the exit code, -signal, or 'timeout'.  With measure, the
    launcher runs argv and reports its own peak RSS, CPU and wall time."""
    usage_file = None
    if measure:
        fd, usage_file = tempfile.mkstemp(prefix="usage-", dir=cwd)
        os.close(fd)
        argv = [LAUNCHER, usage_file] + argv
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, start_new_session=True)
        timed_out = []

        def kill():
            timed_out.append(True)
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(p.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)   # already reaped
        out.seek(0)
        err.seek(0)
        so, se = out.read(), err.read()
    code = "timeout" if timed_out else p.returncode
    usage = Usage(ru.ru_maxrss, ru.ru_utime, ru.ru_stime, wall)
    if usage_file:
        try:
            with open(usage_file) as f:
                rss, ut, st, w = f.read().split()
            usage = Usage(int(rss), float(ut), float(st), float(w))
        except (OSError, ValueError):
            if code == 0:
                code = "launcher failed"
        os.unlink(usage_file)
    return code, usage.wall, usage, so, se


def compile_cmd(wl, build, bindir, exe, extra):
    spec = BUILDS[build]
    cc = spec["cc"][wl.lang].format(bin=bindir)
    return [cc] + FLAGS + spec["flags"] + extra + ["-o", exe, wl.path] + wl.libs


def frame_sizes(wl, build, bindir, bdir, extra):
    """-fstack-usage of every function of a kernel's BUILD: {function: bytes},
    or None if the compile fails."""
    spec = BUILDS[build]
    cc = spec["cc"][wl.lang].format(bin=bindir)
    obj = os.path.join(bdir, "frames.o")
    r = subprocess.run([cc] + FLAGS + spec["flags"] + extra
                       + ["-fstack-usage", "-c", "-o", obj, wl.path],
                       cwd=bdir, capture_output=True)
    if r.returncode != 0:
        return None
    sizes = {}
    with open(os.path.join(bdir, "frames.su")) as f:
        for line in f:
            loc, size, _ = line.rstrip("\n").split("\t")
            sizes[loc.rsplit(":", 1)[1]] = int(size)
    return sizes


def clear_reports(outdir):
    """Remove OUTDIR and the OUTDIR.N the runtime writes beside a taken name."""
    parent, base = os.path.split(outdir)
    if not os.path.isdir(parent):
        return
    for name in os.listdir(parent):
        if name == base or (name.startswith(base + ".") and name[len(base) + 1:].isdigit()):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)


def read_report(outdir, sources=None):
    """Program-wide redundancy fractions from report.json, or None; with
    sources (file names), also how many code records have a site there."""
    path = os.path.join(outdir, "report.json")
    try:
        rep = report_format.load(path)
    except (OSError, ValueError, AssertionError, KeyError, TypeError):
        return None
    res = {}
    if sources:
        # code records name their load site, data records their allocation
        # path: count the records that mention one of the files
        def files(x):
            if isinstance(x, dict):
                for k, v in x.items():
                    if k == "file":
                        yield os.path.basename(str(v))
                    else:
                        yield from files(v)
            elif isinstance(x, list):
                for v in x:
                    yield from files(v)
        res["own_sites"] = sum(1 for c in rep.get("code", []) + rep.get("data", [])
                               if not sources.isdisjoint(files(c)))
    for kind in ("int", "float"):
        s = rep.get("summary", {}).get(kind, {})
        b = s.get("bytes", 0)
        res[kind] = (s.get("redundant_bytes", 0) / b) if b else None
    return res


def check_run(wl, vname, build, code, so, se, ref_out, outdir):
    """Check a finished run of wl: exit status 0, stdout (filtered) equal
    to ref_out (the plain run's), and for an instrumented build a readable
    report in outdir with, for a real program, a site in its own sources.
    Returns (problem or None, failure detail, report summary or None)."""
    problem = rep_sum = None
    if code != 0:
        problem = "exit status %s" % code
    elif so != ref_out:
        problem = ("plain output differs between repetitions (nondeterministic kernel)"
                   if vname == "plain" else "stdout differs from the plain run")
    if not problem and build == "zeroinst":
        rep_sum = read_report(outdir, wl.sources)
        if rep_sum is None:
            problem = "no readable report.json in %s" % outdir
        elif wl.sources and not rep_sum["own_sites"]:
            problem = ("no site of the report in %s is in %s: the project's "
                       "code did not run instrumented"
                       % (outdir, ", ".join(sorted(wl.sources))))
            rep_sum = None
    detail = problem
    if problem:
        if so != ref_out and ref_out is not None:
            detail += "\n" + describe_diff(ref_out, so, vname)
        if se:
            detail += "\n--- stderr (tail)\n" + se.decode(errors="replace")[-2000:]
    return problem, detail, rep_sum


def read_ir(outfile, stderr):
    """Instructions executed (Ir) in a cachegrind run: the "summary:" line
    of its out file, else the "I refs:" line of its stderr; None if neither."""
    try:
        with open(outfile) as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    m = re.search(rb"I\s+refs:\s+([0-9,]+)", stderr)
    return int(m.group(1).replace(b",", b"")) if m else None


def describe_diff(ref, out, vname):
    """The two outputs for a failure message: as text when they are short
    text (the kernels' results), else their sizes and the first difference
    (compressed data)."""
    if len(ref) + len(out) < 20000 and b"\0" not in ref + out:
        return "--- plain stdout\n%s--- %s stdout\n%s" % (
            ref.decode(errors="replace"), vname, out.decode(errors="replace"))
    at = next((i for i, (a, b) in enumerate(zip(ref, out)) if a != b), min(len(ref), len(out)))
    return ("plain stdout %d bytes, %s stdout %d bytes, first difference at byte %d"
            % (len(ref), vname, len(out), at))
