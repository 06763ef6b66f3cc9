//! The JSON report, for dashboards and other tools. Its shape is described
//! by `docs/report.schema.json` and versioned by `SCHEMA_VERSION`; bump both
//! on any change a dashboard could notice.
//!
//! The output depends only on the scan's input: files in the order the scan
//! found them, findings in file order, and every map keyed and sorted, so two
//! runs on the same input give the same bytes whatever `--jobs` is.

use super::Totals;
use super::json_writer::{PrettyWriter, newline_and_indent, to_writer_pretty_at};
use super::paths::PathRoot;
use crate::rules::Severity;
use crate::scan::FileReport;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// 3: adds `scan`, `causes` and each finding's `cause`, `ir.instruction`,
/// `source.status` and `evidence.paired_with`; `summary.by_rule`,
/// `by_severity` and each kernel's `by_rule` become lists of objects;
/// `totals` says `reader_errors` and `reader_warnings`, and counts
/// `findings_by_severity`, `causes` and `skipped`.
/// 4: every path relative to `scan.root` (`--sarif-root`, else the current
/// directory), written as SARIF writes it (`paths`).
pub const SCHEMA_VERSION: u32 = 4;

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

/// How the scan was run, for a dashboard that compares reports: no
/// timestamp, so the same scan gives the same bytes.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ScanInfo {
    /// The command-line arguments after the program's name.
    pub arguments: Vec<String>,
    /// The folder the report's paths are relative to (`PathRoot`):
    /// `--sarif-root`, else the current directory. Empty for the current
    /// directory unnamed.
    pub root: String,
}

impl ScanInfo {
    /// This process's arguments, and `root`.
    pub fn of_process(root: &PathRoot) -> ScanInfo {
        ScanInfo {
            arguments: std::env::args().skip(1).collect(),
            root: root.display(),
        }
    }
}

/// Findings counted per rule, per severity and per entry point. Written as
/// lists of objects, so that a table made of them keeps its columns
/// whichever rules fired.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Keyed by rule name; only rules with findings appear. Written as a
    /// list sorted by name.
    #[serde(serialize_with = "values")]
    pub by_rule: BTreeMap<String, RuleSummary>,
    #[serde(serialize_with = "severity_list")]
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

/// A map's values, as a list.
fn values<S: serde::Serializer, V: Serialize>(
    map: &BTreeMap<String, V>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(map.values())
}

/// `[{severity, count}]`, most severe first, every severity listed.
fn severity_list<S: serde::Serializer>(c: &SeverityCounts, s: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Count {
        severity: Severity,
        count: usize,
    }
    s.collect_seq([
        Count {
            severity: Severity::Error,
            count: c.error,
        },
        Count {
            severity: Severity::Warning,
            count: c.warning,
        },
        Count {
            severity: Severity::Note,
            count: c.note,
        },
    ])
}

/// `[{rule, count}]`, sorted by rule.
fn rule_counts<S: serde::Serializer>(
    map: &BTreeMap<String, usize>,
    s: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Count<'r> {
        rule: &'r str,
        count: usize,
    }
    s.collect_seq(map.iter().map(|(rule, &count)| Count { rule, count }))
}

