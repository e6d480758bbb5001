#!/usr/bin/env python3
"""Behaviour tests: every way out of a process, fork and exec, and bad
input (environment, output directory, plugin options).  Each case builds a
small C program of programs/ (its header comment says what it does and
derives the counts expected of it), runs it, and checks exit status,
output and the report(s) against those counts.  Compiler inputs of a
line (for the plugin's and the wrapper's errors) stay in their case.

Usage: behaviour.py --bin BUILD/bin CASE     (CASE "list" prints the cases)
"""
import argparse
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)

BIN = None
TMP = None

# The programs, and prelude.h, which they share: load_ones (N) loads N
# int64 ones (7 redundant bytes each).
PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def program(name):
    return os.path.join(PROGRAMS, name + ".c")


def build(name, flags=(), plugin=True, exe=None):
    """programs/NAME.c built with zeroinst-cc (PLUGIN) or gcc, at -O1, into
    TMP/EXE (by default NAME.inst or NAME.plain)."""
    exe = os.path.join(TMP, exe or name + (".inst" if plugin else ".plain"))
    cc = os.path.join(BIN, "zeroinst-cc") if plugin else "gcc"
    r = subprocess.run([cc, "-O1", "-fchecking", "-pthread", "-I", PROGRAMS, program(name), "-o", exe]
                       + list(flags), capture_output=True, text=True)
    check(r.returncode == 0, "compile failed:\n" + r.stderr)
    return exe


def run(exe, env=None, out="report", args=()):
    e = dict(os.environ)
    e.pop("ZEROINST_OUTPUT", None)
    if out:
        e["ZEROINST_OUTPUT"] = os.path.join(TMP, out)
    e.update(env or {})
    return subprocess.run([exe] + list(args), capture_output=True, text=True, env=e,
                          cwd=TMP, timeout=60)


def report(out="report"):
    path = os.path.join(TMP, out, "report.json")
    check(os.path.exists(path), "no report at " + path)
    return report_format.load(path)


def int_elements(rep):
    """Elements loaded by load_ones (other loads, such as the stdout pointer
    that fflush (stdout) reads, are not what the cases count)."""
    return sum(r["elements"] for r in rep["code"] if r["site"]["function"] == "load_ones")


def same_as_plain(name, env=None, flags=()):
    """Build both ways, run both, require identical status and stdout."""
    plain = run(build(name, flags, plugin=False), env, out=None)
    inst = run(build(name, flags), env)
    check((plain.returncode, plain.stdout) == (inst.returncode, inst.stdout),
          "instrumented run differs: plain %r %r, instrumented %r %r"
          % (plain.returncode, plain.stdout, inst.returncode, inst.stdout))
    return inst


# ---------------------------------------------------------------- cases

def case_exit_from_thread():
    """exit(3) from a second thread (programs/exit_thread.c): status 3, and
    both threads' loads in the report."""
    r = same_as_plain("exit_thread")
    check(r.returncode == 3, "status %d" % r.returncode)
    rep = report()
    check(int_elements(rep) == 30, "elements %d, expected 30" % int_elements(rep))
    check(sum(r["redundant_bytes"] for r in rep["code"] if r["site"]["function"] == "load_ones") == 210,
          "redundant bytes")


def case_compact_report():
    """The report stores each frame and calling context once (format 2):
    programs/compact.c's two records and their paths; the tables hold
    exactly the frames and the outer parts of the records' paths, nothing
    twice, nothing unused; `zeroinst export --format json-v1` expands them
    as tests/report_format.py does."""
    same_as_plain("compact")
    path = os.path.join(TMP, "report", "report.json")
    with open(path) as f:
        raw = json.load(f)
    check(raw["format"] == "zeroinst-report-2", "format %r" % raw["format"])
    rep = report_format.load(path)
    got = sorted((tuple(fr["function"] for fr in r["call_path"]), r["elements"])
                 for r in rep["code"] if r["site"]["function"] == "load_ones")
    want = [(("load_ones", "mid1", "main"), 6), (("load_ones", "mid2", "main"), 9)]
    check(got == want, "load_ones records %s, expected %s" % (got, want))
    paths = [r["call_path"] for r in rep["code"] + rep["other"]]
    paths += [d["alloc_path"] for d in rep["data"] if "alloc_path" in d]
    key = lambda frames: json.dumps(frames, sort_keys=True)
    outer = set(key(p[i:]) for p in paths for i in range(len(p)))
    frames = set(key(fr) for p in paths for fr in p)
    check(len(raw["contexts"]) == len(outer) and len(raw["frames"]) == len(frames),
          "%d contexts and %d frames, expected %d and %d"
          % (len(raw["contexts"]), len(raw["frames"]), len(outer), len(frames)))
    r = subprocess.run([os.path.join(BIN, "zeroinst"), "export", os.path.join(TMP, "report"),
                        "--format", "json-v1"], capture_output=True, text=True)
    check(r.returncode == 0 and json.loads(r.stdout) == rep,
          "zeroinst export differs from report_format: %s" % r.stderr)


