"""tables.py - run-bench's result tables: columns, MEDIAN and GEOMEAN
rows, text and Markdown."""
from .common import geomean, median

def fmt(x, spec="%.2f", none="-"):
    return none if x is None else spec % x


def pct(x):
    return "-" if x is None else "%.1f%%" % (100 * x)


def columns(modes, asan, cachegrind=False):
    """(key, header, formatter) for every table column."""
    cols = [("name", "workload", str),
            ("plain_s", "plain s", lambda x: fmt(x, "%.3f")),
            ("plain_rss_mb", "plain RSS MB", lambda x: fmt(x, "%.1f"))]
    for m in modes:
        cols.append(("%s_time" % m, "%s time x" % m, fmt))
        cols.append(("%s_cpu" % m, "%s cpu x" % m, fmt))
        if cachegrind:
            cols.append(("%s_ir" % m, "%s Ir x" % m, fmt))
        cols.append(("%s_rss" % m, "%s RSS x" % m, fmt))
    if asan:
        cols.append(("asan_time", "asan time x", fmt))
        cols.append(("asan_rss", "asan RSS x", fmt))
    cols.append(("compile", "compile x", fmt))
    if asan:
        cols.append(("asan_compile", "asan compile x", fmt))
    cols.append(("plain_frame", "plain frame B", lambda x: fmt(x, "%.0f")))
    cols.append(("frame_x", "frame x", fmt))
    cols.append(("int_red", "int red.", pct))
    cols.append(("float_red", "float red.", pct))
    return cols


RATIO_KEYS_SUFFIX = ("_time", "_cpu", "_ir", "_rss", "compile", "frame_x")


def summary_rows(rows, cols):
    med, geo = {"name": "MEDIAN"}, {"name": "GEOMEAN"}
    for key, _, _ in cols:
        if key.endswith(RATIO_KEYS_SUFFIX):
            vals = [r.get(key) for r in rows]
            med[key] = median(vals)
            geo[key] = geomean(vals)
        elif key in ("plain_s", "plain_rss_mb", "plain_frame", "int_red", "float_red"):
            med[key] = median([r.get(key) for r in rows])
    return med, geo


def text_table(rows, cols):
    cells = [[h for _, h, _ in cols]]
    for r in rows:
        cells.append([f(r.get(k)) if k != "name" else r["name"] for k, _, f in cols])
    widths = [max(len(c[i]) for c in cells) for i in range(len(cols))]
    lines = []
    for n, c in enumerate(cells):
        lines.append("  ".join(c[i].ljust(widths[i]) if i == 0 else c[i].rjust(widths[i])
                               for i in range(len(cols))))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows, cols):
    out = ["| " + " | ".join(h for _, h, _ in cols) + " |",
           "|" + "|".join("---" if i == 0 else "---:" for i in range(len(cols))) + "|"]
    for r in rows:
        cells = []
        for k, _, f in cols:
            v = r["name"] if k == "name" else f(r.get(k))
            cells.append("**%s**" % v if r["name"] in ("MEDIAN", "GEOMEAN") else v)
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)
