"""common.py - run-bench's settings (paths, compile flags, builds, run
modes) and its statistics."""
import math
import os
import statistics
import sys

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # examples/bench
TESTS = os.path.normpath(os.path.join(BENCH, "..", "..", "tests"))
KERNELS = os.path.normpath(os.path.join(BENCH, "..", "kernels"))
DEFAULT_BUILD = os.path.normpath(os.path.join(BENCH, "..", "..", "build"))
RUN_PROJECT = os.path.join(TESTS, "integration", "run-project")

FLAGS = ["-O2", "-fopenmp"]

# Builds: how each variant of a workload is compiled.  "cc" maps a
# language to the compiler; {bin} is the zeroinst build's bin directory.
BUILDS = {
    "plain":    {"cc": {"c": "gcc", "fortran": "gfortran"}, "flags": []},
    "zeroinst": {"cc": {"c": "{bin}/zeroinst-cc", "fortran": "{bin}/zeroinst-fortran"},
                 "flags": []},
    "asan":     {"cc": {"c": "gcc", "fortran": "gfortran"},
                 "flags": ["-fsanitize=address"]},
}

# Instrumented run modes: each runs the zeroinst build with this
# environment and gets its own time and RSS columns.
MODES = {
    "code": {"ZEROINST_MODE": "code"},
    "data": {"ZEROINST_MODE": "data"},
    "code+data": {"ZEROINST_MODE": "code,data"},
}

ASAN_ENV = {"ASAN_OPTIONS": "detect_leaks=0"}

# --cachegrind: the command that counts a run's instructions, and what it
# adds to the run's environment.  Valgrind runs one thread at a time, and
# libgomp's waiting threads spin by default: their spinning would be counted
# and varies from run to run (lu.c quick, 2 threads: plain 763-772 M Ir
# spinning, 480 M in every run with passive waiting).
CACHEGRIND = ["valgrind", "--tool=cachegrind", "--cache-sim=no"]
CACHEGRIND_ENV = {"OMP_WAIT_POLICY": "passive"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def ratio(a, b):
    return a / b if a is not None and b else None
