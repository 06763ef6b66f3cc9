//! Causes as a person meets them (issue 21): every finding belongs to one
//! listed cause, the forms of one module and a template's kernels are one
//! cause, and no location arrow points into a binary file.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

fn run(args: &[&str], dir: &Path) -> (Vec<u8>, i32) {
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (out.stdout, out.status.code().unwrap_or(-1))
}

/// The JSON report's findings and causes agree: each finding's cause is
/// listed once, and its instances are the findings that name it.
fn causes_agree(v: &Value) -> usize {
    let findings = v["findings"].as_array().unwrap();
    let causes = v["causes"].as_array().unwrap();
    let mut listed: BTreeMap<&str, u64> = BTreeMap::new();
    for c in causes {
        let id = c["id"].as_str().unwrap();
        assert!(
            listed
                .insert(id, c["instances"].as_u64().unwrap())
                .is_none(),
            "{id} twice"
        );
    }
    let mut counted: BTreeMap<&str, u64> = BTreeMap::new();
    for f in findings {
        let id = f["cause"].as_str().unwrap();
        assert!(listed.contains_key(id), "cause {id} of {f:#} is not listed");
        *counted.entry(id).or_default() += 1;
    }
    assert_eq!(listed, counted);
    assert_eq!(v["totals"]["causes"], causes.len() as u64);
    causes.len()
}

#[test]
fn every_finding_belongs_to_one_listed_cause() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (out, _) = run(&["--format", "json", "testdata"], root);
    let v: Value = serde_json::from_slice(&out).unwrap();
    let n = causes_agree(&v);
    assert!(n > 20, "{n}");
    // Two MSL locations are never one cause.
    for c in v["causes"].as_array().unwrap() {
        let id = c["id"].as_str().unwrap();
        let places: std::collections::BTreeSet<String> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["cause"] == id && f["source"]["status"] == "exact")
            .map(|f| format!("{}:{}", f["source"]["path"], f["source"]["line"]))
            .collect();
        assert!(places.len() <= 1, "{id}: {places:?}");
    }
}

/// On the corpus: the `.ll`, `.opaque.ll`, `.air` and `.metallib` forms of
/// one module and the kernels of one MLX template are one cause; the text
/// report shows each cause once, never a line of a binary file.
#[test]
fn the_corpus_comes_to_few_causes_and_no_arrow_into_a_binary() {
    let Some(corpus) = common::shared("corpus", "the corpus causes test") else {
        return;
    };
    let dir = corpus.parent().unwrap();
    let (out, _) = run(&["--format", "json", "corpus"], dir);
    let v: Value = serde_json::from_slice(&out).unwrap();
    let n = causes_agree(&v);
    let findings = v["findings"].as_array().unwrap().len();
    assert!(findings > 2000, "{findings}");
    assert!(n <= 150, "{n} causes");
    // A cause met in several forms of a module: its files differ in kind.
    let multi_form = v["causes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["files"].as_u64().unwrap() >= 4)
        .count();
    assert!(
        multi_form * 2 >= n,
        "{multi_form} of {n} causes in 4 or more files"
    );

    let (text, code) = run(&["--color=never", "corpus"], dir);
    assert_eq!(code, 2, "the corpus's empty test.air fails on purpose");
    let text = String::from_utf8(text).unwrap();
    let blocks = text
        .lines()
        .filter(|l| l.starts_with("warning[") || l.starts_with("error[") || l.starts_with("note["))
        .count();
    assert_eq!(blocks, n);
    assert!(
        text.lines().count() <= 3000,
        "{} lines",
        text.lines().count()
    );
    for arrow in text.lines().filter(|l| l.trim_start().starts_with("--> ")) {
        let place = arrow.trim_start().trim_start_matches("--> ");
        let file = place.split(':').next().unwrap();
        assert!(
            !file.ends_with(".air") && !file.ends_with(".metallib"),
            "an arrow into a binary: {arrow}"
        );
        let bytes = std::fs::read(dir.join(file)).unwrap();
        assert!(!bytes.contains(&0), "an arrow into a binary: {arrow}");
    }
}

/// A cause's id survives lines moving around it: the MSL source with three
/// lines added at its top, and its IR's debug lines moved to match, give
/// the same ids (and other lines, so the test cannot pass by ignoring them).
#[test]
fn a_cause_id_survives_lines_moving_around_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let ll = std::fs::read_to_string(root.join("testdata/source/inlined.ll")).unwrap();
    let metal = std::fs::read_to_string(root.join("testdata/source/inlined.metal")).unwrap();
    let cause_and_line = |dir: &Path| {
        let (out, _) = run(&["--format", "json", "inlined.ll"], dir);
        let v: Value = serde_json::from_slice(&out).unwrap();
        let f = &v["findings"][0];
        (
            f["cause"].as_str().unwrap().to_string(),
            f["source"]["line"].as_u64().unwrap(),
        )
    };
    std::fs::write(dir.path().join("inlined.ll"), &ll).unwrap();
    std::fs::write(dir.path().join("inlined.metal"), &metal).unwrap();
    let (before, line_before) = cause_and_line(dir.path());
    let moved = regex_free_shift(&ll, 3);
    std::fs::write(dir.path().join("inlined.ll"), moved).unwrap();
    std::fs::write(
        dir.path().join("inlined.metal"),
        format!("//\n//\n//\n{metal}"),
    )
    .unwrap();
    let (after, line_after) = cause_and_line(dir.path());
    assert_eq!(line_after, line_before + 3);
    assert_eq!(before, after);
}

/// `ll` with every `line: N` of its debug info made `line: N+by`.
fn regex_free_shift(ll: &str, by: u64) -> String {
    let mut out = String::new();
    let mut rest = ll;
    while let Some(at) = rest.find("line: ") {
        let (head, tail) = rest.split_at(at + "line: ".len());
        out.push_str(head);
        let digits: String = tail.chars().take_while(char::is_ascii_digit).collect();
        let n: u64 = digits.parse().unwrap_or(0);
        out.push_str(&(n + by).to_string());
        rest = &tail[digits.len()..];
    }
    out.push_str(rest);
    out
}
