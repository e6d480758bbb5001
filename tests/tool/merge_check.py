#!/usr/bin/env python3
"""merge_check.py ZEROINST FIXTURES WORKDIR

`zeroinst merge` of the hand-written fixtures merge-a.json (format 1,
rank 0, two threads) and merge-b.json (format 2, rank 1, one thread),
given as a pattern, compared key for key with the merged report derived
by hand below; then `show` of it prints each record's spread line.
"""
import json
import os
import shutil
import subprocess
import sys

tool, fixtures, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
out = os.path.join(work, "merged")


def run(*args):
    p = subprocess.run([tool, *args], cwd=fixtures, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


rc, stdout, stderr = run("merge", "merge-[ab].json", "-o", out)
assert rc == 0 and stderr == "", (rc, stderr)
assert stdout == "merged 2 reports into %s/report.json\n" % out, stdout
raw = json.load(open(os.path.join(out, "report.json")))
assert raw["format"] == "zeroinst-report-2", raw["format"]
# Each frame, context and site once: main:9 is shared by the three paths
# through f (frames main:9, f:5, f:6, f:7, main:10, g:8, main:11).
assert len(raw["frames"]) == 7 and len(raw["contexts"]) == 7 and len(raw["sites"]) == 4, raw
rc, stdout, stderr = run("export", out, "--format", "json-v1")
assert rc == 0 and stderr == "", (rc, stderr)
got = json.loads(stdout)
a = json.load(open(os.path.join(fixtures, "merge-a.json")))
b = json.load(open(os.path.join(fixtures, "merge-b.json")))


def tot(e, by, r, z):
    return {"elements": e, "bytes": by, "redundant_bytes": r, "zero_elements": z}


def spread(n, red, by):
    """n processes had it; red and by: (min, min_process, max, max_process, mean)."""
    s = {"processes": n}
    for key, v in (("redundant_bytes", red), ("bytes", by)):
        if v:
            s[key] = {"min": v[0], "min_process": v[1], "max": v[2], "max_process": v[3],
                      "mean": v[4]}
    return s


Z = tot(0, 0, 0, 0)
main9 = {"function": "main", "file": "m.c", "line": 9}
expected = {
    # As `export --format json-v1` writes it.
    "format": "zeroinst-report-1", "program": "/opt/m", "pid": 100, "arch": "x86_64",
    "modes": ["code", "data"], "sampling": None,
    # a: int 10/40/30/5, other 1/16; b: int 2/8/8/2, float 1/8/8/1, other 3/48.
    "summary": {"int": tot(12, 48, 38, 7), "float": tot(1, 8, 8, 1),
                "other": {"loads": 4, "bytes": 64}},
    # Thread 0 of both processes adds up; thread 1 is a's only.
    "threads": [{"thread": 0, "int": tot(10, 40, 32, 6), "float": tot(1, 8, 8, 1)},
                {"thread": 1, "int": tot(2, 8, 6, 1), "float": Z}],
    "processes": [
        {"report": "merge-a.json", "pid": 100, "rank": 0, "summary": a["summary"]},
        {"report": "merge-b.json", "pid": 101, "rank": 1, "summary": b["summary"]}],
    "code": [
        # a[i]: a 6/6/24/18/3 "00xx" (threads 0 and 1), b 2/2/8/8/2 "0000"
        # (one thread: thread 0).  Redundant 18 and 8, bytes 24 and 8.
        {"kind": "int", "site": {"file": "m.c", "line": 5, "column": 3, "function": "f",
                                 "expr": "a[i]"},
         "elem_type": "i32", "elem_bytes": 4, "lanes": 1, "access_bytes": 4,
         "loads": 8, "elements": 8, "bytes": 32, "redundant_bytes": 26, "zero_elements": 5,
         "redmap": "00xx",
         "threads": [[0, 6, 6, 24, 20, 4, "000x"], [1, 2, 2, 8, 6, 1, "00xx"]],
         "call_path": [{"function": "f", "file": "m.c", "line": 5}, main9],
         "spread": spread(2, (8, 1, 18, 0, 13.0), (8, 1, 24, 0, 16.0))},
        # b[i]: a only (thread 0); b counts 0.
        {"kind": "int", "site": {"file": "m.c", "line": 6, "column": 3, "function": "f",
                                 "expr": "b[i]"},
         "elem_type": "i32", "elem_bytes": 4, "lanes": 1, "access_bytes": 4,
         "loads": 4, "elements": 4, "bytes": 16, "redundant_bytes": 12, "zero_elements": 2,
         "redmap": "000x", "thread": 0,
         "call_path": [{"function": "f", "file": "m.c", "line": 6}, main9],
         "spread": spread(1, (0, 1, 12, 0, 6.0), (0, 1, 16, 0, 8.0))},
        # c: b only; b ran one thread (0) and names none, but the merged
        # report has two thread rows, so every record names its thread.
        {"kind": "float", "site": {"file": "m.c", "line": 8, "column": 1, "function": "g",
                                   "expr": "c"},
         "elem_type": "f64", "elem_bytes": 8, "lanes": 1, "access_bytes": 8,
         "loads": 1, "elements": 1, "bytes": 8, "redundant_bytes": 8, "zero_elements": 1,
         "redmap": "0|0|0000000", "thread": 0,
         "call_path": [{"function": "g", "file": "m.c", "line": 8},
                       {"function": "main", "file": "m.c", "line": 10}],
         "spread": spread(1, (0, 0, 8, 1, 4.0), (0, 0, 8, 1, 4.0))}],
    # s: a 1 load of 16 bytes, b 3 of 48.
    "other": [
        {"site": {"file": "m.c", "line": 7, "column": 1, "function": "f", "expr": "s"},
         "access_bytes": 16, "loads": 4, "bytes": 64,
         "call_path": [{"function": "f", "file": "m.c", "line": 7}, main9],
         "spread": spread(2, None, (16, 0, 48, 1, 32.0))}],
    "data": [
        # tab: a "1x3z1x11z", b "16z": byte 0 and 4 were non-zero in a.
        {"kind": "int", "object": "static", "name": "tab", "symbol": "tab", "module": "/opt/m",
         "size": 32, "elements": 8, "bytes": 32, "redundant_bytes": 30, "zero_elements": 6,
         "never_loaded_bytes": 0, "always_zero_bytes": 30,
         "byte_map": {"granule": 1, "length": 16, "runs": "1x3z1x11z"},
         "spread": spread(2, (14, 0, 16, 1, 15.0), (16, 0, 16, 0, 16.0))},
        # The heap group: a 32 bytes at granule 1 "1x3z1x3z24n", b 64 bytes
        # at granule 4 "4z12n".  Bytes: 0 x, 1-3 z, 4 x, 5-15 z, 16-63 n;
        # at granule 4: x, x, z, z, then 12 n.
        {"kind": "int", "object": "heap", "allocator": "malloc", "allocations": 3, "size": 96,
         "elements": 6, "bytes": 24, "redundant_bytes": 22, "zero_elements": 4,
         "never_loaded_bytes": 72, "always_zero_bytes": 22,
         "byte_map": {"granule": 4, "length": 64, "runs": "2x2z12n"},
         "alloc_path": [{"function": "main", "file": "m.c", "line": 11}],
         "spread": spread(2, (6, 0, 16, 1, 11.0), (8, 0, 16, 1, 12.0))}],
}

failures = []
for key in sorted(set(expected) | set(got)):
    if key in ("code", "other", "data"):
        g, e = got.get(key, []), expected[key]
        if len(g) != len(e):
            failures.append("%s: %d records, expected %d" % (key, len(g), len(e)))
        for i, (x, y) in enumerate(zip(g, e)):
            if x != y:
                failures.append("%s[%d]:\n  got      %s\n  expected %s"
                                % (key, i, json.dumps(x, sort_keys=True),
                                   json.dumps(y, sort_keys=True)))
    elif got.get(key) != expected.get(key):
        failures.append("%s:\n  got      %s\n  expected %s"
                        % (key, json.dumps(got.get(key)), json.dumps(expected.get(key))))

# show prints the spread of each record it shows, processes by rank.
rc, stdout, stderr = run("show", out, "--no-advice")
for line in ("merged from 2 processes by zeroinst merge: thread N adds up thread N of each",
             "     in 2 of 2 processes; redundant bytes per process: min 8 (rank 1), "
             "max 18 (rank 0), mean 13.0",
             "     in 1 of 2 processes; redundant bytes per process: min 0 (rank 1), "
             "max 12 (rank 0), mean 6.0",
             "     in 2 of 2 processes; redundant bytes per process: min 6 (rank 0), "
             "max 16 (rank 1), mean 11.0",
             "     in 2 of 2 processes; bytes per process: min 16 (rank 0), "
             "max 48 (rank 1), mean 32.0",
             "rank 0  int    redundant bytes: 30 of 40 loaded (75.00%); zero elements: 5 of 10 "
             "(50.00%)",
             "rank 1  int    redundant bytes: 8 of 8 loaded (100.00%); zero elements: 2 of 2 "
             "(100.00%)"):
    if line not in stdout.split("\n"):
        failures.append("show lacks the line %r" % line)
if rc != 0 or stderr:
    failures.append("show: exit %d, stderr %r" % (rc, stderr))

# A thread's view shows the thread's shares: the spread (of the whole
# record) is left out.
rc, stdout, stderr = run("show", out, "--thread", "1")
if rc != 0 or " processes; " in stdout:
    failures.append("show --thread 1: exit %d, a spread line:\n%s" % (rc, stdout))

# A file name that is not UTF-8 is written with '?' for its other bytes.
odd = os.path.join(os.fsencode(work), b"r\xe9.json")
shutil.copy(os.path.join(fixtures, "merge-a.json"), odd)
p = subprocess.run([tool, "merge", odd, os.path.join(fixtures, "merge-b.json"), "-o",
                    os.path.join(work, "odd-name")], capture_output=True)
if p.returncode != 0:
    failures.append("merge of a non-UTF-8 file name: %r" % p.stderr)
else:
    names = [x["report"] for x in json.load(open(os.path.join(work, "odd-name",
                                                              "report.json")))["processes"]]
    if names[0] != os.path.join(work, "r?.json"):
        failures.append("non-UTF-8 file name written as %r" % names[0])

# The merged report is a report: every command reads it.
for args in (("export", out, "--format", "folded"), ("export", out, "--format", "callgrind"),
             ("html", out, "-o", os.path.join(work, "page.html")), ("diff", out, out),
             ("show", out, "--thread", "1"), ("show", out, "--by", "function")):
    rc, stdout, stderr = run(*args)
    if rc != 0 or stderr:
        failures.append("%s: exit %d, stderr %r" % (" ".join(args), rc, stderr))

# The other order: the same records and thread shares (b's records, which
# name no thread, are thread 0's however early they come).
def merged(name, *inputs):
    """The json-v1 of merging INPUTS into WORK/NAME, or None (a failure noted)."""
    path = os.path.join(work, name)
    rc, stdout, stderr = run("merge", *inputs, "-o", path)
    if rc != 0 or stderr:
        failures.append("merge %s: exit %d, stderr %r" % (" ".join(inputs), rc, stderr))
        return None
    return json.loads(run("export", path, "--format", "json-v1")[1])


ba = merged("reversed", "merge-b.json", "merge-a.json")
if ba:
    strip = lambda recs: [{k: v for k, v in r.items() if k != "spread"} for r in recs]
    for key in ("code", "other", "data"):
        if strip(ba[key]) != strip(expected[key]):
            failures.append("merge b a: %s differs:\n  %s" % (key, json.dumps(strip(ba[key]))))

# An empty report (a process that loaded nothing) joins: a's records keep
# their counts, each now in 1 of 2 processes, with min 0 in process 1.
m = merged("with-empty", "merge-a.json", "merge-empty.json")
if m:
    first = m["code"][0]
    if (m["summary"] != a["summary"] or len(m["processes"]) != 2
            or first["redundant_bytes"] != 18
            or first["spread"] != spread(1, (0, 1, 18, 0, 9.0), (0, 1, 24, 0, 12.0))
            or [r["redundant_bytes"] for r in m["data"]] != [14, 6]):
        failures.append("merge with an empty report: %s" % json.dumps(m)[:2000])

# A refused input leaves no output behind.
out3 = os.path.join(work, "refused")
rc, stdout, stderr = run("merge", "merge-a.json", "merge-b.json", "data.json", "-o", out3)
if rc != 1 or os.path.exists(out3):
    failures.append("a refused merge: exit %d, output left: %s" % (rc, os.path.exists(out3)))

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("merge of merge-a.json and merge-b.json: as derived")
