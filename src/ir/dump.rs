//! Apple's disassembly dumps: what `xcrun metal-objdump -d lib.metallib`
//! prints for a whole library, cut into its modules' IR texts.
//!
//! The layout (no public grammar; these are the lines the tool writes):
//!
//! ```text
//!                                        (an optional blank line)
//! lib.metallib:<TAB>file format metallib
//!
//! Disassembly of section MODULE_LIST:
//! 0x00000000000c1a40 -- add_one:
//! ; ModuleID = ...                       (the module's IR text)
//!
//! 0x00000000000c2b80 -- scale:
//! ...
//! Disassembly of section REFLECTION_LIST: (sometimes: not IR)
//! ```
//!
//! A dump of one function (a `0x… -- name:` first line, then its IR) is not
//! a library dump: `reader::read_module` cuts its wrapper away itself.
//! Hand-written: a few line tests on bytes, no grammar a crate knows.

use super::model::Diagnostic;

/// One module of a library dump.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpModule<'a> {
    /// The name on its `0x… -- name:` line.
    pub name: &'a str,
    /// Its IR text: the lines after its header, up to the next header or
    /// section.
    pub text: &'a str,
    /// The line of the dump file `text` starts on.
    pub first_line: u32,
}

/// A library dump cut into modules.
#[derive(Debug, Default)]
pub struct Dump<'a> {
    pub modules: Vec<DumpModule<'a>>,
    /// A warning for each part that is not a module's IR and was skipped
    /// (a trailing section, stray lines before the first module).
    pub skipped: Vec<Diagnostic>,
}

/// True when `text` starts like a whole-library dump: its first line,
/// after at most one blank one, ends in `file format metallib`. Looks at
/// the first two lines only, so IR text pays nothing for it.
pub fn is_library_dump(text: &str) -> bool {
    let mut lines = text.split('\n');
    let first = match lines.next() {
        Some(l) if l.trim().is_empty() => lines.next(),
        other => other,
    };
    first.is_some_and(|l| {
        let l = l.trim_end();
        l.contains(':') && l.ends_with("file format metallib")
    })
}

/// `name` when `line` is a module header, `0x<hex> -- <name>:`.
pub fn module_header(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let rest = line.strip_prefix("0x")?;
    let (offset, name) = rest.split_once(" -- ")?;
    if offset.is_empty() || !offset.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    name.strip_suffix(':').filter(|n| !n.is_empty())
}

/// The section a `Disassembly of section NAME:` line opens.
fn section_header(line: &str) -> Option<&str> {
    let name = line.trim_end().strip_prefix("Disassembly of section ")?;
    Some(name.strip_suffix(':').unwrap_or(name))
}

