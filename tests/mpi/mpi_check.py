#!/usr/bin/env python3
"""mpi_check.py BIN LANG SOURCE WORKDIR

Builds SOURCE (mpi-prog.c or mpi-prog.f90, LANG c or fortran) with Open
MPI's wrapper over zeroinst's (OMPI_CC=zeroinst-cc mpicc, OMPI_FC=
zeroinst-fortran mpif90), runs it as 4 ranks under mpirun with the mode
passed by `mpirun -x`, and checks:
  - four reports named zeroinst-PROG-rRANK-PID, each saying its rank;
  - each rank's sum site and static array: the counts the source's
    comment derives from the rank;
  - `zeroinst merge 'zeroinst-PROG-r*' -o merged`: the sums of the four,
    each process's totals, and the spread (min, max, mean over ranks);
  - `zeroinst show merged` prints the spread with rank names, and so does
    the `zeroinst html` page of it in headless chromium, with each rank's
    totals.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

bindir, lang, source, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = dict(os.environ)
env["PATH"] = bindir + os.pathsep + env["PATH"]
for key in list(env):
    if key.startswith("ZEROINST_"):
        del env[key]

if lang == "c":
    prog, elem, array, function = "mpi-prog-c", 4, "buf", "sum_buf"
    build = ["mpicc", "-O2", "-g", source, "-o", prog]
    env["OMPI_CC"] = "zeroinst-cc"
else:
    prog, elem, array, function = "mpi-prog-f", 8, "counts::a", "sum_a"
    build = ["mpif90", "-O2", "-g", source, "-o", prog]
    env["OMPI_FC"] = "zeroinst-fortran"
N = 256
RANKS = 4


def run(cmd, **kw):
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


if not shutil.which("mpirun", path=env["PATH"]):
    sys.exit("mpirun not found: install openmpi-bin libopenmpi-dev (sh cmake/install-deps.sh)")
run(build)
env["ZEROINST_MODE"] = "code,data"
out = run(["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", str(RANKS),
           "-x", "ZEROINST_MODE", "./" + prog], timeout=300)
# Each rank sums its 64*r ones.
assert out == "%d\n" % sum(64 * r for r in range(RANKS)), out

failures = []


def expect(what, got, want):
    if got != want:
        failures.append("%s: %r, expected %r" % (what, got, want))


def red(r):
    """Redundant bytes of rank r: a 1 has elem-1 zero bytes, a 0 has elem."""
    return (elem - 1) * 64 * r + elem * (N - 64 * r)


def redmap(r):
    return "0" * elem if r == 0 else "0" * (elem - 1) + "x"


def byte_map(r):
    """Little-endian: a 1 is its low byte x, then elem-1 zero bytes."""
    if r == 0:
        return "%dz" % (N * elem)
    ones = 64 * r
    return ("1x%dz" % (elem - 1)) * (ones - 1) + "1x%dz" % (elem - 1 + elem * (N - ones))


def site_records(rep):
    recs = [c for c in rep["code"]
            if c["site"]["function"] == function and c["site"]["expr"].startswith(
                array.split("::")[-1] + "[")]
    return recs


def static_object(rep):
    return [d for d in rep["data"] if d["object"] == "static" and d["name"] == array]


dirs = sorted(glob.glob(os.path.join(work, "zeroinst-%s-r*" % prog)))
expect("report directories", len(dirs), RANKS)
reports = {}
for d in dirs:
    m = re.fullmatch(r"zeroinst-%s-r(\d+)-(\d+)" % re.escape(prog), os.path.basename(d))
    if not m:
        failures.append("report directory %s: not zeroinst-%s-rRANK-PID" % (d, prog))
        continue
    r = int(m.group(1))
    rep = json.loads(run([os.path.join(bindir, "zeroinst"), "export", d, "--format",
                          "json-v1"]))
    expect("%s: rank" % d, rep.get("rank"), r)
    expect("%s: pid" % d, rep.get("pid"), int(m.group(2)))
    reports[r] = rep
    recs = site_records(rep)
    expect("rank %d: records of the sum site" % r, len(recs), 1)
    if recs:
        c = recs[0]
        expect("rank %d: site" % r,
               (c["elements"], c["bytes"], c["redundant_bytes"], c["zero_elements"],
                c["redmap"]),
               (N, N * elem, red(r), N - 64 * r, redmap(r)))
    objs = static_object(rep)
    expect("rank %d: static objects %s" % (r, array), len(objs), 1)
    if objs:
        o = objs[0]
        expect("rank %d: object" % r,
               (o["size"], o["bytes"], o["redundant_bytes"], o["zero_elements"],
                o["never_loaded_bytes"], o["always_zero_bytes"], o["byte_map"]),
               (N * elem, N * elem, red(r), N - 64 * r, 0, red(r),
                {"granule": 1, "length": N * elem, "runs": byte_map(r)}))
expect("ranks", sorted(reports), list(range(RANKS)))

merged = os.path.join(work, "merged")
run([os.path.join(bindir, "zeroinst"), "merge", "zeroinst-%s-r*" % prog, "-o", merged])
m = json.loads(run([os.path.join(bindir, "zeroinst"), "export", merged, "--format",
                    "json-v1"]))


def add(x, y):
    if isinstance(x, dict):
        return {k: add(x.get(k, 0), y.get(k, 0)) for k in set(x) | set(y)}
    return x + y


total = None
for r in range(RANKS):
    total = reports[r]["summary"] if total is None else add(total, reports[r]["summary"])
expect("merged summary", m["summary"], total)
procs = m.get("processes", [])
expect("merged processes' ranks", sorted(p.get("rank") for p in procs), list(range(RANKS)))
for p in procs:
    if p.get("rank") in reports:
        expect("rank %d's totals" % p["rank"], p["summary"], reports[p["rank"]]["summary"])
index = {p.get("rank"): i for i, p in enumerate(procs)}
reds = [red(r) for r in range(RANKS)]
lo, hi = min(reds), max(reds)
want_spread = {"processes": RANKS,
               "redundant_bytes": {"min": lo, "min_process": index.get(reds.index(lo)),
                                   "max": hi, "max_process": index.get(reds.index(hi)),
                                   "mean": sum(reds) / RANKS},
               "bytes": {"min": N * elem, "min_process": 0, "max": N * elem,
                         "max_process": 0, "mean": float(N * elem)}}
recs = site_records(m)
expect("merged records of the sum site", len(recs), 1)
if recs:
    c = recs[0]
    expect("merged site",
           (c["elements"], c["bytes"], c["redundant_bytes"], c["zero_elements"], c["redmap"],
            c["spread"]),
           (RANKS * N, RANKS * N * elem, sum(reds), sum(N - 64 * r for r in range(RANKS)),
            redmap(1), want_spread))
objs = static_object(m)
expect("merged static objects", len(objs), 1)
if objs:
    o = objs[0]
    # A byte is x where any rank's is: the last rank has the most ones.
    expect("merged object",
           (o["size"], o["redundant_bytes"], o["always_zero_bytes"], o["never_loaded_bytes"],
            o["byte_map"], o["spread"]),
           (RANKS * N * elem, sum(reds), sum(reds), 0,
            {"granule": 1, "length": N * elem, "runs": byte_map(RANKS - 1)}, want_spread))

shown = run([os.path.join(bindir, "zeroinst"), "show", merged, "--kind", "int"])
line = ("     in %d of %d processes; redundant bytes per process: min %d (rank %d), "
        "max %d (rank %d), mean %.1f" % (RANKS, RANKS, lo, reds.index(lo), hi, reds.index(hi),
                                         sum(reds) / RANKS))
if line not in shown.split("\n"):
    failures.append("show of the merged report lacks %r:\n%s" % (line, shown))

# The HTML page of the merged report, rendered by chromium: no script
# error, each rank's totals in the overview, the site's spread line.
page = os.path.join(work, "merged.html")
run([os.path.join(bindir, "zeroinst"), "html", merged, "-o", page])
dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                      "--dump-dom", "file://" + page], capture_output=True, text=True,
                     timeout=120).stdout
# (Rendered elements, not the page's embedded JSON.)
for text in ['data-ready="1"', 'data-errors="0"', 'class="spread">' + line.strip() + "<"] + [
        '<td class="text">rank %d int</td>' % r for r in range(RANKS)]:
    if text not in dom:
        failures.append("the merged report's HTML page lacks %r" % text)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%s: 4 ranks, their reports and the merged one as derived" % prog)
