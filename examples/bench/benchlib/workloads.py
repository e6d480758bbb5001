"""workloads.py - what run-bench measures: the kernels of
examples/kernels and the real programs (--real), built from Debian's
sources by tests/integration/run-project."""
import collections
import json
import os
import random
import re
import subprocess
import sys

from .common import KERNELS, RUN_PROJECT, log

# Real programs (--real): built by tests/integration/run-project PROJECT;
# "program" is the executable's path in its build tree, "args" its
# arguments ({size}: the size for the run, {input}: the generated input of
# that many bytes), "size" the default and --quick sizes (default: each
# plain run about a second on the 2-core machine, 2026-11-21: speedtest1
# --size 50 1.0-1.2 s, bzip2 of 12 MiB 0.95 s, xz -6 of 1.5 MiB 0.9 s; xz
# costs more per byte as its dictionary fills, 8 MiB took 9 s), "strip" a regex
# deleted from every output line before the comparison (nondeterministic
# parts such as timings), "env" added to the environment of every run
# ({tree}: the plain or instrumented tree), "sources" file names of which at
# least one must be a site in every instrumented run's report (proof that
# the project's own code ran instrumented, not a system library).
REAL = collections.OrderedDict()
# speedtest1 prints a timing per test and a total; --verify adds a hash of
# all query results, so the output left after stripping the timings still
# checks every result.
REAL["sqlite3-speedtest1"] = dict(
    project="sqlite3", program="speedtest1",
    args=["--size", "{size}", "--memdb", "--verify"],
    size={"default": 50, "quick": 5}, strip=rb"\s+[0-9.]+s$",
    sources={"sqlite3.c"})
# Debian's bzip2 links the program against libbz2.so (-L. -lbz2): without
# the tree in LD_LIBRARY_PATH (as its own `make test` sets it) both builds
# would compress with the system's libbz2.
REAL["bzip2"] = dict(
    project="bzip2", program="bzip2", args=["-c", "{input}"],
    size={"default": 12 << 20, "quick": 1 << 20}, env={"LD_LIBRARY_PATH": "{tree}"},
    sources={"compress.c", "blocksort.c", "bzlib.c"})
# -T1: xz 5.4 compresses single-threaded by default, but say so: a
# multithreaded stream depends on the number of threads (and CPUs).
REAL["xz"] = dict(
    project="xz-utils", program="src/xz/xz", args=["-c", "-6", "-T1", "{input}"],
    size={"default": 3 << 19, "quick": 1 << 17},
    sources={"lzma_encoder.c", "lz_encoder.c", "lz_encoder_mf.c",
             "lzma_encoder_optimum_normal.c"})


class Workload:
    """A kernel of ../kernels: one source file, built here; argv[1] is the
    size argument and the whole stdout is compared."""
    kind = "kernel"
    project = None
    sources = None

    def env(self, exe):
        """Environment added for running exe."""
        return {}

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)          # cg.c, cg.f90
        self.stem, ext = os.path.splitext(self.name)
        self.lang = "fortran" if ext in (".f90", ".f95", ".f03", ".f") else "c"
        self.libs = ["-lm"] if self.lang == "c" else []
        self.args = None

    def prepare(self, size_arg, work):
        """Set the run arguments; return how the size is described."""
        self.args = [size_arg]
        return size_arg

    def argv(self, exe):
        return [exe] + self.args

    def filter(self, out):
        """The part of stdout that must be identical to the plain run's."""
        return out


class RealWorkload(Workload):
    """A program of a real project (REAL), built by run-project."""
    kind = "real"

    def __init__(self, name):
        spec = REAL[name]
        self.name = self.stem = name
        self.lang = "c"
        self.project = spec["project"]
        self.program = spec["program"]
        self.spec = spec
        self.args = None
        self.strip = re.compile(spec["strip"]) if spec.get("strip") else None
        self.sources = spec.get("sources")

    def env(self, exe):
        # exe is TREE/program
        tree = exe[:-len(self.program)].rstrip("/")
        return {k: v.format(tree=tree) for k, v in self.spec.get("env", {}).items()}

    def prepare(self, size_arg, work):
        size = self.spec["size"]["quick" if size_arg == "quick" else "default"]
        fill = {"size": str(size)}
        desc = "%s %s" % (os.path.basename(self.program),
                          " ".join(self.spec["args"]).format(size=size, input="INPUT"))
        if any("{input}" in a for a in self.spec["args"]):
            fill["input"] = generate_input(os.path.join(work, "real", "inputs"), size)
            desc += " (%d bytes)" % size
        self.args = [a.format(**fill) for a in self.spec["args"]]
        return desc

    def filter(self, out):
        if not self.strip:
            return out
        return b"\n".join(self.strip.sub(b"", line) for line in out.split(b"\n"))