impl SeverityCounts {
    pub fn add(&mut self, s: Severity) {
        match s {
            Severity::Error => self.error += 1,
            Severity::Warning => self.warning += 1,
            Severity::Note => self.note += 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleSummary {
    pub rule: String,
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
    /// Finding counts keyed by rule name, written as `[{rule, count}]`.
    #[serde(serialize_with = "rule_counts")]
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
    crate::rules::builtin_patterns()
        .unwrap_or_default()
        .iter()
        .filter_map(|p| Some((p.name.clone(), p.cycles?)))
        .collect()
}

/// Counts the findings of `files` per rule, severity and entry point, with
/// cycle figures from `cycles` (rule name to cost per execution).
pub fn summarize(files: &[FileReport], cycles: &BTreeMap<String, u32>) -> Summary {
    let mut counter = SummaryCounter::new(Some(cycles.clone()));
    for file in files {
        counter.add(file);
    }
    counter.finish()
}

/// `summarize`, one file at a time.
pub(super) struct SummaryCounter {
    summary: Summary,
    /// By path, then by name, sorted by name when done (a look-up per
    /// finding and kernel it reaches, on files of hundreds of kernels).
    kernels: BTreeMap<String, FxHashMap<String, KernelSummary>>,
    /// Figures for findings that came without their rule's; `None` until
    /// one does, then the built-in ones (`rules::builtin_patterns`, parsed
    /// once a process).
    cycles: Option<BTreeMap<String, u32>>,
}

impl SummaryCounter {
    pub(super) fn new(cycles: Option<BTreeMap<String, u32>>) -> Self {
        SummaryCounter {
            summary: Summary::default(),
            kernels: BTreeMap::new(),
            cycles,
        }
    }

    pub(super) fn add(&mut self, file: &FileReport) {
        let summary = &mut self.summary;
        let kernels = self.kernels.entry(file.path.clone()).or_default();
        for entry in file.kernels.iter().chain(&file.shaders) {
            let name = &*entry.name;
            if !kernels.contains_key(name) {
                let ks = KernelSummary::new(&file.path, name, entry.stage);
                kernels.insert(name.to_string(), ks);
            }
        }
        for f in &file.findings {
            let figure = f.cycles.or_else(|| {
                let fallback = self.cycles.get_or_insert_with(builtin_cycles);
                fallback.get(&*f.rule).copied()
            });
            let looped = usize::from(f.loop_depth > 0);
            summary.by_severity.add(f.severity);
            if !summary.by_rule.contains_key(&*f.rule) {
                summary.by_rule.insert(
                    f.rule.to_string(),
                    RuleSummary {
                        rule: f.rule.to_string(),
                        rule_id: f.rule_id.to_string(),
                        category: f.category.to_string(),
                        count: 0,
                        by_severity: SeverityCounts::default(),
                        in_loops: 0,
                        cycles_per_execution: figure,
                        estimated_cycles: figure.map(|_| 0),
                    },
                );
            }
            let Some(r) = summary.by_rule.get_mut(&*f.rule) else {
                continue;
            };
            r.count += 1;
            r.in_loops += looped;
            r.by_severity.add(f.severity);
            if let (Some(total), Some(c)) = (&mut r.estimated_cycles, figure) {
                *total += u64::from(c);
            }
            // Each entry point once (most findings name one: no list made).
            let (one, mut sorted): ([&String; 1], Vec<&String>);
            let reached: &[&String] = match &f.kernels[..] {
                [k] => {
                    one = [k];
                    &one
                }
                many => {
                    sorted = many.iter().collect();
                    sorted.sort();
                    sorted.dedup();
                    &sorted
                }
            };
            for &k in reached {
                let ks = match kernels.get_mut(k.as_str()) {
                    Some(ks) => ks,
                    None => kernels
                        .entry(k.clone())
                        .or_insert_with(|| KernelSummary::new(&file.path, k, "kernel")),
                };
                ks.findings += 1;
                ks.in_loops += looped;
                ks.by_severity.add(f.severity);
                if let Some(n) = ks.by_rule.get_mut(&*f.rule) {
                    *n += 1;
                } else {
                    ks.by_rule.insert(f.rule.to_string(), 1);
                }
                ks.estimated_cycles_per_thread += u64::from(figure.unwrap_or(0));
            }
        }
    }

    pub(super) fn finish(mut self) -> Summary {
        self.summary.by_kernel = self
            .kernels
            .into_values()
            .flat_map(|by_name| {
                let mut kernels: Vec<KernelSummary> = by_name.into_values().collect();
                kernels.sort_unstable_by(|a, b| a.name.cmp(&b.name));
                kernels
            })
            .collect();
        self.summary
    }
}

/// Writes the whole report for `files` to `out`.
pub fn write(files: &[FileReport], out: &mut impl Write) -> io::Result<()> {
    let mut stream = JsonStream::new(out, &ScanInfo::default())?;
    for file in files {
        stream.add(file)?;
    }
    stream.finish().map(|_| ())
}

/// The report written as a scan goes: each file's entry as soon as it is
/// given, its findings' entries set aside (in a temporary file once they
/// pass `SPILL_AT` bytes) until the files are all written, the summary
/// counted along the way. Memory holds no report after `add` returns. The
/// layout is serde_json's pretty one, which a test holds it to.
pub struct JsonStream<W: Write> {
    out: io::BufWriter<W>,
    files: usize,
    findings: Spill,
    /// `SPILL_AT`, but for tests.
    spill_at: usize,
    findings_written: usize,
    summary: SummaryCounter,
    totals: Totals,
    /// Lays out each finding, its buffer kept between them.
    pretty: PrettyWriter,
    /// Lays out each file, the texts of the arguments it holds kept
    /// between them.
    files_pretty: PrettyWriter,
    causes: super::causes::Causes,
}

/// The buffer of the report's writer and of the findings' temporary file:
/// with the default 8 KB, a 40 MB report took 6,116 write calls (361 now),
/// for copying into the buffer the pieces over 8 KB it wrote directly.
const WRITE_BUFFER: usize = 256 << 10;

/// Findings' text kept in memory up to this size, then in a temporary file:
/// findings' entries are a quarter of a report, so at 4 MB they were the
/// largest part of a library scan's memory (1.1 MB for mlx.metallib's 3.2 MB);
/// a small report still makes no file.
const SPILL_AT: usize = 256 << 10;

/// Room past `SPILL_AT` for the finding that crosses it.
const FINDING_ROOM: usize = 64 << 10;

enum Spill {
    Memory(Vec<u8>),
    File(io::BufWriter<std::fs::File>),
}

impl Spill {
    fn writer(&mut self, spill_at: usize) -> &mut dyn Write {
        // Room for what is kept in memory, made at the first finding: grown
        // by doubling, the text was copied again at each step (~1.3 M
        // instructions for 1.5 MB of findings). Pages are only touched as
        // they are written.
        if let Spill::Memory(text) = self
            && text.capacity() == 0
        {
            text.reserve(spill_at.saturating_add(FINDING_ROOM));
        }
        if let Spill::Memory(text) = self
            && text.len() > spill_at
            && let Ok(mut file) = tempfile::tempfile()
            && file.write_all(text).is_ok()
        {
            *self = Spill::File(io::BufWriter::with_capacity(WRITE_BUFFER, file));
        }
        match self {
            Spill::Memory(text) => text,
            Spill::File(file) => file,
        }
    }

    fn copy_to(self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Spill::Memory(text) => out.write_all(&text),
            Spill::File(file) => {
                use std::io::Seek;
                let mut file = file.into_inner().map_err(|e| e.into_error())?;
                file.rewind()?;
                io::copy(&mut file, out).map(|_| ())
            }
        }
    }
}

impl<W: Write> JsonStream<W> {
    /// Writes everything before the first file's entry.
    pub fn new(out: W, scan: &ScanInfo) -> io::Result<Self> {
        let mut out = io::BufWriter::with_capacity(WRITE_BUFFER, out);
        out.write_all(b"{")?;
        key(&mut out, "schema_version", true)?;
        to_writer_pretty_at(&mut out, 1, &SCHEMA_VERSION)?;
        key(&mut out, "tool", false)?;
        let tool = Tool {
            name: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
        };
        to_writer_pretty_at(&mut out, 1, &tool)?;
        key(&mut out, "scan", false)?;
        to_writer_pretty_at(&mut out, 1, scan)?;
        key(&mut out, "files", false)?;
        out.write_all(b"[")?;
        Ok(JsonStream {
            out,
            files: 0,
            findings: Spill::Memory(Vec::new()),
            spill_at: SPILL_AT,
            findings_written: 0,
            summary: SummaryCounter::new(None),
            totals: Totals::default(),
            pretty: PrettyWriter::default(),
            files_pretty: PrettyWriter::default(),
            causes: Default::default(),
        })
    }

    /// Writes one file's entry and sets its findings' aside.
    pub fn add(&mut self, file: &FileReport) -> io::Result<()> {
        element(&mut self.out, self.files)?;
        self.files += 1;
        for entry in file.kernels.iter().chain(&file.shaders) {
            // Only an argument the scan keeps across modules can be in a
            // later report: holding the others only cost (typed-12MB, one
            // module: 1.2 M instructions).
            for argument in entry.arguments.iter().filter(|a| a.kept_across_modules()) {
                self.files_pretty.hold(&argument.0);
            }
        }
        self.files_pretty.write_holding(&mut self.out, 2, file)?;
        for f in &file.findings {
            // Asked for each finding, so that a file's many findings spill.
            let findings = self.findings.writer(self.spill_at);
            element(findings, self.findings_written)?;
            self.findings_written += 1;
            self.pretty.write(findings, 2, f)?;
            self.causes.add(&file.path, f);
        }
        self.summary.add(file);
        self.totals.add(file);
        Ok(())
    }

    /// Writes the findings, the summary and the totals, and returns these.
    pub fn finish(mut self) -> io::Result<Totals> {
        let out = &mut self.out;
        end_array(out, self.files)?;
        key(out, "findings", false)?;
        out.write_all(b"[")?;
        self.findings.copy_to(out)?;
        end_array(out, self.findings_written)?;
        key(out, "causes", false)?;
        self.pretty.write(&mut *out, 1, self.causes.list())?;
        self.totals.causes = self.causes.len();
        key(out, "summary", false)?;
        let summary = self.summary.finish();
        self.pretty.write(&mut *out, 1, &summary)?;
        key(out, "totals", false)?;
        to_writer_pretty_at(&mut *out, 1, &self.totals)?;
        out.write_all(b"\n}\n")?;
        out.flush()?;
        Ok(self.totals)
    }
}

impl<W: std::io::Write> super::ReportStream for JsonStream<W> {
    fn add(&mut self, file: &FileReport) -> std::io::Result<()> {
        JsonStream::add(self, file)
    }

    fn finish(self: Box<Self>) -> std::io::Result<Totals> {
        JsonStream::finish(*self)
    }
}

/// A key of the top-level object, after the comma that ends the entry
/// before it (serde_json's pretty layout, at depth 1).
fn key(w: &mut impl Write, name: &str, first: bool) -> io::Result<()> {
    w.write_all(if first { b"" } else { b"," })?;
    newline_and_indent(w, 1)?;
    write!(w, "\"{name}\": ")
}

/// What goes before the entry numbered `index` of a top-level array.
fn element(w: &mut (impl Write + ?Sized), index: usize) -> io::Result<()> {
    w.write_all(if index == 0 { b"" } else { b"," })?;
    newline_and_indent(w, 2)
}

/// Closes a top-level array of `len` entries whose `[` is written.
fn end_array(w: &mut impl Write, len: usize) -> io::Result<()> {
    if len > 0 {
        newline_and_indent(w, 1)?;
    }
    w.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    const TWO_KERNELS: &str = include_str!("../../testdata/rules/divide_helpers.ll");

    fn helpers() -> FileReport {
        crate::scan::scan_text("h.ll".into(), TWO_KERNELS, &RuleSet::builtin())
    }

    use crate::rules::Finding;

    /// The report as serde_json lays it out, for `write` to match.
    #[derive(Serialize)]
    struct Report<'r> {
        schema_version: u32,
        tool: Tool,
        scan: ScanInfo,
        files: &'r [FileReport],
        findings: Vec<&'r Finding>,
        causes: &'r [crate::report::causes::Cause],
        summary: Summary,
        totals: Totals,
    }

    #[test]
    fn written_as_serde_json_lays_it_out_findings_in_memory_or_set_aside() {
        // Every fixture, three times over: findings, failed files and
        // empty lists.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata");
        let rules = RuleSet::builtin();
        let config = crate::scan::ScanConfig::new(&rules);
        let once = crate::scan::scan_paths(&[root], 1, &config);
        // Paths as the stream writes them, relative to the current directory.
        let here = PathRoot::new(None);
        use crate::report::paths::rebase;
        let files: Vec<FileReport> = (0..3)
            .flat_map(|_| {
                once.iter().map(|f| {
                    let mut f = f.clone();
                    rebase(&here, &mut Default::default(), &mut f);
                    f
                })
            })
            .collect();
        assert!(files.iter().all(|f| f.path.starts_with("testdata/")));
        assert!(files.iter().map(|f| f.findings.len()).sum::<usize>() > 100);
        // serde_json's own layout of the same report.
        let mut causes = crate::report::causes::Causes::default();
        for file in &files {
            for f in &file.findings {
                causes.add(&file.path, f);
            }
        }
        let mut totals = Totals::of(&files);
        totals.causes = causes.len();
        let report = Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: env!("CARGO_PKG_NAME"),
                version: env!("CARGO_PKG_VERSION"),
            },
            scan: ScanInfo::default(),
            files: &files,
            findings: files.iter().flat_map(|f| &f.findings).collect(),
            causes: causes.list(),
            summary: summarize(&files, &builtin_cycles()),
            totals,
        };
        let expected = serde_json::to_string_pretty(&report).unwrap() + "\n";
        let mut out = Vec::new();
        write(&files, &mut out).unwrap();
        assert!(String::from_utf8(out).unwrap() == expected);
        // Findings set aside in a temporary file after the first few.
        let mut out = Vec::new();
        let mut stream = JsonStream::new(&mut out, &ScanInfo::default()).unwrap();
        stream.spill_at = 3000;
        for file in &files {
            stream.add(file).unwrap();
        }
        assert!(matches!(stream.findings, Spill::File(_)));
        stream.finish().unwrap();
        assert!(String::from_utf8(out).unwrap() == expected);
        let mut out = Vec::new();
        write(&[], &mut out).unwrap();
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
