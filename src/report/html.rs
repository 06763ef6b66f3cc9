//! The HTML report: one self-contained page (CSS, script and charts
//! inline, nothing fetched) to open from a CI artifact.
//!
//! The page holds its data as one JSON document in a
//! `<script type="application/json">` and a small script (`html/scan.js`,
//! with the table helpers of `html/common.js`) builds the tables from it
//! with `textContent`, so no text of the scan is ever parsed as HTML. The
//! only escaping done here is of `<`, `>` and `&` inside the JSON (written
//! as `\u003c`, ...), so that a `</script>` in a kernel name cannot close
//! the data's tag. `air-scan diff --format html` uses the same page
//! (`page`) with its own script (`html/diff.js`).
//!
//! The data is compact, not the JSON report: a kernel names its file by
//! index, and each distinct argument text is written once (a library's
//! template instantiations repeat them), which keeps the page for the
//! whole corpus at 1.3 MB (20 MB of JSON report).
//!
//! Written by hand, no crate: the Rust side is a fixed shell around one
//! JSON document, with three characters to escape, which a templating crate
//! (askama, maud) would not make shorter; the scripts are ~600 lines of plain
//! JavaScript because a table or chart library inlined in every page would
//! outweigh the tables (and nothing may be fetched).

use super::Totals;
use super::causes::{Cause, Causes};
use super::json::{KernelSummary, RuleSummary, ScanInfo, SeverityCounts, SummaryCounter};
use crate::ir::air::{ArgumentKind, OwnedArgument, OwnedFunctionConstant};
use crate::scan::{FileReport, Status};
use crate::source::SourceStatus;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::io::{self, Write};

const CSS: &str = include_str!("html/page.css");
const COMMON_JS: &str = include_str!("html/common.js");
const SCAN_JS: &str = include_str!("html/scan.js");
const DIFF_JS: &str = include_str!("html/diff.js");

/// Lines shown above and below a cause's MSL (or IR) line.
const CONTEXT_LINES: u32 = 2;
/// At most this many instance places and kernels per cause are written;
/// the page says how many there are in all.
const MAX_LISTED: usize = 500;

/// `text` escaped for HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `data` as JSON that may stand inside a `<script>` element: `<`, `>` and
/// `&` occur only inside JSON strings, where `\u003c` means the same.
fn script_json(data: &impl Serialize) -> io::Result<String> {
    let json = serde_json::to_string(data)?;
    let mut out = String::with_capacity(json.len() + json.len() / 64);
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            // Line and paragraph separators: valid in JSON, not in older
            // JavaScript string literals; written escaped to be safe.
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    Ok(out)
}

/// Which view a page's script draws.
#[derive(Clone, Copy)]
pub enum View {
    Scan,
    Diff,
}

/// A whole page: `title`, the styles, `data` as JSON and the script of
/// `view`, which draws the page from the data.
pub fn page(title: &str, view: View, data: &impl Serialize) -> io::Result<String> {
    let script = match view {
        View::Scan => SCAN_JS,
        View::Diff => DIFF_JS,
    };
    let data = script_json(data)?;
    let mut out = String::with_capacity(data.len() + CSS.len() + (64 << 10));
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    // Nothing may be fetched: scripts and styles are inline, images data.
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
         style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n",
    );
    out.push_str("<title>");
    out.push_str(&escape(title));
    out.push_str("</title>\n<style>\n");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n<body>\n<main id=\"app\"><noscript>This report is drawn by JavaScript; the data is in the page's <code>report-data</code> element.</noscript></main>\n");
    out.push_str("<script type=\"application/json\" id=\"report-data\">");
    out.push_str(&data);
    out.push_str("</script>\n<script>\n");
    out.push_str(COMMON_JS);
    out.push_str(script);
    out.push_str("</script>\n</body>\n</html>\n");
    Ok(out)
}

