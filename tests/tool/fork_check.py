#!/usr/bin/env python3
"""fork_check.py BIN SOURCE WORKDIR

fork-prog.c built with zeroinst-cc and run with the default report names:
a parent and three children leave zeroinst-fork-prog-PID each.
`zeroinst merge 'zeroinst-fork-prog-*'` must add up their sum_v site as
fork-prog.c derives it (redundant bytes 200, 175, 150, 125), keep each
process's totals, and name processes by pid in `show`.
"""
import glob
import json
import os
import shutil
import subprocess
import sys

bindir, source, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
env = {k: v for k, v in os.environ.items() if not k.startswith("ZEROINST_")}
tool = os.path.join(bindir, "zeroinst")


def run(cmd):
    p = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


run([os.path.join(bindir, "zeroinst-cc"), "-O2", "-g", source, "-o", "fork-prog"])
out = run(["./fork-prog"])
assert out == "child 1: 25\nchild 2: 50\nchild 3: 75\nparent 0: 0\n", out
dirs = glob.glob(os.path.join(work, "zeroinst-fork-prog-*"))
assert len(dirs) == 4, dirs


def site(rep):
    recs = [c for c in rep["code"] if c["site"]["function"] == "sum_v"
            and c["site"]["expr"].startswith("v[")]
    assert len(recs) == 1, recs
    return recs[0]


reports = {}
for d in dirs:
    rep = json.loads(run([tool, "export", d, "--format", "json-v1"]))
    reports[rep["pid"]] = rep
reds = sorted((site(r)["redundant_bytes"] for r in reports.values()), reverse=True)
assert reds == [200, 175, 150, 125], reds

run([tool, "merge", "zeroinst-fork-prog-*", "-o", "all"])
m = json.loads(run([tool, "export", "all", "--format", "json-v1"]))
s = site(m)
by_pid = {p["pid"]: i for i, p in enumerate(m["processes"])}
pid_of = {site(r)["redundant_bytes"]: pid for pid, r in reports.items()}
want = (400, 800, 650, 250, {
    "processes": 4,
    "redundant_bytes": {"min": 125, "min_process": by_pid[pid_of[125]], "max": 200,
                        "max_process": by_pid[pid_of[200]], "mean": 162.5},
    "bytes": {"min": 200, "min_process": 0, "max": 200, "max_process": 0, "mean": 200.0}})
got = (s["elements"], s["bytes"], s["redundant_bytes"], s["zero_elements"], s["spread"])
assert got == want, (got, want)
assert sorted(by_pid) == sorted(reports), (by_pid, list(reports))
for p in m["processes"]:
    assert p["summary"] == reports[p["pid"]]["summary"], p
assert "rank" not in m["processes"][0]
shown = run([tool, "show", "all", "--kind", "int"])
line = ("     in 4 of 4 processes; redundant bytes per process: min 125 (pid %d), "
        "max 200 (pid %d), mean 162.5" % (pid_of[125], pid_of[200]))
assert line in shown.split("\n"), shown
print("fork-prog: 4 processes merged as derived")
