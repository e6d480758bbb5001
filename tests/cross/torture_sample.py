#!/usr/bin/env python3
"""A deterministic sample of GCC's C torture execution tests, for a cross
target under an emulator: plain cross build vs zeroinst cross build.

Each gcc.c-torture/execute program exits 0 when it computed the right thing
and aborts otherwise.  For every sampled program:
  * the plain build (--cc, e.g. aarch64-linux-gnu-gcc) does not compile, or
    its run under the emulator fails or times out  -> skipped;
  * otherwise the instrumented build (--inst, the zeroinst-cc wrapper of the
    cross build, plus -fchecking) must compile, exit with the same status,
    print the same stdout, and leave a readable report.json (unless the
    executable does not link libzeroinst at all: nothing instrumented was
    left and the linker's --as-needed dropped the runtime)  -> passed;
    anything else -> failed (work directory kept with a repro.sh).
Prints the failures, then exactly one line `N passed, N failed, N skipped`;
exits 1 if anything failed.

The sample: the top-level gcc.c-torture/execute/*.c programs sorted by name,
every K-th one from the first so that --count programs are taken (the same
programs on every run and every machine).  Flags: -w -lm, the unconditional
`additional_flags` of a sibling .x file, and `{ dg-options }` /
`{ dg-additional-options }` whose `{ target ... }` selector is absent or
names this target's architecture.

Sources are unpacked once by /work/shared/tools/gcc-torture into --cache.

  torture_sample.py --cc aarch64-linux-gnu-gcc --inst build-aarch64/bin/zeroinst-cc \\
      --emulator qemu-aarch64 --count 100 --opt -O2 --cache DIR --work DIR
"""
import argparse
import concurrent.futures
import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from harness import run, describe_status  # noqa: E402  (tests/harness.py)

TOOL = "/work/shared/tools/gcc-torture"
EXECUTE = "gcc-12.2.0/gcc/testsuite/gcc.c-torture/execute"
COMPILE_TIMEOUT = 300


def sources(cache, tool):
    """CACHE/torture/<...>/execute, unpacked once (locked: ctest -j)."""
    final = os.path.join(cache, "torture")
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, "torture.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(os.path.join(final, EXECUTE)):
            tmp = final + ".tmp"
            shutil.rmtree(tmp, ignore_errors=True)
            subprocess.run([tool, tmp], check=True, stdout=subprocess.DEVNULL)
            shutil.rmtree(final, ignore_errors=True)
            os.rename(tmp, final)
    return os.path.join(final, EXECUTE)


DG_RE = re.compile(
    r'\{\s*dg-(?:options|additional-options)\s+'
    r'(?:"([^"]*)"|\{\s*"?([^}"]*)"?\s*\})'
    r'\s*(?:\{\s*target\s+(.*?)\s*\}\s*)?\}')


def case_flags(src, arch):
    flags = ["-w"]
    xfile = src[:-2] + ".x"
    if os.path.exists(xfile):
        for line in open(xfile, errors="replace"):
            m = re.match(r'(set|lappend) additional_flags (.*)', line)  # column 0 only
            if m:
                new = [w.strip('"') for w in m.group(2).split()]
                flags = new if m.group(1) == "set" else flags + new
    for m in DG_RE.finditer(open(src, errors="replace").read()):
        sel = m.group(3)
        if sel is None or (arch in sel and not sel.strip().startswith("!")):
            flags += (m.group(1) if m.group(1) is not None else m.group(2)).split()
    return flags


