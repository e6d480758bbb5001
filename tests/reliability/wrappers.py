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


# ---- item 3: response files are data, parsed with GCC's rules --------------

def compile_with_rsp(rsp_text, files=None):
    """Run zeroinst-cc @args.rsp in TMP (FILES: other response files)."""
    for name, text in (files or {}).items():
        write(name, text)
    write("args.rsp", rsp_text)
    return cc(["@args.rsp"])


def case_response_file_not_evaluated():
    """Shell syntax in @file is data: "-DY=`touch PWNED1`" defines Y as
    that text; $(...), ; and | do nothing either.  The unit compiles with -c
    (an instrumented object, no runtime linked: no warning) and no PWNED
    file appears."""
    write("u.c", "#define S(x) #x\n#define T(x) S(x)\nconst char *y = T(Y);\nint get (int *p) { return *p; }\n")
    r = compile_with_rsp('-O1 -c u.c -o u.o "-DY=`touch PWNED1`" "-DZ=$(touch PWNED2)"'
                         ' -DW=1;touch${IFS}PWNED3 -DV=1|touch${IFS}PWNED4\n')
    for i in range(1, 5):
        check(not os.path.exists(os.path.join(common.TMP, "PWNED%d" % i)), "the response file ran shell code")
    check(r.returncode == 0, r.stderr)
    check(r.stderr == "", "warnings: " + r.stderr)
    nm = run(["nm", os.path.join(common.TMP, "u.o")]).stdout
    check("__zeroinst_lookup" in nm, "u.o is not instrumented")


def case_response_file_gcc_quoting():
    """GCC's rules, which differ from the shell's: a backslash escapes in
    single quotes too ('1\'+\'2' is 1'+'2), quotes join words ("-"'c' is -c),
    an escaped blank does not split, and @file nests (inner.rsp holds -c).
    The wrapper must see the -c (no runtime at link: gcc warns about an
    unused -lzeroinst otherwise) and the object lands in 'out dir/x.o'."""
    os.mkdir(os.path.join(common.TMP, "out dir"))
    write("x.c", "#define S(x) #x\n#define T(x) S(x)\nconst char *q = T(Q);\nint g (int *p) { return *p; }\n")
    r = compile_with_rsp("-O1 -DQ='1\\'+\\'2' x.c -o out\\ dir/x.o @inner.rsp\n",
                         {"inner.rsp": '"-"\'c\'\n'})
    check(r.returncode == 0 and r.stderr == "", "status %d, stderr %r" % (r.returncode, r.stderr))
    obj = os.path.join(common.TMP, "out dir", "x.o")
    check(os.path.isfile(obj), "no object at 'out dir/x.o'")
    nm = run(["nm", obj]).stdout
    check("__zeroinst_lookup" in nm, "x.o is not instrumented")


def case_response_file_errors_as_gcc():
    """Bad response files give exactly what gcc gives (status and stderr):
    an unbalanced quote (the rest of the file is one argument, so gcc sees
    no -c and no input file), a missing @file (kept as an argument), a
    directory, an empty file."""
    write("v.c", "int v;\n")
    write("empty.rsp", "")
    os.mkdir(os.path.join(common.TMP, "dir.rsp"))
    write("unbalanced.rsp", "-c 'v.c -o v.o\n")
    for args in (["@unbalanced.rsp"], ["@missing.rsp", "-c", "v.c"], ["@dir.rsp", "-c", "v.c"],
                 ["@empty.rsp", "-fsyntax-only", "v.c"]):
        a = cc(args)
        b = run(["gcc"] + args)
        check((a.returncode, a.stderr) == (b.returncode, b.stderr),
              "%s: zeroinst-cc %d %r, gcc %d %r" % (args, a.returncode, a.stderr, b.returncode, b.stderr))
    check(cc(["@unbalanced.rsp"]).returncode != 0, "an unbalanced quote compiled")


# ---- item 11: -static ------------------------------------------------------

HEAP_BODY = r"""
__attribute__ ((noinline)) int64_t sum (const int64_t *p, int n)
{ int64_t s = 0; for (int i = 0; i < n; i++) s += p[i]; sink = s; return s; }
int main (void)
{
  init ();
  int64_t *m = malloc (10 * sizeof *m);
  for (int i = 0; i < 10; i++) m[i] = 1;
  int64_t *c = calloc (4, sizeof *c);
  int64_t *r = realloc (NULL, 6 * sizeof *r);
  for (int i = 0; i < 6; i++) r[i] = 300;
  r = realloc (r, 8 * sizeof *r);
  int64_t t = load_ones (5) + sum (m, 10) + sum (c, 4) + sum (r, 6);
  printf ("%lld\n", (long long) t);
  free (m); free (c); free (r);
  return 0;
}
"""


