//! Findings map to MSL through debug info: own location, inlined-at chain,
//! approximate fallbacks, --source-root, and the corpus's debug-info modules.

mod common;

use assert_cmd::Command;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
}

fn scan_json(args: &[&str], path: &Path) -> serde_json::Value {
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .args(["--format", "json"])
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn write_variant(dir: &Path, edit: impl Fn(String) -> String) -> PathBuf {
    let text = std::fs::read_to_string(fixture("source/inlined.ll")).unwrap();
    let path = dir.join("inlined.ll");
    std::fs::write(&path, edit(text)).unwrap();
    path
}

#[test]
fn location_and_inlined_chain_come_from_debug_info() {
    let v = scan_json(&[], &fixture("source/inlined.ll"));
    let f = &v["findings"][0];
    assert!(
        f["source"]["path"]
            .as_str()
            .unwrap()
            .ends_with("testdata/source/inlined.metal")
    );
    assert_eq!(
        (f["source"]["line"].as_u64(), f["source"]["column"].as_u64()),
        (Some(7), Some(14))
    );
    assert_eq!(f["source"]["function"], "tile_of");
    assert!(f["source"].get("approximate").is_none());
    let chain: Vec<(u64, u64, &str)> = f["inlined_at"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["line"].as_u64().unwrap(),
                l["column"].as_u64().unwrap(),
                l["function"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(chain, [(11, 12, "rows"), (17, 16, "inlined")]);
}

#[test]
fn an_instruction_without_dbg_borrows_its_users_location() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_variant(dir.path(), |t| {
        t.replace("%5 = udiv i32 %2, %4, !dbg !43", "%5 = udiv i32 %2, %4")
    });
    let v = scan_json(
        &["--source-root", fixture("source").to_str().unwrap()],
        &path,
    );
    let src = &v["findings"][0]["source"];
    // The user `%6 = add` is at 11:26 in rows.
    assert_eq!(
        (src["line"].as_u64(), src["column"].as_u64()),
        (Some(11), Some(26))
    );
    assert_eq!(src["approximate"], true);
}

#[test]
fn without_any_location_the_function_line_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_variant(dir.path(), |t| {
        t.lines()
            .map(|l| {
                if l.starts_with("  ") {
                    l.split(", !dbg").next().unwrap().to_string()
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    });
    let v = scan_json(&[], &path);
    let src = &v["findings"][0]["source"];
    assert_eq!(src["line"], 14, "{v:#}");
    assert_eq!(src["approximate"], true);
}

#[test]
fn sources_are_found_through_source_root() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_variant(dir.path(), |t| t);
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("file not found; see --source-root"), "{text}");
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .args(["--source-root", fixture("source").to_str().unwrap()])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("7 |     return i / n;"), "{text}");
}

/// Every finding in kolinko__effort (built with debug info) maps to a line
/// of a `.metal` file. The metallib was built from older sources than the
/// ones committed beside it: a location whose line no longer holds the
/// operation (or is past the file's end) is `stale` and shown with a
/// warning, never underlined; the others are `exact` and their line is shown.
#[test]
fn every_kolinko_finding_shows_its_metal_line_or_says_it_is_stale() {
    let Some(dir) = common::shared("corpus/kolinko__effort", "the kolinko mapping test") else {
        return;
    };
    // Absolute: outside the report's root, JSON and text then write the
    // same paths (text keeps them as given, JSON writes a path outside
    // its root absolute).
    let dir = dir.canonicalize().unwrap();
    let v = scan_json(&[], &dir);
    let findings = v["findings"].as_array().unwrap();
    assert!(findings.len() >= 40, "{}", findings.len());
    let text_out = Command::cargo_bin("air-scan")
        .unwrap()
        .arg("--color=never")
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(text_out.stdout).unwrap();
    let mut stale = std::collections::BTreeSet::new();
    let mut exact = std::collections::BTreeSet::new();
    for f in findings {
        let src = &f["source"];
        let path = src["path"]
            .as_str()
            .unwrap_or_else(|| panic!("no source: {f:#}"));
        assert!(
            path.ends_with(".metal") && Path::new(path).is_file(),
            "{path}"
        );
        let line = src["line"].as_u64().unwrap() as usize;
        let source_text = std::fs::read_to_string(path).unwrap();
        let shown = source_text.lines().nth(line - 1);
        // What the line of each rule's operation holds.
        // Code only: a commented-out line (aux.metal:206 `//
        // atomic_fetch_max_explicit`) holds no operation.
        let holds = |l: &str| match f["rule"].as_str().unwrap() {
            _ if l.trim_start().starts_with("//") => false,
            "divide-by-uniform" | "divide-by-varying" => l.contains('/') || l.contains('%'),
            "device-atomic-contention" => l.contains("atomic"),
            _ => true,
        };
        let place = format!("{path}:{line}:{}", src["column"]);
        match src["status"].as_str().unwrap() {
            "exact" => {
                let shown = shown.unwrap_or_else(|| panic!("{place} is past the end"));
                assert!(holds(shown), "{place} is exact but holds `{shown}`");
                assert!(
                    text.contains(&format!("{line} | {shown}")),
                    "{place} not shown"
                );
                exact.insert(place);
            }
            "stale" => {
                // Past the end, or not the operation (an approximate
                // location in a file that changed is stale too).
                assert!(
                    shown.is_none_or(|l| !holds(l) || src["approximate"] == true),
                    "{place} is stale but holds its operation"
                );
                assert!(
                    text.contains(&format!("{place} does not hold this operation")),
                    "{place} not said to be stale"
                );
                stale.insert(place);
            }
            other => panic!("{place}: {other}"),
        }
    }
    // bucketMul.metal and matrix.metal changed since the metallib was built
    // (read by hand: their lines hold a parameter list, a constant, a loop
    // header, or end before line 213); so did aux.metal past line 200, one
    // line down: the atomics of sum_of_exps32, cosinePrecalc32 and dot are
    // shown at 206 (a commented-out atomic), 304 (blank) and 508 (`}`).
    assert_eq!(stale.len(), 10, "{stale:#?}");
    assert!(
        stale.iter().all(|p| p.contains("/bucketMul.metal:")
            || p.contains("/matrix.metal:")
            || ["/aux.metal:206:", "/aux.metal:304:", "/aux.metal:508:"]
                .iter()
                .any(|a| p.contains(a))),
        "{stale:#?}"
    );
    // 23 before device-atomic-contention (2026-11-27): it drops the loop
    // scatters and adds hasNan16/32, strictDiff, cosinePrecalc32 and the
    // append counters, each line checked by `holds` above.
    assert_eq!(exact.len(), 25, "{exact:#?}");
}
