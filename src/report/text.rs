//! The text report, findings first: each cause once (`report::causes`),
//! in the order the scan met it, with its MSL line and how many instances
//! and kernels it has; files that could not be read and reader
//! diagnostics as they come; then a closing summary. `--inventory` adds
//! each file's kernels and arguments; `--quiet` keeps only the summary.

use super::Totals;
use super::causes::{Cause, Causes};
use crate::ir::air::OwnedEntryPoint;
use crate::scan::{FileReport, Status};
use std::fmt::Write;

/// What the text report shows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// ANSI styles.
    pub color: bool,
    /// List the findings suppressions silenced.
    pub show_suppressed: bool,
    /// Each file's kernels, arguments and function constants.
    pub inventory: bool,
    /// Only the closing summary.
    pub quiet: bool,
}

/// Renders the text report.
pub fn render(files: &[FileReport], options: Options) -> String {
    let mut out = Vec::new();
    let mut stream = TextStream::new(&mut out, options);
    for f in files {
        // Writing to memory cannot fail.
        let _ = stream.add(f);
    }
    let _ = stream.finish();
    String::from_utf8(out).unwrap_or_default()
}

/// The text report written as a scan goes: each file's errors (and, with
/// `--inventory`, its kernels) as soon as it is given; the causes, which
/// gather instances from every file, and the summary at the end.
pub struct TextStream<W: std::io::Write> {
    out: W,
    options: Options,
    renderer: annotate_snippets::Renderer,
    causes: Causes,
    suppressed: Vec<String>,
    /// Files that could not be read, with why.
    failed: Vec<(String, String)>,
    totals: Totals,
}

/// Causes named in the summary's list of the costliest.
const TOP_CAUSES: usize = 10;

impl<W: std::io::Write> TextStream<W> {
    pub fn new(out: W, options: Options) -> Self {
        let renderer = if options.color {
            annotate_snippets::Renderer::styled()
        } else {
            annotate_snippets::Renderer::plain()
        };
        TextStream {
            out,
            options,
            renderer,
            causes: Causes::default(),
            suppressed: Vec::new(),
            failed: Vec::new(),
            totals: Totals::default(),
        }
    }

    pub fn add(&mut self, f: &FileReport) -> std::io::Result<()> {
        let mut text = String::new();
        if !self.options.quiet {
            file(&mut text, f, self.options.inventory);
        }
        if f.status == Status::Error {
            let why = f.error.as_deref().unwrap_or("unreadable");
            let first_line = why.lines().next().unwrap_or(why);
            self.failed.push((f.path.clone(), first_line.to_string()));
        }
        for finding in &f.findings {
            self.causes.add(&f.path, finding);
        }
        if self.options.show_suppressed {
            self.suppressed.extend(f.suppressed.iter().map(|s| {
                format!(
                    "suppressed[{}]: {}:{} ({})\n",
                    s.rule, s.path, s.line, s.reason
                )
            }));
        }
        self.totals.add(f);
        self.out.write_all(text.as_bytes())
    }

    /// Writes the causes, the suppressed findings and the summary; returns
    /// the totals.
    pub fn finish(mut self) -> std::io::Result<Totals> {
        self.totals.causes = self.causes.len();
        let mut out = String::new();
        if !self.options.quiet {
            let mut sources = super::snippets::Files::default();
            for c in self.causes.list() {
                super::snippets::render(&mut out, c, &mut sources, &self.renderer);
            }
            out.push_str(&self.suppressed.concat());
        }
        summary(&mut out, &self.causes, &self.failed, &self.totals);
        self.out.write_all(out.as_bytes())?;
        self.out.flush()?;
        Ok(self.totals)
    }
}

impl<W: std::io::Write> super::ReportStream for TextStream<W> {
    fn add(&mut self, file: &FileReport) -> std::io::Result<()> {
        TextStream::add(self, file)
    }

    fn finish(self: Box<Self>) -> std::io::Result<Totals> {
        TextStream::finish(*self)
    }
}

