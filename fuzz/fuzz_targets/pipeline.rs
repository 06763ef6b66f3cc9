//! The whole pipeline on one file: the input check, then `scan_text` with
//! every built-in rule, then the report as JSON.
#![no_main]

use air_scan::rules::RuleSet;
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

/// Parsing the rule patterns once keeps each run about the input.
static RULES: LazyLock<RuleSet> = LazyLock::new(RuleSet::builtin);

fuzz_target!(|data: &[u8]| {
    let Ok(text) = air_scan::input::as_ir_text(data) else {
        return;
    };
    let report = air_scan::scan::scan_text("fuzz.ll".into(), text, &RULES);
    assert!(report.diagnostics.iter().all(|d| d.line >= 1));
    let _ = serde_json::to_string(&report);
});
