//! Every limit the reader enforces, in one place, so a hostile or broken
//! file costs bounded memory and time. Each is far above anything the
//! Metal compiler emits (the corpus's largest module has 53 functions, 211
//! blocks and 1,619 instructions in one function, and 2,773-byte lines).
//! What happens at each limit is in docs/LIMITS.md; a limit never stops
//! the rest of a scan, only the part of one file past it.

use super::model::Diagnostic;

/// Larger files are refused whole. Lines and byte lengths are kept in 32
/// bits; the margin keeps a line count of a file this size below
/// `u32::MAX`.
pub const MAX_FILE_SIZE: u64 = (4 << 30) - (1 << 20);

/// Longer lines are skipped (with an error naming them). Every
/// per-line cost (error recovery re-reading a line, a message quoting
/// it, a report showing it) is then bounded by this, and no real module
/// comes close: the longest lines are constant tables and embedded source.
pub const MAX_LINE_LENGTH: usize = 16 << 20;

/// Deepest nesting of types, constants or metadata the reader follows;
/// parsing recurses, so this bounds the stack.
pub const MAX_DEPTH: u32 = 64;

/// Functions (definitions and declarations) kept per module; later ones
/// are skipped. Each costs ~150 bytes however short its text, so this caps
/// the module model at ~150 MB; a module of corpus kernels this large would
/// be tens of GB.
pub const MAX_FUNCTIONS: usize = 1_000_000;

/// Globals kept per module, for the same reason as `MAX_FUNCTIONS`.
pub const MAX_GLOBALS: usize = 1_000_000;

/// Blocks in one function body. A body past this is not analyzed: its
/// control flow and def-use tables would cost ~650 bytes a block.
pub const MAX_BLOCKS: usize = 250_000;

/// Instructions in one function body. A body past this is not analyzed:
/// reading and analyzing one costs ~450 bytes an instruction.
pub const MAX_INSTRUCTIONS: usize = 500_000;

/// Reader diagnostics kept per file (module level and all bodies). A
/// diagnostic costs ~100 bytes and a bad line can be two bytes, so
/// without a cap a garbage file would cost 50 times its size.
pub const MAX_DIAGNOSTICS: usize = 1_000;

/// Entry points, arguments and struct fields the AIR layer interprets per
/// module, all together. Metadata nodes are shared, so a short text can
/// name one node millions of times, and each item costs up to ~200 bytes
/// in the model and ~500 in a JSON report. Modules of corpus kernels reach
/// this at about 1 GB (~10 items a kernel).
pub const MAX_AIR_ITEMS: usize = 1_000_000;

/// Characters of a token quoted in a message; longer ones are cut with `…`.
pub const MAX_QUOTED: usize = 64;

/// The note that replaces the diagnostics past `MAX_DIAGNOSTICS`.
pub fn too_many_diagnostics(line: u32) -> Diagnostic {
    Diagnostic::error(
        line,
        format!(
            "too many problems: the reader reports at most {MAX_DIAGNOSTICS} per file; \
             the rest, from this line on, are not shown"
        ),
    )
}

/// What is left of a file's `MAX_DIAGNOSTICS`, shared by the module level
/// and every body. A body keeps the share it got when first read, so
/// reading it again gives the same diagnostics.
#[derive(Debug, Default)]
pub struct DiagnosticBudget {
    used: usize,
    /// The note saying the rest are not shown was given.
    noted: bool,
    /// Per function index: (allowance, may note) at its first read.
    bodies: Vec<Option<(u32, bool)>>,
}

impl DiagnosticBudget {
    /// A collector for the module level, which reads first.
    pub fn module_level(&self) -> Capped {
        Capped::new(MAX_DIAGNOSTICS.saturating_sub(self.used), !self.noted)
    }