/// The closing summary: findings and causes by rule, the costliest causes,
/// the files that failed, and the totals line.
fn summary(out: &mut String, causes: &Causes, failed: &[(String, String)], t: &Totals) {
    if !causes.is_empty() {
        // Rule -> (id, findings, causes), in the order rules were met.
        let mut by_rule: Vec<(&str, &str, usize, usize)> = Vec::new();
        for c in causes.list() {
            match by_rule.iter_mut().find(|r| r.0 == c.rule) {
                Some(r) => {
                    r.2 += c.instances;
                    r.3 += 1;
                }
                None => by_rule.push((&c.rule, &c.rule_id, c.instances, 1)),
            }
        }
        by_rule.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
        let _ = writeln!(out, "findings by rule:");
        for (rule, id, findings, n) in &by_rule {
            let _ = writeln!(
                out,
                "  {id} {rule:<32} {findings:>6} finding{} from {n} cause{}",
                plural(*findings),
                plural(*n)
            );
        }
        let mut costly: Vec<&Cause> = causes
            .list()
            .iter()
            .filter(|c| c.estimated_cycles.is_some_and(|e| e > 0))
            .collect();
        costly.sort_by(|a, b| {
            b.estimated_cycles
                .cmp(&a.estimated_cycles)
                .then(b.rank.cmp(&a.rank))
        });
        if !costly.is_empty() {
            let _ = writeln!(out, "costliest causes (cycles per execution x instances):");
            for c in costly.iter().take(TOP_CAUSES) {
                let _ = writeln!(
                    out,
                    "  ~{:>8} {} {} at {}",
                    c.estimated_cycles.unwrap_or(0),
                    c.rule_id,
                    super::snippets::headline(&c.message),
                    super::snippets::place_text(c)
                );
            }
        }
    }
    if !failed.is_empty() {
        let _ = writeln!(out, "files that could not be read:");
        for (path, why) in failed {
            let _ = writeln!(out, "  {path}: {why}");
        }
    }
    let _ = write!(
        out,
        "{} file{} read: {} ok, {} failed; {} kernel{}; {} finding{} from {} cause{}; {} reader error{}, {} reader warning{}",
        t.files,
        plural(t.files),
        t.ok,
        t.failed,
        t.kernels,
        plural(t.kernels),
        t.findings,
        plural(t.findings),
        t.causes,
        plural(t.causes),
        t.reader_errors,
        plural(t.reader_errors),
        t.reader_warnings,
        plural(t.reader_warnings)
    );
    if t.suppressed > 0 || t.baseline_matched > 0 {
        let _ = write!(
            out,
            "; {} suppressed, {} known from the baseline",
            t.suppressed, t.baseline_matched
        );
    }
    out.push('\n');
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A file's part: why it failed, its reader diagnostics, and with
/// `inventory` its kernels, arguments and function constants.
fn file(out: &mut String, f: &FileReport, inventory: bool) {
    if f.status == Status::Skipped {
        // Said once for all skipped files, on stderr.
        return;
    }
    if f.status == Status::Error {
        let _ = writeln!(
            out,
            "{}: error: {}",
            f.path,
            f.error.as_deref().unwrap_or("unreadable")
        );
    } else if let Some(m) = f.module.as_ref().filter(|_| inventory) {
        let mut facts = vec![
            format!("{} kernel{}", f.kernels.len(), plural(f.kernels.len())),
            format!(
                "{} function{} ({} defined)",
                m.functions,
                plural(m.functions),
                m.definitions
            ),
            format!("{} instructions", m.instructions),
            format!("{} pointers", m.pointers),
        ];
        if !f.shaders.is_empty() {
            facts.insert(
                1,
                format!("{} shader{}", f.shaders.len(), plural(f.shaders.len())),
            );
        }
        if let Some(v) = &m.air_version {
            facts.push(format!("AIR {v}"));
        }
        if let Some(v) = &m.language_version {
            facts.push(v.clone());
        }
        let _ = writeln!(out, "{}: {}", f.path, facts.join(", "));
        for ep in f.kernels.iter().chain(&f.shaders) {
            entry_point(out, ep);
        }
        if !m.function_constants.is_empty() {
            let names: Vec<String> = m
                .function_constants
                .iter()
                .map(|fc| {
                    let name = fc.name.as_deref().unwrap_or(&fc.global);
                    match (fc.type_name.as_deref(), fc.index) {
                        (Some(t), Some(i)) => format!("{name} ({t}, index {i})"),
                        (Some(t), None) => format!("{name} ({t})"),
                        _ => name.to_string(),
                    }
                })
                .collect();
            let _ = writeln!(out, "  function constants: {}", names.join(", "));
        }
    }
    for d in &f.diagnostics {
        let sev = match d.severity {
            crate::ir::Severity::Error => "error",
            crate::ir::Severity::Warning => "warning",
        };
        let _ = writeln!(out, "  {}:{}: {sev}: {}", f.path, d.line, d.message);
    }
}

fn entry_point(out: &mut String, ep: &OwnedEntryPoint) {
    let args = &ep.arguments;
    let _ = writeln!(
        out,
        "  {} {} ({} argument{})",
        ep.stage,
        ep.name,
        args.len(),
        plural(args.len())
    );
    for a in args {
        let mut line = format!("    [{}] {}", a.index, a.name.as_deref().unwrap_or("_"));
        match &a.builtin {
            Some(b) => {
                let _ = write!(line, ": builtin {b}");
            }
            None => {
                let kind = serde_json::to_value(a.kind).unwrap_or_default();
                let _ = write!(line, ": {}", kind.as_str().unwrap_or("other"));
                if let Some(space) = a.address_space {
                    line.push(' ');
                    line.push_str(address_space_name(space.into()));
                }
                if let Some(t) = &a.type_name {
                    let _ = write!(line, " {t}");
                }
                if let Some(i) = a.location_index {
                    let attr = if a.address_space == Some(3) {
                        "threadgroup"
                    } else {
                        "buffer"
                    };
                    let _ = write!(line, " [[{attr}({i})]]");
                }
            }
        }
        if !a.struct_fields.is_empty() {
            let names: Vec<&str> = a.struct_fields.iter().map(|f| &*f.name).collect();
            let _ = write!(line, " {{{}}}", names.join(", "));
        }
        if a.unused {
            line.push_str(" (unused)");
        }
        let _ = writeln!(out, "{line}");
    }
}

/// Metal's names for the AIR address spaces.
pub fn address_space_name(space: u64) -> &'static str {
    match space {
        0 => "thread",
        1 => "device",
        2 => "constant",
        3 => "threadgroup",
        _ => "addrspace",
    }
}

