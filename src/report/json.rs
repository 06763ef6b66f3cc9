//! The JSON report, for dashboards and other tools. Its shape is described
//! by `docs/report.schema.json` and versioned by `SCHEMA_VERSION`; bump both
//! on any change a dashboard could notice.
//!
//! The output depends only on the scan's input: files in the order the scan
//! found them, findings in file order, and every map keyed and sorted, so two
//! runs on the same input give the same bytes whatever `--jobs` is.

use super::Totals;
use crate::compact_json::{newline_and_indent, to_writer_pretty_at};
use crate::rules::{Finding, RuleSet, Severity};
use crate::scan::FileReport;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// 2: adds `summary`, and documents `fingerprint`, `suppressed` and
/// `baseline_matched`.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

/// Findings counted per rule, per severity and per entry point.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Keyed by rule name; only rules with findings appear.
    pub by_rule: BTreeMap<String, RuleSummary>,
    pub by_severity: SeverityCounts,
    /// Every entry point of every file read, sorted by file path then name.
    pub by_kernel: Vec<KernelSummary>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SeverityCounts {
    pub error: usize,
    pub warning: usize,
    pub note: usize,
}

impl SeverityCounts {
    fn add(&mut self, s: Severity) {
        match s {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Note => self.note += 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSummary {
    pub rule_id: String,
    pub category: String,
    pub count: usize,
    pub by_severity: SeverityCounts,
    /// Findings inside a loop: their cost repeats per trip, which no
    /// estimate here counts.
    pub in_loops: usize,
    /// The rule's `cycles` figure: the cost of one execution of a flagged
    /// instruction. `None` when the rule has none.
    pub cycles_per_execution: Option<u32>,
    /// `count` × `cycles_per_execution`: for ranking rules, not a runtime.
    pub estimated_cycles: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelSummary {
    pub path: String,
    pub name: String,
    pub stage: String,
    /// Findings in the entry point or in a function it calls.
    pub findings: usize,
    pub in_loops: usize,
    pub by_severity: SeverityCounts,
    /// Finding counts keyed by rule name.
    pub by_rule: BTreeMap<String, usize>,
    /// Sum of `cycles_per_execution` over the findings that reach the entry
    /// point: each flagged instruction once per thread, loop trips and
    /// repeated calls not counted, so a lower bound.
    pub estimated_cycles_per_thread: u64,
}

impl KernelSummary {
    fn new(path: &str, name: &str, stage: &str) -> Self {
        KernelSummary {
            path: path.to_string(),
            name: name.to_string(),
            stage: stage.to_string(),
            findings: 0,
            in_loops: 0,
            by_severity: SeverityCounts::default(),
            by_rule: BTreeMap::new(),
            estimated_cycles_per_thread: 0,
        }
    }
}

/// The `cycles` figure of each built-in rule, by rule name.
///
/// `Finding` does not carry its rule's figure and `render` is not given the
/// rule set in force, so figures come from the built-in patterns: a rule
/// loaded with `--patterns` has none here.
pub fn builtin_cycles() -> BTreeMap<String, u32> {
    RuleSet::builtin()
        .rules
        .iter()
        .filter_map(|r| Some((r.pattern.name.clone(), r.pattern.cycles?)))
        .collect()
}

/// The built-in figures, for findings that came without their rule's: they
/// cost parsing every built-in pattern again (a fifth of a small scan's
/// CPU time), so only when some finding lacks one.
fn fallback_cycles(files: &[FileReport]) -> BTreeMap<String, u32> {
    let lacking = files
        .iter()
        .flat_map(|f| &f.findings)
        .any(|f| f.cycles.is_none());
    if lacking {
        builtin_cycles()
    } else {
        BTreeMap::new()
    }
}

/// Counts the findings of `files` per rule, severity and entry point, with
/// cycle figures from `cycles` (rule name to cost per execution).
pub fn summarize(files: &[FileReport], cycles: &BTreeMap<String, u32>) -> Summary {
    let mut summary = Summary::default();
    let mut kernels: BTreeMap<(String, String), KernelSummary> = BTreeMap::new();
    for file in files {
        for entry in file.kernels.iter().chain(&file.shaders) {
            let name = entry.name.as_str();
            let stage = entry.stage;
            kernels
                .entry((file.path.clone(), name.to_string()))
                .or_insert_with(|| KernelSummary::new(&file.path, name, stage));
        }
        for f in &file.findings {
            let figure = f.cycles.or_else(|| cycles.get(&*f.rule).copied());
            let looped = usize::from(f.loop_depth > 0);
            summary.by_severity.add(f.severity);
            let r = summary
                .by_rule
                .entry(f.rule.to_string())
                .or_insert_with(|| RuleSummary {
                    rule_id: f.rule_id.to_string(),
                    category: f.category.to_string(),
                    count: 0,
                    by_severity: SeverityCounts::default(),
                    in_loops: 0,
                    cycles_per_execution: figure,
                    estimated_cycles: figure.map(|_| 0),
                });
            r.count += 1;
            r.in_loops += looped;
            r.by_severity.add(f.severity);
            if let (Some(total), Some(c)) = (&mut r.estimated_cycles, figure) {
                *total += u64::from(c);
            }
            let mut reached: Vec<&String> = f.kernels.iter().collect();
            reached.sort();
            reached.dedup();
            for k in reached {
                let ks = kernels
                    .entry((file.path.clone(), k.clone()))
                    .or_insert_with(|| KernelSummary::new(&file.path, k, "kernel"));
                ks.findings += 1;
                ks.in_loops += looped;
                ks.by_severity.add(f.severity);
                *ks.by_rule.entry(f.rule.to_string()).or_insert(0) += 1;
                ks.estimated_cycles_per_thread += u64::from(figure.unwrap_or(0));
            }
        }
    }
    summary.by_kernel = kernels.into_values().collect();
    summary
}

/// Renders the whole report as pretty-printed JSON, ending in a newline.
pub fn render(files: &[FileReport]) -> String {
    let mut out = Vec::new();
    match write(files, 1, &mut out) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(e) => format!("{{\"error\": \"{e}\"}}\n"),
    }
}

/// Writes the report to `out` as it is serialized: a large report is
/// never held in memory whole. The layout is `serde_json`'s pretty one (a
/// test holds it to that); with `jobs` > 1 the entries of `files` and
/// `findings`, most of the bytes, are laid out by `jobs` threads a chunk at
/// a time, so the report does not make a parallel scan wait on one core.
pub fn write(files: &[FileReport], jobs: usize, out: &mut impl Write) -> io::Result<()> {
    let findings: Vec<&Finding> = files.iter().flat_map(|f| &f.findings).collect();
    let pool = match jobs {
        0 | 1 => None,
        n => rayon::ThreadPoolBuilder::new().num_threads(n).build().ok(),
    };
    let mut out = io::BufWriter::new(out);
    let w = &mut out;
    w.write_all(b"{")?;
    key(w, "schema_version", true)?;
    to_writer_pretty_at(&mut *w, 1, &SCHEMA_VERSION)?;
    key(w, "tool", false)?;
    let tool = Tool {
        name: env!("CARGO_PKG_NAME"),
        version: env!("CARGO_PKG_VERSION"),
    };
    to_writer_pretty_at(&mut *w, 1, &tool)?;
    key(w, "files", false)?;
    array(w, files, pool.as_ref())?;
    key(w, "findings", false)?;
    array(w, &findings, pool.as_ref())?;
    key(w, "summary", false)?;
    to_writer_pretty_at(&mut *w, 1, &summarize(files, &fallback_cycles(files)))?;
    key(w, "totals", false)?;
    to_writer_pretty_at(&mut *w, 1, &Totals::of(files))?;
    w.write_all(b"\n}\n")?;
    out.flush()
}

/// A key of the top-level object, after the comma that ends the entry
/// before it (serde_json's pretty layout, at depth 1).
fn key(w: &mut impl Write, name: &str, first: bool) -> io::Result<()> {
    w.write_all(if first { b"" } else { b"," })?;
    newline_and_indent(w, 1)?;
    write!(w, "\"{name}\": ")
}

/// Entries laid out by the pool at a time: enough to keep every thread
/// busy, few enough that their text stays small next to the report.
const CHUNK: usize = 64;

/// `items` as the pretty array that is a value of the top-level object.
fn array<T: Serialize + Sync>(
    w: &mut impl Write,
    items: &[T],
    pool: Option<&rayon::ThreadPool>,
) -> io::Result<()> {
    if items.is_empty() {
        return w.write_all(b"[]");
    }
    w.write_all(b"[")?;
    let mut first = true;
    let mut separator = |w: &mut dyn Write| -> io::Result<()> {
        w.write_all(if first { b"" } else { b"," })?;
        first = false;
        newline_and_indent(w, 2)
    };
    match pool {
        Some(pool) if items.len() > 1 => {
            for chunk in items.chunks(CHUNK * pool.current_num_threads()) {
                let laid_out: Vec<io::Result<Vec<u8>>> = pool.install(|| {
                    chunk
                        .par_iter()
                        .map(|item| {
                            let mut text = Vec::new();
                            to_writer_pretty_at(&mut text, 2, item).map(|()| text)
                        })
                        .collect()
                });
                for text in laid_out {
                    separator(w)?;
                    w.write_all(&text?)?;
                }
            }
        }
        _ => {
            for item in items {
                separator(w)?;
                to_writer_pretty_at(&mut *w, 2, item)?;
            }
        }
    }
    newline_and_indent(w, 1)?;
    w.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_KERNELS: &str = include_str!("../../testdata/rules/divide_helpers.ll");

    fn helpers() -> FileReport {
        crate::scan::scan_text("h.ll".into(), TWO_KERNELS, &RuleSet::builtin())
    }

    /// The report as serde_json lays it out, for `write` to match.
    #[derive(Serialize)]
    struct Report<'r> {
        schema_version: u32,
        tool: Tool,
        files: &'r [FileReport],
        findings: Vec<&'r Finding>,
        summary: Summary,
        totals: Totals,
    }

    #[test]
    fn written_as_serde_json_lays_it_out_with_one_thread_or_several() {
        // Every fixture, three times over: more entries than one chunk of
        // two threads, with findings, failed files and empty lists.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let rules = RuleSet::builtin();
        let config = crate::scan::ScanConfig::new(&rules);
        let once = crate::scan::scan_paths(&[root], 1, &config);
        let files: Vec<FileReport> = (0..3).flat_map(|_| once.iter().cloned()).collect();
        assert!(files.len() > 2 * CHUNK && files.iter().any(|f| !f.findings.is_empty()));
        // serde_json's layout, compact values included (`to_writer_pretty`
        // is held to serde_json's own in compact_json's tests).
        let report = Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            files: &files,
            findings: files.iter().flat_map(|f| &f.findings).collect(),
            summary: summarize(&files, &fallback_cycles(&files)),
            totals: Totals::of(&files),
        };
        let mut expected = Vec::new();
        crate::compact_json::to_writer_pretty(&mut expected, &report).unwrap();
        let expected = String::from_utf8(expected).unwrap() + "\n";
        for jobs in [1, 2, 3] {
            let mut out = Vec::new();
            write(&files, jobs, &mut out).unwrap();
            assert!(String::from_utf8(out).unwrap() == expected, "--jobs {jobs}");
        }
        let mut out = Vec::new();
        write(&[], 2, &mut out).unwrap();
        let empty: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(empty["files"], serde_json::json!([]));
    }

    #[test]
    fn a_helper_counts_for_each_kernel_that_reaches_it() {
        let s = summarize(&[helpers()], &builtin_cycles());
        let r = &s.by_rule["divide-by-uniform"];
        assert_eq!((r.count, r.by_severity.warning, r.in_loops), (1, 1, 0));
        assert_eq!(r.cycles_per_execution, Some(730));
        assert_eq!(r.estimated_cycles, Some(730));
        assert_eq!(s.by_severity.warning, 1);
        let names: Vec<&str> = s.by_kernel.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["kernel_a", "kernel_b"]);
        for k in &s.by_kernel {
            assert_eq!((k.findings, k.estimated_cycles_per_thread), (1, 730));
            assert_eq!(k.by_rule["divide-by-uniform"], 1);
        }
    }

    #[test]
    fn a_rule_without_a_figure_has_no_estimate() {
        // A rule whose pattern has no `cycles`: findings carry none, and the
        // built-in table has none for it.
        let mut report = helpers();
        for f in &mut report.findings {
            f.cycles = None;
        }
        let s = summarize(&[report], &BTreeMap::new());
        let r = &s.by_rule["divide-by-uniform"];
        assert_eq!((r.cycles_per_execution, r.estimated_cycles), (None, None));
        assert!(
            s.by_kernel
                .iter()
                .all(|k| k.estimated_cycles_per_thread == 0)
        );
    }
}
