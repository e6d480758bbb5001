"""The three readers of format 2 agree with format 1.

  export_check.py ZEROINST FIXTURES

For each pair of fixtures (a format-1 report and the same report in format
2, hand-converted: fixtures/data.json and data-v2.json, mixed/ and
mixed-v2/): `zeroinst export --format json-v1` of either must parse to the
format-1 fixture, and tests/report_format.py (what the other tests read
reports with) must expand the format-2 one to it too.  Also -o: the file is
written whole and no temporary is left."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import report_format  # noqa: E402

PAIRS = (("data.json", "data-v2.json"), ("mixed/report.json", "mixed-v2"))


def main():
    tool, fixtures = sys.argv[1], sys.argv[2]
    failures = []
    for v1, v2 in PAIRS:
        with open(os.path.join(fixtures, v1)) as f:
            want = json.load(f)
        for src in (v1, v2):
            r = subprocess.run([tool, "export", os.path.join(fixtures, src), "--format", "json-v1"],
                               capture_output=True, text=True)
            if r.returncode != 0 or r.stderr:
                failures.append("export %s: status %d, stderr %r" % (src, r.returncode, r.stderr))
            elif json.loads(r.stdout) != want:
                failures.append("export %s: differs from %s" % (src, v1))
        path = os.path.join(fixtures, v2)
        if os.path.isdir(path):
            path = os.path.join(path, "report.json")
        if report_format.load(path) != want:
            failures.append("report_format.load(%s) differs from %s" % (v2, v1))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "v1.json")
            r = subprocess.run([tool, "export", os.path.join(fixtures, v2), "--format=json-v1",
                                "-o", out], capture_output=True, text=True)
            listing = sorted(os.listdir(tmp))
            if r.returncode != 0 or r.stdout or r.stderr or listing != ["v1.json"]:
                failures.append("export -o: status %d, output %r %r, files %s"
                                % (r.returncode, r.stdout, r.stderr, listing))
            else:
                with open(out) as f:
                    if json.load(f) != want:
                        failures.append("export -o %s: differs from %s" % (v2, v1))
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: %d pairs, export and report_format agree with format 1" % len(PAIRS))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
