//! Findings in the style of rustc: severity, rule and message; the MSL
//! source line with the span underlined when the source is found on disk,
//! or the IR line otherwise; then notes (function, kernels, inlined-at
//! chain, IR location) and a help line.

use crate::rules::{Finding, Severity};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
use std::collections::HashMap;

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

pub fn render(out: &mut String, f: &Finding, files: &mut Files, renderer: &Renderer) {
    let title = level(f.severity)
        .primary_title(f.message.as_str())
        .id(f.rule.to_string());
    let mut notes: Vec<String> = Vec::new();
    let snippet_group = match &f.source {
        Some(src) => match files.line(&src.path, src.line) {
            Some(text) => {
                let sp = span(&text, src.column);
                let label = if src.approximate {
                    "approximate location"
                } else {
                    ""
                };
                notes.push(format!("IR: {}:{}", f.ir.path, f.ir.line));
                Some((text, src.line, src.path.clone(), sp, label))
            }
            None => {
                notes.push(format!(
                    "source {}:{}:{} (file not found; see --source-root)",
                    src.path, src.line, src.column
                ));
                None
            }
        },
        None => None,
    };
    let snippet_group = snippet_group.or_else(|| {
        let text = files.line(&f.ir.path, f.ir.line)?;
        let sp = span(&text, 0);
        Some((text, f.ir.line, f.ir.path.to_string(), sp, ""))
    });
    notes.insert(0, in_function(f));
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
    let mut group = Group::with_title(title);
    if let Some((text, line, path, sp, label)) = &snippet_group {
        group = group.element(
            Snippet::source(text.as_str())
                .line_start(*line as usize)
                .path(path.as_str())
                .annotation(AnnotationKind::Primary.span(sp.clone()).label(*label)),
        );
    } else {
        notes.insert(0, format!("at {}:{}", f.ir.path, f.ir.line));
    }
    for n in &notes {
        group = group.element(Level::NOTE.message(n.as_str()));
    }
    group = group.element(Level::HELP.message(&*f.help));
    out.push_str(&renderer.render(&[group]));
    out.push_str("\n\n");
}

fn in_function(f: &Finding) -> String {
    let mut s = format!("in `{}`", f.function);
    let others: Vec<&String> = f
        .kernels
        .iter()
        .filter(|k| k.as_str() != &*f.function)
        .collect();
    if !others.is_empty() {
        let names: Vec<&str> = others.iter().map(|k| k.as_str()).collect();
        s.push_str(&format!(
            ", reached from kernel{} {}",
            if names.len() == 1 { "" } else { "s" },
            names.join(", ")
        ));
    }
    if f.loop_depth > 0 {
        s.push_str(&format!(
            ", inside {} loop{}",
            f.loop_depth,
            if f.loop_depth == 1 { "" } else { "s" }
        ));
    }
    if !f.levels.is_empty() {
        let levels: Vec<String> = f.levels.iter().map(|l| format!("-{l}")).collect();
        s.push_str(&format!(", found at {}", levels.join(" and ")));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{Files, LINES_PER_MARK, span};

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
    fn spans_cover_the_token_at_the_column() {
        assert_eq!(span("    x = a/groups;", 15), 14..16);
        assert_eq!(span("    x = a/groups;", 10), 9..16);
        assert_eq!(span("    x = a / n.y;", 11), 10..15);
        assert_eq!(span("  %5 = udiv i32 %2, %4  ", 0), 2..22);
        assert_eq!(span("ab", 9), 0..2);
    }
}
