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
                               elem_bytes, function, expr, lanes, copies (1
                               when the record has none) (the same in all
                               records).  lanes>=N means "some record here
                               has at least N lanes"; expr=A|B|... that the
                               records' texts are these (a line with loads
                               of different expressions).  A value in double
                               quotes may hold spaces: expr="p[i + 1].w".
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
  text=TEXT                    only the records on the line whose
                               expression is TEXT (several loads of one
                               statement: expect@LABEL lines, one per text).

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

Data-centric expectations (checked when the run's ZEROINST_MODE, from
zeroinst-env or --env, has "data"; the report's "modes" must then have it):

  expect-data: static=NAME KIND KEY=VALUE ...
                               the record with "object": "static", this
                               "name" (as the report spells it: "counts",
                               "ns::table", "mymod::arr", "/blk/") and
                               "kind" KIND (int or float).  With module=M
                               (basename: the test program is "inst", a
                               library "libNAME.so") only that module's.
  expect-data: heap@LABEL KIND KEY=VALUE ...
                               the heap records whose alloc_path[0] is the
                               line marked [[LABEL]] (in the test source or
                               a library source), summed: one record per
                               distinct full allocation path.  path=... as
                               for code records, matched against alloc_path.
      Keys: size, allocations, elements, bytes, redundant_bytes,
      zero_elements, never_loaded_bytes, always_zero_bytes (summed over the
      matching records); map (byte_map.runs; several records: merged offset
      by offset, x over z over n, as the runtime merges a group); granule
      (byte_map.granule), allocator, module (basename), variable ("-" when
      the record has none), descriptor and thread_local (True or False)
      (the same in all).
      The word "absent" instead of keys: no such record exists.  "[T,...]"
      sections work as for expect:.  Several expect-data lines may name one
      object (e.g. with different path=); a target's expect-data[T] replaces
      the generic line with the same object, kind, path and module.
  expect-data-total: CLASS.KIND.KEY=VALUE ...
                               summary.data.CLASS.KIND.KEY, CLASS one of
                               static, heap, stack, unknown
  expect-data-records: N       number of records in "data"

In a run without "code" in "modes" (ZEROINST_MODE=data) the code records
must be empty; expect:, expect@, expect-records and expect-lines are then
not checked, expect-total and expect-threads still are.

Consistency checks of every report with data mode: per kind, the four
classes of summary.data add up to summary.KIND, and the records of static
(heap) objects add up to summary.data.static (heap); the code records add
up to summary.KIND when code mode ran too; each record has elements > 0
(and allocations 1 if static), a byte map whose runs add up to its
length, and (granule 1, a static object or a single allocation) as many
'n' and 'z' bytes as never_loaded_bytes and always_zero_bytes, and
length == size.

Shared libraries (paths relative to the test source; built with the
compiler of their language, the same flags and plugin options, -shared
-fPIC, once plain and once instrumented, in separate directories):

  zeroinst-lib: NAME SOURCE    libNAME.so, linked to the program
                               (-L DIR -lNAME -Wl,-rpath,DIR)
  zeroinst-dlopen: NAME SOURCE libNAME.so, not linked: its full path is in
                               the environment variable ZI_TEST_DLOPEN_NAME
                               (the plain or the instrumented one)

Library sources may hold [[LABEL]]s (usable in expect@, heap@ and path=);
their other comments are not read.

Usage: check.py --bin BUILD/bin SOURCE [--flags F] [--env K=V] [--plugin-arg A]
                [--plain-cc CROSS-GCC] [--emulator "qemu-aarch64 -L /usr/aarch64-linux-gnu"]
       check.py --report REPORT.json SOURCE   (check a given report: no build,
                no run; for testing the checker itself)
       --save-report FILE keeps a copy of the instrumented run's report.json
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)

COUNTERS = ("loads", "elements", "bytes", "redundant_bytes", "zero_elements")
SINGLE = ("redmap", "elem_type", "elem_bytes", "function", "expr", "access_bytes")
TOTALS = ("elements", "bytes", "redundant_bytes", "zero_elements")
DATA_COUNTERS = ("size", "allocations", "elements", "bytes", "redundant_bytes", "zero_elements",
                 "never_loaded_bytes", "always_zero_bytes")
DATA_SINGLE = ("granule", "allocator", "module", "variable", "descriptor", "thread_local")
# Keys a record may leave out, and what that means.
DATA_ABSENT = {"variable": "-", "descriptor": False, "thread_local": False}
DATA_CLASSES = ("static", "heap", "stack", "unknown")
KINDS = ("int", "float")


