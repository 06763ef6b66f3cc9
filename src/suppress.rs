//! Suppressions written in MSL: `// air-scan: ignore[rule-slug] reason`
//! on the finding's line or the line before silences it. A suppression
//! without a rule or without a reason is itself reported, so a silenced
//! finding always says why.

use crate::rules::{Finding, IrLocation, Severity};
use crate::scan::{FileReport, Suppressed};
use std::collections::HashMap;

/// The marker that starts a suppression comment.
pub const MARKER: &str = "air-scan: ignore";

/// The pseudo-rule a malformed suppression is reported under.
pub const BAD_SUPPRESSION: &str = "bad-suppression";

/// One `air-scan: ignore[...]` comment as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Comment {
    pub rules: Vec<String>,
    pub reason: String,
}

/// Parses the suppression in `line`, if it holds one. `Err` says what is missing.
pub fn parse(line: &str) -> Option<Result<Comment, String>> {
    let at = line.find(MARKER)?;
    // Only in a comment.
    if !line[..at].contains("//") {
        return None;
    }
    let rest = &line[at + MARKER.len()..];
    let Some(list) = rest.strip_prefix('[') else {
        return Some(Err(
            "a suppression must name its rules: `// air-scan: ignore[rule-name] reason`".into(),
        ));
    };
    let Some(end) = list.find(']') else {
        return Some(Err("unclosed `[` in suppression".into()));
    };
    let rules: Vec<String> = list[..end]
        .split(',')
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty())
        .collect();
    if rules.is_empty() {
        return Some(Err("a suppression must name at least one rule".into()));
    }
    let reason = list[end + 1..].trim().to_string();
    if reason.is_empty() {
        return Some(Err(format!(
            "the suppression of {} gives no reason",
            rules.join(", ")
        )));
    }
    Some(Ok(Comment { rules, reason }))
}

/// Reads source files once each.
#[derive(Default)]
struct Sources {
    files: HashMap<String, Option<Vec<String>>>,
}

impl Sources {
    fn lines(&mut self, path: &str) -> Option<&[String]> {
        self.files
            .entry(path.to_string())
            .or_insert_with(|| {
                let bytes = std::fs::read(path).ok()?;
                Some(
                    String::from_utf8_lossy(&bytes)
                        .lines()
                        .map(str::to_string)
                        .collect(),
                )
            })
            .as_deref()
    }
}

/// Moves suppressed findings out of each file's findings (into its
/// `suppressed`), and adds a finding for each malformed suppression met.
pub fn apply(files: &mut [FileReport]) {
    let mut suppressor = Suppressor::default();
    for file in files {
        suppressor.apply(file);
    }
}

/// `apply` one file at a time, for a scan that writes each report as it
/// comes: sources are read once, and a malformed comment is reported once,
/// whichever files' findings point at it.
#[derive(Default)]
pub struct Suppressor {
    sources: Sources,
    reported_bad: std::collections::HashSet<(String, usize)>,
}

impl Suppressor {
    pub fn apply(&mut self, file: &mut FileReport) {
        let sources = &mut self.sources;
        let reported_bad = &mut self.reported_bad;
        let mut kept = Vec::new();
        let mut bad = Vec::new();
        for f in std::mem::take(&mut file.findings) {
            let Some(src) = f.source.clone() else {
                kept.push(f);
                continue;
            };
            let Some(lines) = sources.lines(&src.path) else {
                kept.push(f);
                continue;
            };
            let here = src.line as usize;
            let mut silenced = None;
            for n in [here, here.saturating_sub(1)] {
                let Some(text) = n.checked_sub(1).and_then(|i| lines.get(i)) else {
                    continue;
                };
                match parse(text) {
                    Some(Ok(c)) if c.rules.iter().any(|r| **r == *f.rule || **r == *f.rule_id) => {
                        silenced = Some(c.reason);
                        break;
                    }
                    Some(Err(why)) if reported_bad.insert((src.path.clone(), n)) => {
                        bad.push(bad_suppression(&f, &src.path, n as u32, why));
                    }
                    _ => {}
                }
            }
            match silenced {
                Some(reason) => file.suppressed.push(Suppressed {
                    rule: f.rule.to_string(),
                    path: src.path.clone(),
                    line: src.line,
                    reason,
                    fingerprint: f.fingerprint.clone(),
                }),
                None => kept.push(f),
            }
        }
        kept.extend(bad);
        file.findings = kept;
    }
}

fn bad_suppression(near: &Finding, path: &str, line: u32, why: String) -> Finding {
    let mut f = near.clone();
    f.rule = BAD_SUPPRESSION.into();
    f.rule_id = "AIR000".into();
    f.severity = Severity::Warning;
    f.category = "suppression".into();
    f.message = why;
    f.help =
        "Write `// air-scan: ignore[rule-name] why this is fine` on the line or the line before."
            .into();
    f.source = Some(crate::source::SourceLocation {
        path: path.to_string(),
        line,
        column: 0,
        function: None,
        approximate: false,
        status: crate::source::SourceStatus::Exact,
    });
    f.inlined_at.clear();
    f.ir = IrLocation {
        path: near.ir.path.clone(),
        line: near.ir.line,
        instruction: String::new(),
    };
    f.evidence = crate::rules::Evidence::none();
    f.cycles = None;
    f.fingerprint = format!("suppression:{path}:{line}");
    f.cause = crate::rules::cause::cause_id(&f, "");
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_suppressions() {
        let ok = parse("  x = a / n; // air-scan: ignore[divide-by-uniform] n is 1 or 2, measured")
            .unwrap()
            .unwrap();
        assert_eq!(ok.rules, ["divide-by-uniform"]);
        assert_eq!(ok.reason, "n is 1 or 2, measured");
        let two = parse("// air-scan: ignore[AIR001, divide-by-varying] tiny grid")
            .unwrap()
            .unwrap();
        assert_eq!(two.rules, ["AIR001", "divide-by-varying"]);
        assert!(parse("// air-scan: ignore reason only").unwrap().is_err());
        assert!(parse("// air-scan: ignore[] nothing").unwrap().is_err());
        assert!(
            parse("// air-scan: ignore[divide-by-uniform]")
                .unwrap()
                .is_err()
        );
        assert!(
            parse("// air-scan: ignore[divide-by-uniform")
                .unwrap()
                .is_err()
        );
        assert!(parse("x = 1; // nothing here").is_none());
        assert!(parse("s = \"air-scan: ignore[x] y\";").is_none());
    }
}