def fatal(name, sig):
    r = same_as_plain(name)
    check(r.returncode == -sig, "status %d, expected death by signal %d" % (r.returncode, sig))
    rep = report()
    check(int_elements(rep) == 5, "elements %d, expected 5" % int_elements(rep))


def case_sigsegv():
    """A NULL dereference after 5 loads: the report holds the 5, and the
    process still dies of SIGSEGV."""
    fatal("segv", signal.SIGSEGV)


def case_abort():
    fatal("abort", signal.SIGABRT)


def case_sigterm():
    fatal("term", signal.SIGTERM)


def case_program_handler_kept():
    """The program's own SIGSEGV handler (installed in main, after the
    runtime's) runs and the program goes on: behaviour unchanged."""
    r = same_as_plain("handler")
    check(r.returncode == 0 and "recovered 4" in r.stdout, "handler did not run: " + r.stdout)
    check(int_elements(report()) == 4, "elements")


def case_ignored_signal_stays_ignored():
    """SIGTERM ignored by the parent stays ignored: raise() does nothing."""
    # Run with SIGTERM ignored, the way nohup-like parents do.
    exe = build("ignored")
    r = subprocess.run(["sh", "-c", "trap '' TERM; exec " + exe], capture_output=True, text=True,
                       env=dict(os.environ, ZEROINST_OUTPUT=os.path.join(TMP, "report")))
    check(r.returncode == 0 and r.stdout == "2\n", "status %d out %r" % (r.returncode, r.stdout))
    check(int_elements(report()) == 2, "elements")


def case_fork():
    """A forked child writes a report of its own, of its own loads
    (programs/fork.c)."""
    r = same_as_plain("fork")
    check(r.returncode == 0, "status")
    check(int_elements(report()) == 105, "parent elements %d, expected 105" % int_elements(report()))
    children = [d for d in glob.glob(os.path.join(TMP, "report-*")) if os.path.isdir(d)]
    check(len(children) == 1, "child reports: %s" % children)
    child = report(os.path.basename(children[0]))
    check(int_elements(child) == 10, "child elements %d, expected 10" % int_elements(child))
    check(child["pid"] != report()["pid"], "child report has the parent's pid")


def case_fork_data():
    """Data mode: a forked child's data records hold its own loads only
    (programs/fork_data.c)."""
    r = same_as_plain("fork_data", env={"ZEROINST_MODE": "code,data"})
    check(r.returncode == 0, "status %d" % r.returncode)

    def objects(rep):
        got = {}
        for d in rep["data"]:
            name = d.get("name") if d["object"] == "static" else "heap"
            if name in ("tab", "ones", "heap") and d["kind"] == "int":
                got[name] = (d["elements"], d["never_loaded_bytes"])
        return got
    parent = objects(report())
    want = {"tab": (105, 0), "heap": (64, 0), "ones": (100, 7200)}
    check(parent == want, "parent's data records %s, expected %s" % (parent, want))
    children = [d for d in glob.glob(os.path.join(TMP, "report-*")) if os.path.isdir(d)]
    check(len(children) == 1, "child reports: %s" % children)
    child = objects(report(os.path.basename(children[0])))
    want = {"tab": (10, 360), "heap": (3, 244)}
    check(child == want, "child's data records %s, expected %s" % (child, want))


def case_fork_kept():
    """Data mode: a data slot that a fork made stale is looked up again in
    the child, not kept (programs/fork_kept.c)."""
    r = same_as_plain("fork_kept", env={"ZEROINST_MODE": "data"})
    check(r.returncode == 0, "status %d" % r.returncode)

    def tab(rep):
        return [(d["elements"], d["bytes"], d["never_loaded_bytes"]) for d in rep["data"]
                if d["object"] == "static" and d.get("name") == "tab" and d["kind"] == "int"]
    check(tab(report()) == [(100, 400, 0)], "parent's tab %s" % tab(report()))
    children = [d for d in glob.glob(os.path.join(TMP, "report-*")) if os.path.isdir(d)]
    check(len(children) == 1, "child reports: %s" % children)
    child = tab(report(os.path.basename(children[0])))
    check(child == [(10, 40, 360)], "child's tab %s, expected [(10, 40, 360)]" % child)


def case_exec():
    """The report of the part before exec is written; the new image runs
    (programs/exec.c)."""
    r = same_as_plain("exec")
    check(r.returncode == 0 and r.stdout == "5\nreplaced\n", "out %r" % r.stdout)
    check(int_elements(report()) == 5, "elements")


def case_failed_exec():
    """After an exec that fails, the report at exit holds every load
    (programs/failexec.c)."""
    r = same_as_plain("failexec")
    check(r.returncode == 0 and r.stdout == "5\n3\n", "out %r" % r.stdout)
    check(int_elements(report()) == 8, "elements %d, expected 8" % int_elements(report()))


