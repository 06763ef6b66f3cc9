//! Rules as a user drives them: `air-scan rules`, `explain`, `--patterns`
//! with a rule that needs no Rust, `--select`, `--ignore`, and colour.

mod common;

use common::{air_scan, fixture};
use std::path::Path;

fn rules_in(args: &[&str], path: &Path) -> Vec<String> {
    let out = air_scan()
        .args(["--format", "json"])
        .args(args)
        .arg(path)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut rules: Vec<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap().to_string())
        .collect();
    rules.sort();
    rules
}

#[test]
fn rules_lists_every_rule_and_explain_prints_its_pattern() {
    let out = air_scan().arg("rules").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "AIR001  divide-by-uniform",
        "AIR003  fused-shift-address-in-branch",
    ] {
        assert!(text.contains(line), "{text}");
    }
    let out = air_scan()
        .args(["explain", "divide-by-uniform"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("AIR001 divide-by-uniform (warning, performance)"),
        "{text}"
    );
    assert!(text.contains("about 730 cycles"), "{text}");
    assert!(
        text.contains("Declared in patterns/divide-by-uniform.toml"),
        "{text}"
    );
    // By id too; an unknown rule is a usage error.
    air_scan().args(["explain", "AIR003"]).assert().success();
    air_scan()
        .args(["explain", "no-such-rule"])
        .assert()
        .code(2);
}

#[test]
fn a_users_pattern_needs_no_rust() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("float-multiply.toml"),
        r#"
id = "USR001"
name = "float-multiply"
severity = "note"
category = "performance"
summary = "A float multiply (a rule written for this test)"
rationale = "A user's rule, written for this test."
fix = "Nothing to fix."

[match]
opcodes = ["fmul"]
"#,
    )
    .unwrap();
    let dirs = ["--patterns", dir.path().to_str().unwrap()];
    // minimal_kernel.ll has one fmul and one udiv by a constant buffer.
    assert_eq!(
        rules_in(&dirs, &fixture("minimal_kernel.ll")),
        ["divide-by-uniform", "float-multiply"]
    );
    let listed = air_scan().arg("rules").args(dirs).output().unwrap();
    assert!(
        String::from_utf8(listed.stdout)
            .unwrap()
            .contains("USR001  float-multiply")
    );
    // A broken pattern is a usage error naming the file.
    std::fs::write(dir.path().join("broken.toml"), "id = \"X\"\nname = \"x\"\n").unwrap();
    let out = air_scan()
        .args(dirs)
        .arg(fixture("minimal_kernel.ll"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("broken.toml")
    );
}

#[test]
fn select_and_ignore_choose_rules() {
    let f = fixture("suppress/divides.ll");
    assert!(rules_in(&[], &f).contains(&"divide-by-uniform".to_string()));
    assert!(
        rules_in(&["--ignore", "divide-by-uniform"], &f)
            .iter()
            .all(|r| r != "divide-by-uniform")
    );
    assert!(
        rules_in(&["--ignore", "AIR001"], &f)
            .iter()
            .all(|r| r != "divide-by-uniform")
    );
    let only = rules_in(&["--select", "fused-shift-address-in-branch"], &f);
    assert!(
        only.iter()
            .all(|r| r == "fused-shift-address-in-branch" || r == "bad-suppression"),
        "{only:?}"
    );
}

#[test]
fn colour_follows_the_flag_and_no_color() {
    let f = fixture("minimal_kernel.ll");
    let plain = air_scan().arg(&f).output().unwrap().stdout;
    assert!(!plain.contains(&0x1b), "not a terminal: no colour");
    let forced = air_scan()
        .args(["--color", "always"])
        .arg(&f)
        .output()
        .unwrap()
        .stdout;
    assert!(forced.contains(&0x1b), "--color always colours");
    let never = air_scan()
        .args(["--color", "never"])
        .env("NO_COLOR", "1")
        .arg(&f)
        .output()
        .unwrap()
        .stdout;
    assert!(!never.contains(&0x1b));
}