/// The scan's page, written when the scan is done (the causes gather
/// instances from every file); each file's report is let go once counted.
pub struct HtmlStream<W: Write> {
    out: W,
    scan: ScanInfo,
    causes: Causes,
    summary: SummaryCounter,
    totals: Totals,
    /// File paths that kernels name by index.
    paths: Vec<String>,
    /// Each file's function constants, as text, by the index of its path.
    constants: Vec<Vec<String>>,
    arguments: Interned,
    /// What each entry point reads, by (path index, name).
    reads: FxHashMap<(usize, Box<str>), Reads>,
    failed: Vec<FileProblem>,
    skipped: Vec<FileProblem>,
    /// Files read with reader diagnostics: the first of each, and counts.
    diagnosed: Vec<FileProblem>,
    suppressed: Vec<SuppressedView>,
}

#[derive(Serialize)]
struct SuppressedView {
    rule: String,
    place: String,
    reason: String,
}

struct Reads {
    arguments: Vec<usize>,
    properties: Vec<String>,
}

/// Distinct texts, each written once and named by index.
#[derive(Default)]
struct Interned {
    at: FxHashMap<String, usize>,
    list: Vec<String>,
}

impl Interned {
    fn index(&mut self, text: String) -> usize {
        if let Some(&i) = self.at.get(&text) {
            return i;
        }
        self.list.push(text.clone());
        self.at.insert(text, self.list.len() - 1);
        self.list.len() - 1
    }
}

#[derive(Serialize)]
struct FileProblem {
    path: String,
    why: String,
}

impl<W: Write> HtmlStream<W> {
    pub fn new(out: W, scan: &ScanInfo) -> Self {
        HtmlStream {
            out,
            scan: scan.clone(),
            causes: Causes::default(),
            summary: SummaryCounter::new(None),
            totals: Totals::default(),
            paths: Vec::new(),
            constants: Vec::new(),
            arguments: Interned::default(),
            reads: FxHashMap::default(),
            failed: Vec::new(),
            skipped: Vec::new(),
            diagnosed: Vec::new(),
            suppressed: Vec::new(),
        }
    }

    pub fn add(&mut self, file: &FileReport) -> io::Result<()> {
        match file.status {
            Status::Error => self.failed.push(FileProblem {
                path: file.path.clone(),
                why: file.error.clone().unwrap_or_else(|| "unreadable".into()),
            }),
            Status::Skipped => self.skipped.push(FileProblem {
                path: file.path.clone(),
                why: file.reason.clone().unwrap_or_default(),
            }),
            Status::Ok => {}
        }
        if let Some(first) = file.diagnostics.first() {
            let errors = file.error_count();
            let warnings = file.diagnostics.len() - errors;
            self.diagnosed.push(FileProblem {
                path: file.path.clone(),
                why: format!(
                    "{errors} error{}, {warnings} warning{}; first, line {}: {}",
                    if errors == 1 { "" } else { "s" },
                    if warnings == 1 { "" } else { "s" },
                    first.line,
                    first.message
                ),
            });
        }
        self.suppressed
            .extend(file.suppressed.iter().map(|s| SuppressedView {
                rule: s.rule.clone(),
                place: format!("{}:{}", s.path, s.line),
                reason: s.reason.clone(),
            }));
        for f in &file.findings {
            self.causes.add(&file.path, f);
        }
        self.summary.add(file);
        self.totals.add(file);
        let entries = file.kernels.iter().chain(&file.shaders);
        if entries.clone().next().is_some() || !file.findings.is_empty() {
            let at = self.paths.len();
            self.paths.push(file.path.clone());
            self.constants.push(
                file.module
                    .iter()
                    .flat_map(|m| &m.function_constants)
                    .map(constant_text)
                    .collect(),
            );
            for e in entries {
                let reads = Reads {
                    arguments: e
                        .arguments
                        .iter()
                        .map(|a| self.arguments.index(argument_text(a)))
                        .collect(),
                    properties: e
                        .properties
                        .iter()
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect(),
                };
                self.reads.insert((at, e.name.clone()), reads);
            }
        }
        Ok(())
    }

