#!/usr/bin/env python3
"""Differential test: inline instrumentation vs out-of-line instrumentation.

The plugin has two ways to record a loaded element.  The default ("inline")
updates per-(site, calling context) counter slots in generated code, keeping
the sums in registers inside call-free innermost loops; with
-fplugin-arg-zeroinst-out-of-line every element calls the runtime's
__zeroinst_count, which applies the same rules in C.  The out-of-line mode
is the reference: both must give the same report.

Each program is built three times with the same flags: plain (gcc, g++,
gfortran), inline (the zeroinst wrapper) and out-of-line (the wrapper plus
-fplugin-arg-zeroinst-out-of-line), each in its own directory, as `prog`.
The three run with the same arguments and environment (the instrumented
ones with ZEROINST_OUTPUT and ZEROINST_EMPTY_REPORT=1).  A case passes when

  * both instrumented runs exit like the plain run and print its stdout;
  * both leave a report.json, and the two reports are equal:
      - "modes" and the program totals: summary.int and summary.float
        (elements, bytes, redundant_bytes, zero_elements), summary.other
        (loads, bytes) and, with data mode, every summary.data total;
      - the "code" records, keyed by site (file, line, column, function,
        expr) and the full call path (function, file, line, inlined,
        parallel_region of every frame): the same set of keys, and per
        record kind, elem_type, elem_bytes, access_bytes, lanes, loads,
        elements, bytes, redundant_bytes, zero_elements and redmap equal;
      - the "other" records (same key): access_bytes, loads, bytes;
      - with data mode, the "data" records (static: kind, name, symbol,
        module basename; heap: kind, allocator, allocation path): every
        count and the byte map.
      - the per-thread totals of the threads that loaded something, as a
        multiset (thread numbers may differ).
    Records that share a key (a site duplicated by the optimizer) are
    paired after sorting them by their values.  Not compared: "program"
    and "pid" (they differ by construction), "sampling" (the same
    environment), the order of records.
Every difference is printed with the record's key, the field and both
values (`inline` and `out-of-line`).

Layout-dependent values.  A loaded pointer's low byte is zero or not by
chance (1 in 16 for a 16-byte aligned address), and the inline and the
out-of-line program have different code, frames and data layouts, so the
redmap of a pointer load (and the byte map of an array of pointers) may
differ between them for no fault of either.  The runs are made as alike as
possible: address randomization off (setarch -R), directories named alike
(plain/, inl/, ool/: environments of one size).  When differences remain,
each instrumented build is built and run again with its memory moved (a
padding object linked first: code, data, rodata, bss and an early malloc;
a longer environment: the stack), by 0x30, then 0x1130, then 0x11030
bytes (changing the low byte, then the second and the third), until every
difference is explained.  A field that changes between a build's run
and its moved run depends on addresses (or is not deterministic at all):
its inline/out-of-line differences are printed as a note and not counted.
So are the differences of a few torture programs that load values which
depend on code size or on stack garbage (KNOWN_DIFFERENT, with the reason),
and stdout of a program whose plain build prints something else when its
stack moves (return-addr.c prints addresses).  Everything else fails.

Program sets (one ctest test each, label "differential"):

  ground-truth  every tests/ground-truth/*.c, *.cc, *.f90 program with the
                flags, environment, arguments, plugin options and shared
                libraries of its comments (zeroinst-flags, zeroinst-env,
                zeroinst-args, zeroinst-plugin-args, zeroinst-lib,
                zeroinst-dlopen: read by check.py's parser), plus the
                variants tests/ground-truth/CMakeLists.txt adds where the
                code path differs (other -O levels, -flto, no-contexts,
                ZEROINST_CONTEXTS=0, dlclose).  data_shlib_lib.c and
                data_dlopen_lib.c are libraries of data_shlib.c, built for
                it (linked and dlopen-ed, both instrumented), not programs
                of their own: no shared-library program is skipped.
                Skipped: vectors_avx2 when the CPU has no AVX2 (it cannot
                run), vectors_sve on other targets than aarch64.  Plain builds and runs must succeed.  No -fchecking
                (the semantics tests have it; here it would only slow the
                builds down).
  kernels       every examples/kernels/*.c and *.f90 at -O2 -fopenmp (the
                flags of examples/bench/run-bench), run with argument
                "quick" (its --quick size) and OMP_NUM_THREADS=1.
  torture       a deterministic sample of GCC 12's torture execution tests
                (tests/semantics/torture.py: sources, flags, the unpacked
                cache, the flags of each program): --c O2:10 is every 10th
                C program (sorted by name, the first of each 10) at -O2,
                --fortran O2:10 likewise.  As in the semantics tests, a
                program whose plain build fails, times out or exits
                non-zero is skipped.
  csmith        csmith --seed N programs at -O2 (tests/semantics/csmith.py);
                seeds whose plain run times out are skipped.
  compare A B   compare two report.json files (no build), exit 1 if they
                differ: for checking a report by hand or the comparison.
  selftest      the comparison against hand-made reports with one field
                changed at a time: each change must be reported.

Exit status: 0 all passed, 1 a failure, 77 the sources cannot be had (no
torture tool/tarball, no csmith): ctest shows the test as skipped.  A failing
case keeps its directory (WORK/run-PID/<case>/, with plain/, inl/, ool/,
the probes' directories, the reports in */report/ and a repro.sh).

  differential.py --bin build/bin --work /tmp/d ground-truth [--only NAME]
  differential.py --bin build/bin --work /tmp/d torture --cache build/cache --c O2:10
  differential.py compare inl/report/report.json ool/report/report.json
"""

import argparse
import concurrent.futures
import copy
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(TESTS, "semantics"))
import common as sem  # noqa: E402  (run, describe_status, clip, run_directory)
sys.path.insert(0, TESTS)
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)
from harness import env_without_zeroinst  # noqa: E402  (tests/harness.py)

OOL_FLAG = "-fplugin-arg-zeroinst-out-of-line"
VARIANTS = ("plain", "inline", "out-of-line")
# Their directories: names of one length, so that the two instrumented runs
# get environments (ZEROINST_OUTPUT) of one size and the same stack and
# heap layout; the runs have address randomization off (setarch -R).
VDIR = {"plain": "plain", "inline": "inl", "out-of-line": "ool"}
SETARCH = shutil.which("setarch")
COMPILE_TIMEOUT = 300

