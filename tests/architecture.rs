//! Data flows one way (docs/ARCHITECTURE.md): ir → analysis → rules → scan
//! → suppress / baseline → report, with compile and diff beside. Each room
//! of `src/` may name only the rooms this table allows; a `crate::room`
//! path anywhere in a file (a `use` line or an inline path) counts.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each room and the rooms it may use (itself always).
const ALLOWED: &[(&str, &[&str])] = &[
    ("ir", &[]),
    ("analysis", &["ir"]),
    // Debug info to MSL lines: an analysis of the IR, which findings carry.
    ("source", &["ir", "analysis"]),
    ("rules", &["ir", "analysis", "source"]),
    ("input", &["ir"]),
    ("compile", &["ir", "input"]),
    (
        "scan",
        &["ir", "analysis", "source", "rules", "input", "compile"],
    ),
    ("suppress", &["ir", "source", "rules", "scan"]),
    ("baseline", &["ir", "rules", "scan", "suppress"]),
    (
        "report",
        &[
            "ir", "analysis", "source", "rules", "input", "compile", "scan", "suppress", "baseline",
        ],
    ),
    // The HTML page's shell (report::html::page) is shared with the scan's.
    (
        "diff",
        &[
            "ir", "analysis", "source", "rules", "input", "compile", "scan", "report",
        ],
    ),
];

/// The room of a file under `src/`: its first path component, less `.rs`.
fn room_of(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    let name = first.as_os_str().to_str()?;
    Some(name.trim_end_matches(".rs").to_string())
}

/// Every `crate::name` in `text`, outside line comments.
fn rooms_named(text: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                named.insert(name);
            }
            rest = after;
        }
    }
    named
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// What `rooms_named` and the table say about `text` in `room`.
fn violations(room: &str, text: &str) -> Vec<String> {
    let Some((_, allowed)) = ALLOWED.iter().find(|(r, _)| *r == room) else {
        return Vec::new();
    };
    rooms_named(text)
        .into_iter()
        .filter(|n| n != room && !allowed.contains(&n.as_str()))
        .filter(|n| ALLOWED.iter().any(|(r, _)| r == n))
        .collect()
}

#[test]
fn no_room_uses_a_room_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for file in &files {
        let Some(room) = room_of(&src, file) else {
            continue;
        };
        if !ALLOWED.iter().any(|(r, _)| *r == room) {
            continue;
        }
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap();
        for up in violations(&room, &text) {
            wrong.push(format!(
                "{} ({room}) uses crate::{up}",
                file.strip_prefix(&src).unwrap().display()
            ));
        }
    }
    assert!(checked > 40, "only {checked} files checked");
    assert!(
        wrong.is_empty(),
        "imports up the layers:\n{}",
        wrong.join("\n")
    );
}

/// The check itself catches what it is for.
#[test]
fn an_import_from_above_is_caught() {
    assert_eq!(
        violations("rules", "use crate::report::json::X;\n"),
        ["report"]
    );
    assert_eq!(
        violations("scan", "    f.x = crate::suppress::Y::new();\n"),
        ["suppress"]
    );
    assert!(violations("rules", "use crate::analysis::cfg;\n// crate::report\n").is_empty());
    assert!(violations("ir", "use crate::ir::Module;\n").is_empty());
}
