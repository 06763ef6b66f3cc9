// The diff's page: for each comparison (a .metal source gives one per pair
// of levels), the totals with helped and hurt kernels as shader-db's
// report gives them, then each kernel's metric changes and where the
// computation behind each finding that came or went sits on each side.
// DATA is {labels: [[key, label]] in the text's order, diffs: [the JSON of
// `air-scan diff --format json`]}.

const LABELS = new Map(DATA.labels);
const label = (key) => LABELS.get(key) || key;
// A metric map's entries in the text's order (JSON maps come sorted by key).
const ordered = (map) => DATA.labels.filter(([k]) => k in map).map(([k]) => [k, map[k]]);
const kname = (k) => (k.file ? k.file + ": " : "") + k.name;

function place(s) {
  let p = "@" + s.function + " line " + s.line;
  if (s.block) p += ", block " + s.block + " (" + (s.conditional ? "conditional" : "unconditional") + (s.loop_depth ? ", loop depth " + s.loop_depth : "") + ")";
  return p;
}

// One side's IR lines, each under the place it is at.
function irLines(sites) {
  if (!sites.length) return el("p", { class: "empty" }, "none");
  const d = el("div");
  for (const s of sites) d.append(el("div", { class: "site" }, place(s)), el("pre", { class: "ir" }, s.instruction));
  return d;
}

function sides(a, b, titleA, titleB) {
  return el("div", { class: "sides" },
    el("div", { class: "side-a" }, el("h4", null, titleA), a),
    el("div", { class: "side-b" }, el("h4", null, titleB), b));
}

function changeClass(change, helped) {
  return change === 0 ? null : (change < 0) === helped ? "helped" : "hurt";
}

function findingChange(c, introduced) {
  const d = el("div", { class: "change " + (introduced ? "introduced" : "removed") });
  d.append(el("p", null, el("b", null, introduced ? "introduced" : "removed"), ": ", el("span", { class: "mono" }, c.rule),
    " (only in " + (introduced ? "b" : "a") + ") at " + place(c.site)));
  if (c.site.instruction) d.append(el("pre", { class: "ir" }, c.site.instruction));
  const an = c.anchor;
  if (!an) {
    d.append(el("p", { class: "help" }, c.message));
    return d;
  }
  d.append(el("p", { class: "help" }, an.role === "address" ? "Its value feeds the address of: " + an.what : "The same instruction on each side: " + an.what));
  d.append(sides(irLines(an.a), irLines(an.b), "a", "b"));
  const hows = [...new Set(an.moved.map((m) => m.how))];
  for (const how of hows) {
    const moved = an.moved.filter((m) => m.how === how);
    d.append(el("h3", { class: "moved" }, "Moved " + how + ": " + plural(moved.length, "step")));
    const grid = el("div", { class: "sides moved-steps" });
    for (const m of moved) {
      grid.append(el("div", { class: "side-a" }, el("div", { class: "site" }, "a: " + place(m.a)), el("pre", { class: "ir" }, m.a.instruction)));
      grid.append(el("div", { class: "side-b" }, el("div", { class: "site" }, "b: " + place(m.b)), el("pre", { class: "ir" }, m.b.instruction)));
    }
    d.append(grid);
  }
  if (an.only_a.length || an.only_b.length) {
    d.append(el("h3", null, "Steps on one side only"));
    d.append(sides(irLines(an.only_a), irLines(an.only_b), "only in a", "only in b"));
  }
  d.append(el("p", { class: "help" }, c.message));
  return d;
}

function metricTable(rows, helpedWhenLower) {
  const t = el("table", { class: "metrics" });
  t.append(el("thead", null, el("tr", null, el("th", null, "metric"), ["a", "b", "change", "percent"].map((h) => el("th", { class: "num" }, h)))));
  const body = el("tbody");
  for (const [key, r] of rows) {
    const cls = changeClass(r.change, helpedWhenLower);
    body.append(el("tr", { class: r.change ? "moved-metric" : null }, el("td", null, key),
      el("td", { class: "num" }, fmt(r.a)), el("td", { class: "num" }, fmt(r.b)),
      el("td", { class: "num " + (cls || "") }, signed(r.change)), el("td", { class: "num " + (cls || "") }, percent(r.percent))));
  }
  t.append(body);
  return t;
}

function kernelBody(k) {
  const d = el("div", { class: "body" });
  const rows = ordered(k.metrics).filter(([, r]) => r.a || r.b).map(([key, r]) => [label(key), r])
    .concat(Object.entries(k.findings).filter(([, r]) => r.a || r.b).map(([rule, r]) => ["findings: " + rule, r]));
  // What changed, as shader-db lists it; the rest in a line.
  const moved = rows.filter(([, r]) => r.change !== 0);
  d.append(moved.length ? metricTable(moved, true) : el("p", { class: "empty" }, "no metric changed"));
  if (rows.length > moved.length) {
    const same = rows.filter(([, r]) => r.change === 0).map(([name, r]) => name + " " + fmt(r.a));
    d.append(el("p", { class: "site" }, "unchanged: " + same.join(", ")));
  }
  for (const c of k.introduced) d.append(findingChange(c, true));
  for (const c of k.removed) d.append(findingChange(c, false));
  return d;
}