# ---------------------------------------------------------------- comparison

CODE_FIELDS = ("kind", "elem_type", "elem_bytes", "access_bytes", "lanes", "loads",
               "elements", "bytes", "redundant_bytes", "zero_elements", "redmap")
OTHER_FIELDS = ("access_bytes", "loads", "bytes")
DATA_FIELDS = ("allocations", "size", "elements", "bytes", "redundant_bytes",
               "zero_elements", "never_loaded_bytes", "always_zero_bytes")
TOTAL_FIELDS = ("elements", "bytes", "redundant_bytes", "zero_elements")


def frame_key(f):
    return (f.get("function"), f.get("file"), f.get("line"),
            bool(f.get("inlined")), bool(f.get("parallel_region")))


def show_frame(k):
    fn, file, line, inlined, region = k
    return "%s (%s:%s)%s%s" % (fn, os.path.basename(file or "?"), line,
                               " [inlined]" if inlined else "",
                               " [parallel region]" if region else "")


def site_key(s):
    return (s.get("file"), s.get("line"), s.get("column"), s.get("function"), s.get("expr"))


def show_site(k):
    file, line, col, fn, expr = k
    return "%s:%s:%s %s `%s`" % (os.path.basename(file or "?"), line, col, fn, expr)


def record_key(section, r):
    """(hashable key, printable key) of a record of SECTION."""
    if section in ("code", "other"):
        path = tuple(frame_key(f) for f in r.get("call_path", []))
        k = (site_key(r["site"]), path)
        text = "%s %s path %s" % (section, show_site(k[0]),
                                  " <- ".join(show_frame(f) for f in path) or "(none)")
        return k, text
    # data
    if r.get("object") == "static":
        k = ("static", r.get("kind"), r.get("name"), r.get("symbol"),
             os.path.basename(r.get("module") or ""))
        text = "data static %s %s (symbol %s, module %s)" % (k[2], k[1], k[3], k[4])
    else:
        path = tuple(frame_key(f) for f in r.get("alloc_path", []))
        k = ("heap", r.get("kind"), r.get("allocator"), path)
        text = "data heap %s %s allocated at %s" % (k[1], k[2],
                                                    " <- ".join(show_frame(f) for f in path))
    return k, text


def record_values(section, r):
    if section == "code":
        return {f: r.get(f) for f in CODE_FIELDS}
    if section == "other":
        return {f: r.get(f) for f in OTHER_FIELDS}
    v = {f: r.get(f) for f in DATA_FIELDS}
    bm = r.get("byte_map") or {}
    v["byte_map"] = "granule %s length %s runs %s" % (bm.get("granule"), bm.get("length"),
                                                      bm.get("runs"))
    return v


def sort_value(v):
    return tuple((x is None, str(type(x)), x if x is not None else 0) for x in v.values())


def index_records(section, records):
    """{key: (printable key, [values, ...] sorted)}."""
    out = {}
    for r in records:
        k, text = record_key(section, r)
        out.setdefault(k, (text, []))[1].append(record_values(section, r))
    for text, vals in out.values():
        vals.sort(key=sort_value)
    return out


def show_values(v):
    return ", ".join("%s=%s" % kv for kv in v.items())


class Diff(str):
    """One difference: its text, and `ident` (section, key, field) naming
    what differs independently of the values."""

    def __new__(cls, ident, text):
        d = str.__new__(cls, text)
        d.ident = ident
        return d


def compare_records(section, a, b, names):
    diffs = []
    ia, ib = index_records(section, a), index_records(section, b)
    for k in sorted(set(ia) | set(ib), key=repr):
        text = (ia.get(k) or ib.get(k))[0]
        va, vb = ia.get(k, (text, []))[1], ib.get(k, (text, []))[1]
        if len(va) != len(vb):
            lines = ["%s: %d record(s) in %s, %d in %s" % (text, len(va), names[0],
                                                           len(vb), names[1])]
            for side, vals in ((names[0], va), (names[1], vb)):
                for v in vals:
                    lines.append("    %s: %s" % (side, show_values(v)))
            diffs.append(Diff((section, k, "records"), "\n".join(lines)))
            continue
        for n, (x, y) in enumerate(zip(va, vb)):
            tag = text if len(va) == 1 else "%s (record %d of %d with this key)" % (
                text, n + 1, len(va))
            for f in x:
                if x[f] != y[f]:
                    diffs.append(Diff((section, k, n, f),
                                      "%s: %s: %s" % (tag, f, show_pair(f, x[f], y[f], names))))
    return diffs


def decode_runs(runs):
    """"1x7z16n" -> "xzzzzzzz" + 16 * "n" (a byte map's runs)."""
    return "".join(s * int(n) for n, s in re.findall(r"([0-9]+)([nzx])", runs))


def show_pair(field, a, b, names):
    """Both values of FIELD; long ones (byte maps) as their first difference."""
    if field == "byte_map" and isinstance(a, str) and isinstance(b, str):
        ha, _, ra = a.partition(" runs ")
        hb, _, rb = b.partition(" runs ")
        if ha != hb:
            return "%s %s, %s %s" % (names[0], ha, names[1], hb)
        a, b = decode_runs(ra), decode_runs(rb)
        i = next((i for i, (p, q) in enumerate(zip(a, b)) if p != q), min(len(a), len(b)))
        lo = max(0, i - 8)
        return "first difference at granule %d of %d: %s ...%s..., %s ...%s... (%s)" % (
            i, max(len(a), len(b)), names[0], a[lo:i + 24], names[1], b[lo:i + 24],
            "; ".join("%s %d n, %d z, %d x" % (n, m.count("n"), m.count("z"), m.count("x"))
                      for n, m in zip(names, (a, b))))
    return "%s %s, %s %s" % (names[0], a, names[1], b)


def flatten(prefix, obj, out):
    if isinstance(obj, dict):
        for k in obj:
            flatten(prefix + "." + k if prefix else k, obj[k], out)
    else:
        out[prefix] = obj
    return out