def expect_words(val):
    """The KEY=VALUE words of an expect: line; a value in double quotes may
    hold spaces (expr="p[i + 1].w")."""
    return [w.replace('"', '') for w in re.findall(r'(?:[^\s"]|"[^"]*")+', val)]


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
    """KEY=VALUE, or KEY>=N kept as (KEY, ">=N"), or a bare word (absent)."""
    if ">=" in kv:
        key, val = kv.split(">=", 1)
        return key, ">=" + val
    if "=" not in kv:
        if kv != "absent":
            fail("bad expectation word %r (KEY=VALUE or absent)" % kv)
        return kv, True
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


def find_labels(path, labels, label_file):
    base = os.path.basename(path)
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            for m in re.finditer(r"\[\[([A-Za-z0-9_]+)\]\]", line):
                name = m.group(1)
                if name in labels and (label_file[name], labels[name]) != (base, lineno):
                    fail("label [[%s]] defined twice (%s:%d, %s:%d)"
                         % (name, label_file[name], labels[name], base, lineno))
                labels[name] = lineno
                label_file[name] = base


DIRECTIVES = ("expect@[A-Za-z0-9_]+|expect|expect-total|expect-threads|expect-records|expect-lines|"
              "expect-data|expect-data-total|expect-data-records|"
              "zeroinst-flags|zeroinst-env|zeroinst-args|zeroinst-plugin-args|zeroinst-lib|zeroinst-dlopen")


def parse_source(path, arch="x86_64"):
    labels, label_file = {}, {}
    find_labels(path, labels, label_file)
    spec = {"labels": labels, "label_file": label_file, "flags": "-O1", "env": {}, "args": [],
            "lines": [], "totals": [], "threads": None, "records": None, "allowed_lines": None,
            "plugin_args": [], "data": [], "data_totals": [], "data_records": None, "libs": []}
    generic, specific = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            m = re.search(r"(?:^|//|!|\*)\s*(" + DIRECTIVES + r")(?:\[([\w,]+)\])?:\s*(.*)$", line)
            if not m:
                continue
            if m.group(2) is None:
                generic.append((lineno, m.group(1), m.group(3)))
            elif arch in m.group(2).split(","):
                specific.append((lineno, m.group(1), m.group(3)))
    # A target's own directives are applied last: they win.
    totals, data_totals, data = {}, {}, []
    specific_lines = {lineno for lineno, _, _ in specific}
    for lineno, key, val in generic + specific:
        val = re.sub(r"\*/\s*$", "", val).strip()
        if key == "expect":
            spec["lines"] = [(n, w) for n, w in spec["lines"] if n != lineno]
            spec["lines"].append((lineno, for_target(expect_words(val), arch)))
        elif key.startswith("expect@"):
            # Several may name one line (one per call path): never replaced.
            spec["lines"].append((key[7:], for_target(expect_words(val), arch)))
        elif key == "expect-total":
            totals.update(kv.split("=", 1) for kv in val.split())
            spec["totals"] = list(totals.items())
        elif key == "expect-threads":
            spec["threads"] = sorted(tuple(int(x) for x in t.split(",")) for t in val.split(";"))
        elif key == "expect-records":
            spec["records"] = int(val)
        elif key == "expect-lines":
            spec["allowed_lines"] = {int(x) for x in val.split()}
        elif key == "expect-data":
            words = val.split()
            if len(words) < 3:
                fail("line %d: expect-data: OBJECT KIND KEY=VALUE ... (or absent)" % lineno)
            obj, kind = words[0], words[1]
            m = re.fullmatch(r"static=(\S+)|heap@([A-Za-z0-9_]+)", obj)
            if not m or kind not in KINDS:
                fail("line %d: expect-data: object is static=NAME or heap@LABEL, kind int or float"
                     % lineno)
            want = for_target(words[2:], arch)
            if "absent" in want and len(want) > (1 + ("path" in want) + ("module" in want)):
                fail("line %d: absent with other keys" % lineno)
            for k in want:
                if k not in DATA_COUNTERS + DATA_SINGLE + ("map", "path", "absent"):
                    fail("line %d: unknown expect-data key %s" % (lineno, k))
            sel = ("static", m.group(1)) if m.group(1) else ("heap", m.group(2))
            # A target's line replaces the generic ones with the same
            # object, kind, path and module; generic ones all stay.
            ident = (sel, kind, want.get("path"), want.get("module"))
            if lineno in specific_lines:
                data = [d for d in data if d[0] != ident or d[2] in specific_lines]
            data.append((ident, want, lineno))
        elif key == "expect-data-total":
            for kv in val.split():
                k, v = kv.split("=", 1)
                parts = k.split(".")
                if len(parts) != 3 or parts[0] not in DATA_CLASSES or parts[1] not in KINDS \
                        or parts[2] not in TOTALS:
                    fail("line %d: expect-data-total: CLASS.KIND.KEY=VALUE, not %s" % (lineno, kv))
                data_totals[k] = v
            spec["data_totals"] = list(data_totals.items())
        elif key == "expect-data-records":
            spec["data_records"] = int(val)
        elif key == "zeroinst-flags":
            spec["flags"] = val
        elif key == "zeroinst-env":
            spec["env"].update(kv.split("=", 1) for kv in val.split())
        elif key == "zeroinst-args":
            spec["args"] = shlex.split(val)
        elif key == "zeroinst-plugin-args":
            spec["plugin_args"] = val.split()
        elif key in ("zeroinst-lib", "zeroinst-dlopen"):
            words = val.split()
            if len(words) != 2 or not re.fullmatch(r"\w+", words[0]):
                fail("line %d: %s: NAME SOURCE" % (lineno, key))
            lib_src = os.path.join(os.path.dirname(path), words[1])
            spec["libs"].append((words[0], lib_src, key == "zeroinst-lib"))
            find_labels(lib_src, labels, label_file)
    spec["data"] = [(ident[0], ident[1], want) for ident, want, _ in data]
    return spec