function totalsTable(diff) {
  const t = el("table", { class: "totals" });
  t.append(el("thead", null, el("tr", null, el("th", null, "metric"),
    ["a", "b", "change", "percent", "in affected kernels", "helped", "hurt"].map((h) => el("th", { class: "num" }, h)))));
  const body = el("tbody");
  const rows = ordered(diff.totals.metrics).map(([k, v]) => [label(k), v])
    .concat(Object.entries(diff.totals.findings).map(([k, v]) => ["findings: " + k, v]));
  for (const [name, r] of rows) {
    if (!r.a && !r.b) continue;
    const cls = changeClass(r.change, true);
    const affected = r.affected_a ? percent(((r.affected_b - r.affected_a) * 100) / r.affected_a) : "n/a";
    body.append(el("tr", { class: "total" }, el("td", null, name), el("td", { class: "num" }, fmt(r.a)), el("td", { class: "num" }, fmt(r.b)),
      el("td", { class: "num " + (cls || "") }, signed(r.change)), el("td", { class: "num " + (cls || "") }, percent(r.percent)),
      el("td", { class: "num" }, fmt(r.affected_a) + " → " + fmt(r.affected_b) + " (" + affected + ")"),
      el("td", { class: "num helped" }, fmt(r.helped)), el("td", { class: "num hurt" }, fmt(r.hurt))));
  }
  t.append(body);
  return t;
}

function oneSided(title, list, id) {
  if (!list.length) return;
  APP.append(el("h3", null, title));
  const t = new Table([
    { label: "Kernel", key: (k) => kname(k), cell: (k) => kname(k), cls: "name mono" },
    { label: "Instructions", num: true, key: (k) => k.metrics.instructions, cell: (k) => fmt(k.metrics.instructions) },
    { label: "Findings", num: true, key: (k) => k.findings, cell: (k) => fmt(k.findings) },
  ], list, { rowClass: id });
  APP.append(t.table);
}

function diffSection(diff, n) {
  const s = diff.summary;
  APP.append(el("h2", null, "a: " + diff.a + " → b: " + diff.b));
  APP.append(el("div", { class: "cards" },
    card("d" + n + "-kernels", s.kernels, "kernels on both sides"),
    card("d" + n + "-changed", s.changed, "changed"),
    card("d" + n + "-only-a", s.only_a, "only in a"),
    card("d" + n + "-only-b", s.only_b, "only in b"),
    card("d" + n + "-errors", s.errors, "errors")));
  if (diff.kernels.length) {
    APP.append(el("h3", null, "Totals over the kernels on both sides"));
    APP.append(totalsTable(diff));
    const moved = diff.kernels.filter((k) => k.metrics.instructions && k.metrics.instructions.change)
      .sort((x, y) => Math.abs(y.metrics.instructions.change) - Math.abs(x.metrics.instructions.change)).slice(0, 15);
    if (moved.length) {
      APP.append(el("h3", null, "Largest changes in instructions"));
      APP.append(barChart(moved.map((k) => ({ label: kname(k), value: k.metrics.instructions.change, cls: k.metrics.instructions.change < 0 ? "helped" : "hurt" }))));
    }
    APP.append(el("h3", null, "Kernels"));
    const changed = diff.kernels.filter((k) => k.changed).length;
    for (const k of diff.kernels) {
      const ins = k.metrics.instructions;
      const summary = el("summary", null, el("span", { class: "mono" }, kname(k)), " — ", k.changed ? "changed" : "unchanged",
        ins ? ": " + fmt(ins.a) + " → " + fmt(ins.b) + " instructions (" + percent(ins.percent) + ")" : "",
        k.introduced.length ? ", " + plural(k.introduced.length, "finding") + " introduced" : "",
        k.removed.length ? ", " + plural(k.removed.length, "finding") + " removed" : "");
      const det = el("details", { class: "kernel" + (k.changed ? " changed" : "") }, summary, kernelBody(k));
      // A few changed kernels open at once; many stay closed.
      if (k.changed && changed <= 5) det.open = true;
      APP.append(det);
    }
  }
  oneSided("Kernels only in a", diff.only_a, "only-a");
  oneSided("Kernels only in b", diff.only_b, "only-b");
  for (const [title, files] of [["Files only in a", diff.files_only_a], ["Files only in b", diff.files_only_b]]) {
    if (files.length) APP.append(el("h3", null, title), listOf(files, files.length));
  }
  if (diff.errors.length) {
    APP.append(el("h3", null, "Errors"));
    APP.append(listOf(diff.errors.map((e) => e.path + ": " + e.message), diff.errors.length));
  }
}

APP.append(el("h1", null, "air-scan diff"));
DATA.diffs.forEach(diffSection);
document.body.dataset.rendered = "diff";