def compare_reports(a, b, names=("inline", "out-of-line")):
    """List of differences (strings) between reports A and B."""
    diffs = []
    if a.get("modes") != b.get("modes"):
        diffs.append(Diff(("modes",), "modes: %s %s, %s %s" % (names[0], a.get("modes"),
                                                               names[1], b.get("modes"))))
    sa, sb = flatten("summary", a.get("summary", {}), {}), flatten("summary", b.get("summary", {}), {})
    for k in sorted(set(sa) | set(sb)):
        if sa.get(k) != sb.get(k):
            diffs.append(Diff(("total", k), "total %s: %s %s, %s %s" % (
                k, names[0], sa.get(k, "(absent)"), names[1], sb.get(k, "(absent)"))))
    ta, tb = thread_totals(a), thread_totals(b)
    if ta != tb:
        only = lambda x, y: [t for t in x if x.count(t) > y.count(t)]
        diffs.append(Diff(("threads",), "threads: per-thread totals (int and float elements, "
                          "bytes, redundant_bytes, zero_elements of each thread that loaded "
                          "something) differ: %d thread(s) in %s, %d in %s; only in %s: %s; "
                          "only in %s: %s" % (len(ta), names[0], len(tb), names[1],
                                             names[0], only(ta, tb)[:8], names[1],
                                             only(tb, ta)[:8])))
    for section in ("code", "other", "data"):
        diffs += compare_records(section, a.get(section, []), b.get(section, []), names)
    return diffs


def thread_totals(rep):
    """The threads' totals as a sorted list (thread numbers are not compared)."""
    out = []
    for t in rep.get("threads", []):
        v = tuple((t.get(k) or {}).get(f, 0) for k in ("int", "float") for f in TOTAL_FIELDS)
        if any(v):
            out.append(v)
    return sorted(out)


def load_report(directory):
    path = os.path.join(directory, "report.json")
    rep = report_format.load(path)
    for key in ("summary", "code", "other"):
        if key not in rep:
            raise ValueError("%s has no \"%s\"" % (path, key))
    return rep


# --------------------------------------------------------------------- cases

class Program:
    """One program to build three ways.

    sources      files (absolute, or relative to the variant's directory)
    flags        flags for every build (after `opt`)
    opt          an -O level put first ("" when flags have it), so that a
                 test's own -O option in flags wins (torture)
    libs         link arguments after the sources (-lm)
    args, env    arguments and environment of all three runs
    plugin_args  plugin options of both instrumented builds (KEY[=VALUE])
    shlibs       [(NAME, SOURCE, linked)]: libNAME.so built from SOURCE with
                 the same compiler kind, flags and plugin options; linked
                 (-lNAME, rpath) or dlopen-ed (path in ZI_TEST_DLOPEN_NAME)
    strict       a plain build or run that fails is a failure; not strict:
                 the case is skipped (torture, csmith: nothing to compare)
    must_exit_0  (not strict) a plain run exiting non-zero skips the case
    timeout      seconds for the plain run (instrumented runs: 3x)
    prepare      function(case directory), e.g. generating the source
    """

    def __init__(self, name, sources, flags=(), opt="", libs=("-lm",), args=(), env=None,
                 plugin_args=(), shlibs=(), strict=True, must_exit_0=False, prepare=None,
                 timeout=30):
        self.name, self.sources, self.flags, self.opt = name, list(sources), list(flags), opt
        self.libs, self.args, self.env = list(libs), list(args), dict(env or {})
        self.plugin_args, self.shlibs = list(plugin_args), list(shlibs)
        self.strict, self.must_exit_0, self.prepare = strict, must_exit_0, prepare
        self.timeout = timeout


def language(source):
    ext = os.path.splitext(source)[1].lower()
    if ext in (".f", ".f90", ".f95", ".f03", ".f08"):
        return "fortran"
    if ext in (".cc", ".cpp", ".cxx", ".c++"):
        return "c++"
    return "c"


class Tools:
    def __init__(self, bindir, cc="gcc"):
        # g++ and gfortran named like the C compiler (gcc-12 -> g++-12)
        driver = lambda name: re.sub(r"gcc(-[0-9]+)?$", name + r"\1", cc)
        self.cc = cc
        self.plain = {"c": cc, "c++": driver("g++"), "fortran": driver("gfortran")}
        self.inst = {"c": os.path.join(bindir, "zeroinst-cc"),
                     "c++": os.path.join(bindir, "zeroinst-cxx"),
                     "fortran": os.path.join(bindir, "zeroinst-fortran")}

    def compiler(self, variant, source):
        lang = language(source)
        return self.plain[lang] if variant == "plain" else self.inst[lang]


def extra_flags(prog, variant):
    if variant == "plain":
        return []
    extra = ["-fplugin-arg-zeroinst-" + a for a in prog.plugin_args]
    return extra + ([OOL_FLAG] if variant == "out-of-line" else [])


def build_commands(prog, variant, vdir, tools, pre_objects=()):
    """[(argv, what)] building VARIANT in VDIR, and the run's extra env."""
    opt = [prog.opt] if prog.opt else []
    extra = extra_flags(prog, variant)
    cmds, link, env = [], [], {}
    for name, src, linked in prog.shlibs:
        lib = os.path.join(vdir, "lib%s.so" % name)
        cmds.append(([tools.compiler(variant, src)] + opt + extra + prog.flags +
                     ["-shared", "-fPIC", src, "-o", lib], "lib%s.so" % name))
        if linked:
            link += ["-L" + vdir, "-l" + name, "-Wl,-rpath," + vdir]
        else:
            env["ZI_TEST_DLOPEN_" + name] = lib
    cmds.append(([tools.compiler(variant, prog.sources[0])] + opt + extra + prog.flags +
                 list(pre_objects) + prog.sources + ["-o", "prog"] + link + prog.libs, "prog"))
    return cmds, env


def no_aslr():
    return [SETARCH, os.uname().machine, "-R"] if SETARCH else []


def run_env(prog, extra, report=None):
    env = env_without_zeroinst()
    env.update(prog.env)
    env.update(extra)
    if report:
        env.update(ZEROINST_OUTPUT=report, ZEROINST_EMPTY_REPORT="1")
    return env