    /// Writes the page; returns the totals.
    pub fn finish(mut self) -> io::Result<Totals> {
        self.totals.causes = self.causes.len();
        let summary = self.summary.finish();
        let at: FxHashMap<&str, usize> = self
            .paths
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i))
            .collect();
        let kernels: Vec<KernelView> = summary
            .by_kernel
            .iter()
            .filter_map(|k| {
                let file = *at.get(k.path.as_str())?;
                let reads = self.reads.get(&(file, k.name.as_str().into()));
                Some(KernelView::of(k, file, reads))
            })
            .collect();
        let mut sources = super::snippets::Files::default();
        let causes: Vec<CauseView> = self
            .causes
            .list()
            .iter()
            .map(|c| CauseView::of(c, &mut sources))
            .collect();
        let estimated_cycles = summary
            .by_rule
            .values()
            .filter_map(|r| r.estimated_cycles)
            .sum();
        let data = ScanPage {
            tool: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
            scan: &self.scan,
            totals: &self.totals,
            estimated_cycles,
            by_severity: &summary.by_severity,
            by_rule: summary.by_rule.values().collect(),
            causes,
            kernels,
            paths: &self.paths,
            constants: &self.constants,
            arguments: &self.arguments.list,
            failed: &self.failed,
            skipped: &self.skipped,
            diagnosed: &self.diagnosed,
            suppressed: &self.suppressed,
        };
        let text = page("air-scan report", View::Scan, &data)?;
        self.out.write_all(text.as_bytes())?;
        self.out.flush()?;
        Ok(self.totals)
    }
}

impl<W: Write> super::ReportStream for HtmlStream<W> {
    fn add(&mut self, file: &FileReport) -> io::Result<()> {
        HtmlStream::add(self, file)
    }

    fn finish(self: Box<Self>) -> io::Result<Totals> {
        HtmlStream::finish(*self)
    }
}

/// Renders the page for `files` (tests, and callers holding every report).
pub fn render(files: &[FileReport], scan: &ScanInfo) -> io::Result<String> {
    let mut out = Vec::new();
    let mut stream = HtmlStream::new(&mut out, scan);
    for f in files {
        stream.add(f)?;
    }
    stream.finish()?;
    String::from_utf8(out).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[derive(Serialize)]
struct ScanPage<'a> {
    tool: &'static str,
    version: &'static str,
    scan: &'a ScanInfo,
    totals: &'a Totals,
    /// The sum of the rules' estimates: for ranking, not a runtime.
    estimated_cycles: u64,
    by_severity: &'a SeverityCounts,
    by_rule: Vec<&'a RuleSummary>,
    causes: Vec<CauseView>,
    kernels: Vec<KernelView>,
    paths: &'a [String],
    constants: &'a [Vec<String>],
    arguments: &'a [String],
    failed: &'a [FileProblem],
    skipped: &'a [FileProblem],
    diagnosed: &'a [FileProblem],
    suppressed: &'a [SuppressedView],
}

#[derive(Serialize)]
struct KernelView {
    file: usize,
    name: String,
    stage: String,
    cycles: u64,
    findings: usize,
    in_loops: usize,
    /// Error, warning and note counts.
    severity: [usize; 3],
    by_rule: Vec<(String, usize)>,
    /// Indexes into the page's `arguments`.
    arguments: Vec<usize>,
    properties: Vec<String>,
}

impl KernelView {
    fn of(k: &KernelSummary, file: usize, reads: Option<&Reads>) -> KernelView {
        KernelView {
            file,
            name: k.name.clone(),
            stage: k.stage.clone(),
            cycles: k.estimated_cycles_per_thread,
            findings: k.findings,
            in_loops: k.in_loops,
            severity: [
                k.by_severity.error,
                k.by_severity.warning,
                k.by_severity.note,
            ],
            by_rule: k.by_rule.iter().map(|(r, n)| (r.clone(), *n)).collect(),
            arguments: reads.map(|r| r.arguments.clone()).unwrap_or_default(),
            properties: reads.map(|r| r.properties.clone()).unwrap_or_default(),
        }
    }
}