def run_cmd(cmd, cwd):
    # In the scratch directory: gfortran writes .mod files there.
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        fail("compile failed: %s\n%s" % (" ".join(cmd), r.stderr))


def build_libs(compiler_of, libs, flags, outdir, extra):
    """Build the test's libraries into OUTDIR: (link arguments, environment)."""
    os.makedirs(outdir)
    link, env = [], {}
    for name, src, linked in libs:
        lib = os.path.join(outdir, "lib%s.so" % name)
        run_cmd([compiler_of(src)] + shlex.split(flags) + list(extra) + ["-shared", "-fPIC", src, "-o", lib],
                outdir)
        if linked:
            link += ["-L" + outdir, "-l" + name, "-Wl,-rpath," + outdir]
        else:
            env["ZI_TEST_DLOPEN_" + name] = lib
    return link, env


def build_and_run(compiler, source, flags, exe, env, args, extra=(), emulator=(), libs=()):
    run_cmd([compiler] + shlex.split(flags) + list(extra) + [source, "-o", exe] + list(libs) + ["-lm"],
            os.path.dirname(exe))
    r = subprocess.run(list(emulator) + [exe] + args, capture_output=True, text=True, env=env,
                       timeout=120)
    return r


def merge_redmaps(maps):
    """Redmap of the union of records: a part is '0' only if it was zero in
    every element of every record."""
    if len({len(m) for m in maps}) != 1:
        fail("redmaps of different shapes on one line: %s" % maps)
    return "".join("x" if "x" in chars else chars[0] for chars in zip(*maps))


def decode_runs(runs):
    """"1x7z16n" -> "xzzzzzzz" + 16 * "n"."""
    if not re.fullmatch(r"(?:[1-9][0-9]*[nzx])*", runs):
        fail("bad byte map runs %r" % runs[:200])
    return "".join(state * int(count) for count, state in re.findall(r"([0-9]+)([nzx])", runs))


def encode_runs(states):
    return "".join("%d%s" % (len(m.group(0)), m.group(1)) for m in re.finditer(r"([nzx])\1*", states))


def merge_maps(maps):
    """Byte maps of several records merged offset by offset: x if any has x
    there, else z if any has z, else n (missing offsets are n)."""
    states = [decode_runs(m) for m in maps]
    n = max(len(s) for s in states)
    rank = {"n": 0, "z": 1, "x": 2}
    out = []
    for i in range(n):
        out.append(max((s[i] if i < len(s) else "n" for s in states), key=rank.get))
    return encode_runs("".join(out))


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
        return fr["function"] == fn and (line is None or fr.get("line") == line)

    def match(i, j):
        if i == len(pattern):
            return j == len(frames)
        if pattern[i] == "*":
            return any(match(i + 1, k) for k in range(j, len(frames) + 1))
        return j < len(frames) and frame_ok(pattern[i], frames[j]) and match(i + 1, j + 1)
    return match(0, 0)


