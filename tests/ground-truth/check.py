#!/usr/bin/env python3
"""Ground-truth checker: build a test program with and without zeroinst, run
both, require identical output, and compare report.json with the exact
expectations written in the program's comments.

Expectation comments (C/C++ "//" or Fortran "!"), all numbers hand-derived:

  expect: KEY=VALUE ...        on the line of a load: the code records whose
                               site is this file and line, summed (a loop the
                               vectorizer splits into vector and scalar loads
                               keeps its totals).  Keys: loads, elements,
                               bytes, redundant_bytes, zero_elements; redmap
                               (merged over the records); elem_type,
                               elem_bytes, function, expr, lanes (the same in
                               all records).  lanes>=N means "some record
                               here has at least N lanes".
  expect-total: KIND.KEY=VALUE ...   program totals (summary.int/float/other)
  expect-threads: TOTALS;TOTALS;...  per-thread int totals as a multiset,
                               each "elements,bytes,redundant_bytes,zero_elements"
  expect-records: N            number of code records (no unexpected loads)
  expect-lines: L1 L2 ...      every code record is on one of these lines

  expect@LABEL: KEY=VALUE ...  the same for the line marked [[LABEL]] (in a
                               comment); several may name one line.
  path=F1,F2,...               only the records on the line whose call path
                               (innermost first) matches: each Fi is
                               FUNC@LABEL, FUNC:LINE, FUNC:? or FUNC (any
                               line), or * (any number of frames); a
                               frame ending "(inlined)" must be marked so.

Options of the whole test:
  zeroinst-flags: FLAGS        compiler flags for both builds (default -O1)
  zeroinst-env: K=V ...        environment of both runs
  zeroinst-args: ARGS          program arguments
  zeroinst-plugin-args: A ...  plugin options (instrumented build only),
                               e.g. "exclude=main" for -fplugin-arg-zeroinst-exclude=main

Per-target expectations (cross builds; the target is the first part of the
plain compiler's -dumpmachine: x86_64, aarch64, riscv64):

  expect: KEYS [aarch64] KEYS [x86_64,riscv64] KEYS
                               keys after "[T,...]" apply only on those
                               targets and override the generic ones
  DIRECTIVE[T,...]: ...        any directive above (expect-total,
                               expect-lines, expect-records, zeroinst-flags,
                               ...) only on those targets; it takes
                               precedence over the generic directive
                               (expect-total: key by key)

Usage: check.py --bin BUILD/bin SOURCE [--flags F] [--env K=V] [--plugin-arg A]
                [--plain-cc CROSS-GCC] [--emulator "qemu-aarch64 -L /usr/aarch64-linux-gnu"]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

COUNTERS = ("loads", "elements", "bytes", "redundant_bytes", "zero_elements")
SINGLE = ("redmap", "elem_type", "elem_bytes", "function", "expr", "access_bytes")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def compilers(bindir, source, plain_cc="gcc"):
    """Plain and instrumenting compiler for SOURCE; the plain C++ and Fortran
    drivers are derived from the plain C one (aarch64-linux-gnu-gcc-12 ->
    aarch64-linux-gnu-g++-12, aarch64-linux-gnu-gfortran-12)."""
    ext = os.path.splitext(source)[1]
    driver = lambda name: re.sub(r"gcc(-[0-9]+)?$", name + r"\1", plain_cc)
    if ext in (".f", ".f90", ".F90"):
        return driver("gfortran"), os.path.join(bindir, "zeroinst-fortran")
    if ext in (".cc", ".cpp"):
        return driver("g++"), os.path.join(bindir, "zeroinst-cxx")
    return plain_cc, os.path.join(bindir, "zeroinst-cc")


def target_arch(plain_cc):
    r = subprocess.run([plain_cc, "-dumpmachine"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("cannot run %s -dumpmachine: %s" % (plain_cc, r.stderr))
    return r.stdout.strip().split("-")[0]


def parse_pair(kv):
    """KEY=VALUE, or KEY>=N kept as (KEY, ">=N")."""
    if ">=" in kv:
        key, val = kv.split(">=", 1)
        return key, ">=" + val
    return tuple(kv.split("=", 1))


def for_target(words, arch):
    """KEY=VALUE words of an expect: line, "[T,...]" sections kept only when
    they name ARCH; later (target) keys override earlier (generic) ones."""
    want, mine = {}, True
    for w in words:
        m = re.fullmatch(r"\[([\w,]+)\]", w)
        if m:
            mine = arch in m.group(1).split(",")
        elif mine:
            k, v = parse_pair(w)
            want[k] = v
    return want


def parse_source(path, arch="x86_64"):
    labels = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            for m in re.finditer(r"\[\[([A-Za-z0-9_]+)\]\]", line):
                labels[m.group(1)] = lineno
    spec = {"labels": labels, "flags": "-O1", "env": {}, "args": [], "lines": [], "totals": [],
            "threads": None, "records": None, "allowed_lines": None, "plugin_args": []}
    generic, specific = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = re.search(r"(?:^|//|!|\*)\s*(expect@[A-Za-z0-9_]+|expect|expect-total|expect-threads|expect-records|"
                          r"expect-lines|zeroinst-flags|zeroinst-env|zeroinst-args|zeroinst-plugin-args)"
                          r"(?:\[([\w,]+)\])?:\s*(.*)$", line)
            if not m:
                continue
            if m.group(2) is None:
                generic.append((lineno, m.group(1), m.group(3)))
            elif arch in m.group(2).split(","):
                specific.append((lineno, m.group(1), m.group(3)))
    # A target's own directives are applied last: they win.
    totals = {}
    for lineno, key, val in generic + specific:
        val = re.sub(r"\*/\s*$", "", val).strip()
        if key == "expect":
            spec["lines"] = [(n, w) for n, w in spec["lines"] if n != lineno]
            spec["lines"].append((lineno, for_target(val.split(), arch)))
        elif key.startswith("expect@"):
            # Several may name one line (one per call path): never replaced.
            spec["lines"].append((key[7:], for_target(val.split(), arch)))
        elif key == "expect-total":
            totals.update(kv.split("=", 1) for kv in val.split())
            spec["totals"] = list(totals.items())
        elif key == "expect-threads":
            spec["threads"] = sorted(tuple(int(x) for x in t.split(",")) for t in val.split(";"))
        elif key == "expect-records":
            spec["records"] = int(val)
        elif key == "expect-lines":
            spec["allowed_lines"] = {int(x) for x in val.split()}
        elif key == "zeroinst-flags":
            spec["flags"] = val
        elif key == "zeroinst-env":
            spec["env"].update(kv.split("=", 1) for kv in val.split())
        elif key == "zeroinst-args":
            spec["args"] = shlex.split(val)
        elif key == "zeroinst-plugin-args":
            spec["plugin_args"] = val.split()
    return spec


def build_and_run(compiler, source, flags, exe, env, args, extra=(), emulator=()):
    cmd = [compiler] + shlex.split(flags) + list(extra) + [source, "-o", exe, "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        fail("compile failed: %s\n%s" % (" ".join(cmd), r.stderr))
    r = subprocess.run(list(emulator) + [exe] + args, capture_output=True, text=True, env=env,
                       timeout=120)
    return r


def merge_redmaps(maps):
    """Redmap of the union of records: a part is '0' only if it was zero in
    every element of every record."""
    if len({len(m) for m in maps}) != 1:
        fail("redmaps of different shapes on one line: %s" % maps)
    return "".join("x" if "x" in chars else chars[0] for chars in zip(*maps))


def path_matches(pattern, frames, labels):
    """Does the call path FRAMES match PATTERN (see the module comment)?"""
    def frame_ok(p, fr):
        if p.endswith("(inlined)"):
            if not fr.get("inlined"):
                return False
            p = p[:-len("(inlined)")]
        if "@" in p:
            fn, label = p.split("@", 1)
            if label not in labels:
                fail("unknown label [[%s]] in path" % label)
            line = labels[label]
        elif ":" in p:
            fn, line = p.split(":", 1)
            line = None if line == "?" else int(line)
        else:
            fn, line = p, None
        return fr["function"] == fn and (line is None or fr["line"] == line)

    def match(i, j):
        if i == len(pattern):
            return j == len(frames)
        if pattern[i] == "*":
            return any(match(i + 1, k) for k in range(j, len(frames) + 1))
        return j < len(frames) and frame_ok(pattern[i], frames[j]) and match(i + 1, j + 1)
    return match(0, 0)


def show_path(frames):
    return ",".join("%s:%d%s" % (f["function"], f["line"], "[i]" if f.get("inlined") else "")
                    for f in frames)


def check_value(what, key, want, got):
    if key == "lanes" and want.startswith(">="):
        return
    if str(got) != want:
        fail("%s: %s = %s, expected %s" % (what, key, got, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("source")
    ap.add_argument("--flags", default=None, help="override zeroinst-flags")
    ap.add_argument("--extra-flags", default="", help="added to zeroinst-flags")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--plugin-arg", action="append", default=[])
    ap.add_argument("--plain-cc", default="gcc",
                    help="plain C compiler, e.g. aarch64-linux-gnu-gcc (C++/Fortran derived)")
    ap.add_argument("--emulator", default="",
                    help="run programs through this, e.g. \"qemu-aarch64 -L /usr/aarch64-linux-gnu\"")
    opt = ap.parse_args()

    source = os.path.abspath(opt.source)
    arch = target_arch(opt.plain_cc)
    spec = parse_source(source, arch)
    flags = (opt.flags or spec["flags"]) + " -fchecking " + opt.extra_flags
    plain_cc, zi_cc = compilers(opt.bin, source, opt.plain_cc)
    emulator = shlex.split(opt.emulator)
    base = os.path.basename(source)

    with tempfile.TemporaryDirectory(prefix="zi-gt-") as tmp:
        env = dict(os.environ)
        env.update(spec["env"])
        env.update(kv.split("=", 1) for kv in opt.env)
        plain = build_and_run(plain_cc, source, flags, os.path.join(tmp, "plain"), env, spec["args"],
                              emulator=emulator)
        env["ZEROINST_OUTPUT"] = os.path.join(tmp, "report")
        extra = ["-fplugin-arg-zeroinst-" + a for a in spec["plugin_args"] + opt.plugin_arg]
        inst = build_and_run(zi_cc, source, flags, os.path.join(tmp, "inst"), env, spec["args"], extra,
                             emulator)
        if (plain.returncode, plain.stdout) != (inst.returncode, inst.stdout):
            fail("instrumented run differs from plain run:\nplain (%d): %s\ninstrumented (%d): %s\n%s"
                 % (plain.returncode, plain.stdout, inst.returncode, inst.stdout, inst.stderr))
        if inst.stderr != plain.stderr:
            fail("instrumented stderr differs:\n%s" % inst.stderr)
        with open(os.path.join(tmp, "report", "report.json")) as f:
            report = json.load(f)

    code = report["code"]
    mine = [r for r in code if os.path.basename(r["site"]["file"]) == base]
    for lineno, want in spec["lines"]:
        if isinstance(lineno, str):
            if lineno not in spec["labels"]:
                fail("expect@%s: no line is marked [[%s]]" % (lineno, lineno))
            lineno = spec["labels"][lineno]
        recs = [r for r in mine if r["site"]["line"] == lineno]
        what = "%s:%d" % (base, lineno)
        if not recs:
            fail("%s: no record (records are on lines %s)" % (what, sorted({r["site"]["line"] for r in mine})))
        if "path" in want:
            pattern = want["path"].split(",")
            chosen = [r for r in recs if path_matches(pattern, r["call_path"], spec["labels"])]
            if not chosen:
                fail("%s: no record with path %s; paths here: %s"
                     % (what, want["path"], [show_path(r["call_path"]) for r in recs]))
            recs = chosen
            what += " path " + want["path"]
        for key, val in want.items():
            if key == "path":
                continue
            if key in COUNTERS:
                check_value(what, key, val, sum(r[key] for r in recs))
            elif key == "lanes" and val.startswith(">="):
                if not any(r["lanes"] >= int(val[2:]) for r in recs):
                    fail("%s: no record with lanes >= %s (lanes: %s)" % (what, val[2:], [r["lanes"] for r in recs]))
            elif key == "redmap":
                check_value(what, key, val, merge_redmaps([r["redmap"] for r in recs]))
            else:
                got = {str(r[key] if key in r else r["site"].get(key)) for r in recs}
                if len(got) != 1:
                    fail("%s: records disagree on %s: %s" % (what, key, sorted(got)))
                check_value(what, key, val, got.pop())
    for key, val in spec["totals"]:
        kind, field = key.split(".")
        check_value("total", key, val, report["summary"][kind][field])
    if spec["records"] is not None and len(code) != spec["records"]:
        fail("%d code records, expected %d: %s" % (len(code), spec["records"],
             ["%s:%d %s" % (r["site"]["file"], r["site"]["line"], r["site"]["expr"]) for r in code]))
    if spec["allowed_lines"] is not None:
        stray = [r for r in code if r["site"]["line"] not in spec["allowed_lines"]]
        if stray:
            fail("unexpected records on lines %s" % sorted({r["site"]["line"] for r in stray}))
    if spec["threads"] is not None:
        got = sorted(tuple(t["int"][k] for k in ("elements", "bytes", "redundant_bytes", "zero_elements"))
                     for t in report["threads"] if t["int"]["elements"] or t["float"]["elements"])
        if got != spec["threads"]:
            fail("thread totals %s, expected %s" % (got, spec["threads"]))
    # Internal consistency: per-thread totals add up to the summary.
    for kind in ("int", "float"):
        for field in ("elements", "bytes", "redundant_bytes", "zero_elements"):
            s = sum(t[kind][field] for t in report["threads"])
            if s != report["summary"][kind][field]:
                fail("threads' %s.%s sum to %d, summary says %d" % (kind, field, s, report["summary"][kind][field]))
    print("ok: %s (%d records checked%s)" % (base, len(spec["lines"]),
                                            "" if arch == "x86_64" else ", " + arch))


if __name__ == "__main__":
    main()
