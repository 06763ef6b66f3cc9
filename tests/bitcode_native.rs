//! The native bitcode reader against llvm-dis-22: every `.air` module of
//! ../shared/corpus and every module of each `.metallib` gives the same
//! findings (rule, function, fingerprint, evidence) and the same kernels
//! and arguments (`files[].kernels` of the JSON report) whether its text
//! comes from `ir::bitcode` or from llvm-dis-22. Skips, saying so, without
//! the corpus or llvm-dis-22.
//!
//! And the printed text itself against llvm-dis-14's (LLVM's printer of
//! the era of Apple's compilers), but the `; ModuleID` line and llvm-dis's
//! `; preds = ...` comments, which `air-scan dis` leaves out: every `.air`
//! module of the corpus prints as many lines, with the same metadata
//! numbers (`!N`) on each, in order. How many print identically is said
//! and held to a floor; the rest differ where llvm-dis-14 upgrades or
//! drops what it reads (attributes it does not know, intrinsics'
//! attributes, old frame-pointer attributes) or orders named structs
//! apart. And testdata/binary/debug-info.ll, one node of each debug-info
//! kind, assembled by llvm-as-14, prints as llvm-dis-14 prints it.

mod common;

use air_scan::compile::LlvmDis;
use air_scan::compile::metallib::Metallib;
use air_scan::ir::bitcode;
use air_scan::rules::RuleSet;
use air_scan::scan::{self, ScanConfig};
use rayon::prelude::*;
use std::path::PathBuf;

/// `tool` (`llvm-dis-22`) on PATH, or `None` after saying `what` skipped.
fn on_path(tool: &str, what: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(tool))
            .find(|c| c.is_file())
    });
    if found.is_none() {
        common::missing(what, &format!("no {tool} on PATH"));
    }
    found
}

fn llvm_dis_22() -> Option<PathBuf> {
    on_path("llvm-dis-22", "the differential test")
}

/// `text` but its first line (`; ModuleID`) and `; preds = ...` comments.
fn without_module_id_and_preds(text: &str) -> Vec<&str> {
    text.lines()
        .skip(1)
        .map(|line| match line.find("; preds = ") {
            Some(at) => line[..at].trim_end_matches(' '),
            None => line,
        })
        .collect()
}

#[test]
fn native_text_is_llvm_dis_14_text() {
    let what = "the native printer against llvm-dis-14";
    let Some(corpus) = common::shared("corpus", what) else {
        return;
    };
    let Some(tool) = on_path("llvm-dis-14", what) else {
        return;
    };
    let tool = LlvmDis::new(tool);
    let files = common::files_ending(&corpus, ".air");
    // Ok(whether the texts are identical; None: llvm-dis-14 cannot read
    // it), or why they number apart.
    let outcomes: Vec<Result<Option<bool>, String>> = files
        .par_iter()
        .map_init(bitcode::Reuse::default, |reuse, path| {
            let name = path.display().to_string();
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            let (native, external) = match (
                bitcode::to_text(&bytes, &name, 0, reuse),
                tool.disassemble(&bytes, &name),
            ) {
                (Ok(n), Ok(e)) => (n, e),
                // Not bitcode at all (a text file named .air): both refuse.
                (Err(_), Err(_)) => return Ok(Some(true)),
                (Err(e), Ok(_)) => return Err(format!("{name}: refused natively: {e}")),
                // Bitcode newer than LLVM 14 (the test against llvm-dis-22
                // covers it).
                (Ok(_), Err(_)) => return Ok(None),
            };
            let (ours, theirs) = (
                without_module_id_and_preds(&native),
                without_module_id_and_preds(&external),
            );
            if ours.len() != theirs.len() {
                return Err(format!(
                    "{name}: {} lines, llvm-dis-14 {}",
                    ours.len() + 1,
                    theirs.len() + 1
                ));
            }
            let numbered = ours
                .iter()
                .zip(&theirs)
                .position(|(a, b)| metadata_numbers(a).ne(metadata_numbers(b)));
            if let Some(i) = numbered {
                return Err(format!(
                    "{name}: line {} numbers metadata apart:\n  native:      {}\n  llvm-dis-14: {}",
                    i + 2,
                    ours[i],
                    theirs[i]
                ));
            }
            Ok(Some(ours == theirs))
        })
        .collect();
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    let identical = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(Some(true))))
        .count();
    let unread = outcomes.iter().filter(|o| matches!(o, Ok(None))).count();
    eprintln!(
        "native printer against llvm-dis-14: {} of {} .air files number metadata alike, \
         {identical} identical ({unread} llvm-dis-14 cannot read)",
        outcomes.len() - failures.len() - unread,
        outcomes.len() - unread
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} files differ", failures.len());
    // The rest differ where llvm-dis-14 drops what LLVM 14 does not know
    // (`nocallback`) or upgrades (intrinsics' attributes, the old
    // frame-pointer attribute), not where it prints the same thing
    // another way: 104 were identical before debug info followed
    // LLVM 14's `MDFieldPrinter`.
    assert!(
        identical >= 175,
        "{identical} texts identical to llvm-dis-14's, fewer than 175"
    );
}