    /// A collector for body `index`: what was left when it was first read.
    pub fn body(&mut self, index: usize) -> Capped {
        if index >= self.bodies.len() {
            self.bodies.resize(index + 1, None);
        }
        let (allowance, may_note) = *self.bodies[index].get_or_insert_with(|| {
            let left = MAX_DIAGNOSTICS.saturating_sub(self.used);
            (left as u32, !self.noted)
        });
        Capped::new(allowance as usize, may_note)
    }

    /// Charges what a collector kept, the first time its part was read.
    pub fn charge(&mut self, kept: &Capped, first_read: bool) {
        if first_read {
            self.used += kept.list.len();
            self.noted |= kept.noted();
        }
    }

    /// True when body `index` has not been read yet.
    pub fn first_read(&self, index: usize) -> bool {
        !matches!(self.bodies.get(index), Some(Some(_)))
    }
}

/// Diagnostics up to an allowance; past it, only where the first dropped
/// one was, for the note.
#[derive(Debug)]
pub struct Capped {
    list: Vec<Diagnostic>,
    allowance: usize,
    may_note: bool,
    dropped_at: Option<u32>,
}

impl Capped {
    fn new(allowance: usize, may_note: bool) -> Self {
        Capped {
            list: Vec::new(),
            allowance,
            may_note,
            dropped_at: None,
        }
    }

    pub fn push(&mut self, d: Diagnostic) {
        if self.list.len() < self.allowance {
            self.list.push(d);
        } else if self.dropped_at.is_none() {
            self.dropped_at = Some(d.line);
        }
    }

    /// Keeps `d` whatever the allowance: for the few messages that say a
    /// limit was reached, which must never be the ones dropped.
    pub fn push_always(&mut self, d: Diagnostic) {
        self.list.push(d);
    }

    fn noted(&self) -> bool {
        self.may_note && self.dropped_at.is_some()
    }

    /// The kept diagnostics, and the note if some were dropped and no
    /// earlier part of the file gave it.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        if let (true, Some(line)) = (self.may_note, self.dropped_at) {
            self.list.push(too_many_diagnostics(line));
        }
        self.list
    }
}

/// Byte ranges (newline excluded) of the lines of `text` longer than
/// `limit`, in order. Looks at one aligned window of `limit / 2` bytes at a
/// time: a longer line holds a whole window with no newline, and every
/// other window has one within its first few bytes, so this costs almost
/// nothing on ordinary text.
pub fn long_lines(text: &str, limit: usize) -> Vec<std::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let window = (limit / 2).max(1);
    let mut out = Vec::new();
    let mut at = 0;
    while at + window <= bytes.len() {
        if memchr::memchr(b'\n', &bytes[at..at + window]).is_some() {
            at += window;
            continue;
        }
        let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
        if end - start > limit {
            out.push(start..end);
        }
        // The next window to look at starts at or after this line's end.
        at = end.div_ceil(window).max(at / window + 1) * window;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line longer than the limit, and no other, whatever its place
    /// relative to the windows.
    #[test]
    fn long_lines_are_found_exactly() {
        let limit = 10;
        for lens in [
            vec![3, 11, 2],
            vec![11],
            vec![10, 10, 10],
            vec![0, 25, 0, 12, 1, 40],
            vec![5, 9, 11, 10, 11],
        ] {
            for shift in 0..12 {
                let mut text = "x".repeat(shift);
                text.push('\n');
                for &n in &lens {
                    text.push_str(&"y".repeat(n));
                    text.push('\n');
                }
                let mut want = Vec::new();
                let mut start = 0;
                for line in text.split('\n') {
                    if line.len() > limit {
                        want.push(start..start + line.len());
                    }
                    start += line.len() + 1;
                }
                assert_eq!(long_lines(&text, limit), want, "{lens:?} shift {shift}");
                // Without a final newline too.
                let trimmed = text.trim_end_matches('\n');
                let want: Vec<_> = want
                    .into_iter()
                    .filter(|r| r.end <= trimmed.len())
                    .collect();
                assert_eq!(long_lines(trimmed, limit), want, "{lens:?} shift {shift}");
            }
        }
    }
}
