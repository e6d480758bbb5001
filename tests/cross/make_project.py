#!/usr/bin/env python3
"""`make CC=<cross build>/bin/zeroinst-cc` on a plain make project
(make-project/): the executable must be built for the target (ELF machine
of the plain cross compiler's target), run under the emulator, print what
it computes, and write a report for that architecture with the counts
derived below.

table.c's loop loads counts[0..63] (uint32), whatever the vectorizer does:
slots 0, 8, ..., 56 hold i + 1 (1..57: 3 leading zero bytes each), the
other 56 are zero (4 bytes each): 64 elements, 256 bytes, 8*3 + 56*4 = 248
redundant bytes, 56 zero elements.  Output: sum of i + 1 = 224 + 8 = 232.

  make_project.py --bin build-aarch64/bin --plain-cc aarch64-linux-gnu-gcc \\
      --emulator qemu-aarch64 --work DIR
"""
import argparse
import os
import shlex
import shutil
import struct
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402  (tests/report_format.py: format 2 read as format 1)

ELF_MACHINE = {"x86_64": 62, "aarch64": 183, "riscv64": 243}
EXPECT = {"elements": 64, "bytes": 256, "redundant_bytes": 248, "zero_elements": 56}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--plain-cc", required=True, help="the target's plain gcc (for its triple)")
    ap.add_argument("--emulator", default="")
    ap.add_argument("--work", required=True)
    opt = ap.parse_args()
    arch = subprocess.run([opt.plain_cc, "-dumpmachine"], capture_output=True, text=True,
                          check=True).stdout.split("-")[0]

    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-project")
    work = os.path.abspath(opt.work)
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, work)
    cc = os.path.join(os.path.abspath(opt.bin), "zeroinst-cc")
    r = subprocess.run(["make", "-C", work, "CC=" + cc], capture_output=True, text=True)
    print(r.stdout + r.stderr, end="")
    if r.returncode != 0:
        fail("make CC=%s failed" % cc)

    exe = os.path.join(work, "hist")
    with open(exe, "rb") as f:
        head = f.read(20)
    machine = struct.unpack("<H", head[18:20])[0] if head[:4] == b"\x7fELF" else None
    if machine != ELF_MACHINE.get(arch):
        fail("%s: ELF machine %s, expected %s (%s)" % (exe, machine, ELF_MACHINE.get(arch), arch))

    report = os.path.join(work, "report")
    env = dict(os.environ, ZEROINST_OUTPUT=report)
    r = subprocess.run(shlex.split(opt.emulator) + [exe], capture_output=True, text=True,
                       env=env, timeout=60, cwd=work)
    if r.returncode != 0 or r.stdout != "total 232\n":
        fail("run: status %d, stdout %r, stderr %r" % (r.returncode, r.stdout, r.stderr))
    rep = report_format.load(os.path.join(report, "report.json"))
    if rep["arch"] != arch:
        fail("report arch %r, expected %r" % (rep["arch"], arch))
    recs = [c for c in rep["code"] if os.path.basename(c["site"]["file"]) == "table.c"]
    if not recs:
        fail("no code record in table.c: %s" % [c["site"] for c in rep["code"]])
    for key, want in EXPECT.items():
        got = sum(c[key] for c in recs)
        if got != want:
            fail("table.c records: %s = %d, expected %d" % (key, got, want))
    print("ok: make project built for %s with zeroinst-cc, %d record(s) in table.c"
          % (arch, len(recs)))


if __name__ == "__main__":
    main()
