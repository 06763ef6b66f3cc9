// The scan's page: summary, causes, kernels, files that failed or were
// skipped. DATA is written by report::html::HtmlStream.

const SEVERITIES = ["error", "warning", "note"];
const base = commonDir(DATA.paths.concat(DATA.failed.map((f) => f.path), DATA.skipped.map((f) => f.path)));
const short = (p) => (base && p.startsWith(base) ? p.slice(base.length) : p);

function header() {
  const t = DATA.totals;
  APP.append(
    el("h1", null, "air-scan report"),
    el("p", { class: "meta" }, DATA.tool + " " + DATA.version,
      DATA.scan.arguments.length ? " · air-scan " + DATA.scan.arguments.join(" ") : null,
      DATA.scan.root ? " · in " + DATA.scan.root : null,
      base ? " · paths below are relative to " + base : null),
  );
  APP.append(el("div", { class: "cards", id: "summary" },
    card("n-files", t.files, "files read (" + fmt(t.ok) + " ok)"),
    card("n-failed", t.failed, "files failed"),
    card("n-skipped", t.skipped, "files skipped"),
    card("n-kernels", t.kernels, "kernels"),
    card("n-findings", t.findings, "findings"),
    card("n-causes", t.causes, "causes"),
    card("n-error", DATA.by_severity.error, "errors"),
    card("n-warning", DATA.by_severity.warning, "warnings"),
    card("n-note", DATA.by_severity.note, "notes"),
    card("n-cycles", DATA.estimated_cycles, "est. cycles (to rank)"),
  ));
  if (t.suppressed || t.baseline_matched || t.reader_errors || t.reader_warnings) {
    APP.append(el("p", { class: "meta" },
      fmt(t.suppressed) + " suppressed, " + fmt(t.baseline_matched) + " known from the baseline; " +
      plural(t.reader_errors, "reader error") + ", " + plural(t.reader_warnings, "reader warning")));
  }
}

function byRule() {
  APP.append(el("h2", null, "Findings by rule"));
  if (DATA.by_rule.length === 0) {
    APP.append(el("p", { class: "empty" }, "No findings."));
    return;
  }
  const sev = (s) => (r) => r.by_severity[s];
  const t = new Table([
    { label: "Rule", key: (r) => r.rule_id, cell: (r) => r.rule_id, cls: "mono" },
    { label: "Name", key: (r) => r.rule, cell: (r) => r.rule },
    { label: "Category", key: (r) => r.category, cell: (r) => r.category },
    { label: "Findings", num: true, key: (r) => r.count, cell: (r) => fmt(r.count) },
    ...SEVERITIES.map((s) => ({ label: s[0].toUpperCase() + s.slice(1) + "s", num: true, key: sev(s), cell: (r) => fmt(sev(s)(r)) })),
    { label: "In loops", num: true, key: (r) => r.in_loops, cell: (r) => fmt(r.in_loops) },
    { label: "Cycles each", num: true, key: (r) => r.cycles_per_execution, cell: (r) => fmt(r.cycles_per_execution) },
    { label: "Estimated cycles", num: true, key: (r) => r.estimated_cycles, cell: (r) => fmt(r.estimated_cycles) },
  ], DATA.by_rule, { rowClass: "rule", sort: [3, "descending"] });
  t.table.id = "rules";
  APP.append(t.table);
}

function filterBar() {
  const rule = el("select", { id: "f-rule" }, el("option", { value: "" }, "any rule"),
    DATA.by_rule.map((r) => el("option", { value: r.rule }, r.rule_id + " " + r.rule)));
  const severity = el("select", { id: "f-severity" }, el("option", { value: "" }, "any severity"),
    SEVERITIES.map((s) => el("option", { value: s }, s)));
  const kernel = el("input", { id: "f-kernel", type: "search", placeholder: "kernel contains…" });
  const file = el("input", { id: "f-file", type: "search", placeholder: "file contains…" });
  const shown = el("span", { class: "shown", id: "f-shown" });
  const bar = el("div", { class: "filters" },
    el("label", null, "Filter "), rule, severity, kernel, file, shown);
  return { bar, rule, severity, kernel, file, shown };
}