def heap_records(rep):
    return sorted((d["allocator"], d["allocations"], d["size"], d["elements"], d["redundant_bytes"],
                   d["zero_elements"]) for d in rep["data"] if d["object"] == "heap")


def check_static_heap(exe):
    """HEAP_BODY's counts.  Output 5 + 10 + 0 + 1800 = 1815.  Code mode:
    load_ones 5 elements; sum 10 + 4 + 6 = 20 elements.  Data mode, heap:
    malloc block 80 bytes, 10 ones: 10 elements, 70 redundant, 0 zero;
    calloc block 32 bytes, 4 zeros: 4 elements, 32 redundant, 4 zero;
    realloc(NULL) block (GCC makes it a malloc call), grown to 64 bytes
    (one allocation, last size 64): 6 elements of 300 = 0x12c, 6 redundant
    bytes each, 36.  Built with -g: each call's line makes its own
    allocation path (without lines all three would share main's)."""
    r = run([exe], env={"ZEROINST_OUTPUT": os.path.join(common.TMP, "code")})
    check(r.returncode == 0 and r.stdout == "1815\n", "status %d, output %r" % (r.returncode, r.stdout))
    rep = valid_report(os.path.join(common.TMP, "code"))
    check(elements_of(rep) == 5 and elements_of(rep, "sum") == 20,
          "code: load_ones %d, sum %d" % (elements_of(rep), elements_of(rep, "sum")))
    r = run([exe], env={"ZEROINST_OUTPUT": os.path.join(common.TMP, "data"), "ZEROINST_MODE": "data"})
    check(r.returncode == 0 and r.stdout == "1815\n", "data: status %d, output %r" % (r.returncode, r.stdout))
    got = heap_records(valid_report(os.path.join(common.TMP, "data")))
    want = [("calloc", 1, 32, 4, 32, 4), ("malloc", 1, 64, 6, 36, 0), ("malloc", 1, 80, 10, 70, 0)]
    check(got == want, "heap records %s, expected %s" % (got, want))


def case_static_link():
    """zeroinst-cc -static links (libunwind, libdw and their static
    dependencies, one _Unwind_Resume) and the program is static; counts
    and heap objects as in check_static_heap."""
    exe = common.build("heap", HEAP_BODY, flags=["-static", "-g"])
    r = run(["file", exe])
    check("statically linked" in r.stdout, r.stdout)
    check_static_heap(exe)


def case_static_runtime_in_dynamic_program():
    """ZEROINST_STATIC=1: libzeroinst.a in a dynamic program: the same
    counts and heap objects (the blocks are allocated by the program's own
    code)."""
    src = write("heap.c", common.PRELUDE + HEAP_BODY)
    exe = os.path.join(common.TMP, "heapdyn")
    r = cc(["-O1", "-g", src, "-o", exe], env={"ZEROINST_STATIC": "1"})
    check(r.returncode == 0, r.stderr)
    check("libzeroinst" not in run(["ldd", exe]).stdout, "the shared runtime was linked")
    check_static_heap(exe)


def case_static_cxx():
    """g++ -static with exceptions links (libunwind.a and libgcc_eh both
    define _Unwind_Resume) and throws and catches; `new int64_t[8]` of 2s
    is a malloc block (libstdc++'s operator new calls malloc) of 64
    bytes: 8 elements, 56 redundant bytes."""
    src = write("n.cc", "#include <cstdint>\n#include <cstdio>\n#include <stdexcept>\n"
                "volatile int64_t sink;\n"
                "__attribute__ ((noinline)) int64_t sum (const int64_t *p, int n)"
                " { int64_t s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }\n"
                "int main () { int64_t *p = new int64_t[8]; for (int i = 0; i < 8; i++) p[i] = 2;"
                " sink = sum (p, 8);\n try { throw std::runtime_error (\"x\"); }"
                " catch (const std::exception &e) { std::printf (\"%lld %s\\n\", (long long) sink, e.what ()); }\n"
                " delete[] p; return 0; }\n")
    exe = os.path.join(common.TMP, "n")
    r = run([common.tool("zeroinst-cxx"), "-O1", "-static", src, "-o", exe])
    check(r.returncode == 0, r.stderr)
    r = run([exe], env={"ZEROINST_OUTPUT": os.path.join(common.TMP, "data"), "ZEROINST_MODE": "data"})
    check(r.returncode == 0 and r.stdout == "16 x\n", "status %d, output %r" % (r.returncode, r.stdout))
    got = [h for h in heap_records(valid_report(os.path.join(common.TMP, "data"))) if h[2] == 64]
    check(got == [("malloc", 1, 64, 8, 56, 0)], "heap records %s" % got)


common.main(globals())
