/* report.js - renders a `zeroinst html` page from the JSON that html.c
   embeds in it (<script id="zeroinst-data" type="application/json">).

   Plain DOM, SVG-free and library-free, so the page works from file://
   without a network.  Sections: overview (totals per kind and thread,
   and per process of a report of zeroinst merge), sites and objects as
   sortable, filterable tables (a row's click shows its call or allocation
   path, advice and spread over processes), the top-down call tree
   (<details>), annotated source excerpts, and one byte-map heat map per
   data object on a <canvas> (never read / always zero / non-zero) with
   zoom.  When done it sets body.dataset.ready = "1"; script errors are
   counted in body.dataset.errors, which the browser test reads.  */
"use strict";

var errors = 0;
window.addEventListener("error", function () {
  errors++;
  document.body.dataset.errors = String(errors);
});

var COLORS = { n: [200, 200, 200], z: [52, 101, 164], x: [204, 51, 34] };

function el(tag, attrs, children) {
  var e = document.createElement(tag);
  for (var k in attrs || {}) {
    if (k === "text") e.textContent = attrs[k];
    else if (k === "cls") e.className = attrs[k];
    else e.setAttribute(k, attrs[k]);
  }
  (children || []).forEach(function (c) {
    e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
  return e;
}

function pct(part, whole) {
  return whole ? (100 * part / whole).toFixed(2) + "%" : "0.00%";
}

function num(n) {
  return Number(n).toLocaleString("en-US");
}

function frameText(f) {
  var s = f.function;
  if (f.file) s += " (" + f.file + (f.line ? ":" + f.line : "") + ")";
  if (f.inlined) s += " [inlined]";
  if (f.parallel_region) s += " [parallel region]";
  return s;
}

/* A table whose header cells sort it; COLUMNS: {title, value(row), text(row),
   cls}.  DETAIL(row) gives the text of the row shown under it on click.  */
function sortableTable(id, columns, rows, detail, initial) {
  var table = el("table", { id: id });
  var head = el("tr");
  var body = el("tbody");
  var order = { col: initial, desc: true };
  columns.forEach(function (c, i) {
    var th = el("th", { text: c.title, cls: c.cls || "" });
    th.addEventListener("click", function () {
      order.desc = order.col === i ? !order.desc : true;
      order.col = i;
      render();
    });
    head.appendChild(th);
  });
  table.appendChild(el("thead", {}, [head]));
  table.appendChild(body);
  var filterText = "";
  function render() {
    var c = columns[order.col];
    var sorted = rows.slice().sort(function (a, b) {
      var x = c.value(a), y = c.value(b);
      var r = x < y ? -1 : x > y ? 1 : 0;
      return order.desc ? -r : r;
    });
    Array.prototype.forEach.call(head.children, function (th, i) {
      th.classList.toggle("sorted-desc", i === order.col && order.desc);
      th.classList.toggle("sorted-asc", i === order.col && !order.desc);
    });
    body.textContent = "";
    sorted.forEach(function (row) {
      var tr = el("tr", { cls: "row" });
      var all = "";
      columns.forEach(function (col) {
        var t = col.text ? col.text(row) : String(col.value(row));
        all += " " + t;
        tr.appendChild(el("td", { text: t, cls: col.cls || "" }));
      });
      if (filterText && all.toLowerCase().indexOf(filterText) < 0) return;
      body.appendChild(tr);
      var d = detail(row);
      if (d) {
        var dr = el("tr", { cls: "detail" }, [el("td", { colspan: String(columns.length) }, d)]);
        dr.hidden = true;
        tr.addEventListener("click", function () { dr.hidden = !dr.hidden; });
        body.appendChild(dr);
      }
    });
  }
  var filter = el("input", { cls: "filter", placeholder: "filter rows", type: "search" });
  filter.addEventListener("input", function () {
    filterText = filter.value.toLowerCase();
    render();
  });
  render();
  return el("div", {}, [filter, table]);
}

function adviceNodes(list) {
  return (list || []).map(function (a) { return el("div", { cls: "advice", text: a }); });
}

/* A merged record's spread over the processes (zeroinst merge).  */
function spreadNodes(r) {
  return r.spread ? [el("div", { cls: "spread", text: r.spread })] : [];
}

function overview(data) {
  var s = data.summary;
  var rows = [["", "elements", "loaded bytes", "redundant bytes", "redundancy", "zero elements"]];
  ["int", "float"].forEach(function (k) {
    var t = s[k] || {};
    rows.push([k === "int" ? "integer" : "floating point", num(t.elements || 0), num(t.bytes || 0),
               num(t.redundant_bytes || 0), pct(t.redundant_bytes || 0, t.bytes || 0),
               pct(t.zero_elements || 0, t.elements || 0)]);
  });
  function totalsRows(label, totals) {
    ["int", "float"].forEach(function (k) {
      var t = totals[k] || {};
      rows.push([label + " " + k, num(t.elements || 0), num(t.bytes || 0),
                 num(t.redundant_bytes || 0), pct(t.redundant_bytes || 0, t.bytes || 0),
                 pct(t.zero_elements || 0, t.elements || 0)]);
    });
  }
  (data.threads || []).forEach(function (th) { totalsRows("thread " + th.thread, th); });
  /* A merged report (zeroinst merge): each process's totals.  */
  (data.processes || []).forEach(function (p) { totalsRows(p[0], p[1] || {}); });
  var table = el("table", { id: "totals" });
  rows.forEach(function (r, i) {
    table.appendChild(el("tr", {}, r.map(function (c, j) {
      return el(i ? "td" : "th", { text: c, cls: j ? "" : "text" });
    })));
  });
  return table;
}

/* The columns sites and objects share: kind, share and local redundancy
   first; redundant bytes and advice last.  */
function firstColumns(data) {
  var kindRed = {};
  ["int", "float"].forEach(function (k) { kindRed[k] = (data.summary[k] || {}).redundant_bytes || 0; });
  return [
    { title: "kind", value: function (r) { return r.kind; }, cls: "text" },
    { title: "share", value: function (r) { return r.redundant_bytes / (kindRed[r.kind] || 1); },
      text: function (r) { return pct(r.redundant_bytes, kindRed[r.kind]); } },
    { title: "local", value: function (r) { return r.bytes ? r.redundant_bytes / r.bytes : 0; },
      text: function (r) { return pct(r.redundant_bytes, r.bytes); } },
  ];
}

function lastColumns() {
  return [
    { title: "redundant bytes", value: function (r) { return r.redundant_bytes; },
      text: function (r) { return num(r.redundant_bytes); } },
    { title: "advice", value: function (r) { return (r.advice || []).length; },
      text: function (r) { return (r.advice || []).length ? "yes" : ""; } },
  ];
}

function sitesTable(data) {
  var cols = firstColumns(data).concat([
    { title: "zero", value: function (r) { return r.elements ? r.zero_elements / r.elements : 0; },
      text: function (r) { return pct(r.zero_elements, r.elements); } },
    { title: "redmap", value: function (r) { return r.redmap; }, cls: "text where" },
    { title: "type", value: function (r) { return r.type; }, cls: "text" },
    { title: "loads", value: function (r) { return r.loads; }, text: function (r) { return num(r.loads); } },
    { title: "site", value: function (r) { return r.where; }, cls: "text where" },
  ], lastColumns());
  return sortableTable("sites", cols, data.sites, function (r) {
    var lines = spreadNodes(r).concat(adviceNodes(r.advice));
    lines.push(el("div", { text: "call path (innermost first):" }));
    r.path.forEach(function (f) { lines.push(el("div", { text: "  " + frameText(data.frames[f]) })); });
    return lines;
  }, 8);
}

function objectsTable(data) {
  var cols = firstColumns(data).concat([
    { title: "object", value: function (r) { return r.label; }, cls: "text where" },
    { title: "size", value: function (r) { return r.size; }, text: function (r) { return num(r.size); } },
    { title: "never loaded", value: function (r) { return r.size ? r.never_loaded_bytes / r.size : 0; },
      text: function (r) { return pct(r.never_loaded_bytes, r.size); } },
    { title: "always zero", value: function (r) { return r.size ? r.always_zero_bytes / r.size : 0; },
      text: function (r) { return pct(r.always_zero_bytes, r.size); } },
  ], lastColumns());
  return sortableTable("objects", cols, data.objects, function (r) {
    var lines = spreadNodes(r).concat(adviceNodes(r.advice));
    if (r.alloc_path && r.alloc_path.length) {
      lines.push(el("div", { text: "allocated at (innermost first):" }));
      r.alloc_path.forEach(function (f) { lines.push(el("div", { text: "  " + frameText(data.frames[f]) })); });
    }
    return lines;
  }, 7);
}

/* The granules of a byte map: an array of state letters per granule.  */
function granules(map) {
  var out = [], re = /(\d+)([nzx])/g, m;
  while ((m = re.exec(map.runs)) !== null) {
    for (var i = 0, n = Number(m[1]); i < n && out.length < 4194304; i++) out.push(m[2]);
  }
  return out;
}

/* One heat map: WIDTH cells a row, each cell SCALE granules (the state
   shown is the "most informative" of them: x, then z, then n).  */
function heatMap(obj, index) {
  var map = obj.byte_map;
  var cells = granules(map);
  var width = 256, scale = Math.max(1, Math.ceil(cells.length / (width * 64)));
  var canvas = el("canvas", { "class": "heatmap", id: "heat-" + index });
  var label = el("span", { cls: "muted" });
  function draw() {
    var n = Math.ceil(cells.length / scale), rows = Math.max(1, Math.ceil(n / width));
    var px = Math.max(1, Math.min(4, Math.floor(1024 / width)));
    canvas.width = width * px;
    canvas.height = rows * px;
    var ctx = canvas.getContext("2d");
    var img = ctx.createImageData(canvas.width, canvas.height);
    var painted = 0;
    for (var c = 0; c < n; c++) {
      var state = "n";
      for (var g = c * scale; g < Math.min(cells.length, (c + 1) * scale); g++) {
        if (cells[g] === "x") { state = "x"; break; }
        if (cells[g] === "z") state = "z";
      }
      var rgb = COLORS[state], x0 = (c % width) * px, y0 = Math.floor(c / width) * px;
      for (var dy = 0; dy < px; dy++)
        for (var dx = 0; dx < px; dx++) {
          var o = 4 * ((y0 + dy) * canvas.width + x0 + dx);
          img.data[o] = rgb[0]; img.data[o + 1] = rgb[1]; img.data[o + 2] = rgb[2]; img.data[o + 3] = 255;
          painted++;
        }
    }
    ctx.putImageData(img, 0, 0);
    canvas.dataset.painted = String(painted);
    canvas.dataset.cells = String(n);
    var per = scale * map.granule;
    label.textContent = " " + num(per) + (per === 1 ? " byte" : " bytes") + " per cell, " + width + " cells per row";
  }
  canvas.addEventListener("mousemove", function (ev) {
    var r = canvas.getBoundingClientRect(), px = canvas.width / width;
    var c = Math.floor((ev.clientY - r.top) / px) * width + Math.floor((ev.clientX - r.left) / px);
    var from = c * scale * map.granule;
    canvas.title = "bytes " + from + ".." + (Math.min(map.length, from + scale * map.granule) - 1);
  });
  var zoomIn = el("button", { text: "zoom in" }), zoomOut = el("button", { text: "zoom out" });
  zoomIn.addEventListener("click", function () { if (scale > 1) { scale = Math.max(1, scale >> 1); draw(); } });
  zoomOut.addEventListener("click", function () { scale *= 2; draw(); });
  draw();
  return el("div", { cls: "heat" }, [
    el("div", {}, [el("b", { text: obj.label + " (" + obj.kind + ")" }),
                   " " + num(map.length) + " bytes", label, " ", zoomIn, zoomOut]),
    canvas]);
}

function heatMaps(data) {
  var legend = el("div", { cls: "legend" }, [
    el("span", { style: "background: rgb(200,200,200)" }), "never loaded",
    el("span", { style: "background: rgb(52,101,164)" }), "always zero",
    el("span", { style: "background: rgb(204,51,34)" }), "seen non-zero"]);
  var out = [legend], i = 0;
  data.objects.forEach(function (o) {
    if (o.byte_map && o.byte_map.runs) out.push(heatMap(o, i++));
  });
  if (i === 0) out.push(el("p", { cls: "muted", text: "No data objects (run with ZEROINST_MODE=data)." }));
  return out;
}

/* The top-down tree of one kind: nodes [label, parent, red, bytes] in
   depth-first order.  */
function tree(nodes, kindRed) {
  var holders = [], root = el("div", { cls: "tree" });
  nodes.forEach(function (n, i) {
    var text = pct(n[2], kindRed) + "  " + num(n[2]) + "  " + n[0];
    var hasChildren = i + 1 < nodes.length && nodes[i + 1][1] === i;
    var node;
    if (hasChildren) {
      node = el("details", { open: "" }, [el("summary", { text: text })]);
    } else {
      node = el("div", { cls: "leaf", text: text });
    }
    holders[i] = node;
    (n[1] < 0 ? root : holders[n[1]]).appendChild(node);
  });
  return root;
}

function sources(data) {
  var out = [];
  Object.keys(data.sources).sort().forEach(function (file) {
    var src = data.sources[file];
    out.push(el("h3", { text: file }));
    if (!src.lines) {
      out.push(el("p", { cls: "muted", text: "not readable here: " + src.why }));
      return;
    }
    var pre = el("pre", { cls: "source" }), last = 0;
    Object.keys(src.lines).map(Number).sort(function (a, b) { return a - b; }).forEach(function (n) {
      if (last && n > last + 1) pre.appendChild(document.createTextNode("...\n"));
      var a = src.annotations[n];
      var head = a ? ("          " + num(a[0])).slice(-14) + " " + ("      " + pct(a[0], data.total_red)).slice(-8)
                   : "                       ";
      var line = el("span", { cls: a ? "hot" : "", text: head + " " + ("     " + n).slice(-6) + "  " + src.lines[n] + "\n" });
      pre.appendChild(line);
      last = n;
    });
    out.push(pre);
  });
  return out;
}

function main() {
  var data = JSON.parse(document.getElementById("zeroinst-data").textContent);
  var app = document.getElementById("app");
  app.appendChild(el("h1", { text: "zeroinst report: " + data.program }));
  app.appendChild(el("p", { text: "pid " + data.pid + ", " + data.arch + ", modes " + data.modes.join(",") +
                              ", " + data.threads.length + " thread(s)" + (data.note ? "; " + data.note : "") }));
  app.appendChild(el("nav", {}, ["overview", "sites", "objects", "heat maps", "call tree", "source"].map(function (s) {
    return el("a", { href: "#" + s.replace(" ", "-"), text: s });
  })));
  app.appendChild(el("h2", { id: "overview", text: "Overview" }));
  app.appendChild(overview(data));
  app.appendChild(el("h2", { id: "sites", text: "Load sites (" + data.sites.length + " of " + data.site_count + ")" }));
  app.appendChild(sitesTable(data));
  app.appendChild(el("h2", { id: "objects", text: "Data objects (" + data.objects.length + " of " + data.object_count + ")" }));
  app.appendChild(objectsTable(data));
  app.appendChild(el("h2", { id: "heat-maps", text: "Byte maps of the data objects" }));
  heatMaps(data).forEach(function (n) { app.appendChild(n); });
  app.appendChild(el("h2", { id: "call-tree", text: "Call tree (top-down, nodes of at least " + data.tree_min_share + "%)" }));
  ["int", "float"].forEach(function (k) {
    app.appendChild(el("h3", { text: k === "int" ? "Integer loads" : "Floating-point loads" }));
    app.appendChild(tree(data.tree[k] || [], (data.summary[k] || {}).redundant_bytes || 0));
  });
  app.appendChild(el("h2", { id: "source", text: "Source (lines with load sites, and around them)" }));
  sources(data).forEach(function (n) { app.appendChild(n); });
  document.body.dataset.errors = String(errors);
  document.body.dataset.ready = "1";
}

main();