def case_record_order():
    """Records come by redundant bytes (most first), then by file, line,
    column and expression, then by call path frame by frame from the
    innermost (function, file, line), a path before its extensions:
    programs/order.c's twelve records of one site, ordered by their
    paths alone, and the whole report checked against that order."""
    same_as_plain("order")
    # programs/order.c's chains: prefix, depth, the two callers of each.
    chains = [("b", 4, ["bu2", "bu1"]), ("c", 8, ["cu2", "cu1"]), ("d", 17, ["du2", "du1"])]
    code = report()["code"]
    ones = [r for r in code if r["site"]["function"] == "load_ones"]
    paths = [[f["function"] for f in r["call_path"][1:]] for r in ones]
    want = [["%s%d" % (p, i) for i in range(1, d + 1)] + [t, "main"]
            for p, d, tops in chains for t in sorted(tops)]
    want += [["deep", "via", t, "main"] for t in ("top1", "top2", "top3")]
    want += [[m, "main"] for m in ("mid1", "mid2", "mid3")]
    check(paths == want, "load_ones records through %s" % paths)
    check([r["redundant_bytes"] for r in ones] == [28] * 12,
          "redundant bytes %s" % [r["redundant_bytes"] for r in ones])

    def key(r):
        s = r["site"]
        frames = [(f["function"].encode(), f["file"].encode(), f["line"], f.get("inlined", False),
                   f.get("parallel_region", False)) for f in r.get("call_path", [])]
        return (-r["redundant_bytes"], s["file"].encode(), s["line"], s["column"],
                s["expr"].encode(), frames)
    keys = [key(r) for r in code]
    check(keys == sorted(keys), "records out of order: %s"
          % [(r["redundant_bytes"], r["site"]["line"], r["site"]["expr"]) for r in code])


def case_underscore_exit():
    """_exit cannot be caught: no report, and nothing else changes."""
    r = same_as_plain("uexit")
    check(r.returncode == 4, "status")
    check(not os.path.exists(os.path.join(TMP, "report")), "a report appeared after _exit")


def case_bad_environment():
    """Bad values: one line each on stderr naming the valid values; the
    program's output and status are unchanged and the report is written
    with the defaults."""
    env = {"ZEROINST_MODE": "fast", "ZEROINST_TOP": "-3", "ZEROINST_MAX_DEPTH": "12abc",
           "ZEROINST_VERBOSE": "yes"}
    plain = run(build("badenv", plugin=False), env, out=None)
    r = run(build("badenv"), env)
    check((r.returncode, r.stdout) == (plain.returncode, plain.stdout), "program changed")
    lines = r.stderr.strip().split("\n")
    check(len(lines) == 4, "expected 4 warnings, got:\n" + r.stderr)
    check("ZEROINST_MODE='fast'" in r.stderr and "code, data, code,data" in r.stderr, r.stderr)
    check("ZEROINST_TOP='-3'" in r.stderr and "ZEROINST_MAX_DEPTH='12abc'" in r.stderr, r.stderr)
    check(int_elements(report()) == 3, "elements")


def case_unwritable_output():
    """A report directory that cannot be created: a message on stderr, the
    program's status and output unchanged."""
    r = run(build("unwritable"), {"ZEROINST_OUTPUT": "/proc/zeroinst-cannot-exist/x"}, out=None)
    check(r.returncode == 7 and r.stdout == "3\n", "program changed: %d %r" % (r.returncode, r.stdout))
    check("report not written: cannot create directory /proc/zeroinst-cannot-exist/x" in r.stderr, r.stderr)


def case_output_pid_pattern():
    """%p in ZEROINST_OUTPUT is the pid."""
    exe = build("pidpat")
    r = run(exe, {"ZEROINST_OUTPUT": os.path.join(TMP, "out-%p")}, out=None)
    pid = r.stdout.strip()
    check(os.path.exists(os.path.join(TMP, "out-" + pid, "report.json")), "no out-" + pid)


def case_default_output_dir():
    """Default: ./zeroinst-<program>-<pid> in the starting directory, even
    if the program changes directory."""
    exe = build("defdir")
    r = run(exe, out=None)
    pid = r.stdout.strip()
    check(os.path.exists(os.path.join(TMP, "zeroinst-defdir.inst-" + pid, "summary.txt")),
          "no default report directory in %s: %s" % (TMP, os.listdir(TMP)))


def case_many_threads():
    """2000 short-lived threads (programs/many.c): exact total, one thread
    row each (plus main)."""
    same_as_plain("many")
    rep = report()
    check(int_elements(rep) == 2000, "elements %d" % int_elements(rep))
    rows = [t for t in rep["threads"] if t["int"]["elements"] == 1]
    check(len(rows) == 2000, "%d thread rows with one element" % len(rows))


def plugin_error(args, *expected):
    src = os.path.join(TMP, "p.c")
    with open(src, "w") as f:
        f.write("int g; int main (void) { return g; }\n")
    r = subprocess.run(["gcc", "-fplugin=" + plugin_path()] + args + ["-c", src, "-o", os.path.join(TMP, "p.o")],
                       capture_output=True, text=True)
    check(r.returncode != 0, "compiled despite %s" % args)
    for e in expected:
        check(e in r.stderr, "%r not in:\n%s" % (e, r.stderr))


