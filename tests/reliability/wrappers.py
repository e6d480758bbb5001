"""Reliability of the build side: the compiler wrappers (response files,
-static), LTO with the plugin at compile time only (issue 13, items 3, 11,
13).  Every count is of PRELUDE's load_ones(N): N int64 ones, one element
and 7 redundant bytes each."""
import os
import subprocess

import common
from common import check, run, valid_report, elements_of


def plugin():
    triple = subprocess.run(["gcc", "-dumpmachine"], capture_output=True, text=True).stdout.strip()
    return os.path.join(common.BIN, "..", "lib", "zeroinst", triple, "zeroinst.so")


def runtime_link_flags():
    lib = os.path.join(common.BIN, "..", "lib")
    return ["-L" + lib, "-Wl,-rpath," + lib, "-Wl,--no-as-needed", "-lzeroinst"]


def write(name, text):
    path = os.path.join(common.TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def ones_program(n):
    return write("ones.c", common.PRELUDE + "int main (void) { init (); return (int) load_ones (%d) - %d; }\n"
                 % (n, n))


def cc(args, env=None):
    r = run([common.tool("zeroinst-cc")] + args, env=env)
    return r


def report_of(exe, name, env=None):
    e = {"ZEROINST_OUTPUT": os.path.join(common.TMP, name)}
    e.update(env or {})
    r = run([exe], env=e)
    check(r.returncode == 0, "%s exited %d: %s" % (exe, r.returncode, r.stderr))
    return valid_report(os.path.join(common.TMP, name))


# ---- item 13: -flto with the plugin only at compile time -------------------

def case_lto_plugin_only_at_compile_time():
    """The README's plain-gcc row with -flto: `gcc -flto -fplugin=...
    -c`, then a link without -fplugin.  The link-time compiler would
    generate the code uninstrumented (an empty report); instead the link
    fails and names the fix: an undefined reference to
    zeroinst_lto_link_needs_fplugin_zeroinst_so.  With -fplugin at the link
    too, load_ones(25) gives 25 elements."""
    src = ones_program(25)
    obj = os.path.join(common.TMP, "ones.o")
    r = run(["gcc", "-O2", "-flto", "-fplugin=" + plugin(), "-c", src, "-o", obj])
    check(r.returncode == 0, r.stderr)
    exe = os.path.join(common.TMP, "ones")
    r = run(["gcc", "-O2", "-flto", obj, "-o", exe] + runtime_link_flags())
    check(r.returncode != 0, "an LTO link without the plugin succeeded (uninstrumented program)")
    check("undefined reference to `zeroinst_lto_link_needs_fplugin_zeroinst_so'" in r.stderr, r.stderr)
    r = run(["gcc", "-O2", "-flto", "-fplugin=" + plugin(), obj, "-o", exe] + runtime_link_flags())
    check(r.returncode == 0, r.stderr)
    rep = report_of(exe, "rep")
    check(elements_of(rep) == 25, "elements %d, expected 25" % elements_of(rep))


def case_lto_fat_objects():
    """-ffat-lto-objects: the machine code half is instrumented, so a
    -fno-lto link of it works (load_ones(12): 12 elements); GCC links the
    GIMPLE half by default, which again needs the plugin (link error)."""
    src = ones_program(12)
    obj = os.path.join(common.TMP, "ones.o")
    r = run(["gcc", "-O2", "-flto", "-ffat-lto-objects", "-fplugin=" + plugin(), "-c", src, "-o", obj])
    check(r.returncode == 0, r.stderr)
    exe = os.path.join(common.TMP, "ones")
    r = run(["gcc", "-O2", "-fno-lto", obj, "-o", exe] + runtime_link_flags())
    check(r.returncode == 0, r.stderr)
    rep = report_of(exe, "rep")
    check(elements_of(rep) == 12, "elements %d, expected 12" % elements_of(rep))
    r = run(["gcc", "-O2", obj, "-o", exe + "2"] + runtime_link_flags())
    check(r.returncode != 0 and "zeroinst_lto_link_needs_fplugin_zeroinst_so" in r.stderr,
          "LTO link of fat objects without the plugin: %d %s" % (r.returncode, r.stderr))


def case_lto_wrapper():
    """zeroinst-cc -flto passes the plugin at link time too: compiling and
    linking separately, in 2 partitions, load_ones(40) gives 40 elements."""
    src = ones_program(40)
    obj = os.path.join(common.TMP, "ones.o")
    r = cc(["-O2", "-flto", "-c", src, "-o", obj])
    check(r.returncode == 0, r.stderr)
    exe = os.path.join(common.TMP, "ones")
    r = cc(["-O2", "-flto=2", "-flto-partition=max", obj, "-o", exe])
    check(r.returncode == 0, r.stderr)
    rep = report_of(exe, "rep")
    check(elements_of(rep) == 40, "elements %d, expected 40" % elements_of(rep))


common.main(globals())
