//! Causes in the style of rustc: severity, rule id and headline; the MSL
//! source line with the span underlined when the source is found on disk,
//! or the IR line otherwise; then notes (function, kernels, inlined-at
//! chain, IR location) and a help line.

use super::causes::Cause;
use crate::rules::Severity;
use crate::source::SourceStatus;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::collections::HashMap;
use std::fmt::Write;

/// Opens each file once and indexes every `LINES_PER_MARK`th line start,
/// so a line is found in near-constant time however many findings a large
/// file has. A large file is mapped, not read, and its pages given back
/// once indexed: a line then costs the page or two it stands on, and a
/// 100 MB module's findings do not keep 100 MB of text in memory.
#[derive(Default)]
pub struct Files {
    cache: HashMap<String, Option<Indexed>>,
}

struct Indexed {
    source: crate::input::Source,
    /// Byte offset of lines 1, 1 + `LINES_PER_MARK`, 1 + 2 × `LINES_PER_MARK`, …
    marks: Vec<usize>,
}

const LINES_PER_MARK: usize = 256;

/// Bytes indexed before their pages are given back.
const INDEX_WINDOW: usize = 8 << 20;

impl Indexed {
    fn open(path: &str) -> Option<Indexed> {
        let source = crate::input::load(std::path::Path::new(path)).ok()?;
        let bytes = source.bytes();
        let mut marks = vec![0];
        let mut lines = 0;
        for (w, window) in bytes.chunks(INDEX_WINDOW).enumerate() {
            for i in memchr::memchr_iter(b'\n', window) {
                lines += 1;
                if lines % LINES_PER_MARK == 0 {
                    marks.push(w * INDEX_WINDOW + i + 1);
                }
            }
            source.release_bytes(window);
        }
        Some(Indexed { source, marks })
    }

    /// Line `line` (1-based), without its newline.
    fn line(&self, line: u32) -> Option<String> {
        let i = line.checked_sub(1)? as usize;
        let bytes = self.source.bytes();
        let mut start = *self.marks.get(i / LINES_PER_MARK)?;
        for _ in 0..i % LINES_PER_MARK {
            start += memchr::memchr(b'\n', bytes.get(start..)?)? + 1;
        }
        let rest = bytes.get(start..)?;
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let text = String::from_utf8_lossy(&rest[..end]);
        Some(text.trim_end_matches('\r').to_string())
    }
}

impl Files {
    /// Line `line` (1-based) of `path`, without its newline.
    pub fn line(&mut self, path: &str, line: u32) -> Option<String> {
        self.cache
            .entry(path.to_string())
            .or_insert_with(|| Indexed::open(path))
            .as_ref()?
            .line(line)
    }

    /// Closes `path`, which no finding still to come will show.
    pub fn forget(&mut self, path: &str) {
        self.cache.remove(path);
    }
}

fn level(s: Severity) -> Level<'static> {
    match s {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Note => Level::NOTE,
    }
}

/// The span to underline: from the column to the end of the token there
/// (a whole trimmed line when the column is unknown).
fn span(line: &str, column: u32) -> std::ops::Range<usize> {
    let trimmed_start = line.len() - line.trim_start().len();
    if column == 0 || column as usize > line.len() {
        return trimmed_start..line.trim_end().len().max(trimmed_start);
    }
    let start = column as usize - 1;
    let is_word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.';
    let bytes = line.as_bytes();
    let mut end = start + bytes[start..].iter().take_while(|b| is_word(b)).count();
    if end == start {
        // An operator (`/`, `%`): underline it and the operand after it.
        end = start + 1;
        while end < bytes.len() && bytes[end] == b' ' {
            end += 1;
        }
        let word = bytes[end..].iter().take_while(|b| is_word(b)).count();
        end = if word > 0 { end + word } else { start + 1 };
    }
    start..end
}

/// A message's first clause: up to the first `: ` outside backquotes
/// (`udiv` by `args.ne12` (a field of a constant buffer)), the rest being
/// the rationale `air-scan explain` gives.
pub fn headline(message: &str) -> &str {
    let mut quoted = false;
    let bytes = message.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'`' => quoted = !quoted,
            b':' if !quoted && bytes.get(i + 1) == Some(&b' ') => return &message[..i],
            _ => {}
        }
    }
    message.trim_end_matches('.')
}