def check_case(prog, tools, work, keep):
    """-> (verdict, detail, seconds) with verdict pass, fail or skip."""
    t0 = time.monotonic()
    d = os.path.join(work, re.sub(r"[^\w.+-]", "_", prog.name))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    try:
        if prog.prepare:
            prog.prepare(d)
        verdict, detail = _check(prog, tools, d)
    except Exception as e:  # a harness bug must not pass silently
        verdict, detail = "fail", "harness error: %r" % (e,)
    if verdict == "fail":
        write_repro(prog, tools, d)
    elif not keep:
        shutil.rmtree(d, ignore_errors=True)
    return verdict, detail, time.monotonic() - t0


def _check(prog, tools, d):
    runs = {}
    for variant in VARIANTS:
        vdir = os.path.join(d, VDIR[variant])
        os.makedirs(vdir)
        cmds, env = build_commands(prog, variant, vdir, tools)
        for argv, what in cmds:
            c = sem.run(argv, vdir, COMPILE_TIMEOUT, env_without_zeroinst())
            if c.rc != 0 or c.timed_out:
                if variant == "plain" and not prog.strict:
                    return "skip", "plain build does not compile"
                return "fail", "%s build of %s fails (%s):\n%s" % (
                    variant, what, sem.describe_status(c), sem.clip(c.err + c.out))
        report = os.path.join(vdir, "report") if variant != "plain" else None
        timeout = prog.timeout * (1 if variant == "plain" else 3)
        r = sem.run(no_aslr() + ["./prog"] + prog.args, vdir, timeout,
                    run_env(prog, env, report))
        runs[variant] = r
        if variant == "plain" and not prog.strict:
            if r.timed_out:
                return "skip", "plain run times out"
            if prog.must_exit_0 and r.rc != 0:
                return "skip", "plain run fails (%s)" % sem.describe_status(r)
        if variant == "plain" and prog.strict and (r.timed_out or r.rc < 0):
            return "fail", "plain run %s:\n%s" % (sem.describe_status(r), sem.clip(r.err))
    p = runs["plain"]
    problems, notes = [], []
    for variant in VARIANTS[1:]:
        r = runs[variant]
        if r.timed_out or r.rc != p.rc:
            problems.append("%s run: %s, plain run: %s (plain took %.2f s)%s" % (
                variant, sem.describe_status(r), sem.describe_status(p), p.elapsed,
                ("\n%s stderr:\n%s" % (variant, sem.clip(r.err, 10))) if r.err.strip() else ""))
        elif r.out != p.out:
            diff = difflib.unified_diff(p.out.splitlines(), r.out.splitlines(),
                                        "plain", variant, lineterm="", n=1)
            problems.append("%s stdout differs from plain:\n%s" % (
                variant, sem.clip("\n".join(diff), 20)))
    if problems and all("stdout differs" in x for x in problems):
        # Output that changes with the plain program's own stack position
        # (return-addr.c prints return addresses) cannot be compared.
        vdir = os.path.join(d, VDIR["plain"])
        again = sem.run(no_aslr() + ["./prog"] + prog.args, vdir, prog.timeout,
                        run_env(prog, {"ZI_DIFF_PAD": "x" * PROBE_PADS[0]}))
        if again.out != p.out:
            notes.append("stdout not compared: the plain program prints something else when "
                         "moved in memory (addresses):\n" + "\n".join(problems))
            problems = []
    if problems:
        return "fail", "\n".join(problems)
    reports = []
    for variant in VARIANTS[1:]:
        try:
            reports.append(load_report(os.path.join(d, VDIR[variant], "report")))
        except (OSError, ValueError) as e:
            return "fail", "%s run left no readable report.json (%s)%s" % (
                variant, e, ("\n%s stderr:\n%s" % (variant, sem.clip(runs[variant].err, 10)))
                if runs[variant].err.strip() else "")
    diffs = compare_reports(*reports)
    if not diffs:
        return "pass", "\n".join(notes)
    # Layout probes: which of these fields change when a program is moved
    # in memory (a loaded pointer's zero bytes)?
    layout, probes = set(), []
    for pad in PROBE_PADS:
        for variant, rep in zip(VARIANTS[1:], reports):
            got = layout_probe(prog, tools, d, variant, pad, rep)
            if isinstance(got, str):
                probes.append(got)
            else:
                probes.append("%s moved by %#x: %d field(s) changed" % (variant, pad, len(got)))
                layout |= {x.ident for x in got}
        if all(x.ident in layout for x in diffs):
            break
    real = [x for x in diffs if x.ident not in layout]
    tolerated = [x for x in diffs if x.ident in layout]
    if tolerated:
        notes.append("%d difference(s) not counted: they change as well between runs of one "
                     "build with the program moved in memory (%s):\n%s" % (
                         len(tolerated), "; ".join(probes), sem.clip("\n".join(tolerated), 10)))
    known = None if prog.strict else KNOWN_DIFFERENT.get(os.path.basename(prog.sources[0]))
    if real and known:
        notes.append("%d difference(s) not counted: this program %s:\n%s" % (
            len(real), known, sem.clip("\n".join(real), 10)))
        real = []
    if not real:
        return "pass", "\n".join(notes)
    return "fail", "%d difference(s) between the inline and the out-of-line report:\n%s%s" % (
        len(real), sem.clip("\n".join(real), 60), "".join("\n" + n for n in notes))


# Programs whose loaded values legitimately differ between two builds of
# different code, by source file name (torture programs), and why.  Their
# differences are printed as notes.
KNOWN_DIFFERENT = {
    "comp-goto-1.c": "stores differences of label addresses (code sizes, which differ "
                     "between the builds) as data and loads them (pc->offset)",
    "pr94734.c": "loads an uninitialized stack element (baz: arr[7], loaded by the "
                 "if-converted loop before any store), whose value is what earlier calls "
                 "left on the stack, and the builds' calls leave different things",
}


