#!/usr/bin/env python3
"""Reliability of the runtime with unusual programs: libraries unloaded and
loaded again, instrumented libraries in uninstrumented hosts, very large
objects, many short-lived threads.

Libraries count their loads through common.PRELUDE's load_ones(N): N int64
loads of ones[] (value 1: 7 redundant bytes each), nothing else loads in
it.  work(N) fills ones[] (stores only) and calls load_ones(N).
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common
from common import check

LIBRARY = r"""
void work (int n) { init (); load_ones (n); }
"""


def library(name="lib", plugin=True):
    """An instrumented shared library exporting work(); its path."""
    return common.build(name, LIBRARY, flags=["-shared", "-fPIC"], plugin=plugin)


def report(directory):
    return common.valid_report(os.path.join(common.TMP, directory))


def load_ones_records(rep):
    return [r for r in rep["code"] if r["site"]["function"] == "load_ones"]


def path_of(rec):
    return [f["function"] for f in rec["call_path"]]


# A program that opens the library, runs work() and closes it, CYCLES
# times.  After each close it reserves the address range the library had,
# so the next dlopen maps it elsewhere: the sites' descriptors are then at
# new addresses.  A thread that ran work(1000) from the first opening waits,
# its loads still buffered, until the end.
DLCLOSE_PROGRAM = r"""
#include <dlfcn.h>
#include <sys/mman.h>
static pthread_barrier_t ran, done;
static void (*work1) (int);
static void *other (void *arg)
{
  work1 (1000);
  pthread_barrier_wait (&ran);
  pthread_barrier_wait (&done);
  return 0;
}
int main (int argc, char **argv)
{
  int cycles = atoi (argv[2]), with_thread = atoi (argv[3]);
  pthread_t th;
  pthread_barrier_init (&ran, 0, 2);
  pthread_barrier_init (&done, 0, 2);
  for (int k = 0; k < cycles; k++)
    {
      void *h = dlopen (argv[1], RTLD_NOW);
      if (!h) { printf ("dlopen: %s\n", dlerror ()); return 1; }
      void (*work) (int) = (void (*) (int)) dlsym (h, "work");
      Dl_info info;
      dladdr ((void *) work, &info);
      if (k == 0 && with_thread)
        {
          work1 = work;
          pthread_create (&th, 0, other, 0);
          pthread_barrier_wait (&ran);
        }
      work (2560);
      dlclose (h);
      /* Keep the range: the next opening goes elsewhere.  */
      if (mmap (info.dli_fbase, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS
                | MAP_FIXED_NOREPLACE, -1, 0) == MAP_FAILED)
        printf ("cannot reserve\n");
    }
  if (with_thread)
    {
      pthread_barrier_wait (&done);
      pthread_join (th, 0);
    }
  printf ("done\n");
  return 0;
}
"""


def run_dlclose(cycles, with_thread):
    lib = library()
    exe = common.build("dlclose", DLCLOSE_PROGRAM, flags=["-ldl"])
    r = common.run([exe, lib, str(cycles), str(with_thread)], env={"ZEROINST_OUTPUT": "out"})
    check(r.returncode == 0 and r.stdout == "done\n",
          "program failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    return report("out")


def case_dlclose_twice():
    """A library opened, used (work(2560)) and closed twice, at two
    addresses: 2 x 2560 = 5120 loads of load_ones, one record (one site,
    one path: load_ones <- work <- main), 7 x 5120 = 35840 redundant
    bytes.  Before: 2560 (the second opening's loads were dropped) or two
    records."""
    rep = run_dlclose(2, 0)
    recs = load_ones_records(rep)
    check(len(recs) == 1, "%d records of load_ones: %s" % (len(recs), [path_of(r) for r in recs]))
    check(path_of(recs[0]) == ["load_ones", "work", "main"], "path %s" % path_of(recs[0]))
    check(recs[0]["elements"] == 5120, "elements %d" % recs[0]["elements"])
    check(recs[0]["redundant_bytes"] == 35840, "redundant %d" % recs[0]["redundant_bytes"])
    lib_loads = sum(r["elements"] for r in rep["code"] if r["site"]["function"] != "main")
    check(lib_loads == 5120, "loads outside main: %d" % lib_loads)


def case_dlclose_other_thread():
    """Three cycles; in the first, another thread ran work(1000) and its
    1000 loads are still buffered when main closes the library (and later
    opens it at other addresses).  load_ones: 1000 loads under the thread's
    start routine `other`, 3 x 2560 = 7680 under main: two records, 8680
    loads in all.  Before: the thread's 1000 were dropped, and the later
    openings' loads too."""
    rep = run_dlclose(3, 1)
    recs = sorted(load_ones_records(rep), key=lambda r: r["elements"])
    got = [(path_of(r), r["elements"]) for r in recs]
    check(got == [(["load_ones", "work", "other"], 1000), (["load_ones", "work", "main"], 7680)],
          "records %s" % got)


HOST = r"""
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
int main (int argc, char **argv)
{
  for (int k = 0; k < atoi (argv[2]); k++)
    {
      void *h = dlopen (argv[1], RTLD_NOW);
      if (!h) { printf ("dlopen: %s\n", dlerror ()); return 1; }
      void (*work) (int) = (void (*) (int)) dlsym (h, "work");
      work (2560);
      if (atoi (argv[3]))
        dlclose (h);
    }
  printf ("done\n");
  return 0;
}
"""


def case_uninstrumented_host():
    """An uninstrumented program (plain gcc, no libzeroinst) dlopens an
    instrumented library, which loads libzeroinst with it: its initial-exec
    TLS must fit glibc's static TLS surplus.  One call of work(2560): 2560
    loads, 17920 redundant bytes, in the host's report.  Before: dlopen
    failed with "cannot allocate memory in static TLS block"."""
    lib = library()
    host = common.build("host", HOST, plugin=False, prelude=False, flags=["-ldl"])
    r = common.run([host, lib, "1", "0"], env={"ZEROINST_OUTPUT": "out"})
    check(r.returncode == 0 and r.stdout == "done\n",
          "host failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    rep = report("out")
    recs = load_ones_records(rep)
    check([(r["elements"], r["redundant_bytes"]) for r in recs] == [(2560, 17920)],
          "records %s" % [(r["elements"], r["redundant_bytes"]) for r in recs])


def case_uninstrumented_host_dlclose():
    """The uninstrumented host closes the library (the C library's dlclose:
    no wrapper sees it) after each of two work(2560) calls, the loads still
    buffered.  The program's exit status and output are unchanged, and
    both calls are counted: 5120 loads in one record (the second opening
    maps the library at the same place, its descriptors stand for the old
    ones).  Before: dlopen failed (TLS); with the TLS fixed alone, the
    runtime (unloaded with the library) broke ld.so's dlclose."""
    lib = library()
    host = common.build("host", HOST, plugin=False, prelude=False, flags=["-ldl"])
    r = common.run([host, lib, "2", "1"], env={"ZEROINST_OUTPUT": "out"})
    check(r.returncode == 0 and r.stdout == "done\n",
          "host failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    recs = load_ones_records(report("out"))
    check([r["elements"] for r in recs] == [5120], "records %s" % [r["elements"] for r in recs])


def case_python_ctypes():
    """python3 loads the instrumented library with ctypes and calls
    work(2560): 2560 loads in the report of the python process."""
    lib = library()
    code = "import ctypes; ctypes.CDLL(%r).work(2560); print('done')" % lib
    r = common.run([sys.executable, "-c", code], env={"ZEROINST_OUTPUT": "out"})
    check(r.returncode == 0 and r.stdout == "done\n",
          "python failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    recs = load_ones_records(report("out"))
    check([r["elements"] for r in recs] == [2560], "records %s" % [r["elements"] for r in recs])


def case_tls_size():
    """libzeroinst.so's TLS segment (initial-exec: its memory size) stays
    well inside glibc's static TLS surplus (1664 bytes shared by every
    library loaded later): at most 512 bytes.  Before: 3300 bytes."""
    lib = os.path.join(os.path.dirname(common.BIN), "lib", "libzeroinst.so")
    out = subprocess.run(["readelf", "-lW", lib], capture_output=True, text=True).stdout
    tls = [l.split() for l in out.splitlines() if l.split()[:1] == ["TLS"]]
    check(len(tls) == 1, "TLS segments: %s" % tls)
    size = int(tls[0][5], 16)
    check(size <= 512, "TLS memory size %d bytes" % size)


NO_DEBUG_INFO = r"""
int main (void) { init (); load_ones (640); return 0; }
"""


def case_no_debuginfod():
    """A program built without -g: finding no debug information for its
    lines, the report does not fall back on debuginfod, which would load
    libdebuginfod, libcurl and a TLS stack (8 MB) and, with
    DEBUGINFOD_URLS set (as Debian's login shells set it), ask a server
    for the program's build ID at exit.  The loader's log (LD_DEBUG=files)
    lists every library loaded; the report is complete."""
    if "libdebuginfod.so" not in subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True,
                                                text=True).stdout:
        raise common.Skip("libdebuginfod is not installed: nothing could load it")
    exe = common.build("nodebug", NO_DEBUG_INFO)
    r = common.run([exe], env={"ZEROINST_OUTPUT": "out", "LD_DEBUG": "files",
                               "DEBUGINFOD_URLS": "http://127.0.0.1:9"})
    check(r.returncode == 0, "exit %d: %s" % (r.returncode, r.stderr[-2000:]))
    loaded = [l for l in r.stderr.splitlines() if "file=" in l and "debuginfod" in l]
    check(not loaded, "libdebuginfod loaded: %s" % loaded[:3])
    check(common.elements_of(report("out")) == 640, "load_ones elements")


def case_debuglink():
    """Debug information split off into a file named by .gnu_debuglink, in
    the program's directory and in its .debug directory (objcopy
    --only-keep-debug, then --strip-debug --add-gnu-debuglink): the
    report still has the file and line of main's call of load_ones (call
    paths come from the debug information; sites' lines are the
    plugin's)."""
    for where in (".", ".debug"):
        exe = common.build("split", NO_DEBUG_INFO, flags=["-g"])
        d = os.path.join(os.path.dirname(exe), where)
        os.makedirs(d, exist_ok=True)
        debug = os.path.join(d, "split.debug")
        for cmd in (["objcopy", "--only-keep-debug", exe, debug],
                    ["objcopy", "--strip-debug", "--add-gnu-debuglink=" + debug, exe]):
            r = subprocess.run(cmd, capture_output=True, text=True)
            check(r.returncode == 0, "%s: %s" % (" ".join(cmd), r.stderr))
        out = "out" + where.replace(".", "-")
        r = common.run([exe], env={"ZEROINST_OUTPUT": out})
        check(r.returncode == 0, "exit %d: %s" % (r.returncode, r.stderr[-2000:]))
        callers = [c["call_path"][1] for c in report(out)["code"]
                   if c["site"]["function"] == "load_ones"]
        check(callers and all(f["function"] == "main" and f["line"] > 0
                              and f["file"].endswith("split.c") for f in callers),
              "%s: load_ones called from %s" % (where, callers))
        os.remove(debug)


BIG_OBJECT = r"""
int main (void)
{
  size_t size = (size_t) 768 << 20;
  unsigned char *p = calloc (size, 1);    /* untouched pages cost nothing */
  if (!p) { printf ("no memory\n"); return 1; }
  p[100] = 5;
  p[40000] = 7;
  int64_t s = 0;
  for (size_t i = 0; i < 49152; i += 2)
    s += ((volatile unsigned char *) p)[i];
  p = realloc (p, (size_t) 1 << 30);
  if (!p) { printf ("no memory\n"); return 1; }
  for (size_t i = 1; i < 200; i += 2)
    s += ((volatile unsigned char *) p)[i];
  sink = s;
  printf ("%ld\n", (long) s);
  return 0;
}
"""


def case_big_object():
    """A 768 MiB calloc block, grown by realloc to 1 GiB: its byte map has
    4-byte granules (the smallest power of two that keeps it at 2^28
    granules).  Byte loads of the even offsets below 49152 (24576 loads,
    offsets 100 and 40000 non-zero), then of the odd offsets below 200 (100
    loads, all zero).  Exactly: 24676 bytes loaded, never loaded 2^30 -
    24676 = 1073717148, always zero 24676 - 2 = 24674; the map says
    granule 4.  Before: counted by granule, never loaded 2^30 - 49152 and
    always zero (12288 - 2) x 4 = 49144."""
    exe = common.build("big", BIG_OBJECT)
    r = common.run([exe], env={"ZEROINST_OUTPUT": "out", "ZEROINST_MODE": "data"})
    check(r.returncode == 0 and r.stdout == "12\n",
          "program failed (%d): %s %s" % (r.returncode, r.stdout, r.stderr))
    heap = [d for d in report("out")["data"] if d["object"] == "heap"]
    got = [(d["size"], d["elements"], d["never_loaded_bytes"], d["always_zero_bytes"],
            d["byte_map"]["granule"]) for d in heap]
    check(got == [(1 << 30, 24676, 1073717148, 24674, 4)], "heap records %s" % got)


THREADS = r"""
static void *loader (void *n) { load_ones ((int) (intptr_t) n); return 0; }
static void run (int threads, int loads)
{
  for (int i = 0; i < threads; i++)
    {
      pthread_t th;
      pthread_create (&th, 0, loader, (void *) (intptr_t) loads);
      pthread_join (th, 0);
    }
}
static long peak_kb (void)
{
  char line[256];
  long kb = -1;
  FILE *f = fopen ("/proc/self/status", "r");
  while (f && fgets (line, sizeof line, f))
    sscanf (line, "VmHWM: %ld", &kb);
  if (f)
    fclose (f);
  return kb;
}
int main (void)
{
  init ();
  run (5000, 1);
  long a = peak_kb ();
  run (10000, 1);
  run (10000, 0);
  printf ("%ld\n", peak_kb () - a);
  return 0;
}
"""


def case_many_threads():
    """25,000 sequential threads: 5000 that load one element, then 10,000
    more that do, then 10,000 that load nothing (load_ones(0)).  Rows:
    thread 0 (main), the first 4096 ended threads that loaded (one element
    each), and one row summing the other 15,000 - 4096 = 10,904
    (merged_threads 10904, 10904 elements); none for threads that loaded
    nothing.  load_ones: one record of 15,000 elements.  summary.txt counts
    1 + 15,000 = 15,001 threads.  Memory: the peak RSS grows by less than
    2 MB over the last 20,000 threads (100 bytes a thread; it grew by
    about 2.5 KB a thread before: 50 MB here)."""
    exe = common.build("threads", THREADS)
    r = common.run([exe], env={"ZEROINST_OUTPUT": "out"})
    check(r.returncode == 0, "program failed (%d): %s" % (r.returncode, r.stderr))
    growth = int(r.stdout)
    rep = report("out")
    rows = rep["threads"]
    ones = [t for t in rows if t["int"]["elements"] == 1 and "merged_threads" not in t]
    merged = [t for t in rows if "merged_threads" in t]
    check(len(rows) == 4098 and len(ones) == 4096 and rows[0]["thread"] == 0,
          "%d rows, %d with one element, first %s" % (len(rows), len(ones), rows[0]["thread"]))
    check([(t["merged_threads"], t["int"]["elements"]) for t in merged] == [(10904, 10904)],
          "summed rows %s" % [(t["merged_threads"], t["int"]["elements"]) for t in merged])
    check([x["elements"] for x in load_ones_records(rep)] == [15000],
          "load_ones records %s" % [x["elements"] for x in load_ones_records(rep)])
    with open(os.path.join(common.TMP, "out", "summary.txt")) as f:
        head = f.readline()
    check(", 15001 threads" in head, "summary.txt: " + head)
    check(growth < 2048, "peak RSS grew by %d KB over 20,000 threads" % growth)


common.main(globals())
