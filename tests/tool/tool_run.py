"""tool_run.py - running programs for the tool's Python tests."""
import subprocess


def run(cmd, **kw):
    """stdout of CMD, which must exit 0 and print nothing on stderr."""
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0 or r.stderr:
        raise SystemExit("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout,
                                                    r.stderr))
    return r.stdout


def profile(bin_dir, source, work, name, flags=(), env=None):
    """Build SOURCE with BIN_DIR/zeroinst-cc -O1 -g FLAGS into WORK/NAME and
    run it with ZEROINST_OUTPUT=WORK/report-NAME (a fresh directory) and
    the variables ENV.  Returns (stdout, report directory)."""
    import os
    os.makedirs(work, exist_ok=True)
    prog = os.path.join(work, name)
    report = os.path.join(work, "report-" + name)
    subprocess.run(["rm", "-rf", report], check=True)
    run([os.path.join(bin_dir, "zeroinst-cc"), "-O1", "-g", *flags, source, "-o", prog])
    out = run([prog], env=dict(os.environ, ZEROINST_OUTPUT=report, **(env or {})))
    return out, report
