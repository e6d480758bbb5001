#!/usr/bin/env python3
"""html_check.py - `zeroinst html` pages render in a real browser.

    html_check.py BIN_DIR SOURCE WORK_DIR

Builds SOURCE (advice-prog.c: code sites and data objects with byte maps
and advice) with BIN_DIR/zeroinst-cc -O1 -g, runs it with
ZEROINST_MODE=code,data, writes `zeroinst html REPORT -o page.html`, and
loads the page in Debian's chromium, headless, from file://.  The rendered
DOM (--dump-dom) must show:

  - body data-ready="1" and data-errors="0": the script ran to its end and
    no script error happened;
  - a row per code site and per data object of the report (read
    independently with tests/report_format.py), each with its redundant
    bytes;
  - one heat map per object with a byte map, whose painted pixels are the
    number of cells the map's granules make at the page's first zoom
    (ceil(granules / scale), scale = ceil(granules / (256 * 64)) or 1) times
    the 4 x 4 pixels of a cell;
  - the advice lines of `zeroinst show` (every one of them);
  - the call tree's root (main) and the source line of the top site.

The page must load nothing from elsewhere (no src= or href= to a URL),
and its embedded data must hold no '<' (html.c writes it as \u003c).  A
screenshot of the page is kept as WORK_DIR/page.png (the test artifact).
"""
import html
import math
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402
from tool_run import profile, run  # noqa: E402

BROWSER_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                 "--no-first-run", "--disable-extensions"]


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise SystemExit("no chromium found: install it (sh cmake/install-deps.sh)")


def chromium(args, work):
    # A profile of its own, so that runs do not share (or lock) one.
    profile = os.path.join(work, "chromium-profile")
    r = subprocess.run([browser(), *BROWSER_FLAGS, "--user-data-dir=" + profile, *args],
                       capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise SystemExit("chromium failed (%d):\n%s" % (r.returncode, r.stderr[-3000:]))
    return r.stdout


def main():
    bin_dir, source, work = sys.argv[1:4]
    page = os.path.join(work, "page.html")
    subprocess.run(["rm", "-f", page], check=True)
    _, report = profile(bin_dir, source, work, "advice-prog", env={"ZEROINST_MODE": "code,data"})
    tool = os.path.join(bin_dir, "zeroinst")
    run([tool, "html", report, "-o", page])
    with open(page) as f:
        text = f.read()
    failures = []
    if re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", text):
        failures.append("the page refers to something outside itself")
    data = re.search(r'<script id="zeroinst-data" type="application/json">(.*?)</script>', text,
                     re.S)
    if not data or "<" in data.group(1):
        failures.append("the embedded data has a '<' (it could end or alter its script)")

    dom = chromium(["--dump-dom", "file://" + os.path.abspath(page)], work)
    chromium(["--window-size=1400,2400", "--screenshot=" + os.path.join(work, "page.png"),
              "file://" + os.path.abspath(page)], work)
    if 'data-ready="1"' not in dom:
        failures.append("the script did not finish (no data-ready)")
    if 'data-errors="0"' not in dom:
        failures.append("script errors: %s" % re.findall(r'data-errors="[^"]*"', dom))

    rep = report_format.load(os.path.join(report, "report.json"))
    for table, records in (("sites", rep["code"]), ("objects", rep["data"])):
        m = re.search(r'<table id="%s">.*?</table>' % table, dom, re.S)
        rows = re.findall(r'<tr class="row">(.*?)</tr>', m.group(0) if m else "", re.S)
        if len(rows) != len(records):
            failures.append("%s: %d rows for %d records" % (table, len(rows), len(records)))
        shown = sorted(int(re.findall(r"<td[^>]*>([\d,]+)</td>", r)[-1].replace(",", ""))
                       for r in rows if re.findall(r"<td[^>]*>([\d,]+)</td>", r))
        if shown != sorted(r["redundant_bytes"] for r in records):
            failures.append("%s: redundant bytes %s, report %s"
                            % (table, shown, sorted(r["redundant_bytes"] for r in records)))

    want = []
    for r in rep["data"]:
        if r.get("byte_map"):
            g = sum(int(n) for n in re.findall(r"(\d+)[nzx]", r["byte_map"]["runs"]))
            scale = max(1, math.ceil(g / (256 * 64)))
            want.append(math.ceil(g / scale) * 16)
    painted = [int(p) for p in re.findall(r'data-painted="(\d+)"', dom)]
    if sorted(painted) != sorted(want) or not want:
        failures.append("heat maps painted %s pixels, expected %s" % (sorted(painted), sorted(want)))

    shown = run([tool, "show", report, "--top", "0"])
    advice = [l.strip() for l in shown.splitlines() if l.strip().startswith("advice:")]
    page_text = html.unescape(dom)
    for line in advice:
        if line not in page_text:
            failures.append("advice missing from the page: " + line)
    if not advice:
        failures.append("the program gave no advice to look for")
    if not re.search(r"<summary>100\.00%  [\d,]+  main</summary>", page_text):
        failures.append("no call tree rooted at main with 100%")
    if "s += small[i];" not in page_text:
        failures.append("the source line of the top integer site is missing")
    if failures:
        raise SystemExit("\n".join(failures))
    print("html: rendered, %d sites, %d objects, %d heat maps, %d advice lines; screenshot %s"
          % (len(rep["code"]), len(rep["data"]), len(want), len(advice),
             os.path.join(work, "page.png")))


if __name__ == "__main__":
    main()