def case_buffer_options_ignored():
    """ZEROINST_SAMPLE and ZEROINST_BUFFER (options of data mode's former
    load buffers): one warning line each, and every load is still counted
    (256 elements of one static array in data mode; the report has no
    sampling)."""
    exe = build("sample")
    r = run(exe, {"ZEROINST_SAMPLE": "1/2", "ZEROINST_BUFFER": "64", "ZEROINST_MODE": "data"})
    lines = r.stderr.strip().split("\n")
    check(r.returncode == 0 and r.stdout == "ok\n", "status %d" % r.returncode)
    check(len(lines) == 2 and "ignoring ZEROINST_BUFFER" in r.stderr
          and "ignoring ZEROINST_SAMPLE" in r.stderr, r.stderr)
    rep = report()
    ones = rep["summary"]["data"]["static"]["int"]["elements"]
    check(ones == 256, "%d elements of static data, expected 256" % ones)
    check(rep["sampling"] is None, "sampling %r" % rep["sampling"])


def case_no_room_for_shadow():
    """Data mode under `ulimit -v` too small for the shadow's tables (64 MiB
    of address space): a clear message, the program's output and status
    as without zeroinst under the same limit, and a code-centric report
    with exact counts (also when data mode alone was asked for)."""
    import resource
    limit = 48 << 20
    def small():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    plain = build("noshadow", plugin=False)
    inst = build("noshadow")
    for mode in ("code,data", "data"):
        out = "noshadow-" + mode.replace(",", "-")
        e = dict(os.environ, ZEROINST_MODE=mode, ZEROINST_OUTPUT=os.path.join(TMP, out))
        p = subprocess.run([plain], capture_output=True, text=True, preexec_fn=small, timeout=60)
        r = subprocess.run([inst], capture_output=True, text=True, env=e, cwd=TMP,
                           preexec_fn=small, timeout=60)
        check((r.returncode, r.stdout) == (p.returncode, p.stdout) == (7, "ok\n"),
              "%s: status %d stdout %r (plain %d %r)" % (mode, r.returncode, r.stdout,
                                                           p.returncode, p.stdout))
        check("zeroinst: data-centric analysis off: cannot reserve 64 MiB of address space"
              in r.stderr, "%s: stderr %r" % (mode, r.stderr))
        rep = report(out)
        check(rep["modes"] == ["code"] and not rep.get("data"), "%s: modes %r data %r"
              % (mode, rep["modes"], rep.get("data")))
        check(int_elements(rep) == 100, "%s: elements %d, expected 100" % (mode, int_elements(rep)))


def readme_table(heading):
    """The rows of the first table after README's HEADING: cells, with
    backticks removed."""
    readme = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                          "README.md")
    with open(readme) as f:
        text = f.read()
    at = text.index(heading)
    rows = []
    for line in text[at:].splitlines()[1:]:
        if re.match(r"^\|[-|]+\|$", line):
            continue
        if line.startswith("|"):
            cells = [c.strip().replace("`", "") for c in line.strip("|").split(" | ")]
            if cells[0] not in ("option", "variable"):
                rows.append(cells)
        elif rows:
            break
    return rows


def plugin_path():
    return glob.glob(os.path.join(os.path.dirname(BIN), "lib", "zeroinst", "*", "zeroinst.so"))[0]


def case_bad_plugin_options():
    """Each kind of bad option is a compile error that lists the valid
    options, as README's table lists them (in its order)."""
    valid = "valid options: " + ", ".join(r[0] for r in readme_table("### Plugin options"))
    plugin_error(["-fplugin-arg-zeroinst-bogus"], "unknown option", "bogus", valid)
    plugin_error(["-fplugin-arg-zeroinst-include"], "needs a value", valid)
    plugin_error(["-fplugin-arg-zeroinst-exclude="], "needs a value", valid)
    plugin_error(["-fplugin-arg-zeroinst-verbose=3"], "takes no value", valid)
    plugin_error(["-m32"], "zeroinst supports LP64 targets only")


def case_plugin_options_documented():
    """`gcc -fplugin=zeroinst.so --help -v` (the plugin's help, made from
    plugin/options.def) lists exactly README's plugin options, in its
    order, each with a text; and the plugin's version is the project's."""
    r = subprocess.run(["gcc", "-fplugin=" + plugin_path(), "--help", "-v"], capture_output=True,
                       text=True, cwd=TMP, env=dict(os.environ, LC_ALL="C"))
    out = r.stdout + r.stderr
    check("Help for the loaded plugins:" in out, "no plugin help:\n" + out[-2000:])
    helptext = out[out.index("Help for the loaded plugins:"):]
    keys, texts = [], {}
    for line in helptext.splitlines()[3:]:
        m = re.match(r"^      (\S+)\s+(\S.*)$", line)
        if m:
            keys.append(m.group(1))
            texts[m.group(1)] = m.group(2)
        elif not re.match(r"^\s{26}\S", line):
            break
    documented = [row[0] for row in readme_table("### Plugin options")]
    check(keys == documented, "help lists %r, README %r" % (keys, documented))
    cmake = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         "CMakeLists.txt")
    version = re.search(r"project\(zeroinst VERSION (\S+)", open(cmake).read()).group(1)
    check(re.search(r"^ zeroinst: %s$" % re.escape(version), out, re.M),
          "plugin version is not %s" % version)