def check(name, src, flags, opt, cfg):
    d = os.path.join(cfg.work, name[:-2])
    shutil.rmtree(d, ignore_errors=True)
    pdir, idir = os.path.join(d, "plain"), os.path.join(d, "inst")
    os.makedirs(pdir)
    os.makedirs(idir)
    report = os.path.join(idir, "report")
    plain_cmd = [cfg.cc, opt] + flags + [src, "-o", "prog", "-lm"]
    inst_cmd = [cfg.inst, opt, "-fchecking"] + flags + [src, "-o", "prog", "-lm"]
    verdict, detail = "pass", ""
    if run(plain_cmd, pdir, COMPILE_TIMEOUT).rc != 0:
        verdict, detail = "skip", "plain build does not compile"
    else:
        p = run(cfg.emulator + ["./prog"], pdir, cfg.timeout)
        if p.rc != 0:
            verdict, detail = "skip", "plain run fails"
    if verdict == "pass":
        c = run(inst_cmd, idir, COMPILE_TIMEOUT)
        if c.rc != 0:
            verdict, detail = "fail", "instrumented build fails (%s):\n%s" % (
                describe_status(c), "\n".join((c.err + c.out).splitlines()[:20]))
    if verdict == "pass":
        env = dict(os.environ, ZEROINST_OUTPUT=report, ZEROINST_EMPTY_REPORT="1")
        i = run(cfg.emulator + ["./prog"], idir, 3 * cfg.timeout, env)
        if i.rc != p.rc or i.out != p.out:
            verdict, detail = "fail", "plain %s, instrumented %s%s%s" % (
                describe_status(p), describe_status(i), "; stdout differs" if i.out != p.out else "",
                ("\ninstrumented stderr:\n" + i.err[-2000:]) if i.err.strip() else "")
        else:
            try:
                with open(os.path.join(report, "report.json")) as f:
                    json.load(f)
            except (OSError, ValueError) as e:
                verdict, detail = "fail", "no readable report.json (%r)" % (e,)
                with open(os.path.join(idir, "prog"), "rb") as f:
                    if b"libzeroinst" not in f.read():
                        # Nothing instrumented survived -O2 and the linker
                        # (--as-needed) dropped the runtime: no report.
                        verdict, detail = "pass", "no runtime"
    if verdict == "fail":
        q = lambda argv: " ".join(shlex.quote(a) for a in argv)
        emu = q(cfg.emulator)
        with open(os.path.join(d, "repro.sh"), "w") as f:
            f.write("#!/bin/sh\nset -x\ncd %s && %s && %s ./prog; echo \"plain: $?\"\n"
                    % (shlex.quote(pdir), q(plain_cmd), emu))
            f.write("cd %s && %s && ZEROINST_OUTPUT=%s ZEROINST_EMPTY_REPORT=1 %s ./prog; echo \"instrumented: $?\"\n"
                    % (shlex.quote(idir), q(inst_cmd), shlex.quote(report), emu))
        os.chmod(os.path.join(d, "repro.sh"), 0o755)
    else:
        shutil.rmtree(d, ignore_errors=True)
    return verdict, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cc", required=True, help="plain cross compiler")
    ap.add_argument("--inst", required=True, help="zeroinst-cc of the cross build")
    ap.add_argument("--emulator", default="", help='e.g. "qemu-aarch64"')
    ap.add_argument("--count", type=int, default=100, help="programs in the sample")
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--cache", required=True, help="where the sources are unpacked")
    ap.add_argument("--work", required=True, help="scratch directory (failures kept)")
    ap.add_argument("--tool", default=TOOL)
    ap.add_argument("--timeout", type=float, default=20, help="seconds per plain run")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    cfg = ap.parse_args()
    cfg.emulator = shlex.split(cfg.emulator)
    cfg.inst = os.path.abspath(cfg.inst)
    cfg.work = os.path.abspath(cfg.work)
    for c in (cfg.cc, cfg.inst):
        if shutil.which(c) is None:
            sys.exit("error: compiler %r not found" % c)
    arch = subprocess.run([cfg.cc, "-dumpmachine"], capture_output=True, text=True,
                          check=True).stdout.split("-")[0]

    root = sources(os.path.abspath(cfg.cache), cfg.tool)
    progs = sorted(f for f in os.listdir(root) if f.endswith(".c"))
    step = max(1, len(progs) // cfg.count)
    sample = progs[::step][:cfg.count]
    os.makedirs(cfg.work, exist_ok=True)
    t0 = time.monotonic()
    print("c torture sample for %s at %s: %d of %d programs (every %d-th), emulator %r"
          % (arch, cfg.opt, len(sample), len(progs), step, " ".join(cfg.emulator)), flush=True)
    counts = {"pass": 0, "fail": 0, "skip": 0}
    failures, skips, unlinked = [], [], []
    with concurrent.futures.ThreadPoolExecutor(cfg.jobs) as pool:
        futs = {pool.submit(check, f, os.path.join(root, f),
                            case_flags(os.path.join(root, f), arch), cfg.opt, cfg): f
                for f in sample}
        for fut in concurrent.futures.as_completed(futs):
            name = futs[fut]
            try:
                verdict, detail = fut.result()
            except Exception as e:  # a harness bug must not pass silently
                verdict, detail = "fail", "harness error: %r" % (e,)
            counts[verdict] += 1
            if detail == "no runtime":
                unlinked.append(name)
            if verdict == "fail":
                failures.append(name)
                print("FAIL %s\n    %s" % (name, detail.replace("\n", "\n    ")), flush=True)
            elif verdict == "skip":
                skips.append("%s (%s)" % (name, detail))
    if skips:
        print("skipped: " + ", ".join(sorted(skips)))
    if unlinked:
        print("passed without the runtime linked (no instrumented load left, so no "
              "report.json; judged on status and output): %d" % len(unlinked))
    if failures:
        print("failed: %s (work directories with repro.sh under %s)"
              % (" ".join(sorted(failures)), cfg.work))
    print("took %.0f s" % (time.monotonic() - t0))
    print("%d passed, %d failed, %d skipped" % (counts["pass"], counts["fail"], counts["skip"]))
    sys.exit(1 if counts["fail"] else 0)


if __name__ == "__main__":
    main()