# Layout probes: a build (inline or out-of-line) again with PAD.c linked
# first (PAD bytes of code, data, read-only data and bss before the
# program's own, and a PAD-byte malloc before main) and run with PAD more
# bytes of environment: globals, heap blocks and the stack move, nothing
# else changes.  A report field that differs between a build's run and its
# probe's depends on addresses: a loaded pointer's low byte is zero or not
# by chance (a 16-byte aligned address: 1 in 16), and two programs with
# different code have different frames and layouts.  Such differences
# between inline and out-of-line are printed as notes, not failures.
PROBE_PADS = (48, 0x1130, 0x11030)
PAD_SOURCE = r"""
#include <stdlib.h>
char zi_diff_pad_data[PAD] = { 1 };
char zi_diff_pad_bss[PAD];
const char zi_diff_pad_rodata[PAD] = { 1 };
void *zi_diff_pad_heap;
__attribute__ ((used)) void zi_diff_pad_text (void) { __asm__ volatile (".skip PAD, 0x90"); }
__attribute__ ((constructor)) static void zi_diff_pad_init (void) { zi_diff_pad_heap = malloc (PAD); }
"""


def layout_probe(prog, tools, d, variant, pad, report_of_variant):
    """Differences between VARIANT's report and its probe's (a list), or
    why the probe did not run (a string)."""
    vdir = os.path.join(d, "%s-probe-%d" % (VDIR[variant], pad))
    os.makedirs(vdir)
    with open(os.path.join(vdir, "pad.c"), "w") as f:
        f.write(PAD_SOURCE.replace("PAD", str(pad)))
    c = sem.run([tools.cc, "-c", "pad.c", "-o", "pad.o"], vdir, COMPILE_TIMEOUT, env_without_zeroinst())
    if c.rc != 0:
        return "pad %d does not compile: %s" % (pad, sem.first_error(c.err))
    cmds, env = build_commands(prog, variant, vdir, tools, [os.path.join(vdir, "pad.o")])
    for argv, what in cmds:
        c = sem.run(argv, vdir, COMPILE_TIMEOUT, env_without_zeroinst())
        if c.rc != 0 or c.timed_out:
            return "%s moved by %#x: the build of %s fails" % (variant, pad, what)
    report = os.path.join(vdir, "report")
    env["ZI_DIFF_PAD"] = "x" * pad
    r = sem.run(no_aslr() + ["./prog"] + prog.args, vdir, prog.timeout * 3,
                run_env(prog, env, report))
    try:
        return compare_reports(report_of_variant, load_report(report))
    except (OSError, ValueError):
        return "%s moved by %#x: no report (%s)" % (variant, pad, sem.describe_status(r))


def write_repro(prog, tools, d):
    q = lambda argv: " ".join(shlex.quote(a) for a in argv)
    with open(os.path.join(d, "repro.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s: plain, inline and out-of-line builds and runs;\n"
                "# then: %s compare inl/report/report.json "
                "ool/report/report.json\nset -x\n"
                % (prog.name, shlex.quote(os.path.abspath(__file__))))
        for variant in VARIANTS:
            vdir = os.path.join(d, VDIR[variant])
            cmds, env = build_commands(prog, variant, vdir, tools)
            env = dict(prog.env, **env)
            if variant != "plain":
                env.update(ZEROINST_OUTPUT=os.path.join(vdir, "report"),
                           ZEROINST_EMPTY_REPORT="1")
                f.write("rm -rf %s\n" % shlex.quote(os.path.join(vdir, "report")))
            f.write("cd %s\n" % shlex.quote(vdir))
            for argv, _ in cmds:
                f.write(q(argv) + "\n")
            f.write("env %s %s ./prog %s; echo \"%s: $?\"\n" % (
                q("%s=%s" % kv for kv in sorted(env.items())), q(no_aslr()), q(prog.args),
                variant))
    os.chmod(os.path.join(d, "repro.sh"), 0o755)


def run_all(progs, tools, args, title):
    t0 = time.monotonic()
    work = sem.run_directory(args.work)
    print("%s: %d programs, each built plain, inline and out-of-line; %d jobs"
          % (title, len(progs), args.jobs), flush=True)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    failures, skips, notes = [], {}, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = {pool.submit(check_case, p, tools, work, args.keep): p for p in progs}
        for fut in concurrent.futures.as_completed(futs):
            prog = futs[fut]
            verdict, detail, secs = fut.result()
            counts[verdict] += 1
            if verdict == "fail":
                failures.append((prog.name, detail))
                print("FAIL %s\n%s\n" % (prog.name, "\n".join("    " + l for l in
                                                             detail.splitlines())), flush=True)
            elif verdict == "skip":
                skips.setdefault(detail.split(" (")[0], []).append(prog.name)
            elif detail:
                notes += 1
                print("note %s: %s\n" % (prog.name, "\n".join(
                    ("    " if i else "") + l for i, l in enumerate(detail.splitlines()))),
                      flush=True)
            if args.verbose:
                print("%s %s (%.1f s)" % (verdict, prog.name, secs), flush=True)
    for reason, names in sorted(skips.items()):
        print("skipped, %s: %d (%s%s)" % (reason, len(names), ", ".join(sorted(names)[:8]),
                                          ", ..." if len(names) > 8 else ""))
    if failures:
        print("\n%d failure(s):" % len(failures))
        for name, detail in sorted(failures):
            print("  %s: %s" % (name, detail.splitlines()[0]))
        print("(their directories, with repro.sh, are kept under %s)" % work)
    elif not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    if notes:
        print("%d passing program(s) with layout-dependent differences (notes above)" % notes)
    print("%s took %.0f s" % (title, time.monotonic() - t0))
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]),
          flush=True)
    return 1 if counts["fail"] else 0


# ---------------------------------------------------------------- the sets

GT_DIR = os.path.join(TESTS, "ground-truth")
# Variants of tests/ground-truth/CMakeLists.txt whose generated code differs
# from the program's own flags: (suffix, source, flags or None, env, plugin args).
GT_VARIANTS = [
    ("O2", "int_widths.c", "-O2", {}, []),
    ("O2", "floats.c", "-O2", {}, []),
    ("O2", "misc.c", "-O2", {}, []),
    ("O2", "complex.c", "-O2", {}, []),
    ("O2", "cxx.cc", "-O2", {}, []),
    ("O2", "fortran.f90", "-O2", {}, []),
    ("O0", "floats.c", "-O0", {}, []),
    ("O0", "complex.c", "-O0", {}, []),
    ("O2", "contexts.c", "-O2 -g -pthread", {}, []),
    ("O2", "contexts_omp.c", "-O2 -g -fopenmp", {}, []),
    ("O2", "contexts_cxx.cc", "-O2 -g", {}, []),
    ("lto", "threads.c", "-O1 -flto -pthread", {}, []),
    ("lto", "contexts.c", "-O2 -g -flto -pthread", {}, []),
    ("no_contexts", "contexts_off.c", None, {}, ["no-contexts"]),
    ("contexts_env0", "contexts_off.c", None, {"ZEROINST_CONTEXTS": "0"}, []),
    ("dlclose", "data_shlib.c", None, {"ZI_TEST_DLCLOSE": "1"}, []),
]


