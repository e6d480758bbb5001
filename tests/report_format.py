"""report.json in either format, as format 1 (SPEC §6).

The runtime writes "zeroinst-report-2" (runtime/report/report_json.c): the table
"sites" holds each load site of a record once (what format 1 repeats in
every record: kind, the "site" object, elem_type, elem_bytes,
access_bytes, lanes, copies), the tables "frames" and "contexts" every frame and
every calling context once, and a record names its site by an index,
"site", and its path by another, "context" (code and other records) or
"alloc_context" (heap objects), -1 for an empty path.  The
tests check records against format 1's "call_path" / "alloc_path", so they
read reports through load() or expand().  This is a second, independent
reading of format 2: the `zeroinst` tool has its own (tool/report.c),
and tool tests compare the two."""
import json


def paths(rep):
    """The path (a list of frames, innermost first) of every context of the
    format-2 report REP.  A context's parent comes before it, and no frame
    or context is stored twice (what makes the format compact)."""
    frames, out = rep["frames"], []
    keys = set(json.dumps(f, sort_keys=True) for f in frames)
    assert len(keys) == len(frames), "a frame is stored twice"
    assert len(set(map(tuple, rep["contexts"]))) == len(rep["contexts"]), \
        "a context is stored twice"
    for i, (frame, parent) in enumerate(rep["contexts"]):
        assert 0 <= frame < len(frames), "contexts[%d]: frame %d out of range" % (i, frame)
        assert -1 <= parent < i, "contexts[%d]: parent %d is not earlier" % (i, parent)
        out.append([frames[frame]] + (out[parent] if parent >= 0 else []))
    return out


def expand(rep):
    """REP (a parsed report.json) as format 1, in place; returned.  Records
    with one site or one context share its objects: read, do not modify."""
    if rep.get("format") != "zeroinst-report-2":
        return rep
    ctx = paths(rep)

    def path(rec, key):
        i = rec.pop(key)
        assert isinstance(i, int) and -1 <= i < len(ctx), "bad %s %r" % (key, i)
        return ctx[i] if i >= 0 else []

    sites = rep["sites"]
    for key in ("code", "other"):
        for rec in rep.get(key, []):
            i = rec["site"]
            assert isinstance(i, int) and 0 <= i < len(sites), "bad site %r" % (i,)
            s = sites[i]
            keys = ("file", "line", "column", "function", "expr")
            rec["site"] = {k: s[k] for k in keys if k in s}
            for k in ("access_bytes",) + (("kind", "elem_type", "elem_bytes", "lanes", "copies")
                                          if key == "code" else ()):
                if k in s:
                    rec[k] = s[k]
            if "context" in rec:
                rec["call_path"] = path(rec, "context")
    for rec in rep.get("data", []):
        if "alloc_context" in rec:
            rec["alloc_path"] = path(rec, "alloc_context")
    del rep["sites"], rep["frames"], rep["contexts"]
    rep["format"] = "zeroinst-report-1"
    return rep


def load(path):
    """The report.json at PATH, as format 1."""
    with open(path) as f:
        return expand(json.load(f))
