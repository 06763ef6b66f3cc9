use air_scan::diff::{DiffArgs, DiffFormat, run};
use std::path::PathBuf;

fn data(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/diff").join(p)
}

#[test]
fn scratch() {
    let args = DiffArgs {
        a: data("O0/buggy.ll"),
        b: data("O2/buggy.ll"),
        format: DiffFormat::Text,
        changes_only: false,
    };
    let (out, code) = run(&args);
    println!("{out}\nexit {code}");
}
