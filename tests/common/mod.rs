//! Helpers shared by the integration tests that read ../shared/corpus.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `../shared/<sub>` when present; otherwise says the test skipped and why.
pub fn shared(sub: &str, what: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(sub);
    if dir.exists() {
        Some(dir)
    } else {
        eprintln!("SKIPPED: {} is absent; {what} did not run", dir.display());
        None
    }
}

/// Every file under `dir` whose name ends with `suffix`, sorted.
pub fn files_ending(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(suffix) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// `testdata/<name>` in the crate.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(name)
}

/// The built `air-scan` binary, ready for arguments.
pub fn air_scan() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("air-scan").unwrap()
}