def case_plugin_dump():
    """The pass's dump with details (-fdump-tree-all-details) holds each
    instrumented function's statistics line, the one the verbose option
    prints: load_ones' one load of one element."""
    r = subprocess.run(["gcc", "-fplugin=" + plugin_path(), "-O1", "-fdump-tree-all-details",
                        "-I", PROGRAMS, "-c", program("dump"), "-o", os.path.join(TMP, "dump.o")],
                       capture_output=True, text=True, cwd=TMP)
    check(r.returncode == 0, r.stderr)
    dumps = glob.glob(os.path.join(TMP, "dump.*t.zeroinst"))
    check(len(dumps) == 1, "dump files %r" % os.listdir(TMP))
    lines = [l for l in open(dumps[0]) if l.startswith("zeroinst: load_ones: ")]
    check(len(lines) == 1 and lines[0].startswith("zeroinst: load_ones: 1 loads, 1 elements, 0 not analysed"),
          "statistics %r" % lines)


def case_runtime_options_documented():
    """ZEROINST_HELP=1 (runtime/core/options.def) prints exactly README's
    run-time variables, in its order, each default the one README gives
    first; the program runs as usual and writes its report."""
    exe = build("envhelp")
    r = run(exe, {"ZEROINST_HELP": "1"})
    check(r.returncode == 3 and r.stdout == "ok\n", "status %d stdout %r" % (r.returncode, r.stdout))
    check(int_elements(report()) == 5, "elements %d" % int_elements(report()))
    printed = re.findall(r"^zeroinst:   (ZEROINST_\w+) +(.*) \(default: (.*)\)$", r.stderr, re.M)
    rows = readme_table("### Run-time options")
    check([p[0] for p in printed] == [row[0] for row in rows],
          "printed %r, README %r" % ([p[0] for p in printed], [row[0] for row in rows]))
    for (name, _, default), row in zip(printed, rows):
        check(re.split(r"[ ,:]", row[2])[0] == default.split(" ")[0],
              "%s: default %r, README %r" % (name, default, row[2]))
    r = run(exe, {"ZEROINST_HELP": "2"})
    check(r.stderr.strip() == "zeroinst: ignoring ZEROINST_HELP='2': expected a whole number "
          "from 0 to 1; using 0", r.stderr)