#[derive(Serialize)]
struct CauseView {
    id: String,
    rule: String,
    rule_id: String,
    severity: crate::rules::Severity,
    message: String,
    headline: String,
    help: String,
    function: String,
    /// Where the cause is, in a word (its MSL place, else its IR place).
    place: String,
    /// Lines around the shown instance's MSL line, or its IR line when the
    /// MSL is not on disk; absent when neither can be read.
    snippet: Option<Snippet>,
    /// What became of the MSL location, when it is not shown: stale or
    /// not found.
    source_note: Option<String>,
    ir: IrView,
    inlined_at: Vec<String>,
    loop_depth: u32,
    levels: Vec<String>,
    instances: usize,
    files: usize,
    kernels: Vec<String>,
    kernel_count: usize,
    places: Vec<String>,
    place_count: usize,
    cycles_per_execution: Option<u32>,
    estimated_cycles: Option<u64>,
}

#[derive(Serialize)]
struct IrView {
    path: String,
    line: u32,
    instruction: String,
}

#[derive(Serialize)]
struct Snippet {
    /// `msl` or `ir`.
    language: &'static str,
    path: String,
    first_line: u32,
    /// The line the cause is on.
    line: u32,
    column: u32,
    approximate: bool,
    lines: Vec<String>,
}

impl Snippet {
    fn read(
        language: &'static str,
        path: &str,
        line: u32,
        column: u32,
        files: &mut super::snippets::Files,
    ) -> Option<Snippet> {
        files.line(path, line)?;
        let first_line = line.saturating_sub(CONTEXT_LINES).max(1);
        let lines = (first_line..=line + CONTEXT_LINES)
            .map_while(|n| files.line(path, n))
            .collect();
        Some(Snippet {
            language,
            path: path.to_string(),
            first_line,
            line,
            column,
            approximate: false,
            lines,
        })
    }
}

impl CauseView {
    fn of(c: &Cause, files: &mut super::snippets::Files) -> CauseView {
        let f = &c.shown;
        let mut source_note = None;
        let snippet = match &f.source {
            Some(s) if matches!(s.status, SourceStatus::Exact | SourceStatus::Approximate) => {
                Snippet::read("msl", &s.path, s.line, s.column, files).map(|mut sn| {
                    sn.approximate = s.approximate;
                    sn
                })
            }
            Some(s) => {
                source_note = Some(match s.status {
                    SourceStatus::Stale => format!(
                        "{}:{}:{} does not hold this operation: the source changed since the IR was compiled",
                        s.path, s.line, s.column
                    ),
                    _ => format!(
                        "source {}:{}:{} not found (see --source-root)",
                        s.path, s.line, s.column
                    ),
                });
                None
            }
            None => None,
        };
        let snippet = snippet.or_else(|| {
            f.ir.on_disk
                .then(|| Snippet::read("ir", &f.ir.path, f.ir.line, 0, files))
                .flatten()
        });
        let place = |p: &super::causes::Place| match (p.line, p.column) {
            (0, _) => p.path.clone(),
            (l, 0) => format!("{}:{l}", p.path),
            (l, c) => format!("{}:{l}:{c}", p.path),
        };
        CauseView {
            id: c.id.clone(),
            rule: c.rule.clone(),
            rule_id: c.rule_id.clone(),
            severity: c.severity,
            headline: super::snippets::headline(&c.message).to_string(),
            message: c.message.clone(),
            help: c.help.clone(),
            function: c.location.function.clone(),
            place: super::snippets::place_text(c),
            snippet,
            source_note,
            ir: IrView {
                path: f.ir.path.to_string(),
                line: if f.ir.on_disk { f.ir.line } else { 0 },
                instruction: f.ir.instruction.clone(),
            },
            inlined_at: f
                .inlined_at
                .iter()
                .map(|s| match &s.function {
                    Some(n) => format!("{}:{}:{} in {n}", s.path, s.line, s.column),
                    None => format!("{}:{}:{}", s.path, s.line, s.column),
                })
                .collect(),
            loop_depth: f.loop_depth,
            levels: f.levels.clone(),
            instances: c.instances,
            files: c.files,
            kernels: c.kernels.iter().take(MAX_LISTED).cloned().collect(),
            kernel_count: c.kernels.len(),
            places: c.places.iter().take(MAX_LISTED).map(place).collect(),
            place_count: c.places.len(),
            cycles_per_execution: c.cycles_per_execution,
            estimated_cycles: c.estimated_cycles,
        }
    }
}

