#!/usr/bin/env python3
"""callgrind_check.py - valgrind's callgrind_annotate reads the callgrind
export, and finds the costs derived by hand from fixtures/paths.json.

    callgrind_check.py ZEROINST FIXTURES WORK_DIR

paths.json has five code sites (figures: Red Bytes Zero Loads):

    x[i] in leaf  main(m.c:10) -> mid(a.c:20, inlined) -> leaf   400  800 20 100
    y in leaf     main(m.c:12) -> leaf                           100  400  0 100
    v[k] in rec   main(m.c:14) -> rec(b.c:8) -> rec(b.c:8) -> rec 80  160 10  20
    x[i] in leaf  main(m.c:11) -> mid(a.c:21) -> leaf             50  200  5  25
    s in main     main                                              0   80  0  10
    z in leaf     main(m.c:13) -> leaf (its file named "./a.c")     0   40  0  10

Self costs are the sites' own: leaf 550 1440 25 235 (one function in one
file, "./a.c", although its frames name it two ways), rec 80 160 10 20,
main 0 80 0 10, mid none.  Inclusive costs count each site once in every
function of its path, recursion included: main all 630 1680 35 265, leaf
550 1440 25 235, mid 450 1000 25 125, rec 80 160 10 20.  --kind int keeps
the x[i], y and z sites: main 550 1440 25 235, leaf the same, mid as
above.
"""
import os
import re
import subprocess
import sys

EXCLUSIVE = {"./a.c:leaf": [550, 1440, 25, 235], "b.c:rec": [80, 160, 10, 20],
             "m.c:main": [0, 80, 0, 10]}
INCLUSIVE = {"m.c:main": [630, 1680, 35, 265], "./a.c:leaf": [550, 1440, 25, 235],
             "a.c:mid": [450, 1000, 25, 125], "b.c:rec": [80, 160, 10, 20]}
INT_INCLUSIVE = {"m.c:main": [550, 1440, 25, 235], "./a.c:leaf": [550, 1440, 25, 235],
                 "a.c:mid": [450, 1000, 25, 125]}


def annotate(path, *options):
    """{file:function: [Red, Bytes, Zero, Loads]} and the program totals."""
    r = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", *options, path],
                       capture_output=True, text=True)
    if r.returncode != 0 or r.stderr:
        raise SystemExit("callgrind_annotate %s failed (%d):\n%s" % (path, r.returncode, r.stderr))
    rows, totals = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*((?:[\d,]+(?: \(\s*[\d.]+%\))?\s+){4})(\S.*)$", line)
        if not m:
            continue
        values = [int(v.replace(",", "")) for v in re.findall(r"([\d,]+)(?: \(\s*[\d.]+%\))?",
                                                                m.group(1))]
        name = m.group(2).strip().split(" ")[0]
        if name == "PROGRAM":
            totals = values
        else:
            rows[name] = values
    return rows, totals


def main():
    tool, fixtures, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failures = []
    for kind, want_incl, want_total in (("all", INCLUSIVE, [630, 1680, 35, 265]),
                                        ("int", INT_INCLUSIVE, [550, 1440, 25, 235])):
        out = os.path.join(work, "paths-%s.callgrind" % kind)
        subprocess.run([tool, "export", os.path.join(fixtures, "paths.json"), "--format",
                        "callgrind", "--kind", kind, "-o", out], check=True)
        rows, totals = annotate(out, "--inclusive=yes")
        if totals != want_total:
            failures.append("%s: program totals %s, expected %s" % (kind, totals, want_total))
        if rows != want_incl:
            failures.append("%s: inclusive %s, expected %s" % (kind, rows, want_incl))
        if kind == "all":
            rows, _ = annotate(out)
            if rows != EXCLUSIVE:
                failures.append("exclusive %s, expected %s" % (rows, EXCLUSIVE))
    if failures:
        raise SystemExit("\n".join(failures))
    print("callgrind_annotate: totals, self and inclusive costs as derived")


if __name__ == "__main__":
    main()
