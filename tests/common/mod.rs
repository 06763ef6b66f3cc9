//! Helpers shared by the integration tests: ../shared, tools that may be
//! missing, fixtures and the binary.
//!
//! A test that needs something this machine may lack (../shared, an
//! llvm-dis, the SARIF validator) calls [`missing`] when it is absent: that
//! says the test skipped, and passes, on a developer's machine; under CI
//! (`AIR_SCAN_CI=1`, set by .ci/run, which installs all of them) it fails,
//! so that a CI without them cannot pass as `ok`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The variable .ci/run sets: everything the tests need is installed.
pub const CI_VAR: &str = "AIR_SCAN_CI";

/// Says `what` did not run because `why`; under CI, fails instead.
pub fn missing(what: &str, why: &str) {
    if std::env::var_os(CI_VAR).is_some_and(|v| !v.is_empty() && v != "0") {
        panic!("{what} cannot run under CI ({CI_VAR} is set): {why}");
    }
    eprintln!("SKIPPED: {what} did not run: {why}");
}

/// `../shared/<sub>` when present; otherwise says the test skipped and why
/// (under CI, fails: see [`missing`]).
pub fn shared(sub: &str, what: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(sub);
    if dir.exists() {
        Some(dir)
    } else {
        missing(what, &format!("{} is absent", dir.display()));
        None
    }
}

/// An llvm-dis on this machine (any version air-scan would find), or
/// `None` after [`missing`].
pub fn llvm_dis(what: &str) -> Option<PathBuf> {
    match air_scan::compile::find_llvm_dis(None) {
        Ok(p) => Some(p),
        Err(e) => {
            missing(what, &format!("no llvm-dis: {e}"));
            None
        }
    }
}

/// Assembles `src` (IR text) into bitcode at `out` with the llvm-as beside
/// the llvm-dis air-scan finds; `false` after [`missing`] when there is none.
pub fn assemble(src: &Path, out: &Path, what: &str) -> bool {
    let Some(dis) = llvm_dis(what) else {
        return false;
    };
    let name = dis
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace("llvm-dis", "llvm-as");
    let llvm_as = dis.with_file_name(name);
    if !llvm_as.is_file() {
        missing(what, &format!("no llvm-as beside {}", dis.display()));
        return false;
    }
    let st = std::process::Command::new(&llvm_as)
        .arg(src)
        .arg("-o")
        .arg(out)
        .status()
        .unwrap();
    assert!(st.success(), "{} {}", llvm_as.display(), src.display());
    true
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