def show_path(frames):
    return ",".join("%s:%s%s" % (f["function"], f.get("line"), "[i]" if f.get("inlined") else "")
                    for f in frames)


def check_value(what, key, want, got):
    if key == "lanes" and want.startswith(">="):
        return
    if str(got) != want:
        fail("%s: %s = %s, expected %s" % (what, key, got, want))


def check_code(report, spec, source):
    base = os.path.basename(source)
    code = report["code"]
    for lineno, want in spec["lines"]:
        fbase = base
        if isinstance(lineno, str):
            if lineno not in spec["labels"]:
                fail("expect@%s: no line is marked [[%s]]" % (lineno, lineno))
            fbase = spec["label_file"][lineno]
            lineno = spec["labels"][lineno]
        mine = [r for r in code if os.path.basename(r["site"]["file"]) == fbase]
        recs = [r for r in mine if r["site"]["line"] == lineno]
        what = "%s:%d" % (fbase, lineno)
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
        if "text" in want:
            chosen = [r for r in recs if r["site"]["expr"] == want["text"]]
            if not chosen:
                fail("%s: no record with text %s; texts here: %s"
                     % (what, want["text"], sorted({r["site"]["expr"] for r in recs})))
            recs = chosen
            what += " text " + want["text"]
        for key, val in want.items():
            if key in ("path", "text"):
                continue
            if key in COUNTERS:
                check_value(what, key, val, sum(r[key] for r in recs))
            elif key == "lanes" and val.startswith(">="):
                if not any(r["lanes"] >= int(val[2:]) for r in recs):
                    fail("%s: no record with lanes >= %s (lanes: %s)" % (what, val[2:], [r["lanes"] for r in recs]))
            elif key == "redmap":
                check_value(what, key, val, merge_redmaps([r["redmap"] for r in recs]))
            elif key == "expr" and "|" in val:
                check_value(what, key, "|".join(sorted(val.split("|"))),
                            "|".join(sorted({r["site"]["expr"] for r in recs})))
            else:
                got = {str(r.get(key, 1) if key == "copies"
                           else r[key] if key in r else r["site"].get(key)) for r in recs}
                if len(got) != 1:
                    fail("%s: records disagree on %s: %s" % (what, key, sorted(got)))
                check_value(what, key, val, got.pop())
    if spec["records"] is not None and len(code) != spec["records"]:
        fail("%d code records, expected %d: %s" % (len(code), spec["records"],
             ["%s:%d %s" % (r["site"]["file"], r["site"]["line"], r["site"]["expr"]) for r in code]))
    if spec["allowed_lines"] is not None:
        stray = [r for r in code if r["site"]["line"] not in spec["allowed_lines"]]
        if stray:
            fail("unexpected records on lines %s" % sorted({r["site"]["line"] for r in stray}))


def describe_data(r):
    if r["object"] == "heap":
        where = "heap " + show_path(r.get("alloc_path") or [])
    else:
        where = "%s %s (%s)" % (r["object"], r.get("name"), os.path.basename(r.get("module") or "?"))
    return "%s %s" % (where, r["kind"])