def generate_input(dirname, size):
    """Path of a deterministic, text-like input of size bytes in dirname
    (made once): log-like records of numbers and words, zero-padded ids and
    flags (mostly 0), and a run of 256-8191 zero bytes every 997 records,
    so that it compresses somewhat like real data (about 5:1 with bzip2)."""
    path = os.path.join(dirname, "input-%d.dat" % size)
    if os.path.isfile(path) and os.path.getsize(path) == size:
        return path
    os.makedirs(dirname, exist_ok=True)
    rnd = random.Random(7)       # fixed seed: the same input in every run
    words = ("alpha beta gamma delta sensor pump valve node rack cpu disk net "
             "temp load ok warn retry idle busy north south east west").split()
    out = bytearray()
    t = 1700000000
    n = 0
    while len(out) < size:
        n += 1
        t += rnd.randrange(0, 5)
        if n % 997 == 0:
            out += bytes(rnd.randrange(256, 8192))
            continue
        vals = " ".join("%.*f" % (rnd.randrange(0, 4), rnd.gauss(50, 30)) if rnd.random() < .5
                        else "0" if rnd.random() < .4 else str(rnd.randrange(100000))
                        for _ in range(rnd.randrange(2, 8)))
        out += ("%d id=%012d %s.%s-%02d flags=%08x %s %s\n"
                % (t, n, rnd.choice(words), rnd.choice(words), rnd.randrange(32),
                   rnd.choice((0, 0, 0, 1, 0x100, 0x8000)), vals, rnd.choice(words))).encode()
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out[:size])
    os.replace(tmp, path)
    return path


def find_workloads(only, real):
    names = sorted(f for f in os.listdir(KERNELS)
                   if f.endswith((".c", ".f90")) and not f.startswith("."))
    wls = [Workload(os.path.join(KERNELS, f)) for f in names]
    if real:
        wls += [RealWorkload(n) for n in REAL]
    if only:
        wanted = [w.strip() for w in only.split(",") if w.strip()]
        unknown = [w for w in wanted if not any(w in (x.name, x.stem) for x in wls)]
        if unknown:
            sys.exit("run-bench: unknown workload(s) %s; known: %s%s"
                     % (", ".join(unknown), ", ".join(w.name for w in wls),
                        "" if real else " (and, with --real, %s)" % ", ".join(REAL)))
        wls = [x for x in wls if x.name in wanted or x.stem in wanted]
    return wls


def build_fingerprint(build_dir):
    """What the plain and instrumented builds of a real project depend on
    besides its source: the zeroinst build (wrappers, plugin, runtime),
    run-project itself and gcc."""
    files = []
    for sub in ("bin", "lib"):
        for root, dirs, names in os.walk(os.path.join(build_dir, sub)):
            dirs.sort()
            for n in sorted(names):
                st = os.stat(os.path.join(root, n))
                files.append([os.path.relpath(os.path.join(root, n), build_dir),
                              st.st_size, st.st_mtime_ns])
    st = os.stat(RUN_PROJECT)
    gcc = subprocess.run(["gcc", "--version"], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout.split("\n")[0]
    return {"build_dir": build_dir, "files": files,
            "run_project": [st.st_size, st.st_mtime_ns], "gcc": gcc}


def build_real(project, build_dir, work, asan):
    """Build PROJECT plain and instrumented with run-project (or reuse an
    earlier build of the same zeroinst build, see the docstring).
    Returns (status, detail, result.json dict, project work dir): status
    is "ok", "reused", "skip" (source not fetchable) or "fail"."""
    rdir = os.path.join(work, "real")
    pwork = os.path.join(rdir, project)
    stamp = pwork + ".stamp"
    logf = pwork + ".log"
    os.makedirs(rdir, exist_ok=True)
    fp = build_fingerprint(build_dir)
    fp["asan"] = asan
    try:
        with open(stamp) as f:
            old = json.load(f)
        with open(os.path.join(pwork, "result.json")) as f:
            result = json.load(f)
        if old == fp and not result.get("failures"):
            return "reused", "", result, pwork
    except (OSError, ValueError):
        pass
    if os.path.exists(stamp):
        os.unlink(stamp)
    if os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        cache = os.path.join(build_dir, "cache", "debian-src")
    else:
        cache = os.path.join(rdir, "cache")      # do not write into an install tree
    cmd = [sys.executable, RUN_PROJECT, "--bin", os.path.join(build_dir, "bin"),
           "--cache", cache, "--work", pwork, "--jobs", str(os.cpu_count() or 1),
           "--skip-unfetchable"] + (["--asan"] if asan else []) + [project]
    log("run-bench: building %s plain and instrumented: %s (log %s)"
        % (project, " ".join(cmd), logf))
    # No timeout here: run-project has its own, per build and test step.
    with open(logf, "w") as out:
        rc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL).returncode
    with open(logf, errors="replace") as f:
        tail = "".join(f.readlines()[-30:])
    detail = "%s exited %s; log %s, last lines:\n%s" % (" ".join(cmd), rc, logf, tail)
    if rc == 77:
        return "skip", detail, None, pwork
    if rc != 0:
        return "fail", detail, None, pwork
    try:
        with open(os.path.join(pwork, "result.json")) as f:
            result = json.load(f)
    except (OSError, ValueError) as e:
        return "fail", "%s: no readable result.json: %s" % (pwork, e), None, pwork
    with open(stamp, "w") as f:
        json.dump(fp, f)
    return "ok", "", result, pwork