function causeDetail(c) {
  const d = el("div", { class: "detail" });
  d.append(el("p", null, sevBadge(c.severity), " ", el("span", { class: "mono" }, c.rule_id), " ", c.message));
  if (c.snippet) {
    const s = c.snippet;
    d.append(el("div", { class: "site" }, (s.language === "msl" ? "MSL " : "IR ") + s.path + ":" + s.line + (s.column ? ":" + s.column : "") +
      (s.approximate ? " (approximate location)" : "")));
    d.append(snippetPre(s.lines, s.first_line, s.line));
  }
  if (c.source_note) d.append(el("p", { class: "help" }, c.source_note));
  if (c.ir.instruction) {
    d.append(el("div", { class: "site" }, "IR instruction" + (c.ir.line ? " at " + c.ir.path + ":" + c.ir.line : " in " + c.ir.path) + ", in " + c.function));
    d.append(el("pre", { class: "ir" }, c.ir.instruction));
  }
  const notes = [];
  if (c.loop_depth > 0) notes.push("inside " + plural(c.loop_depth, "loop"));
  if (c.levels.length) notes.push("found at " + c.levels.map((l) => "-" + l).join(" and "));
  if (c.cycles_per_execution !== null) notes.push("~" + fmt(c.cycles_per_execution) + " cycles each, ~" + fmt(c.estimated_cycles) + " over its instances");
  for (const at of c.inlined_at) notes.push("inlined at " + at);
  if (notes.length) d.append(el("p", { class: "help" }, notes.join("; ")));
  d.append(el("p", { class: "help" }, "help: " + c.help));
  d.append(el("h3", null, plural(c.kernel_count, "kernel")));
  d.append(listOf(c.kernels, c.kernel_count));
  d.append(el("h3", null, plural(c.instances, "instance") + " in " + plural(c.files, "file") + " (" + plural(c.place_count, "place") + ")"));
  d.append(listOf(c.places, c.place_count));
  return d;
}

function causes(f) {
  APP.append(el("h2", { id: "causes-title" }, "Causes"));
  APP.append(el("p", { class: "meta" }, "Findings that share a cause: one fix each. Click a row for its message, source and instances; click a heading to sort."));
  const t = new Table([
    { label: "Severity", key: (c) => SEVERITIES.length - SEVERITIES.indexOf(c.severity), cell: (c) => sevBadge(c.severity) },
    { label: "Rule", key: (c) => c.rule_id, cell: (c) => c.rule_id, cls: "mono", title: (c) => c.rule },
    { label: "Cause", key: (c) => c.headline, cell: (c) => c.headline, cls: "name" },
    { label: "Where", key: (c) => c.place, cell: (c) => short(c.place), cls: "path", title: (c) => c.place },
    { label: "Instances", num: true, key: (c) => c.instances, cell: (c) => fmt(c.instances) },
    { label: "Kernels", num: true, key: (c) => c.kernel_count, cell: (c) => fmt(c.kernel_count) },
    { label: "Files", num: true, key: (c) => c.files, cell: (c) => fmt(c.files) },
    { label: "Est. cycles", num: true, key: (c) => c.estimated_cycles, cell: (c) => fmt(c.estimated_cycles) },
  ], DATA.causes, { rowClass: "cause", detail: causeDetail, sort: [7, "descending"] });
  t.table.id = "causes";
  APP.append(t.table);
  if (DATA.causes.length === 0) APP.append(el("p", { class: "empty" }, "No findings."));
  return t;
}

function kernelDetail(k) {
  const d = el("div", { class: "detail" });
  d.append(el("p", null, el("span", { class: "mono" }, k.name), " (" + k.stage + ") in ", el("span", { class: "mono" }, DATA.paths[k.file])));
  if (k.by_rule.length) {
    d.append(el("h3", null, "Findings by rule"));
    d.append(listOf(k.by_rule.map(([r, n]) => r + ": " + fmt(n)), k.by_rule.length));
  }
  d.append(el("h3", null, plural(k.arguments.length, "argument")));
  d.append(k.arguments.length ? listOf(k.arguments.map((i) => DATA.arguments[i]), k.arguments.length) : el("p", { class: "empty" }, "none"));
  const fcs = DATA.constants[k.file];
  d.append(el("h3", null, plural(fcs.length, "function constant") + " in its module"));
  if (fcs.length) d.append(listOf(fcs, fcs.length));
  if (k.properties.length) {
    d.append(el("h3", null, "Properties"));
    d.append(listOf(k.properties, k.properties.length));
  }
  return d;
}

