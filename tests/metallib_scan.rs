//! Scanning a `.metallib` gives the same findings as scanning the `.ll`
//! files extracted from it (issue 6). Needs ../shared/corpus and an
//! llvm-dis; skips, saying so, without them.

mod common;

use air_scan::rules::{Finding, RuleSet};
use air_scan::scan::{ScanConfig, Status, scan_binary, scan_file, scan_path, scan_paths};
use std::collections::BTreeMap;

type Key = (String, String, String);

fn key(f: &Finding) -> Key {
    (
        f.function.to_string(),
        f.rule.to_string(),
        f.evidence.subject().unwrap_or("").to_string(),
    )
}

fn tally(findings: impl Iterator<Item = Key>) -> BTreeMap<Key, usize> {
    let mut m = BTreeMap::new();
    for k in findings {
        *m.entry(k).or_insert(0) += 1;
    }
    m
}

#[test]
fn mlx_metallib_matches_its_extracted_ll_files() {
    let Some(dir) = common::shared("corpus/Iito__spindll", "the mlx.metallib scan test") else {
        return;
    };
    if common::llvm_dis("the mlx.metallib scan test").is_none() {
        return;
    }
    let rules = RuleSet::builtin();
    let config = ScanConfig::new(&rules);
    let reports = scan_binary(&dir.join("mlx.metallib"), &config);
    assert_eq!(reports.len(), 382);
    assert!(
        reports.iter().all(|r| r.status == Status::Ok),
        "a module failed"
    );
    assert!(
        reports[0]
            .path
            .ends_with("mlx.metallib:steel_attention_float16_bq32_bk16_bd128_wm4_wn1_maskfloat16")
    );
    let from_library = tally(reports.iter().flat_map(|r| &r.findings).map(key));

    let mut typed = Vec::new();
    for e in std::fs::read_dir(dir.join("mlx.metallib.extracted"))
        .unwrap()
        .flatten()
    {
        let p = e.path();
        let name = p.to_string_lossy().into_owned();
        if name.ends_with(".ll") && !name.ends_with(".opaque.ll") {
            typed.push(p);
        }
    }
    assert_eq!(typed.len(), 382);
    let from_files = tally(
        typed
            .iter()
            .flat_map(|p| scan_file(p, &rules).findings)
            .map(|f| key(&f)),
    );
    // 1,030 divides, of which 461 udiv/urem pairs are one finding each.
    assert!(from_library.values().sum::<usize>() > 500);
    assert_eq!(from_library, from_files);
}

/// A library's reports go to the sink module by module, as each is read,
/// not once the library is done: the order and bytes of what a scan gives
/// stay what scanning each file alone gives, in walk order, with one job
/// or several, for libraries before, between and after text files.
#[test]
fn streamed_library_reports_keep_walk_order() {
    let Some(corpus) = common::shared("corpus", "the streamed library order test") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let copy = |from: &std::path::Path, to: &str| {
        std::fs::copy(from, tmp.path().join(to)).unwrap();
    };
    copy(
        &corpus.join("EricLBuehler__mistral.rs/default.metallib"),
        "1.metallib",
    );
    let kernel =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/minimal_kernel.ll");
    copy(&kernel, "2.ll");
    copy(
        &corpus.join("RosaStack__rosemetal/examples/hello/Shaders.metallib"),
        "3.metallib",
    );
    copy(
        &corpus.join("quantumjot__btrack/default.metallib"),
        "4.metallib",
    );
    copy(&kernel, "5.ll");
    // Not a library at all: its one report, in its place.
    std::fs::write(tmp.path().join("6.metallib"), b"MTLB broken").unwrap();

    let rules = RuleSet::builtin();
    let config = ScanConfig::new(&rules);
    let as_json = |reports: &[air_scan::scan::FileReport]| -> Vec<String> {
        reports
            .iter()
            .map(|r| serde_json::to_string(r).unwrap())
            .collect()
    };
    let mut one_by_one = Vec::new();
    for name in [
        "1.metallib",
        "2.ll",
        "3.metallib",
        "4.metallib",
        "5.ll",
        "6.metallib",
    ] {
        one_by_one.extend(scan_path(&tmp.path().join(name), &config));
    }
    let libraries = one_by_one
        .iter()
        .filter(|r| r.path.contains(".metallib:"))
        .count();
    assert!(libraries > 6, "the libraries gave {libraries} modules");
    assert!(
        one_by_one
            .last()
            .unwrap()
            .error
            .as_deref()
            .unwrap()
            .contains("damaged metallib")
    );
    let expected = as_json(&one_by_one);
    for jobs in [1, 2, 3] {
        let scanned = scan_paths(&[tmp.path().to_path_buf()], jobs, &config);
        assert_eq!(as_json(&scanned), expected, "--jobs {jobs}");
    }
}
