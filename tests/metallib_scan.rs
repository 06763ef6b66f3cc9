//! Scanning a `.metallib` gives the same findings as scanning the `.ll`
//! files extracted from it (issue 6). Needs ../shared/corpus and an
//! llvm-dis; skips, saying so, without them.

mod common;

use air_scan::rules::{Finding, RuleSet};
use air_scan::scan::{ScanConfig, Status, scan_binary, scan_file};
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
