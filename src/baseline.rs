//! `--baseline report.json`: report only findings that a previous JSON
//! report did not have. Findings match on rule, file, function and
//! fingerprint (a hash of the instruction's shape), never on line numbers,
//! so edits that move code do not resurface known findings.

use crate::rules::Finding;
use crate::scan::FileReport;
use std::collections::HashSet;
use std::path::Path;

type Key = (String, String, String, String);

pub struct Baseline {
    known: HashSet<Key>,
}

/// The file a finding is filed under: its MSL source when known, else its IR file.
fn file_of(source_path: Option<&str>, ir_path: &str) -> String {
    let p = source_path.unwrap_or(ir_path);
    p.strip_prefix("./").unwrap_or(p).to_string()
}

fn key(f: &Finding) -> Key {
    (
        f.rule.to_string(),
        file_of(f.source.as_ref().map(|s| s.path.as_str()), &f.ir.path),
        f.function.to_string(),
        f.fingerprint.clone(),
    )
}

impl Baseline {
    /// Reads the `findings` of a report written by `--format json`.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a JSON report: {e}", path.display()))?;
        let findings = v["findings"].as_array().ok_or_else(|| {
            format!(
                "{}: no `findings` array: is it a `--format json` report?",
                path.display()
            )
        })?;
        let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
        let known = findings
            .iter()
            .map(|f| {
                let file = file_of(
                    f["source"]["path"].as_str(),
                    f["ir"]["path"].as_str().unwrap_or(""),
                );
                (s(&f["rule"]), file, s(&f["function"]), s(&f["fingerprint"]))
            })
            .collect();
        Ok(Baseline { known })
    }

    /// Removes the findings the baseline knows; returns how many.
    pub fn apply(&self, files: &mut [FileReport]) -> usize {
        let mut removed = 0;
        for file in files {
            let before = file.findings.len();
            file.findings.retain(|f| !self.known.contains(&key(f)));
            file.baseline_matched = before - file.findings.len();
            removed += file.baseline_matched;
        }
        removed
    }
}