/// `air-scan rules`: one line per rule.
pub fn rules_list(rules: &crate::rules::RuleSet) -> String {
    let mut out = String::new();
    for r in &rules.rules {
        let p = &r.pattern;
        let _ = writeln!(
            out,
            "{:<7} {:<32} {:<8} {:<12} {}",
            p.id,
            p.name,
            p.severity.name(),
            p.category,
            p.summary
        );
    }
    out
}

/// `air-scan explain RULE`: the rule's text, from its patterns/ file.
pub fn explain(rule: &crate::rules::Rule) -> String {
    let p = &rule.pattern;
    let mut out = explain_head(&p.id, &p.name, p.severity, &p.category, &p.summary);
    let _ = writeln!(out, "Why:\n{}\n", p.rationale.trim());
    if let Some(c) = p.cycles {
        let _ = writeln!(out, "Cost: about {c} cycles each time it runs.\n");
    }
    let _ = writeln!(out, "Fix:\n{}\n", p.fix.trim());
    let _ = writeln!(out, "Declared in {}", rule.origin);
    out
}

/// `explain` for a rule with no pattern (`bad-suppression`).
pub fn explain_pseudo(rule: &crate::suppress::PseudoRule) -> String {
    let mut out = explain_head(
        rule.id,
        rule.name,
        rule.severity,
        rule.category,
        rule.summary,
    );
    let _ = writeln!(out, "Why:\n{}\n", rule.rationale);
    let _ = writeln!(out, "Fix:\n{}\n", rule.fix);
    let _ = writeln!(
        out,
        "Found by air-scan itself, in `// air-scan: ignore[...]` comments."
    );
    out
}

fn explain_head(
    id: &str,
    name: &str,
    severity: crate::rules::Severity,
    category: &str,
    summary: &str,
) -> String {
    format!(
        "{id} {name} ({}, {category})\n\n{summary}\n\n",
        severity.name()
    )
}