def case_abi_version():
    """Generated code refers to __zeroinst_abi_v<ZI_ABI_VERSION> and the
    runtime defines it, so that an object of a plugin of another version
    (here the same object with its reference renamed to the next
    version) is refused by name: by the linker in a program, by the
    dynamic loader in a shared library."""
    abi = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "include", "zeroinst-abi.h")
    version = int(re.search(r"^#define ZI_ABI_VERSION (\d+)$", open(abi).read(), re.M).group(1))
    sym, other = "__zeroinst_abi_v%d" % version, "__zeroinst_abi_v%d" % (version + 1)
    cc = os.path.join(BIN, "zeroinst-cc")
    lib, main = program("abi_lib"), program("abi_main")
    obj = os.path.join(TMP, "lib.o")
    r = subprocess.run([cc, "-O1", "-fPIC", "-c", lib, "-o", obj], capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    nm = subprocess.run(["nm", obj], capture_output=True, text=True).stdout
    check(re.search(r"^\s+U %s$" % sym, nm, re.M), "no reference to %s:\n%s" % (sym, nm))
    so = glob.glob(os.path.join(os.path.dirname(BIN), "lib", "libzeroinst.so.*.*"))[0]
    dyn = subprocess.run(["nm", "-D", "--defined-only", so], capture_output=True, text=True).stdout
    check(re.search(r" R %s$" % sym, dyn, re.M), "runtime does not define %s" % sym)
    r = subprocess.run([cc, "-O1", main, obj, "-o", os.path.join(TMP, "same")], capture_output=True,
                       text=True)
    check(r.returncode == 0 and run(os.path.join(TMP, "same"), out=None).returncode == 0, r.stderr)
    stale = os.path.join(TMP, "stale.o")
    subprocess.run(["objcopy", "--redefine-sym", "%s=%s" % (sym, other), obj, stale], check=True)
    c_env = dict(os.environ, LC_ALL="C")
    # With the static runtime too, and with --gc-sections (the reference
    # is kept: nothing else refers to it).
    for static, extra in (("0", []), ("1", []), ("0", ["-Wl,--gc-sections"])):
        r = subprocess.run([cc, "-O1", main, stale, "-o", os.path.join(TMP, "stale")] + extra,
                           capture_output=True, text=True, env=dict(c_env, ZEROINST_STATIC=static))
        refused = [l for l in r.stderr.splitlines() if "undefined reference" in l]
        check(r.returncode != 0 and refused and all(("`%s'" % other) in l for l in refused),
              "static=%s %s: status %d:\n%s" % (static, extra, r.returncode, r.stderr))
    # -flto: the reference is made where code is generated, at link time.
    r = subprocess.run([cc, "-O1", "-flto", lib, main, "-o", os.path.join(TMP, "lto")],
                       capture_output=True, text=True, env=c_env)
    check(r.returncode == 0, r.stderr)
    nm = subprocess.run(["nm", os.path.join(TMP, "lto")], capture_output=True, text=True).stdout
    check(re.search(r"^\s+U %s$" % sym, nm, re.M), "-flto: no reference to %s" % sym)
    # A unit without generated code (no load, no call) needs no runtime.
    empty = os.path.join(TMP, "empty.c")
    with open(empty, "w") as f:
        f.write("int id (int x) { return x; }\n")
    r = subprocess.run([cc, "-O1", "-c", empty, "-o", os.path.join(TMP, "empty.o")],
                       capture_output=True, text=True)
    nm = subprocess.run(["nm", os.path.join(TMP, "empty.o")], capture_output=True, text=True).stdout
    check(r.returncode == 0 and "__zeroinst" not in nm, "unit without code:\n" + nm)
    r = subprocess.run([cc, "-shared", stale, "-o", os.path.join(TMP, "libstale.so")],
                       capture_output=True, text=True, env=c_env)
    check(r.returncode == 0, r.stderr)
    r = subprocess.run([cc, "-O1", main, "-L" + TMP, "-lstale", "-Wl,-rpath," + TMP,
                        "-Wl,--allow-shlib-undefined", "-o", os.path.join(TMP, "usestale")],
                       capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    r = run(os.path.join(TMP, "usestale"), out=None, env={"LC_ALL": "C"})
    check(r.returncode != 0 and "undefined symbol: %s" % other in r.stderr,
          "status %d stderr %r" % (r.returncode, r.stderr))


def case_no_loads_report_when_asked():
    """A program with no instrumented load (Debian links --as-needed) writes
    no report directory by default (configure's test programs would leave
    one each), and its empty report with ZEROINST_EMPTY_REPORT=1, with the
    shared and the static runtime."""
    src = os.path.join(TMP, "empty.c")
    with open(src, "w") as f:
        f.write("int main (void) { return 0; }\n")
    for static in ("0", "1"):
        exe = os.path.join(TMP, "empty" + static)
        r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "-O2", src, "-o", exe],
                           capture_output=True, text=True, env=dict(os.environ, ZEROINST_STATIC=static))
        check(r.returncode == 0, r.stderr)
        out = "empty-report" + static
        r = run(exe, out=out)
        check(r.returncode == 0 and r.stderr == "", "status %d stderr %r" % (r.returncode, r.stderr))
        check(not os.path.exists(os.path.join(TMP, out)), "a directory for a process that recorded nothing")
        run(exe, env={"ZEROINST_EMPTY_REPORT": "1"}, out=out)
        check(report(out)["summary"]["int"]["elements"] == 0, "not an empty report")


def case_wrapper_plugin_args():
    """ZEROINST_PLUGIN_ARGS reaches the plugin (verbose prints per-function
    counts; no-contexts drops the entry code)."""
    r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "-O1", "-I", PROGRAMS, "-c", program("dump"),
                        "-o", os.path.join(TMP, "pa.o")],
                       capture_output=True, text=True,
                       env=dict(os.environ, ZEROINST_PLUGIN_ARGS="verbose no-contexts"))
    check(r.returncode == 0, r.stderr)
    check("zeroinst: load_ones: 1 loads, 1 elements, 0 not analysed" in r.stderr, r.stderr)


def verbose_lines(name):
    """Compile programs/NAME.c (-O2) with the plugin's verbose option: its
    line per function, by function name."""
    r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "-O2", "-c", program(name),
                        "-o", os.path.join(TMP, name + ".o"),
                        "-fplugin-arg-zeroinst-verbose"], capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    lines = {}
    for l in r.stderr.splitlines():
        if l.startswith("zeroinst: ") and l.count(":") >= 2:
            lines.setdefault(l.split(":")[1].strip(), []).append(l)
    return lines, r.stderr