/// Every debug-info kind the native reader decodes, with the values
/// LLVM 14's `MDFieldPrinter` leaves out or names, prints as llvm-dis-14
/// prints it (testdata/binary/debug-info.ll, assembled by llvm-as-14).
#[test]
fn debug_info_forms_print_as_llvm_dis_14_prints_them() {
    let what = "debug info against llvm-dis-14";
    let (Some(llvm_as), Some(dis)) = (on_path("llvm-as-14", what), on_path("llvm-dis-14", what))
    else {
        return;
    };
    let src =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/binary/debug-info.ll");
    let tmp = tempfile::tempdir().unwrap();
    let bc = tmp.path().join("debug-info.bc");
    let status = std::process::Command::new(llvm_as)
        .arg(&src)
        .arg("-o")
        .arg(&bc)
        .status()
        .unwrap();
    assert!(status.success(), "llvm-as-14 {}", src.display());
    let bytes = std::fs::read(&bc).unwrap();
    let theirs = LlvmDis::new(dis).disassemble(&bytes, "debug-info").unwrap();
    let ours = bitcode::to_text(&bytes, "debug-info", 0, &mut bitcode::Reuse::default()).unwrap();
    let (ours, theirs) = (
        without_module_id_and_preds(&ours),
        without_module_id_and_preds(&theirs),
    );
    // Each kind is there, so that a line left out of both is not missed.
    for kind in [
        "DICompileUnit",
        "DIFile(",
        "DISubrange",
        "DILocalVariable",
        "DIModule",
    ] {
        assert!(
            theirs.iter().any(|l| l.contains(kind)),
            "no {kind} in the fixture"
        );
    }
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a, b, "native, then llvm-dis-14");
    }
    assert_eq!(ours.len(), theirs.len());
}

/// The metadata numbers `line` names (`!12` of `!tbaa !12`, `!12 = ...`),
/// in order; not names (`!tbaa`) nor strings (`!"text"`).
fn metadata_numbers(line: &str) -> impl Iterator<Item = &str> {
    line.split('!').skip(1).filter_map(|after| {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0).then(|| &after[..digits])
    })
}

/// What must agree: each finding's rule, function, fingerprint and
/// evidence, in order, and the kernels with their arguments.
fn facts(
    name: &str,
    text: &str,
    config: &ScanConfig<'_>,
) -> (Vec<serde_json::Value>, serde_json::Value) {
    let report = scan::scan_text_with(name.to_string(), text, config);
    let findings = report
        .findings
        .iter()
        .map(|f| {
            let v = serde_json::to_value(f).unwrap();
            // IR lines in the evidence (`exit_line`, `branch_line`,
            // `chain_lines`) are places in each text, which the two
            // disassemblers lay out apart, like the finding's own line.
            let mut evidence = v["evidence"].clone();
            if let Some(e) = evidence.as_object_mut() {
                e.retain(|k, _| !k.ends_with("_line") && !k.ends_with("_lines"));
            }
            serde_json::json!({
                "rule": v["rule"],
                "function": v["function"],
                "fingerprint": v["fingerprint"],
                "evidence": evidence,
            })
        })
        .collect();
    (findings, serde_json::to_value(&report.kernels).unwrap())
}

#[test]
fn native_text_scans_as_llvm_dis_22_text() {
    let Some(corpus) = common::shared("corpus", "the native bitcode differential test") else {
        return;
    };
    let Some(tool) = llvm_dis_22() else { return };
    let tool = LlvmDis::new(tool);
    let mut modules: Vec<(String, Vec<u8>)> = Vec::new();
    for p in common::files_ending(&corpus, ".air") {
        let bytes = std::fs::read(&p).unwrap();
        modules.push((p.display().to_string(), bytes));
    }
    let libraries = common::files_ending(&corpus, ".metallib");
    for p in &libraries {
        let bytes = std::fs::read(p).unwrap();
        let lib = Metallib::parse(&bytes).unwrap();
        for f in &lib.functions {
            modules.push((format!("{}:{}", p.display(), f.name), f.module().to_vec()));
        }
    }
    let rules = RuleSet::builtin();
    let config = ScanConfig::new(&rules);
    let outcomes: Vec<Result<(), String>> = modules
        .par_iter()
        .map_init(bitcode::Reuse::default, |reuse, (name, bytes)| {
            let (native, external) = match (bitcode::to_text(bytes, name, 0, reuse), tool.disassemble(bytes, name)) {
                (Ok(n), Ok(e)) => (n, e),
                // Not bitcode at all (a text file named .air): both refuse.
                (Err(_), Err(_)) => return Ok(()),
                (Err(e), Ok(_)) => return Err(format!("{name}: refused natively: {e}")),
                (Ok(_), Err(e)) => return Err(format!("{name}: llvm-dis-22: {e}")),
            };
            let (nf, nk) = facts(name, &native, &config);
            let (ef, ek) = facts(name, &external, &config);
            if nf != ef {
                return Err(format!(
                    "{name}: findings differ: native {} vs llvm-dis-22 {}\n  native: {:?}\n  llvm-dis-22: {:?}",
                    nf.len(),
                    ef.len(),
                    nf.iter().find(|f| !ef.contains(f)),
                    ef.iter().find(|f| !nf.contains(f)),
                ));
            }
            if nk != ek {
                return Err(format!("{name}: kernels differ"));
            }
            Ok(())
        })
        .collect();
    let failures: Vec<&String> = outcomes.iter().filter_map(|o| o.as_ref().err()).collect();
    let agree = outcomes.len() - failures.len();
    eprintln!(
        "native bitcode differential: {agree} of {} modules agree ({} .metallib files)",
        outcomes.len(),
        libraries.len()
    );
    for f in failures.iter().take(20) {
        eprintln!("{f}");
    }
    assert!(failures.is_empty(), "{} modules disagree", failures.len());
}
