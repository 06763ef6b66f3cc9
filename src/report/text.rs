//! The text report: one summary per file (kernels, their arguments,
//! functions, reader diagnostics), then a closing line.

use super::Totals;
use crate::ir::air::OwnedEntryPoint;
use crate::scan::{FileReport, Status};
use std::fmt::Write;

/// Renders the text report; `color` turns on ANSI styles;
/// `show_suppressed` lists the findings suppressions silenced.
pub fn render(files: &[FileReport], color: bool, show_suppressed: bool) -> String {
    let mut out = Vec::new();
    let mut stream = TextStream::new(&mut out, color, show_suppressed);
    for f in files {
        // Writing to memory cannot fail.
        let _ = stream.add(f);
    }
    let _ = stream.finish();
    String::from_utf8(out).unwrap_or_default()
}

/// The text report written as a scan goes: each file's part as soon as it
/// is given, then the suppressed findings and the closing line.
pub struct TextStream<W: std::io::Write> {
    out: W,
    renderer: annotate_snippets::Renderer,
    sources: super::snippets::Files,
    show_suppressed: bool,
    suppressed: Vec<String>,
    totals: Totals,
}

impl<W: std::io::Write> TextStream<W> {
    pub fn new(out: W, color: bool, show_suppressed: bool) -> Self {
        let renderer = if color {
            annotate_snippets::Renderer::styled()
        } else {
            annotate_snippets::Renderer::plain()
        };
        TextStream {
            out,
            renderer,
            sources: super::snippets::Files::default(),
            show_suppressed,
            suppressed: Vec::new(),
            totals: Totals::default(),
        }
    }

    pub fn add(&mut self, f: &FileReport) -> std::io::Result<()> {
        let mut text = String::new();
        file(&mut text, f, &mut self.sources, &self.renderer);
        // A file's IR is shown by its own findings only; MSL sources can be
        // shared by several files and stay open.
        for finding in &f.findings {
            self.sources.forget(&finding.ir.path);
        }
        if self.show_suppressed {
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

    /// Writes the suppressed findings and the closing line; returns the
    /// totals.
    pub fn finish(mut self) -> std::io::Result<Totals> {
        let mut out = self.suppressed.concat();
        let t = self.totals;
        let _ = write!(
            out,
            "{} file{} read: {} ok, {} failed; {} kernel{}; {} finding{}; {} reader error{}, {} reader warning{}",
            t.files,
            plural(t.files),
            t.ok,
            t.failed,
            t.kernels,
            plural(t.kernels),
            t.findings,
            plural(t.findings),
            t.errors,
            plural(t.errors),
            t.warnings,
            plural(t.warnings)
        );
        if t.suppressed > 0 || t.baseline_matched > 0 {
            let _ = write!(
                out,
                "; {} suppressed, {} known from the baseline",
                t.suppressed, t.baseline_matched
            );
        }
        out.push('\n');
        self.out.write_all(out.as_bytes())?;
        self.out.flush()?;
        Ok(t)
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

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn file(
    out: &mut String,
    f: &FileReport,
    sources: &mut super::snippets::Files,
    renderer: &annotate_snippets::Renderer,
) {
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
    } else if let Some(m) = &f.module {
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
    for finding in &f.findings {
        super::snippets::render(out, finding, sources, renderer);
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