def case_plugin_range_loops():
    """Which loops the plugin versions as range loops (verbose): a walk of
    an array with a trip count known on entry is one, its load without a
    range check and with a shadow half induction variable; a list walk
    (no trip count), a loop with a call (it could free the object) and a
    loop with two exits are not."""
    lines, err = verbose_lines("range_loops")
    for fn, tail in (("walk", "1 range loops (1 loads unchecked, 1 half variables)"),
                     ("list", "0 range loops (0 loads unchecked, 0 half variables)"),
                     ("called", "0 range loops (0 loads unchecked, 0 half variables)"),
                     ("two", "0 range loops (0 loads unchecked, 0 half variables)")):
        line = lines.get(fn, [])
        check(len(line) == 1 and line[0].endswith(", " + tail), err)


def case_plugin_vector_counters():
    """Which register loops count their vector lanes with vector operations
    (verbose): 4-byte integers in a loop of a known bound; 8-byte floats
    whatever the bound (their lanes cannot overflow); not 4-byte lanes
    when the bound is unknown (a long count), nor 2-byte lanes."""
    lines, err = verbose_lines("vector_counters")
    for fn, n in (("vi", 1), ("vany", 0), ("vh", 0), ("vd", 1), ("vf", 0)):
        line = lines.get(fn, [])
        check(len(line) == 1 and ", 1 in register loops (%d counted as vectors), " % n in line[0], err)


def case_shared_library_mix():
    """An instrumented shared library, an instrumented main, and an object
    compiled without the plugin: the report has sites from both
    instrumented files (lib loads 6 ones, main 4), nothing from the other."""
    lib, plain, main = program("mix_lib"), program("mix_plain"), program("mix_main")
    cc = os.path.join(BIN, "zeroinst-cc")
    so = os.path.join(TMP, "libmix.so")
    for cmd in ([cc, "-O1", "-fPIC", "-shared", lib, "-o", so],
                ["gcc", "-O1", "-c", plain, "-o", os.path.join(TMP, "plainobj.o")],
                [cc, "-O1", "-I", PROGRAMS, main, os.path.join(TMP, "plainobj.o"), so, "-o", os.path.join(TMP, "mix"),
                 "-Wl,-rpath," + TMP]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        check(r.returncode == 0, " ".join(cmd) + "\n" + r.stderr)
    r = run(os.path.join(TMP, "mix"))
    check(r.stdout == "16\n", "output %r" % r.stdout)
    files = {os.path.basename(c["site"]["file"]): c["elements"] for c in report()["code"]
             if c["site"]["function"] in ("lib_sum", "load_ones", "plain_sum")}
    check(files == {"mix_lib.c": 6, "prelude.h": 4}, "sites by file: %s" % files)


def case_wrapper_response_file_and_errors():
    """Arguments in @file count (-c there means: no runtime at link); a
    wrapped compiler without a plugin is a clear error."""
    src = os.path.join(TMP, "rsp.c")
    with open(src, "w") as f:
        f.write("int g[4]; int get (int i) { return g[i]; }\n")
    rsp = os.path.join(TMP, "args.rsp")
    obj = os.path.join(TMP, "rsp.o")
    with open(rsp, "w") as f:
        f.write("-O1 -c %s -o %s\n" % (src, obj))
    r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "@" + rsp], capture_output=True, text=True)
    check(r.returncode == 0, r.stderr)
    nm = subprocess.run(["nm", obj], capture_output=True, text=True).stdout
    check("__zeroinst_lookup" in nm, "the object from @file was not instrumented")
    fake = os.path.join(TMP, "othergcc")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\ncase \"$1\" in -dumpmachine) echo sparc64-none-elf;; *) exec gcc \"$@\";; esac\n")
    os.chmod(fake, 0o755)
    r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "-c", src, "-o", obj], capture_output=True,
                       text=True, env=dict(os.environ, ZEROINST_WRAP=fake))
    check(r.returncode != 0 and "no zeroinst plugin for" in r.stderr and "sparc64-none-elf" in r.stderr,
          "missing plugin: %d %s" % (r.returncode, r.stderr))


def case_runtime_robustness():
    """Programs that stress the runtime (tests/behaviour/programs): loads in
    a SIGALRM handler every 50 us (re-entry while the runtime is busy), a
    program that defines malloc and friends, loads in .preinit_array code.
    Each exits as the plain build does, says nothing, and writes its report."""
    for name in ("sigrace", "ownmalloc", "preinit"):
        src = program(name)
        exe = os.path.join(TMP, name)
        r = subprocess.run([os.path.join(BIN, "zeroinst-cc"), "-O2", src, "-o", exe],
                           capture_output=True, text=True)
        check(r.returncode == 0, r.stderr)
        out = "rob-" + name
        r = run(exe, out=out)
        check(r.returncode == 0 and r.stderr == "", "%s: status %d stderr %r" % (name, r.returncode, r.stderr))
        report(out)