function kernels() {
  APP.append(el("h2", { id: "kernels-title" }, "Kernels"));
  const costly = DATA.kernels.filter((k) => k.cycles > 0).sort((a, b) => b.cycles - a.cycles).slice(0, 15);
  if (costly.length) {
    APP.append(el("p", { class: "meta" }, "The costliest kernels: estimated cycles per thread (each flagged instruction once; loop trips not counted)."));
    const file = (k) => DATA.paths[k.file].slice(DATA.paths[k.file].lastIndexOf("/") + 1);
    APP.append(barChart(costly.map((k) => ({ label: k.name, note: file(k), value: k.cycles, title: k.name + " in " + DATA.paths[k.file] })), "cycles"));
  }
  const t = new Table([
    { label: "Kernel", key: (k) => k.name, cell: (k) => k.name, cls: "name mono" },
    { label: "File", key: (k) => DATA.paths[k.file], cell: (k) => short(DATA.paths[k.file]), cls: "path", title: (k) => DATA.paths[k.file] },
    { label: "Stage", key: (k) => k.stage, cell: (k) => k.stage },
    { label: "Est. cycles / thread", num: true, key: (k) => k.cycles, cell: (k) => fmt(k.cycles) },
    { label: "Findings", num: true, key: (k) => k.findings, cell: (k) => fmt(k.findings) },
    { label: "E / W / N", num: true, key: (k) => k.severity[0] * 1e12 + k.severity[1] * 1e6 + k.severity[2], cell: (k) => k.severity.join(" / ") },
    { label: "Arguments", num: true, key: (k) => k.arguments.length, cell: (k) => fmt(k.arguments.length) },
    { label: "Function constants", num: true, key: (k) => DATA.constants[k.file].length, cell: (k) => fmt(DATA.constants[k.file].length) },
  ], DATA.kernels, { rowClass: "kernel", detail: kernelDetail, sort: [3, "descending"] });
  t.table.id = "kernels";
  APP.append(t.table);
  if (DATA.kernels.length === 0) APP.append(el("p", { class: "empty" }, "No kernels."));
  return t;
}

function problems() {
  APP.append(el("h2", { id: "files-title" }, "Files not analysed, or not fully"));
  const lists = [
    [DATA.failed, "could not be read", "failed"],
    [DATA.skipped, "skipped", "skipped"],
    [DATA.diagnosed, "read with reader diagnostics (a line the reader could not read was not analysed)", "diagnosed"],
  ];
  if (lists.every(([list]) => list.length === 0)) {
    APP.append(el("p", { class: "empty" }, "Every file found was read whole."));
  }
  for (const [list, what, id] of lists) {
    if (!list.length) continue;
    APP.append(el("h3", null, plural(list.length, "file") + " " + what));
    const t = new Table([
      { label: "File", key: (f) => f.path, cell: (f) => short(f.path), cls: "path", title: (f) => f.path },
      { label: "Why", key: (f) => f.why, cell: (f) => f.why, cls: "mono" },
    ], list, { rowClass: id });
    t.table.id = id;
    APP.append(t.table);
  }
  if (DATA.suppressed.length) {
    APP.append(el("h2", { id: "suppressed-title" }, "Suppressed findings"));
    const t = new Table([
      { label: "Rule", key: (s) => s.rule, cell: (s) => s.rule },
      { label: "Where", key: (s) => s.place, cell: (s) => short(s.place), cls: "path", title: (s) => s.place },
      { label: "Reason", key: (s) => s.reason, cell: (s) => s.reason },
    ], DATA.suppressed, { rowClass: "suppressed" });
    t.table.id = "suppressed";
    APP.append(t.table);
  }
}

header();
byRule();
const filters = filterBar();
APP.append(filters.bar);
const causeTable = causes();
const kernelTable = kernels();
problems();

function applyFilters() {
  const rule = filters.rule.value, severity = filters.severity.value;
  const kernel = filters.kernel.value.toLowerCase(), file = filters.file.value.toLowerCase();
  const has = (list, s) => list.some((x) => x.toLowerCase().includes(s));
  causeTable.filter((c) => (!rule || c.rule === rule) && (!severity || c.severity === severity) &&
    (!kernel || has(c.kernels, kernel) || c.function.toLowerCase().includes(kernel)) &&
    (!file || has(c.places, file) || c.ir.path.toLowerCase().includes(file)));
  const sev = SEVERITIES.indexOf(severity);
  kernelTable.filter((k) => (!rule || k.by_rule.some(([r]) => r === rule)) && (sev < 0 || k.severity[sev] > 0) &&
    (!kernel || k.name.toLowerCase().includes(kernel)) && (!file || DATA.paths[k.file].toLowerCase().includes(file)));
  filters.shown.textContent = fmt(causeTable.shown.length) + " of " + plural(DATA.causes.length, "cause") + ", " +
    fmt(kernelTable.shown.length) + " of " + plural(DATA.kernels.length, "kernel") + " shown";
}
for (const input of [filters.rule, filters.severity]) input.addEventListener("change", applyFilters);
for (const input of [filters.kernel, filters.file]) input.addEventListener("input", applyFilters);
applyFilters();

// `#open=causes` (or `all`) opens every cause, e.g. for a printed page.
const open = new URLSearchParams(location.hash.slice(1)).get("open");
if (open === "causes" || open === "all") causeTable.openAll();
if (open === "all") kernelTable.openAll();
if (open && /^\d+$/.test(open) && causeTable.shown[Number(open)]) causeTable.toggle(causeTable.shown[Number(open)], true);
document.body.dataset.rendered = "scan";