def check_data(report, spec):
    data = report["data"]
    for sel, kind, want in spec["data"]:
        if sel[0] == "static":
            what = "static %s %s" % (sel[1], kind)
            recs = [r for r in data if r["object"] == "static" and r.get("name") == sel[1]
                    and r["kind"] == kind]
            if "module" in want:
                recs = [r for r in recs if os.path.basename(r.get("module") or "") == want["module"]]
                what += " in " + want["module"]
            if len(recs) > 1:
                fail("%s: %d records (modules %s)" % (what, len(recs), [r.get("module") for r in recs]))
        else:
            label = sel[1]
            if label not in spec["labels"]:
                fail("expect-data heap@%s: no line is marked [[%s]]" % (label, label))
            fbase, line = spec["label_file"][label], spec["labels"][label]
            what = "heap@%s (%s:%d) %s" % (label, fbase, line, kind)
            recs = [r for r in data if r["object"] == "heap" and r["kind"] == kind and r.get("alloc_path")
                    and os.path.basename(r["alloc_path"][0].get("file") or "") == fbase
                    and r["alloc_path"][0].get("line") == line]
            if "path" in want:
                recs = [r for r in recs if path_matches(want["path"].split(","), r["alloc_path"], spec["labels"])]
                what += " path " + want["path"]
        if "absent" in want:
            if recs:
                fail("%s: expected no record, found %s" % (what, [describe_data(r) for r in recs]))
            continue
        if not recs:
            fail("%s: no record; data records: %s" % (what, [describe_data(r) for r in data]))
        for key, val in want.items():
            if key == "path":
                continue
            if key in DATA_COUNTERS:
                check_value(what, key, val, sum(r[key] for r in recs))
            elif key == "map":
                check_value(what, key, val, merge_maps([r["byte_map"]["runs"] for r in recs]))
            elif key == "granule":
                got = {r["byte_map"]["granule"] for r in recs}
                if len(got) != 1:
                    fail("%s: records disagree on granule: %s" % (what, sorted(got)))
                check_value(what, key, val, got.pop())
            else:
                got = {str(os.path.basename(r[key]) if key == "module"
                           else r.get(key, DATA_ABSENT[key]) if key in DATA_ABSENT else r[key])
                       for r in recs}
                if len(got) != 1:
                    fail("%s: records disagree on %s: %s" % (what, key, sorted(got)))
                check_value(what, key, val, got.pop())
    for key, val in spec["data_totals"]:
        cls, kind, field = key.split(".")
        check_value("data total", key, val, report["summary"]["data"][cls][kind][field])
    if spec["data_records"] is not None and len(data) != spec["data_records"]:
        fail("%d data records, expected %d: %s" % (len(data), spec["data_records"],
                                                  [describe_data(r) for r in data]))


