//! What CI sees: exit codes, suppressions in MSL and baselines.
//! Fixture: testdata/suppress/divides.{ll,metal} (see their comments).

mod common;

use common::{air_scan, fixture};
use std::path::{Path, PathBuf};

fn json(args: &[&str], path: &Path) -> (serde_json::Value, i32) {
    let out = air_scan()
        .args(["--format", "json"])
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

/// The fixture pair copied into a temp dir, with `extra_lines` blank lines
/// inserted at the top of the IR body so every IR line moves.
fn copy_fixture(dir: &Path, extra_lines: usize) -> PathBuf {
    let ll = std::fs::read_to_string(fixture("suppress/divides.ll")).unwrap();
    let moved = ll.replacen(
        "!dbg !30 {\n",
        &format!("!dbg !30 {{\n{}", "\n".repeat(extra_lines)),
        1,
    );
    std::fs::write(dir.join("divides.ll"), moved).unwrap();
    std::fs::copy(fixture("suppress/divides.metal"), dir.join("divides.metal")).unwrap();
    dir.join("divides.ll")
}

#[test]
fn exit_codes() {
    // Only warnings: the default --fail-on error passes.
    air_scan()
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(0);
    air_scan()
        .args(["--fail-on", "warning"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(1);
    air_scan()
        .args(["--fail-on", "note"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(1);
    air_scan()
        .args(["--fail-on", "never"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(0);
    // Usage and input errors.
    air_scan()
        .args(["--fail-on", "sometimes"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(2);
    air_scan().arg("/no/such/file.ll").assert().code(2);
    air_scan()
        .args(["--select", "no-such-rule"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(2);
}

#[test]
fn suppressions_silence_and_malformed_ones_are_reported() {
    let (v, code) = json(&[], &fixture("suppress/divides.ll"));
    assert_eq!(code, 0);
    let findings = v["findings"].as_array().unwrap();
    let at = |rule: &str| -> Vec<u64> {
        let mut lines: Vec<u64> = findings
            .iter()
            .filter(|f| f["rule"] == rule)
            .map(|f| f["source"]["line"].as_u64().unwrap())
            .collect();
        lines.sort();
        lines
    };
    // Same-line (line 9) and line-before by rule id (line 11) are silenced.
    assert_eq!(at("divide-by-uniform"), [12, 13, 14]);
    // No reason (line 12) and no rule (line 13) are reported themselves.
    assert_eq!(at("bad-suppression"), [12, 13]);
    let suppressed = v["files"][0]["suppressed"].as_array().unwrap();
    let lines: Vec<u64> = suppressed
        .iter()
        .map(|s| s["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [9, 11]);
    assert_eq!(
        suppressed[0]["reason"],
        "n is a power of two, checked on the host"
    );
    assert_eq!(v["totals"]["suppressed"], 2);
}

#[test]
fn show_suppressed_lists_them() {
    let out = air_scan()
        .arg("--show-suppressed")
        .arg(fixture("suppress/divides.ll"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("suppressed[divide-by-uniform]: "), "{text}");
    assert!(
        text.contains("divides.metal:11 (the grid is tiny here)"),
        "{text}"
    );
    let quiet = air_scan()
        .arg(fixture("suppress/divides.ll"))
        .output()
        .unwrap();
    assert!(
        !String::from_utf8(quiet.stdout)
            .unwrap()
            .contains("suppressed[")
    );
}

#[test]
fn baseline_hides_known_findings_even_when_lines_move() {
    let dir = tempfile::tempdir().unwrap();
    let ll = copy_fixture(dir.path(), 0);
    let (first, _) = json(&[], &ll);
    let baseline = dir.path().join("baseline.json");
    std::fs::write(&baseline, serde_json::to_vec(&first).unwrap()).unwrap();
    let known = first["findings"].as_array().unwrap().len();
    assert_eq!(known, 5);

    // Same input: nothing new.
    let (again, _) = json(&["--baseline", baseline.to_str().unwrap()], &ll);
    assert_eq!(again["findings"].as_array().unwrap().len(), 0, "{again:#}");
    assert_eq!(again["totals"]["baseline_matched"], 5);

    // Every IR line moved by 7: still known.
    let moved_dir = tempfile::tempdir().unwrap();
    let moved = copy_fixture(moved_dir.path(), 7);
    // Same file names, so point the baseline's paths at the new folder.
    let text = std::fs::read_to_string(&baseline).unwrap();
    let rebased = dir.path().join("rebased.json");
    std::fs::write(
        &rebased,
        text.replace(
            &dir.path().display().to_string(),
            &moved_dir.path().display().to_string(),
        ),
    )
    .unwrap();
    let (after_move, _) = json(&["--baseline", rebased.to_str().unwrap()], &moved);
    assert_eq!(
        after_move["findings"].as_array().unwrap().len(),
        0,
        "{after_move:#}"
    );

    // A new divide is reported, the known ones are not.
    let ll_text = std::fs::read_to_string(&ll).unwrap();
    let extra = ll_text.replace(
        "  ret void, !dbg !37",
        "  %17 = sdiv i32 %14, %4, !dbg !36\n  store i32 %17, i32 addrspace(1)* %0, align 4\n  ret void, !dbg !37",
    );
    std::fs::write(&ll, extra).unwrap();
    let (new, _) = json(&["--baseline", baseline.to_str().unwrap()], &ll);
    let new_findings = new["findings"].as_array().unwrap();
    assert_eq!(new_findings.len(), 1, "{new:#}");
    assert!(
        new_findings[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`sdiv`")
    );
}

#[test]
fn a_bad_baseline_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"no\": \"findings\"}").unwrap();
    air_scan()
        .args(["--baseline", bad.to_str().unwrap()])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(2);
    air_scan()
        .args(["--baseline", "/no/such/baseline.json"])
        .arg(fixture("minimal_kernel.ll"))
        .assert()
        .code(2);
}
