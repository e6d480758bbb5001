#!/usr/bin/env python3
"""reports_check.py - every `zeroinst` command on real programs' reports.

    reports_check.py BIN_DIR REPORT_DIR|BENCH_WORK_DIR...

(a BENCH_WORK_DIR is run-bench's --work-dir: its WORKLOAD/run-*-0/report
directories are checked)

For each report (the example kernels' reports of the quick benchmark, in
C, C++ and Fortran, with OpenMP), every command must exit 0 with nothing
on stderr, and the figures that can be derived from the report alone
(read with tests/report_format.py) must agree:

  show, --paths --top 0, --by function|file|line, --tree top-down|bottom-up,
  --sort bytes --min-share 1, html      run cleanly;
  export --format folded                the weights add up to the code
                                        records' redundant bytes;
  export --format callgrind             its summary line, and
                                        callgrind_annotate's program totals,
                                        are the sums of the code records'
                                        redundant bytes, bytes, zero
                                        elements and loads;
  annotate REPORT SOURCE                counts the records whose site is
                                        in SOURCE (the top site's file);
  diff REPORT REPORT                    finds nothing changed.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402
from tool_run import run  # noqa: E402


def check(tool, report, failures):
    name = os.path.basename(os.path.dirname(os.path.dirname(report)))
    rep = report_format.load(os.path.join(report, "report.json"))
    code = rep["code"]
    sums = [sum(r.get(k, 0) for r in code)
            for k in ("redundant_bytes", "bytes", "zero_elements", "loads")]
    for args in ([], ["--paths", "--top", "0"], ["--by", "function"], ["--by", "file"],
                 ["--by", "line"], ["--tree", "top-down"], ["--tree", "bottom-up"],
                 ["--sort", "bytes", "--min-share", "1"]):
        run([tool, "show", report, *args])
    run([tool, "html", report, "-o", os.path.join(report, "..", "page.html")])

    folded = run([tool, "export", report, "--format", "folded"])
    weight = sum(int(line.rsplit(" ", 1)[1]) for line in folded.splitlines())
    if weight != sums[0]:
        failures.append("%s: folded weights %d, redundant bytes %d" % (name, weight, sums[0]))

    cg = os.path.join(report, "..", "callgrind.out")
    run([tool, "export", report, "--format", "callgrind", "-o", cg])
    with open(cg) as f:
        summary = [int(v) for v in re.search(r"^summary: (.*)$", f.read(), re.M).group(1).split()]
    if summary != sums:
        failures.append("%s: callgrind summary %s, records %s" % (name, summary, sums))
    out = run(["callgrind_annotate", "--auto=no", cg])
    totals = re.search(r"^(.*)PROGRAM TOTALS", out, re.M)
    values = [int(v.replace(",", "")) for v in re.findall(r"([\d,]+)(?: \(\s*[\d.]+%\))?",
                                                             totals.group(1))] if totals else None
    if values != sums:
        failures.append("%s: callgrind_annotate totals %s, records %s" % (name, values, sums))

    if code:
        top = max(code, key=lambda r: r["redundant_bytes"])
        source = top["site"]["file"]
        if os.path.exists(source):
            want = sum(1 for r in code if r["site"]["file"] == source)
            out = run([tool, "annotate", report, source, "--context", "1"])
            m = re.search(r"^(\d+) load sites? of the report in this file", out, re.M)
            if not m or int(m.group(1)) != want:
                failures.append("%s: annotate %s counts %s sites, the report %d"
                                % (name, source, m and m.group(1), want))

    out = run([tool, "diff", report, report, "--top", "0"])
    changed = re.findall(r"; (\d+) changed$", out, re.M)
    if not changed or any(c != "0" for c in changed) or re.search(r"^#\d", out, re.M):
        failures.append("%s: diff of a report with itself shows changes" % name)


def main():
    bin_dir, reports = sys.argv[1], []
    for arg in sys.argv[2:]:
        if os.path.exists(os.path.join(arg, "report.json")):
            reports.append(arg)
        else:
            reports += sorted(glob.glob(os.path.join(arg, "*", "run-*-0", "report")))
    tool = os.path.join(bin_dir, "zeroinst")
    if not reports:
        raise SystemExit("no reports given")
    failures = []
    for report in reports:
        check(tool, report, failures)
    if failures:
        raise SystemExit("\n".join(failures))
    print("%d reports: every command ran, figures agree" % len(reports))


if __name__ == "__main__":
    main()
