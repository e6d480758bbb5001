"""benchlib - the parts of run-bench: common.py (settings and statistics),
workloads.py (the kernels and the real programs), runs.py (building and
running one variant, checking its output and report), tables.py (the
result tables).  run-bench runs the steps of a benchmark with them."""
