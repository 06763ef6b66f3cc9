//! Snapshots of the JSON and SARIF outputs on fixtures (the text output's
//! snapshots are in tests/rules.rs). Run from the crate root with relative
//! paths, so no snapshot holds a machine's path (the crate's folder, which
//! SARIF names as `%SRCROOT%`, is written `[crate]`).

use assert_cmd::Command;

fn output(format: &str, fixture: &str) -> String {
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--format", format, fixture])
        .output()
        .unwrap();
    // SARIF's `%SRCROOT%` and `informationUri`, and JSON's `scan.root`,
    // are this checkout's folder.
    let crate_root = format!("file://{}", env!("CARGO_MANIFEST_DIR"));
    let json_root = format!("\"root\": \"{}\"", env!("CARGO_MANIFEST_DIR"));
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(&crate_root, "file:///[crate]")
        .replace(&json_root, "\"root\": \"[crate]\"")
}

#[test]
fn json_of_an_inlined_finding() {
    insta::assert_snapshot!("json_inlined", output("json", "testdata/source/inlined.ll"));
}

#[test]
fn sarif_of_an_inlined_finding() {
    insta::assert_snapshot!(
        "sarif_inlined",
        output("sarif", "testdata/source/inlined.ll")
    );
}

#[test]
fn json_of_the_seed_miscompile() {
    insta::assert_snapshot!(
        "json_fused_shift",
        output("json", "testdata/rules/fused_shift_buggy_typed.ll")
    );
}