def check_consistency(report):
    """Internal consistency of the report (see the module comment)."""
    summary = report["summary"]
    for kind in KINDS:
        for field in TOTALS:
            s = sum(t[kind][field] for t in report["threads"])
            if s != summary[kind][field]:
                fail("threads' %s.%s sum to %d, summary says %d" % (kind, field, s, summary[kind][field]))
    modes = report.get("modes", [])
    if "data" not in modes:
        return
    for kind in KINDS:
        for field in TOTALS:
            s = sum(summary["data"][c][kind][field] for c in DATA_CLASSES)
            if s != summary[kind][field]:
                fail("summary.data.*.%s.%s sum to %d, summary.%s.%s is %d"
                     % (kind, field, s, kind, field, summary[kind][field]))
            for cls in ("static", "heap"):
                s = sum(r[field] for r in report["data"] if r["object"] == cls and r["kind"] == kind)
                if s != summary["data"][cls][kind][field]:
                    fail("%s %s records' %s sum to %d, summary.data.%s.%s.%s is %d"
                         % (cls, kind, field, s, cls, kind, field, summary["data"][cls][kind][field]))
            if "code" in modes:
                s = sum(r[field] for r in report["code"] if r["kind"] == kind)
                if s != summary[kind][field]:
                    fail("code %s records' %s sum to %d, summary says %d" % (kind, field, s, summary[kind][field]))
    for r in report["data"]:
        what = describe_data(r)
        if r["object"] not in ("static", "heap") or r["kind"] not in KINDS:
            fail("%s: bad object or kind" % what)
        if r["elements"] <= 0:
            fail("%s: a record with no elements" % what)
        # A thread-local variable's record sums its instances, one per thread.
        single = r["allocations"] == 1 or (r["object"] == "static" and not r.get("thread_local"))
        if r["object"] == "static" and not r.get("thread_local") and r["allocations"] != 1:
            fail("%s: a static object with allocations = %d" % (what, r["allocations"]))
        bm = r["byte_map"]
        states = decode_runs(bm["runs"])
        # runs count granules; the last one may be partial
        if len(states) != -(-bm["length"] // bm["granule"]):
            fail("%s: byte map runs cover %d granules of %d bytes, length is %d"
                 % (what, len(states), bm["granule"], bm["length"]))
        if r["never_loaded_bytes"] + r["always_zero_bytes"] > r["size"]:
            fail("%s: never_loaded_bytes + always_zero_bytes > size" % what)
        if bm["granule"] == 1 and single:
            if bm["length"] != r["size"]:
                fail("%s: byte map length %d, size %d" % (what, bm["length"], r["size"]))
            for state, key in (("n", "never_loaded_bytes"), ("z", "always_zero_bytes")):
                if states.count(state) != r[key]:
                    fail("%s: %d '%s' bytes in the map, %s = %d" % (what, states.count(state), state, key, r[key]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin")
    ap.add_argument("source")
    ap.add_argument("--flags", default=None, help="override zeroinst-flags")
    ap.add_argument("--extra-flags", default="", help="added to zeroinst-flags")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--plugin-arg", action="append", default=[])
    ap.add_argument("--plain-cc", default="gcc",
                    help="plain C compiler, e.g. aarch64-linux-gnu-gcc (C++/Fortran derived)")
    ap.add_argument("--emulator", default="",
                    help="run programs through this, e.g. \"qemu-aarch64 -L /usr/aarch64-linux-gnu\"")
    ap.add_argument("--report", help="check this report.json (no build, no run)")
    ap.add_argument("--save-report", help="copy the instrumented run's report.json here")
    opt = ap.parse_args()
    if not opt.bin and not opt.report:
        ap.error("--bin is required")

    source = os.path.abspath(opt.source)
    arch = target_arch(opt.plain_cc)
    spec = parse_source(source, arch)
    base = os.path.basename(source)

    if opt.report:
        report = report_format.load(opt.report)
    else:
        report = build_run_compare(opt, spec, source)

    modes = report.get("modes", [])
    if "code" in modes:
        check_code(report, spec, source)
    elif report["code"]:
        fail("%d code records in a run without code mode" % len(report["code"]))
    for key, val in spec["totals"]:
        kind, field = key.split(".")
        check_value("total", key, val, report["summary"][kind][field])
    if spec["threads"] is not None:
        got = sorted(tuple(t["int"][k] for k in TOTALS)
                     for t in report["threads"] if t["int"]["elements"] or t["float"]["elements"])
        if got != spec["threads"]:
            fail("thread totals %s, expected %s" % (got, spec["threads"]))
    env_mode = dict(spec["env"], **dict(kv.split("=", 1) for kv in opt.env)).get("ZEROINST_MODE", "code")
    if "data" in env_mode.split(","):
        if "data" not in modes:
            fail("ZEROINST_MODE=%s but the report's modes are %s" % (env_mode, modes))
        check_data(report, spec)
    check_consistency(report)
    print("ok: %s (%d records checked%s%s)" % (base, len(spec["lines"]) if "code" in modes else 0,
                                              ", %d data records checked" % len(spec["data"])
                                              if "data" in modes else "",
                                              "" if arch == "x86_64" else ", " + arch))


def build_run_compare(opt, spec, source):
    flags = (opt.flags or spec["flags"]) + " -fchecking " + opt.extra_flags
    plain_cc, zi_cc = compilers(opt.bin, source, opt.plain_cc)
    emulator = shlex.split(opt.emulator)
    plain_of = lambda src: compilers(opt.bin, src, opt.plain_cc)[0]
    zi_of = lambda src: compilers(opt.bin, src, opt.plain_cc)[1]

    with tempfile.TemporaryDirectory(prefix="zi-gt-") as tmp:
        env = dict(os.environ)
        env.update(spec["env"])
        env.update(kv.split("=", 1) for kv in opt.env)
        extra = ["-fplugin-arg-zeroinst-" + a for a in spec["plugin_args"] + opt.plugin_arg]
        plain_link, plain_env, inst_link, inst_env = [], {}, [], {}
        if spec["libs"]:
            plain_link, plain_env = build_libs(plain_of, spec["libs"], flags, os.path.join(tmp, "plain-lib"), ())
            inst_link, inst_env = build_libs(zi_of, spec["libs"], flags, os.path.join(tmp, "inst-lib"), extra)
        plain = build_and_run(plain_cc, source, flags, os.path.join(tmp, "plain"), dict(env, **plain_env),
                              spec["args"], emulator=emulator, libs=plain_link)
        env["ZEROINST_OUTPUT"] = os.path.join(tmp, "report")
        inst = build_and_run(zi_cc, source, flags, os.path.join(tmp, "inst"), dict(env, **inst_env),
                             spec["args"], extra, emulator, libs=inst_link)
        if (plain.returncode, plain.stdout) != (inst.returncode, inst.stdout):
            fail("instrumented run differs from plain run:\nplain (%d): %s\ninstrumented (%d): %s\n%s"
                 % (plain.returncode, plain.stdout, inst.returncode, inst.stdout, inst.stderr))
        if inst.stderr != plain.stderr:
            fail("instrumented stderr differs:\n%s" % inst.stderr)
        if opt.save_report:
            shutil.copyfile(os.path.join(tmp, "report", "report.json"), opt.save_report)
        return report_format.load(os.path.join(tmp, "report", "report.json"))


if __name__ == "__main__":
    main()
