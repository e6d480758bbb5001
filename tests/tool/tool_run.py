"""tool_run.py - running programs for the tool's Python tests."""
import subprocess


def run(cmd, **kw):
    """stdout of CMD, which must exit 0 and print nothing on stderr."""
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0 or r.stderr:
        raise SystemExit("%s failed (%d):\n%s%s" % (" ".join(cmd), r.returncode, r.stdout,
                                                    r.stderr))
    return r.stdout
