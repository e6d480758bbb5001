#!/usr/bin/env python3
"""csmith random programs: plain compiler vs zeroinst wrapper.

For each seed, `csmith --seed N` generates a random, well-defined C program
that prints a checksum of its global state.  It is built with the plain
compiler and with the zeroinst wrapper (+ -fchecking) at the same -O level
and run; the instrumented build must print the same output and exit the same
way.  Seeds whose plain build does not finish within the timeout (csmith
programs may loop for a very long time) are skipped.  Seeds are fixed
(default 1..200), so runs are repeatable for a given csmith version.

  csmith.py --cc gcc --inst zeroinst-cc --seeds 1-200 --work DIR
"""

import argparse
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402


def csmith_include():
    """Where libcsmith-dev put csmith.h."""
    for d in ("/usr/include/csmith", "/usr/local/include/csmith",
              "/usr/include/csmith-2.3.0"):
        if os.path.exists(os.path.join(d, "csmith.h")):
            return d
    sys.exit("error: csmith.h not found (install libcsmith-dev)")


def seed_case(csmith, seed, include, opt_flags):
    def generate(d):
        # csmith writes and then reads platform.info in its working
        # directory; parallel generators sharing one directory read each
        # other's half-written file and fail (exit 255).  Each case runs in
        # its own directory.
        with open(os.path.join(d, "prog.c"), "w") as f:
            subprocess.run([csmith, "--seed", str(seed)], stdout=f, check=True,
                           cwd=d)
    # Sources are relative to the plain/ and inst/ build directories.
    return common.Case("seed-%d" % seed, ["../prog.c"],
                       ["-w", "-I" + include] + opt_flags,
                       must_exit_0=False, same_stdout=True,
                       prepare=generate)


def parse_seeds(spec):
    """'1-200' or '5,7,9-11' -> list of ints."""
    seeds = []
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        seeds += range(int(lo), int(hi or lo) + 1)
    return seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", required=True, help="plain C compiler")
    ap.add_argument("--inst", required=True, help="zeroinst-cc")
    ap.add_argument("--csmith", default="csmith")
    ap.add_argument("--seeds", default="1-200", help="e.g. 1-200 or 3,17")
    ap.add_argument("--opt", default="O2", help="-O level (default O2)")
    ap.add_argument("--flags", default="",
                    help="extra flags for both builds, space-separated")
    common.add_common_args(ap)
    args = ap.parse_args()
    cfg = common.config_from(args, args.cc, args.inst)

    include = csmith_include()
    opt = "-" + args.opt.lstrip("-")
    jobs = [(seed_case(args.csmith, s, include, args.flags.split()), opt)
            for s in parse_seeds(args.seeds)]
    sys.exit(common.run_all(jobs, cfg, args.jobs, "csmith %s" % args.seeds))


if __name__ == "__main__":
    main()