/// Where a cause is, in a word: its MSL location, else its IR file and line
/// (a disassembled binary's function, without a line).
pub fn place_text(c: &Cause) -> String {
    match &c.location.source {
        Some(s) if s.status != SourceStatus::NotFound => {
            format!("{}:{}:{}", s.path, s.line, s.column)
        }
        _ if c.location.ir.on_disk => format!("{}:{}", c.location.ir.path, c.location.ir.line),
        _ => format!("{} in `{}`", c.location.ir.path, c.location.function),
    }
}

/// `a, b, c, … (+N more)` for up to `MAX_NAMED` names.
fn named_list(names: &std::collections::BTreeSet<String>) -> String {
    const MAX_NAMED: usize = 4;
    let mut list: Vec<&str> = names.iter().take(MAX_NAMED).map(String::as_str).collect();
    if names.len() > MAX_NAMED {
        list.push("…");
    }
    list.join(", ")
}

/// One cause, as rustc shows an error: a headline, the MSL line (or the
/// IR instruction), how many instances and kernels, and one help line.
pub fn render(out: &mut String, c: &Cause, files: &mut Files, renderer: &Renderer) {
    let f = &c.shown;
    let mut title_text = headline(&c.message).to_string();
    if let Some(cycles) = c.cycles_per_execution {
        let _ = write!(title_text, ", ~{cycles} cycles");
    }
    let title = level(c.severity)
        .primary_title(title_text.as_str())
        .id(c.rule_id.as_str());
    let mut notes: Vec<String> = Vec::new();
    let mut warnings: Vec<String> = Vec::new();
    let ir_note = || {
        if f.ir.instruction.is_empty() {
            format!("IR: {}:{}", f.ir.path, f.ir.line)
        } else if f.ir.on_disk {
            format!("IR: {}:{}: `{}`", f.ir.path, f.ir.line, f.ir.instruction)
        } else {
            format!("IR: `{}` in {}", f.ir.instruction, f.ir.path)
        }
    };
    // (line text, line number, path, span, label)
    let mut snippet = None;
    match &f.source {
        Some(src) => match src.status {
            SourceStatus::Exact | SourceStatus::Approximate => {
                match files.line(&src.path, src.line) {
                    Some(text) => {
                        let sp = span(&text, src.column);
                        let label = if src.approximate {
                            "approximate location"
                        } else {
                            ""
                        };
                        snippet = Some((text, src.line, src.path.clone(), sp, label));
                    }
                    None => notes.push(format!("at {}:{}:{}", src.path, src.line, src.column)),
                }
                notes.push(ir_note());
            }
            SourceStatus::Stale => {
                warnings.push(format!(
                    "{}:{}:{} does not hold this operation: the source changed since the IR was compiled",
                    src.path, src.line, src.column
                ));
                notes.push(ir_note());
            }
            SourceStatus::NotFound => {
                notes.push(format!(
                    "source {}:{}:{} (file not found; see --source-root)",
                    src.path, src.line, src.column
                ));
                notes.push(ir_note());
            }
        },
        None if f.ir.on_disk => {
            if let Some(text) = files.line(&f.ir.path, f.ir.line) {
                let sp = span(&text, 0);
                snippet = Some((text, f.ir.line, f.ir.path.to_string(), sp, ""));
            } else {
                notes.push(ir_note());
            }
        }
        None => notes.push(ir_note()),
    }
    for site in &f.inlined_at {
        notes.push(format!(
            "inlined at {}:{}:{}{}",
            site.path,
            site.line,
            site.column,
            site.function
                .as_deref()
                .map(|n| format!(" in {n}"))
                .unwrap_or_default()
        ));
    }
    notes.insert(0, instances(c));
    let mut group = Group::with_title(title);
    if let Some((text, line, path, sp, label)) = &snippet {
        group = group.element(
            Snippet::source(text.as_str())
                .line_start(*line as usize)
                .path(path.as_str())
                .annotation(AnnotationKind::Primary.span(sp.clone()).label(*label)),
        );
    }
    for w in &warnings {
        group = group.element(Level::WARNING.message(w.as_str()));
    }
    for n in &notes {
        group = group.element(Level::NOTE.message(n.as_str()));
    }
    group = group.element(Level::HELP.message(c.help.as_str()));
    out.push_str(&renderer.render(&[group]));
    out.push_str("\n\n");
}