/// An argument in a line: `name: type (buffer(0), device, read)`.
fn argument_text(a: &OwnedArgument) -> String {
    let name = a
        .name
        .as_deref()
        .map_or_else(|| format!("arg{}", a.index), str::to_string);
    let mut what: Vec<String> = Vec::new();
    let located = |kind: &str| match a.location_index {
        Some(i) => format!("{kind}({i})"),
        None => kind.to_string(),
    };
    what.push(match a.kind {
        ArgumentKind::Buffer => located("buffer"),
        ArgumentKind::Texture => located("texture"),
        ArgumentKind::Sampler => located("sampler"),
        ArgumentKind::Builtin => a.builtin.as_deref().unwrap_or(&a.air_kind).to_string(),
        ArgumentKind::StageIn => "stage_in".into(),
        ArgumentKind::Output => "output".into(),
        ArgumentKind::VisibleFunctionTable => "visible function table".into(),
        ArgumentKind::Other => a.air_kind.to_string(),
    });
    if let Some(space) = a.address_space {
        what.push(
            match space {
                1 => "device",
                2 => "constant",
                3 => "threadgroup",
                _ => "",
            }
            .to_string(),
        );
        if what.last().is_some_and(String::is_empty) {
            what.pop();
            what.push(format!("address space {space}"));
        }
    }
    if let Some(access) = &a.access {
        what.push(access.to_string());
    }
    if let Some(fc) = &a.function_constant {
        what.push(format!("if {fc}"));
    }
    if a.unused {
        what.push("unused".into());
    }
    let mut text = name;
    if let Some(t) = &a.type_name {
        text.push_str(": ");
        text.push_str(t);
    }
    text.push_str(" (");
    text.push_str(&what.join(", "));
    text.push(')');
    if !a.struct_fields.is_empty() {
        let fields: Vec<String> = a
            .struct_fields
            .iter()
            .map(|f| format!("{} {}", f.type_name, f.name))
            .collect();
        text.push_str(" { ");
        text.push_str(&fields.join("; "));
        text.push_str(" }");
    }
    text
}

/// A function constant in a line: `name: type [[function_constant(i)]]`.
fn constant_text(c: &OwnedFunctionConstant) -> String {
    let mut text = c.name.as_deref().unwrap_or(&c.global).to_string();
    if let Some(t) = &c.type_name {
        text.push_str(": ");
        text.push_str(t);
    }
    if let Some(i) = c.index {
        text.push_str(&format!(" [[function_constant({i})]]"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_close_its_tag_and_parses_back() {
        let data = serde_json::json!({"k": "</script><script>alert(1)</script> & \u{2028}"});
        let text = script_json(&data).unwrap();
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn escape_covers_text_and_attributes() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn arguments_read_as_a_declaration_would() {
        let text = include_str!("../../testdata/minimal_kernel.ll");
        let rules = crate::rules::RuleSet::builtin();
        let report = crate::scan::scan_text("m.ll".into(), text, &rules);
        let texts: Vec<String> = report.kernels[0]
            .arguments
            .iter()
            .map(|a| argument_text(a))
            .collect();
        assert_eq!(
            texts,
            [
                "data: float (buffer(0), device, read_write)",
                "divisor: uint (buffer(1), constant, read)",
                "gid: uint (thread_position_in_grid)",
            ]
        );
    }

    #[test]
    fn a_page_is_one_document_with_its_data_inline() {
        let text = page("t <x>", View::Scan, &serde_json::json!({"a": "</script>"})).unwrap();
        assert!(text.contains("<title>t &lt;x&gt;</title>"));
        assert_eq!(text.matches("</script>").count(), 2);
        // Nothing to fetch: no linked style sheet, script or image.
        assert!(!text.contains("<link") && !text.contains(" src="));
    }
}