/// Cuts a library dump into its modules; `None` when `text` is not one
/// (`is_library_dump`). Lines keep their numbers in the dump file. Each
/// section other than `MODULE_LIST`, and anything but blank lines before
/// the first module, is skipped with a warning.
pub fn split(text: &str) -> Option<Dump<'_>> {
    if !is_library_dump(text) {
        return None;
    }
    let mut dump = Dump::default();
    // The module being read: its name, first byte and line.
    let mut open: Option<(&str, usize, u32)> = None;
    // A part being skipped: its first line, what it is, and its last
    // line that is not blank.
    let mut skipping: Option<(u32, String, u32)> = None;
    // Module headers are looked for outside other sections, even where a
    // dump has no `MODULE_LIST` line.
    let mut in_modules = true;
    let mut past_header = false;
    let (mut at, mut line) = (0, 1u32);
    let close = |dump: &mut Dump<'_>, skipping: &mut Option<(u32, String, u32)>| {
        if let Some((from, what, to)) = skipping.take() {
            let lines = if to > from {
                format!("lines {from}-{to}")
            } else {
                format!("line {from}")
            };
            dump.skipped.push(Diagnostic::warning(
                from,
                format!("{what}: not IR, {lines} skipped"),
            ));
        }
    };
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i);
        let this = &text[at..end];
        let next = (end + 1).min(text.len());
        let header = if in_modules && past_header {
            module_header(this)
        } else {
            None
        };
        let section = this
            .starts_with("Disassembly of section ")
            .then(|| section_header(this))
            .flatten();
        if header.is_some() || section.is_some() {
            if let Some((name, start, first_line)) = open.take() {
                dump.modules.push(DumpModule {
                    name,
                    text: &text[start..at],
                    first_line,
                });
            }
        }
        if !past_header {
            // The `PATH: file format metallib` line (after a blank one).
            past_header = !this.trim().is_empty();
        } else if let Some(section) = section {
            close(&mut dump, &mut skipping);
            in_modules = section == "MODULE_LIST";
            if !in_modules {
                skipping = Some((line, format!("section {section}"), line));
            }
        } else if let Some(name) = header {
            close(&mut dump, &mut skipping);
            open = Some((name, next, line + 1));
        } else if open.is_none() && !this.trim().is_empty() {
            match &mut skipping {
                Some((_, _, to)) => *to = line,
                None => {
                    skipping = Some((line, "text before the first module".to_string(), line));
                }
            }
        }
        at = end + 1;
        line += 1;
    }
    if let Some((name, start, first_line)) = open {
        dump.modules.push(DumpModule {
            name,
            text: &text[start.min(text.len())..],
            first_line,
        });
    }
    close(&mut dump, &mut skipping);
    Some(dump)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_told_from_ir() {
        assert_eq!(
            module_header("0x00000000000c1a40 -- add_one:"),
            Some("add_one")
        );
        assert_eq!(module_header("0x1f -- a::b<int>:\r"), Some("a::b<int>"));
        for not in [
            "0x -- a:",
            "0xg1 -- a:",
            "0x1 -- :",
            "0x1 - a:",
            "0x1 -- a",
            "  0x1 -- a:",
            "0x3FF0000000000000",
        ] {
            assert_eq!(module_header(not), None, "{not}");
        }
        assert!(is_library_dump("\nlib.metallib:\tfile format metallib\n"));
        assert!(is_library_dump("/a/b lib.metallib:\tfile format metallib"));
        assert!(!is_library_dump(
            "\n\nlib.metallib:\tfile format metallib\n"
        ));
        assert!(!is_library_dump("0x1 -- a:\n; ModuleID = 'a'\n"));
        assert!(!is_library_dump("; ModuleID = 'file format metallib'\n"));
    }

    #[test]
    fn modules_sections_and_lines() {
        let text = "\nx.metallib:\tfile format metallib\n\nDisassembly of section MODULE_LIST:\n\
            0x10 -- a:\n; A\nA1\n\n0x20 -- b:\nB1\n\nDisassembly of section REFLECTION_LIST:\n\
            junk\n\njunk\n";
        let d = split(text).unwrap();
        assert_eq!(
            d.modules,
            [
                DumpModule {
                    name: "a",
                    text: "; A\nA1\n\n",
                    first_line: 6
                },
                DumpModule {
                    name: "b",
                    text: "B1\n\n",
                    first_line: 10
                },
            ]
        );
        assert_eq!(d.skipped.len(), 1);
        assert_eq!(d.skipped[0].line, 12);
        assert_eq!(
            d.skipped[0].message,
            "section REFLECTION_LIST: not IR, lines 12-15 skipped"
        );
        // Nothing after the header, or no newline at the end.
        let d = split("x:\tfile format metallib").unwrap();
        assert!(d.modules.is_empty() && d.skipped.is_empty());
        let d = split("x:\tfile format metallib\nDisassembly of section MODULE_LIST:\n0x1 -- a:")
            .unwrap();
        assert_eq!(d.modules[0].text, "");
        assert_eq!(d.modules[0].first_line, 4);
    }
}