def ground_truth_programs(args):
    sys.path.insert(0, GT_DIR)
    import check as gt  # the expectation parser of the ground-truth tests
    arch = subprocess.run([args.cc, "-dumpmachine"], capture_output=True,
                          text=True).stdout.strip().split("-")[0] or "x86_64"
    sources = sorted(f for f in os.listdir(GT_DIR)
                     if os.path.splitext(f)[1] in (".c", ".cc", ".f90"))
    specs = {f: gt.parse_source(os.path.join(GT_DIR, f), arch) for f in sources}
    libraries = {os.path.basename(src) for s in specs.values() for _, src, _ in s["libs"]}
    with open("/proc/cpuinfo") as f:
        has_avx2 = " avx2" in f.read()
    skipped, progs = [], []

    def make(name, source, flags, env, plugin_args):
        s = specs[source]
        return Program(name, [os.path.join(GT_DIR, source)], shlex.split(flags or s["flags"]),
                       args=s["args"], env=dict(s["env"], **env),
                       plugin_args=s["plugin_args"] + plugin_args, shlibs=s["libs"])

    for f in sources:
        if f in libraries:
            continue
        base = os.path.splitext(f)[0]
        if "avx2" in base and not has_avx2:
            skipped.append("%s (the CPU has no AVX2)" % base)
            continue
        if "sve" in base and arch != "aarch64":
            skipped.append("%s (SVE: aarch64 only)" % base)
            continue
        progs.append(make(base, f, None, {}, []))
    for suffix, f, flags, env, plugin_args in GT_VARIANTS:
        if f in specs:
            progs.append(make("%s_%s" % (os.path.splitext(f)[0], suffix), f, flags, env,
                              plugin_args))
    return progs, skipped


KERNELS = os.path.join(ROOT, "examples", "kernels")


def kernel_programs(args):
    progs = []
    for f in sorted(os.listdir(KERNELS)):
        base, ext = os.path.splitext(f)
        if ext not in (".c", ".f90"):
            continue
        progs.append(Program("%s%s" % (base, "" if ext == ".c" else "_f90"),
                             [os.path.join(KERNELS, f)], ["-O2", "-fopenmp"],
                             args=[args.size], env={"OMP_NUM_THREADS": str(args.threads),
                                                    "OMP_DYNAMIC": "false"}))
    return progs, []


def from_semantics(case, opt, timeout, must_exit_0=True):
    return Program("%s %s" % (case.name, opt), case.sources, case.flags, opt=opt,
                   libs=case.libs, strict=False, must_exit_0=must_exit_0,
                   prepare=case.prepare, timeout=timeout)


def torture_programs(args):
    import torture
    try:  # the tool runs only when the cache has no unpacked sources yet
        root = torture.torture_sources(os.path.abspath(args.cache), args.tool)
    except (OSError, subprocess.CalledProcessError) as e:
        skip("cannot unpack the torture sources with %s: %s" % (args.tool, e))
    progs = []
    for lang, specs in (("c", args.c), ("fortran", args.fortran)):
        if not specs:
            continue
        cases = torture.c_cases(root) if lang == "c" else torture.fortran_cases(root)
        if args.only:
            cases = [c for c in cases if any(s in c.name for s in args.only)]
        for spec in specs:
            level, share = torture.parse_opt(spec)
            progs += [from_semantics(c, level, args.timeout) for c in cases[::share]]
    return progs, []


def csmith_programs(args):
    import csmith
    exe = shutil.which(args.csmith)
    if not exe:
        skip("csmith (%s) not found" % args.csmith)
    include = next((d for d in ("/usr/include/csmith", "/usr/local/include/csmith",
                                "/usr/include/csmith-2.3.0")
                    if os.path.exists(os.path.join(d, "csmith.h"))), None)
    if not include:
        skip("csmith.h not found (libcsmith-dev)")
    opt = "-" + args.opt.lstrip("-")
    progs = [from_semantics(csmith.seed_case(exe, s, include, []), opt, args.timeout,
                            must_exit_0=False)
             for s in csmith.parse_seeds(args.seeds)]
    return progs, []


def skip(msg):
    print("SKIP: " + msg, flush=True)
    sys.exit(77)


# ------------------------------------------------------------------ selftest

