#!/usr/bin/env python3
"""thread_check.py - per-thread records and `zeroinst show --thread`.

    thread_check.py BIN_DIR SOURCE WORK_DIR

Builds SOURCE (threads-prog.c) with BIN_DIR/zeroinst-cc -O1 -g -pthread,
runs it, and checks report.json (read with tests/report_format.py) and
`zeroinst show --thread N` against the counts derived in threads-prog.c:
main's sum(100) is one record of thread 0; the workers' sum(300) and
sum(500) are one record (same site and call path) whose "threads" hold
each worker's share, and each worker's thread row has exactly its share;
the record's counts are the sum of the shares.  The thread numbers of the
workers depend on which registered first, so they are found by their
counts.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402
from tool_run import profile, run  # noqa: E402

# (loads, elements, bytes, redundant_bytes, zero_elements) per sum(n).
SUM = {100: (100, 100, 800, 701, 1), 300: (300, 300, 2400, 2102, 2), 500: (500, 500, 4000, 3503, 3)}


def main():
    bin_dir, source, work = sys.argv[1:4]
    out, report = profile(bin_dir, source, work, "threads-prog", ["-pthread"])
    if out != "4950\n":
        raise SystemExit("threads-prog printed the wrong sum")
    rep = report_format.load(os.path.join(report, "report.json"))
    failures = []

    rows = {t["thread"]: t["int"] for t in rep["threads"]}
    by_counts = {(r["elements"], r["bytes"], r["redundant_bytes"], r["zero_elements"]): t
                 for t, r in rows.items()}
    ids = {}
    for n in (100, 300, 500):
        ids[n] = by_counts.get(SUM[n][1:])
        if ids[n] is None:
            failures.append("no thread row with sum(%d)'s counts %s: %s" % (n, SUM[n][1:], rows))
    if ids.get(100) != 0:
        failures.append("main's sum(100) is not thread 0's")
    code = [r for r in rep["code"] if r["site"]["function"] == "sum"]
    fields = ("loads", "elements", "bytes", "redundant_bytes", "zero_elements")
    main_rec = [r for r in code if r.get("thread") == 0]
    shared = [r for r in code if "threads" in r]
    if len(code) != 2 or len(main_rec) != 1 or len(shared) != 1:
        failures.append("expected sum's records of thread 0 and of both workers: %s" % code)
    else:
        if tuple(main_rec[0][f] for f in fields) != SUM[100]:
            failures.append("main's record %s" % main_rec[0])
        parts = {p[0]: tuple(p[1:6]) for p in shared[0]["threads"]}
        want = {ids.get(300): SUM[300], ids.get(500): SUM[500]}
        if parts != want:
            failures.append("the workers' shares %s, expected %s" % (parts, want))
        total = tuple(a + b for a, b in zip(SUM[300], SUM[500]))
        if tuple(shared[0][f] for f in fields) != total:
            failures.append("the shared record %s, expected the sum %s" % (shared[0], total))

    tool = os.path.join(bin_dir, "zeroinst")
    for n, (loads, _, nbytes, red, zero) in SUM.items():
        if ids.get(n) is None:
            continue
        out = run([tool, "show", report, "--thread", str(ids[n]), "--no-advice"])
        lines = ["only thread %d: its loads, shares of its totals" % ids[n],
                 "redundant bytes: %d of %d loaded (%.2f%%); zero elements: %d of %d (%.2f%%)"
                 % (red, nbytes, 100.0 * red / nbytes, zero, loads, 100.0 * zero / loads),
                 "#1   share 100.00%%  local %6.2f%%  zero %6.2f%%  redmap 0000000x  i64  loads %d"
                 % (100.0 * red / nbytes, 100.0 * zero / loads, loads)]
        for line in lines:
            if line not in out.splitlines():
                failures.append("show --thread %d lacks %r:\n%s" % (ids[n], line, out))
    r = subprocess.run([tool, "show", report, "--thread", "7"], capture_output=True, text=True)
    if r.returncode != 1 or r.stderr.strip() != "zeroinst: %s: no thread 7 in the report" % report:
        failures.append("show --thread 7: status %d, %r" % (r.returncode, r.stderr))
    if failures:
        raise SystemExit("\n".join(failures))
    print("threads: rows, records and shares as derived; show --thread of each")


if __name__ == "__main__":
    main()