/// `×N in K kernels (a, b, …); in `f``, with the loop depth and levels.
fn instances(c: &Cause) -> String {
    let f = &c.shown;
    let mut s = String::new();
    if c.instances > 1 {
        let _ = write!(s, "×{} ", c.instances);
    }
    match c.kernels.len() {
        0 => {}
        1 => {
            let _ = write!(s, "in kernel {}", named_list(&c.kernels));
        }
        n => {
            let _ = write!(s, "in {n} kernels ({})", named_list(&c.kernels));
        }
    }
    if c.files > 1 {
        let _ = write!(s, " across {} files", c.files);
    }
    let only_the_kernel = c.kernels.len() == 1 && c.kernels.contains(&*f.function);
    if !only_the_kernel {
        if !s.is_empty() {
            s.push_str("; ");
        }
        let _ = write!(s, "in `{}`", f.function);
    }
    if c.functions.len() > 1 {
        let _ = write!(s, " and {} more functions", c.functions.len() - 1);
    }
    if f.loop_depth > 0 {
        let _ = write!(
            s,
            ", inside {} loop{}",
            f.loop_depth,
            if f.loop_depth == 1 { "" } else { "s" }
        );
    }
    if !f.levels.is_empty() {
        let levels: Vec<String> = f.levels.iter().map(|l| format!("-{l}")).collect();
        let _ = write!(s, ", found at {}", levels.join(" and "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Files, LINES_PER_MARK, headline, span};

    #[test]
    fn lines_found_on_both_sides_of_each_mark_in_small_and_mapped_files() {
        let dir = tempfile::tempdir().unwrap();
        // Small files are read, files of 1 MB and more mapped: one of each.
        for (name, count) in [("small.ll", 1_000usize), ("large.ll", 40_000)] {
            let path = dir.path().join(name);
            let text: String = (1..=count)
                .map(|n| format!("line {n} {}\r\n", "x".repeat(n % 40)))
                .collect();
            std::fs::write(&path, text).unwrap();
            let path = path.to_str().unwrap();
            let mut files = Files::default();
            for n in [
                1,
                2,
                LINES_PER_MARK,
                LINES_PER_MARK + 1,
                3 * LINES_PER_MARK,
                count,
            ] {
                let want = format!("line {n} {}", "x".repeat(n % 40));
                assert_eq!(files.line(path, n as u32), Some(want), "{name}:{n}");
            }
            // The empty line after the last newline, then nothing.
            assert_eq!(files.line(path, count as u32 + 1), Some(String::new()));
            assert_eq!(files.line(path, count as u32 + 2), None);
            assert_eq!(files.line(path, 0), None);
            files.forget(path);
            assert!(files.line(path, 7).is_some());
        }
        assert_eq!(Files::default().line("/nonexistent/x.metal", 1), None);
    }

    #[test]
    fn a_headline_is_the_first_clause_outside_backquotes() {
        assert_eq!(
            headline("`udiv` by `a::b: c` (a kernel argument): Apple GPUs have none."),
            "`udiv` by `a::b: c` (a kernel argument)"
        );
        assert_eq!(headline("no clause here."), "no clause here");
    }

    #[test]
    fn spans_cover_the_token_at_the_column() {
        assert_eq!(span("    x = a/groups;", 15), 14..16);
        assert_eq!(span("    x = a/groups;", 10), 9..16);
        assert_eq!(span("    x = a / n.y;", 11), 10..15);
        assert_eq!(span("  %5 = udiv i32 %2, %4  ", 0), 2..22);
        assert_eq!(span("ab", 9), 0..2);
    }
}
