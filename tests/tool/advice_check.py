#!/usr/bin/env python3
"""advice_check.py - `zeroinst show` advises exactly what advice-prog.c proves.

    advice_check.py BIN_DIR SOURCE WORK_DIR

Builds SOURCE (advice-prog.c) with BIN_DIR/zeroinst-cc -O1 -g, runs it with
ZEROINST_MODE=code,data, and reads `zeroinst show REPORT --top 0`.  Every
record (code site or data object) is one block of that output; a block's
advice lines must be exactly the ones below, in this order, and every other
block must have none.  The must-not cases have to be in the report (else
their silence would prove nothing).  The figures are derived in the
comments of advice-prog.c.  `--no-advice` must print the same blocks with
no advice line at all.
"""
import os
import re
import sys

from tool_run import profile, run

NARROW = "advice: narrower type: values fit in {bits} bits, unsigned (top {top} of {n} bytes " \
         "zero in every load): {type} would load {saved} fewer bytes ({pct})"

# (section, record) -> advice lines.  A code record is "function: expr",
# a data record "static NAME" or "heap".
EXPECTED = {
    ("Integer loads", "main: small[i]"): [
        NARROW.format(bits=8, top=7, n=8, type="uint8_t", saved=7000, pct="87.50%")],
    ("Integer loads", "main: mid[i]"): [
        NARROW.format(bits=24, top=5, n=8, type="int32_t or uint32_t", saved=4000,
                      pct="50.00%")],
    ("Floating-point loads", "main: grid[i]"): [
        "advice: sparse data: 98.44% of the elements loaded here are zero: a sparse format "
        "or skipping zero blocks would load 32256 fewer bytes"],
    ("Floating-point loads", "scale: *kappa"): [
        "advice: zero guard: the value loaded here is zero in 95.00% of the loads: test it "
        "once and skip the work that uses it (7600 bytes of zeros loaded)"],
    ("Data objects: integer loads", "static records"): [
        "advice: never read: 3072 of its 4096 bytes (75.00%) were never loaded, bytes 4..15 "
        "of every 16-byte element: split the hot and cold fields"],
    ("Data objects: integer loads", "heap"): [
        "advice: never read: 3072 of its 4096 bytes (75.00%) were never loaded, all at the "
        "end (bytes 1024..4095 of it): shrink it to 1024 bytes"],
    ("Data objects: floating-point loads", "static grid"): [
        "advice: sparse data: 98.44% of its loaded elements are zero, 32640 of its 32768 "
        "bytes always zero: store the non-zeros sparsely, or skip its 64 zero regions of "
        "64+ bytes (32634 bytes of it; the largest is bytes 8..517)"],
}

# Records on which a rule must not fire; they must be in the report.
MUST_NOT = [
    ("Integer loads", "main: wide[i]"),                     # 3 bytes -> still 4
    ("Floating-point loads", "main: dense[i]"),             # 50% zero
    ("Floating-point loads", "scale_other: *other"),        # 50% zero
    ("Data objects: floating-point loads", "static dense"),
    ("Data objects: integer loads", "static both"),         # half read as floats
    ("Data objects: floating-point loads", "static both"),  # half read as integers
    ("Data objects: integer loads", "static small"),        # all read
]


def blocks(text):
    """{(section, record): [advice lines]} of `zeroinst show` output."""
    out, section, key, want_site = {}, None, None, False

    def start(k):
        if k in out:
            raise SystemExit("two records named %s / %s" % k)
        out[k] = []
        return k

    for line in text.splitlines():
        m = re.match(r"^== (.*) ==$", line)
        if m:
            section, key, want_site = m.group(1), None, False
        elif re.match(r"^#\d+ ", line):
            key, want_site = None, not section.startswith("Data objects")
            if not want_site:
                m = re.search(r"  (static \S+|heap)", line)
                if not m:
                    raise SystemExit("unparsed object line: " + line)
                key = start((section, m.group(1)))
        elif want_site:
            m = re.match(r"^     \S+:\d+(?::\d+)? in (.*)$", line)
            if not m:
                raise SystemExit("no site line after a record: " + line)
            key, want_site = start((section, m.group(1))), False
        elif key and line.strip().startswith("advice:"):
            out[key].append(line.strip())
    return out


def main():
    bin_dir, source, work = sys.argv[1:4]
    _, report = profile(bin_dir, source, work, "advice-prog", env={"ZEROINST_MODE": "code,data"})
    tool = os.path.join(bin_dir, "zeroinst")
    shown = blocks(run([tool, "show", report, "--top", "0"]))
    failures = []
    for key, lines in EXPECTED.items():
        if shown.get(key) != lines:
            failures.append("%s / %s:\n  expected %s\n  got      %s"
                            % (key[0], key[1], lines, shown.get(key)))
    for key in MUST_NOT:
        if key not in shown:
            failures.append("%s / %s: not in the report" % key)
    for key, lines in shown.items():
        if key not in EXPECTED and lines:
            failures.append("%s / %s: unexpected advice %s" % (key[0], key[1], lines))
    quiet = run([tool, "show", report, "--top", "0", "--no-advice"])
    if "advice:" in quiet:
        failures.append("--no-advice printed advice")
    full = run([tool, "show", report, "--top", "0"])
    if [l for l in full.splitlines() if not l.strip().startswith("advice:")] \
            != quiet.splitlines():
        failures.append("--no-advice changed more than the advice lines")
    if failures:
        raise SystemExit("\n".join(failures))
    print("advice: %d records checked, %d with advice" % (len(shown), len(EXPECTED)))


if __name__ == "__main__":
    main()
