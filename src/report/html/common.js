"use strict";
// Helpers shared by the scan and diff pages. Every text of the report is
// put in the page with textContent (through `el`), never parsed as HTML.

window.addEventListener("error", (e) => {
  document.body.dataset.error = String(e.message || e);
});

const DATA = JSON.parse(document.getElementById("report-data").textContent);
const APP = document.getElementById("app");

// An element with attributes (`class`, `id`, `title`, data-*) and children
// (nodes, or strings made text nodes; null and false are left out).
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function fmt(n) {
  return n === null || n === undefined ? "" : Number(n).toLocaleString("en-US");
}

function plural(n, word) {
  return fmt(n) + " " + word + (n === 1 ? "" : "s");
}

function signed(n) {
  return n > 0 ? "+" + fmt(n) : fmt(n);
}

function percent(p) {
  if (p === null || p === undefined) return "n/a";
  return (p > 0 ? "+" : "") + p.toFixed(2) + "%";
}

function sevBadge(s) {
  return el("span", { class: "sev " + s }, s);
}

// A list, its first `limit` items shown and a note of how many there are.
function listOf(items, total, limit) {
  const ul = el("ul", { class: "list" });
  for (const it of items.slice(0, limit || items.length)) ul.append(el("li", { class: "mono" }, it));
  if (total > items.length) ul.append(el("li", { class: "more" }, "… and " + fmt(total - items.length) + " more"));
  return ul;
}

// Source (or IR) lines with numbers, the line at `at` highlighted.
function snippetPre(lines, first, at) {
  const pre = el("pre", { class: "snippet" });
  lines.forEach((text, i) => {
    const n = first + i;
    pre.append(el("span", { class: n === at ? "ln at" : "ln" }, el("span", { class: "no" }, n), text));
  });
  return pre;
}

// A table whose rows are made once and sorted and filtered in place:
// sorting 2,000 rows moves nodes, it does not rebuild them.
// columns: [{label, key(row) -> sort value, cell(row) -> node or text,
//            num, cls}]; opts: {rowClass, detail(row) -> node, sort: [i, dir]}
class Table {
  constructor(columns, rows, opts) {
    this.columns = columns;
    this.rows = rows.map((data) => ({ data, tr: null, detail: null, open: false }));
    this.opts = opts || {};
    this.shown = this.rows;
    this.table = el("table", { class: this.opts.tableClass || null });
    const head = el("tr");
    columns.forEach((c, i) => {
      const th = el("th", { class: (c.num ? "num " : "") + (c.key ? "sortable" : ""), scope: "col" }, c.label);
      if (c.key) th.addEventListener("click", () => this.sortBy(i, this.sorted === i && this.dir === "descending" ? "ascending" : "descending"));
      head.append(th);
    });
    this.head = head;
    this.table.append(el("thead", null, head));
    this.body = el("tbody");
    this.table.append(this.body);
    if (this.opts.sort) this.sortBy(this.opts.sort[0], this.opts.sort[1]);
    else this.draw();
  }

  rowOf(r) {
    if (r.tr) return r.tr;
    const tr = el("tr", { class: "row " + (this.opts.rowClass || "") });
    for (const c of this.columns) {
      const v = c.cell(r.data);
      tr.append(el("td", { class: (c.num ? "num " : "") + (c.cls || "") || null, title: c.title ? c.title(r.data) : null }, v));
    }
    if (this.opts.detail) {
      tr.addEventListener("click", () => this.toggle(r));
    }
    r.tr = tr;
    return tr;
  }

  toggle(r, open) {
    r.open = open === undefined ? !r.open : open;
    if (r.open && !r.detail) {
      r.detail = el("tr", { class: "detail" }, el("td", { colspan: this.columns.length }, this.opts.detail(r.data)));
    }
    r.tr.classList.toggle("open", r.open);
    if (r.open) r.tr.after(r.detail);
    else if (r.detail) r.detail.remove();
  }

  sortBy(i, dir) {
    const key = this.columns[i].key;
    const sign = dir === "ascending" ? 1 : -1;
    const value = (r) => (r.sortValue === undefined || r.sortedBy !== i ? ((r.sortedBy = i), (r.sortValue = key(r.data))) : r.sortValue);
    this.rows.sort((a, b) => {
      const x = value(a), y = value(b);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    });
    for (const th of this.head.children) th.removeAttribute("aria-sort");
    this.head.children[i].setAttribute("aria-sort", dir);
    this.sorted = i;
    this.dir = dir;
    this.filter(this.keep);
  }

  filter(keep) {
    this.keep = keep;
    this.shown = keep ? this.rows.filter((r) => keep(r.data)) : this.rows;
    this.draw();
  }

  draw() {
    const frag = document.createDocumentFragment();
    for (const r of this.shown) {
      frag.append(this.rowOf(r));
      if (r.open && r.detail) frag.append(r.detail);
    }
    this.body.replaceChildren(frag);
  }

  openAll() {
    for (const r of this.shown) {
      this.rowOf(r);
      this.toggle(r, true);
    }
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// Horizontal bars: items [{label, note, value, title, cls}], widths against
// the largest absolute value; a long label is cut in its middle.
function barChart(items, unit) {
  const cut = (s, n) => (s.length > n ? s.slice(0, n - 20) + "…" + s.slice(-19) : s);
  // Room for the longest label at ~6.6 px a character (11.5 px text).
  const longest = Math.max(...items.map((i) => cut(i.label, 48).length + (i.note ? cut(i.note, 36).length + 1 : 0)));
  const rowH = 20, labelW = Math.min(600, Math.max(120, longest * 6.6 + 16)), barW = 560, valueW = 140;
  const width = labelW + barW + valueW;
  const chart = svg("svg", { class: "chart", width, height: items.length * rowH + 4, viewBox: "0 0 " + width + " " + (items.length * rowH + 4), role: "img" });
  const max = Math.max(1, ...items.map((i) => Math.abs(i.value)));
  items.forEach((it, n) => {
    const y = n * rowH + 2;
    const g = svg("g", { class: "item" });
    g.append(svg("title", null, it.title || it.label));
    const label = svg("text", { x: labelW - 8, y: y + 14, "text-anchor": "end" }, cut(it.label, 48));
    if (it.note) label.append(svg("tspan", { class: "v", dx: 6 }, cut(it.note, 36)));
    g.append(label);
    const w = Math.max(1, (Math.abs(it.value) / max) * barW);
    g.append(svg("rect", { class: "bar " + (it.cls || ""), x: labelW, y: y + 3, width: w, height: rowH - 6, rx: 2 }));
    g.append(svg("text", { class: "v", x: labelW + w + 6, y: y + 14 }, fmt(it.value) + (unit ? " " + unit : "")));
    chart.append(g);
  });
  return chart;
}

// The folder every path shares, to show paths shorter (full in a title).
function commonDir(paths) {
  if (paths.length === 0) return "";
  let prefix = paths[0];
  for (const p of paths) {
    while (!p.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  const cut = prefix.lastIndexOf("/");
  return cut < 0 ? "" : prefix.slice(0, cut + 1);
}

function card(id, n, label) {
  return el("div", { class: "card" }, el("span", { class: "n", id }, fmt(n)), el("span", { class: "l" }, label));
}