SELF_REPORT = {
    "format": "zeroinst-report-1", "program": "/x/prog", "pid": 1, "arch": "x86_64",
    "modes": ["code", "data"], "sampling": None,
    "summary": {"int": {"elements": 12, "bytes": 96, "redundant_bytes": 70, "zero_elements": 2},
                "float": {"elements": 4, "bytes": 32, "redundant_bytes": 8, "zero_elements": 1},
                "other": {"loads": 1, "bytes": 24},
                "data": {"static": {"int": {"elements": 12, "bytes": 96, "redundant_bytes": 70,
                                            "zero_elements": 2},
                                    "float": {"elements": 4, "bytes": 32, "redundant_bytes": 8,
                                              "zero_elements": 1}}}},
    "threads": [{"thread": 0, "int": {"elements": 10, "bytes": 80, "redundant_bytes": 64,
                                      "zero_elements": 2},
                 "float": {"elements": 0, "bytes": 0, "redundant_bytes": 0, "zero_elements": 0}},
                {"thread": 1, "int": {"elements": 2, "bytes": 16, "redundant_bytes": 6,
                                      "zero_elements": 0},
                 "float": {"elements": 4, "bytes": 32, "redundant_bytes": 8, "zero_elements": 1}},
                {"thread": 2, "int": {"elements": 0, "bytes": 0, "redundant_bytes": 0,
                                      "zero_elements": 0},
                 "float": {"elements": 0, "bytes": 0, "redundant_bytes": 0, "zero_elements": 0}}],
    "code": [
        {"kind": "int", "site": {"file": "/s/a.c", "line": 3, "column": 7, "function": "f",
                                 "expr": "a[i]"},
         "elem_type": "i64", "elem_bytes": 8, "access_bytes": 8, "lanes": 1,
         "loads": 8, "elements": 8, "bytes": 64, "redundant_bytes": 50, "zero_elements": 2,
         "redmap": "0000000x",
         "call_path": [{"function": "f", "file": "/s/a.c", "line": 3},
                       {"function": "main", "file": "/s/a.c", "line": 9}]},
        # the same site reached from another caller
        {"kind": "int", "site": {"file": "/s/a.c", "line": 3, "column": 7, "function": "f",
                                 "expr": "a[i]"},
         "elem_type": "i64", "elem_bytes": 8, "access_bytes": 8, "lanes": 1,
         "loads": 2, "elements": 2, "bytes": 16, "redundant_bytes": 14, "zero_elements": 0,
         "redmap": "0000000x",
         "call_path": [{"function": "f", "file": "/s/a.c", "line": 3},
                       {"function": "g", "file": "/s/a.c", "line": 5, "inlined": True},
                       {"function": "main", "file": "/s/a.c", "line": 10}]},
        # a site duplicated by the optimizer: two records with one key
        {"kind": "int", "site": {"file": "/s/a.c", "line": 4, "column": 1, "function": "f",
                                 "expr": "b"},
         "elem_type": "i64", "elem_bytes": 8, "access_bytes": 8, "lanes": 1,
         "loads": 1, "elements": 1, "bytes": 8, "redundant_bytes": 3, "zero_elements": 0,
         "redmap": "000xxxxx", "call_path": [{"function": "f", "file": "/s/a.c", "line": 4}]},
        {"kind": "int", "site": {"file": "/s/a.c", "line": 4, "column": 1, "function": "f",
                                 "expr": "b"},
         "elem_type": "i64", "elem_bytes": 8, "access_bytes": 8, "lanes": 1,
         "loads": 1, "elements": 1, "bytes": 8, "redundant_bytes": 3, "zero_elements": 0,
         "redmap": "000xxxxx", "call_path": [{"function": "f", "file": "/s/a.c", "line": 4}]},
        {"kind": "float", "site": {"file": "/s/a.c", "line": 6, "column": 2, "function": "h",
                                   "expr": "d[?]"},
         "elem_type": "f64", "elem_bytes": 8, "access_bytes": 16, "lanes": 2,
         "loads": 2, "elements": 4, "bytes": 32, "redundant_bytes": 8, "zero_elements": 1,
         "redmap": "x|xx|x0000000",
         "call_path": [{"function": "h", "file": "/s/a.c", "line": 6, "parallel_region": True}]}],
    "other": [{"site": {"file": "/s/a.c", "line": 7, "column": 3, "function": "f",
                        "expr": "*p"}, "access_bytes": 24, "loads": 1, "bytes": 24,
               "call_path": [{"function": "f", "file": "/s/a.c", "line": 7}]}],
    "data": [{"kind": "int", "object": "static", "name": "a", "symbol": "a",
              "module": "/x/inline/prog", "allocations": 1, "size": 80, "elements": 12,
              "bytes": 96, "redundant_bytes": 70, "zero_elements": 2,
              "never_loaded_bytes": 0, "always_zero_bytes": 70,
              "byte_map": {"granule": 1, "length": 80, "runs": "7z1x"}},
             {"kind": "float", "object": "heap", "allocator": "malloc",
              "alloc_path": [{"function": "main", "file": "/s/a.c", "line": 8}],
              "allocations": 1, "size": 32, "elements": 4, "bytes": 32,
              "redundant_bytes": 8, "zero_elements": 1, "never_loaded_bytes": 0,
              "always_zero_bytes": 0, "byte_map": {"granule": 1, "length": 32, "runs": "32x"}}],
}


def selftest_mutations():
    """(description, function(report) changing it, text the difference must contain)."""
    muts = []
    for i in range(len(SELF_REPORT["code"])):
        for f in CODE_FIELDS:
            def m(r, i=i, f=f):
                v = r["code"][i][f]
                r["code"][i][f] = v + 1 if isinstance(v, int) else v + "?"
            muts.append(("code[%d].%s" % (i, f), m, f + ":"))
    for f in ("file", "line", "column", "function", "expr"):
        def m(r, f=f):
            v = r["code"][0]["site"][f]
            r["code"][0]["site"][f] = v + 1 if isinstance(v, int) else v + "x"
        muts.append(("code[0].site.%s" % f, m, "record(s)"))
    for f in ("function", "file", "line", "inlined", "parallel_region"):
        def m(r, f=f):
            fr = r["code"][1]["call_path"][1]
            v = fr.get(f, False)
            fr[f] = (not v) if isinstance(v, bool) else v + 1 if isinstance(v, int) else v + "x"
        muts.append(("code[1].call_path[1].%s" % f, m, "record(s)"))
    muts.append(("code: a frame dropped", lambda r: r["code"][0]["call_path"].pop(), "record(s)"))
    muts.append(("code: a record dropped", lambda r: r["code"].pop(0), "record(s)"))
    muts.append(("code: a duplicate dropped", lambda r: r["code"].pop(3),
                 "2 record(s) in inline, 1 in out-of-line"))
    muts.append(("code: a record added", lambda r: r["code"].append(copy.deepcopy(r["code"][0])),
                 "record(s)"))
    for f in OTHER_FIELDS:
        def m(r, f=f):
            r["other"][0][f] += 1
        muts.append(("other[0].%s" % f, m, f + ":"))
    muts.append(("other: dropped", lambda r: r["other"].clear(), "record(s)"))
    for path in (("int", "elements"), ("int", "bytes"), ("int", "redundant_bytes"),
                 ("int", "zero_elements"), ("float", "elements"), ("float", "bytes"),
                 ("float", "redundant_bytes"), ("float", "zero_elements"),
                 ("other", "loads"), ("other", "bytes")):
        def m(r, path=path):
            r["summary"][path[0]][path[1]] += 1
        muts.append(("summary.%s.%s" % path, m, "total summary.%s.%s" % path))
    def m(r):
        r["summary"]["data"]["static"]["float"]["zero_elements"] += 1
    muts.append(("summary.data.static.float.zero_elements", m, "summary.data"))
    muts.append(("modes", lambda r: r["modes"].pop(), "modes"))
    for f in TOTAL_FIELDS:
        def m(r, f=f):
            r["threads"][1]["float"][f] += 1
        muts.append(("threads[1].float.%s" % f, m, "threads:"))
    def m(r):
        r["threads"][0]["int"]["elements"] -= 2
        r["threads"][1]["int"]["elements"] += 2
    muts.append(("threads: 2 elements moved to another thread", m, "threads:"))
    def m(r):
        r["threads"][2]["int"]["elements"] = 1
    muts.append(("threads: an idle thread loads", m, "threads:"))
    for i in range(2):
        for f in DATA_FIELDS:
            def m(r, i=i, f=f):
                r["data"][i][f] += 1
            muts.append(("data[%d].%s" % (i, f), m, f + ":"))
        def m(r, i=i):
            r["data"][i]["byte_map"]["runs"] += "1n"
        muts.append(("data[%d].byte_map" % i, m, "byte_map:"))
    def m(r):
        r["data"][0]["module"] = "/elsewhere/other"
    muts.append(("data[0].module", m, "record(s)"))
    return muts