def case_dlclose_threads():
    """A library unloaded while another thread still has its loads buffered
    (and, in code mode, while the closing thread has): no crash in any mode,
    the program's output unchanged, the report written."""
    cc = os.path.join(BIN, "zeroinst-cc")
    lib = os.path.join(TMP, "libdlclose_lib.so")
    exe = os.path.join(TMP, "dlclose_threads")
    for cmd in ([cc, "-O1", "-shared", "-fPIC", program("dlclose_lib"), "-o", lib],
                [cc, "-O1", "-pthread", program("dlclose_threads"), "-o", exe]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        check(r.returncode == 0, r.stderr)
    for mode in ("code", "data", "code,data"):
        out = "dlclose-" + mode.replace(",", "-")
        r = run(exe, env={"ZEROINST_MODE": mode}, out=out, args=[lib])
        check(r.returncode == 0 and r.stdout == "6\n" and r.stderr == "",
              "mode %s: status %d stdout %r stderr %r" % (mode, r.returncode, r.stdout, r.stderr))
        report(out)


def case_wrapper_packed_relocations():
    """A program or shared library the wrapper links with the shared
    runtime has packed relative relocations (DT_RELR) exactly when the
    toolchain links and runs such a program itself (and surely on x86-64
    with binutils 2.38 and glibc 2.36 or later); it runs and reports; the
    user's -Wl,-z,nopack-relative-relocs, after the wrapper's flag, wins;
    a link with another linker (gold rejects the option) gets no flag."""
    probe_src = os.path.join(TMP, "relr_probe.c")
    with open(probe_src, "w") as f:
        f.write("static int x;\nint *p = &x;\nint main (void) { return *p; }\n")
    probe = os.path.join(TMP, "relr_probe")
    linked = subprocess.run(["gcc", "-fPIE", "-pie", probe_src, "-o", probe,
                             "-Wl,-z,pack-relative-relocs", "-Wl,--fatal-warnings"],
                            capture_output=True, text=True)
    expected = linked.returncode == 0 and subprocess.run([probe]).returncode == 0
    ld = subprocess.run(["ld", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"(\d+)\.(\d+)", ld.splitlines()[0] if ld else "")
    libc = os.confstr("CS_GNU_LIBC_VERSION").split()[-1].split(".")
    if (os.uname().machine == "x86_64" and "GNU ld" in ld and m
            and (int(m.group(1)), int(m.group(2))) >= (2, 38)
            and (int(libc[0]), int(libc[1])) >= (2, 36)):
        check(expected, "the probe failed where the toolchain has DT_RELR: " + linked.stderr)

    def has_relr(path):
        d = subprocess.run(["readelf", "-d", path], capture_output=True, text=True)
        check(d.returncode == 0, d.stderr)
        return "(RELR)" in d.stdout

    exe = build("relr", ["-Wl,--fatal-warnings"])
    check(has_relr(exe) == expected, "DT_RELR %s, expected %s" % (has_relr(exe), expected))
    r = run(exe, out="relr-report")
    check(r.returncode == 0, "status %d: %s" % (r.returncode, r.stderr))
    check(int_elements(report("relr-report")) == 3, "not 3 elements of load_ones")
    lib = build("relr", ["-DENTRY=lib_main", "-shared", "-fPIC", "-Wl,--fatal-warnings"],
                exe="librelr.so")
    check(has_relr(lib) == expected, "shared library: DT_RELR %s, expected %s"
          % (has_relr(lib), expected))
    exe = build("relr", ["-Wl,-z,nopack-relative-relocs"], exe="norelr")
    check(not has_relr(exe), "DT_RELR despite -Wl,-z,nopack-relative-relocs")
    check(run(exe, out=None).returncode == 0, "the unpacked program failed")
    if shutil.which("ld.gold"):
        exe = build("relr", ["-fuse-ld=gold"], exe="gold")
        check(not has_relr(exe), "DT_RELR from gold")
        check(run(exe, out=None).returncode == 0, "the program linked by gold failed")


def case_wrapper_passthrough():
    """Queries and preprocessing go straight to the real compiler."""
    cc = os.path.join(BIN, "zeroinst-cc")
    for args in (["--version"], ["-dumpversion"], ["-dumpmachine"], ["-print-file-name=libc.so"]):
        a = subprocess.run([cc] + args, capture_output=True, text=True)
        b = subprocess.run(["gcc"] + args, capture_output=True, text=True)
        check((a.returncode, a.stdout) == (b.returncode, b.stdout), "differs for %s" % args)
    src = os.path.join(TMP, "e.c")
    with open(src, "w") as f:
        f.write("#define X 42\nint x = X;\n")
    a = subprocess.run([cc, "-E", src], capture_output=True, text=True)
    b = subprocess.run(["gcc", "-E", src], capture_output=True, text=True)
    check(a.stdout == b.stdout, "-E differs")


CASES = {n[5:]: f for n, f in sorted(globals().items()) if n.startswith("case_")}


def main():
    global BIN, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("case")
    opt = ap.parse_args()
    if opt.case == "list":
        print("\n".join(CASES))
        return
    BIN = os.path.abspath(opt.bin)
    TMP = tempfile.mkdtemp(prefix="zi-beh-")
    try:
        CASES[opt.case]()
        print("ok: " + opt.case)
    except Failure as e:
        print("FAIL: %s: %s" % (opt.case, e))
        sys.exit(1)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
