#!/usr/bin/env python3
"""diff_check.py - `zeroinst diff` shows what a real fix did.

    diff_check.py BIN_DIR SOURCE WORK_DIR

Builds SOURCE (diff-prog.c) with BIN_DIR/zeroinst-cc -O1 -g twice, plain
and with -DFIXED, runs both with ZEROINST_MODE=code,data, and compares
`zeroinst diff BEFORE AFTER` with the output derived in diff-prog.c: the
counts[] site and object lose all their 21000 redundant bytes and 21000 of
their 24000 loaded bytes; the site is matched although the fix moved its
line (the after build's line is shown); no floating-point section, since
neither run loaded a float.
"""
import os
import re
import sys

from tool_run import profile, run


def main():
    bin_dir, source, work = sys.argv[1:4]
    reports = []
    for name, flags in (("before", []), ("after", ["-DFIXED"])):
        out, report = profile(bin_dir, source, work, "diff-prog-" + name, flags,
                              {"ZEROINST_MODE": "code,data"})
        if out != "301500\n":
            raise SystemExit("diff-prog-%s printed %r, not the sum 301500" % (name, out))
        reports.append(report)
    # The line of the fixed build's load: the second "s += counts[i]".
    with open(source) as f:
        lines = [i + 1 for i, l in enumerate(f) if "s += counts[i];" in l]
    got = run([os.path.join(bin_dir, "zeroinst"), "diff", *reports])
    want = r"""before: \S+/diff-prog-before \(pid \d+, \w+\), modes code,data
after:  \S+/diff-prog-after \(pid \d+, \w+\), modes code,data

== Integer loads ==
                            before           after          change
redundant bytes              21000               0          -21000  -100\.00%
loaded bytes                 24000            3000          -21000  -87\.50%
zero elements                    0               0               0  =
elements                      3000            3000               0  =
redundancy                  87\.50%           0\.00%
sites: 1 matched, 0 gone, 0 new; 1 changed
#1   redundant -21000 \(21000 -> 0\)  bytes -21000 \(24000 -> 3000\)
     (?:\S+/)?diff-prog\.c:LINE in main: counts\[i\]

== Data objects: integer loads ==
objects: 1 matched, 0 gone, 0 new; 1 changed
#1   redundant -21000 \(21000 -> 0\)  bytes -21000 \(24000 -> 3000\)
     static counts
""".replace("LINE", str(lines[1]))
    if len(lines) != 2 or not re.fullmatch(want, got):
        raise SystemExit("zeroinst diff printed:\n%s\nexpected (regex):\n%s" % (got, want))
    print("diff: the fix's change matched across moved lines")


if __name__ == "__main__":
    main()