def selftest():
    failed = 0
    base = SELF_REPORT
    same = copy.deepcopy(base)
    same["program"], same["pid"] = "/y/out-of-line/prog", 2
    same["data"][0]["module"] = "/x/out-of-line/prog"       # basename compared
    same["code"].reverse()                                   # order does not matter
    same["threads"] = [dict(copy.deepcopy(t), thread=5 - t["thread"])  # numbers and order,
                       for t in reversed(base["threads"][:2])]         # idle threads: not compared
    diffs = compare_reports(base, same)
    if diffs:
        failed += 1
        print("FAIL: equal reports reported as different:\n  " + "\n  ".join(diffs))
    muts = selftest_mutations()
    for what, mutate, expect in muts:
        changed = copy.deepcopy(base)
        mutate(changed)
        diffs = compare_reports(base, changed)
        if not any(expect in d for d in diffs):
            failed += 1
            print("FAIL: %s changed: %s" % (what, "no difference reported" if not diffs else
                                            "reported as %r (expected %r)" % (diffs, expect)))
    print("selftest: %d changes, each reported%s" % (len(muts), "" if not failed else
                                                    "; %d check(s) FAILED" % failed))
    print("example:", compare_reports(base, _mutated(base, muts[7][1]))[0])
    return 1 if failed else 0


def _mutated(r, m):
    r = copy.deepcopy(r)
    m(r)
    return r


# ---------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", help="the zeroinst build's bin/ (zeroinst-cc, ...)")
    ap.add_argument("--work", help="scratch directory (failures are kept here)")
    ap.add_argument("--cc", default="gcc",
                    help="plain C compiler (default gcc; C++ and Fortran: g++, gfortran"
                         " with the same suffix)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--keep", action="store_true", help="keep passing cases' directories too")
    ap.add_argument("--verbose", "-v", action="store_true", help="a line per program")
    ap.add_argument("--only", action="append", default=[],
                    help="only programs whose name contains this")
    sub = ap.add_subparsers(dest="set", required=True)
    sub.add_parser("ground-truth", help="tests/ground-truth programs")
    k = sub.add_parser("kernels", help="examples/kernels programs")
    k.add_argument("--size", default="quick", help="the kernels' argument (default quick)")
    k.add_argument("--threads", type=int, default=1, help="OMP_NUM_THREADS (default 1)")
    t = sub.add_parser("torture", help="a sample of GCC's torture tests")
    t.add_argument("--cache", required=True, help="directory of the unpacked torture sources")
    t.add_argument("--tool", default="/work/shared/tools/gcc-torture",
                   help="the gcc-torture script")
    t.add_argument("--c", action="append", default=[], metavar="OLEVEL[:K]",
                   help="C programs at that -O level, every K-th (e.g. O2:10)")
    t.add_argument("--fortran", action="append", default=[], metavar="OLEVEL[:K]",
                   help="Fortran programs, likewise")
    t.add_argument("--timeout", type=float, default=10,
                   help="seconds for a plain run (instrumented: 3x)")
    c = sub.add_parser("csmith", help="csmith programs")
    c.add_argument("--csmith", default="csmith")
    c.add_argument("--seeds", default="1-20", help="e.g. 1-20 or 3,17")
    c.add_argument("--opt", default="O2")
    c.add_argument("--timeout", type=float, default=5,
                   help="seconds for a plain run (instrumented: 3x)")
    cmp_ = sub.add_parser("compare", help="compare two report.json files")
    cmp_.add_argument("inline")
    cmp_.add_argument("out_of_line")
    sub.add_parser("selftest", help="the comparison against changed hand-made reports")
    args = ap.parse_args()

    if args.set == "selftest":
        sys.exit(selftest())
    if args.set == "compare":
        reps = []
        for p in (args.inline, args.out_of_line):
            reps.append(report_format.load(p))
        diffs = compare_reports(*reps)
        for d in diffs:
            print(d)
        print("%d difference(s)" % len(diffs))
        sys.exit(1 if diffs else 0)
    if not args.bin or not args.work:
        ap.error("--bin and --work are required for %s" % args.set)
    tools = Tools(os.path.abspath(args.bin), args.cc)
    for w in tools.inst.values():
        if not os.access(w, os.X_OK):
            sys.exit("error: %s not found (build zeroinst first)" % w)
    make = {"ground-truth": ground_truth_programs, "kernels": kernel_programs,
            "torture": torture_programs, "csmith": csmith_programs}[args.set]
    progs, skipped = make(args)
    if args.only:
        progs = [p for p in progs if any(s in p.name for s in args.only)]
    for s in skipped:
        print("skipped: %s" % s)
    if not progs:
        sys.exit("error: no programs selected")
    sys.exit(run_all(progs, tools, args, "differential %s" % args.set))


if __name__ == "__main__":
    main()
