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

/// Its id.
pub const BAD_SUPPRESSION_ID: &str = "AIR000";

/// What `bad-suppression` is, for `explain` and the SARIF rule list: it has
/// no pattern, since it is found here, not in the IR.
pub struct PseudoRule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub category: &'static str,
    pub summary: &'static str,
    pub rationale: &'static str,
    pub fix: &'static str,
}

pub const BAD_SUPPRESSION_RULE: PseudoRule = PseudoRule {
    id: BAD_SUPPRESSION_ID,
    name: BAD_SUPPRESSION,
    severity: Severity::Warning,
    category: "suppression",
    summary: "A malformed `// air-scan: ignore[...]` comment: it names no rule, an unknown rule, \
              or gives no reason",
    rationale: "A suppression silences the findings of the rules it names on its line or the \
                line after, and must say why, so that a silenced finding always explains \
                itself. A comment that names no rule, names a rule air-scan does not know (a \
                typo such as `divide-by-unifrom` silences nothing), leaves its `[` open or \
                gives no reason is reported instead of being ignored.",
    fix: "Write `// air-scan: ignore[rule-name] why this is fine` on the line or the line \
          before, with a rule name or id from `air-scan rules`.",
};

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
/// `known` holds every rule's name and id (see [`Suppressor::new`]).
pub fn apply(files: &mut [FileReport], known: &[String]) {
    let mut suppressor = Suppressor::new(known);
    for file in files {
        suppressor.apply(file);
    }
}

/// `apply` one file at a time, for a scan that writes each report as it
/// comes: sources are read once, and a malformed comment is reported once,
/// whichever files' findings point at it.
pub struct Suppressor {
    sources: Sources,
    reported_bad: std::collections::HashSet<(String, usize)>,
    /// Every rule's name and id, lowercase, whether it runs or not: naming
    /// a rule left out by `--ignore` is no mistake, naming none is.
    known: Vec<String>,
}

impl Suppressor {
    /// `known`: the names and ids of every rule there is (in any case).
    pub fn new(known: &[String]) -> Self {
        let mut known: Vec<String> = known.iter().map(|k| k.to_ascii_lowercase()).collect();
        known.extend([
            BAD_SUPPRESSION.into(),
            BAD_SUPPRESSION_ID.to_ascii_lowercase(),
        ]);
        Suppressor {
            sources: Sources::default(),
            reported_bad: Default::default(),
            known,
        }
    }

    pub fn apply(&mut self, file: &mut FileReport) {
        let sources = &mut self.sources;
        let reported_bad = &mut self.reported_bad;
        let known = &self.known;
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
                let why = match parse(text) {
                    None => continue,
                    Some(Ok(c)) => {
                        let names = |r: &String| {
                            r.eq_ignore_ascii_case(&f.rule) || r.eq_ignore_ascii_case(&f.rule_id)
                        };
                        if c.rules.iter().any(names) {
                            silenced = Some(c.reason);
                            break;
                        }
                        match unknown_rules(&c, known) {
                            Some(why) => why,
                            None => continue,
                        }
                    }
                    Some(Err(why)) => why,
                };
                if reported_bad.insert((src.path.clone(), n)) {
                    let ordinal = lines[..n - 1].iter().filter(|l| *l == text).count();
                    let fingerprint = crate::rules::fingerprint_of(&[
                        BAD_SUPPRESSION,
                        text.trim(),
                        &ordinal.to_string(),
                    ]);
                    bad.push(bad_suppression(&f, &src.path, n as u32, why, fingerprint));
                }
            }
            match silenced {
                Some(reason) => file.suppressed.push(Suppressed {
                    rule: f.rule.to_string(),
                    path: src.path.clone(),
                    line: src.line,
                    reason,
                    fingerprint: f.fingerprint.clone(),
                    finding: Box::new(f),
                }),
                None => kept.push(f),
            }
        }
        kept.extend(bad);
        file.findings = kept;
    }
}

/// Why `comment` is bad for naming rules that do not exist (`known`:
/// lowercase names and ids), if it names any.
fn unknown_rules(comment: &Comment, known: &[String]) -> Option<String> {
    let unknown: Vec<String> = comment
        .rules
        .iter()
        .filter(|r| !known.contains(&r.to_ascii_lowercase()))
        .map(|r| format!("`{r}`"))
        .collect();
    let first = comment
        .rules
        .iter()
        .find(|r| !known.contains(&r.to_ascii_lowercase()))?
        .to_ascii_lowercase();
    let nearest = known
        .iter()
        .map(|k| (strsim::levenshtein(&first, k), k))
        .filter(|(d, _)| *d <= 3)
        .min();
    let hint = match nearest {
        Some((_, k)) => format!(" (did you mean `{k}`?)"),
        None => " (see `air-scan rules`)".into(),
    };
    Some(format!(
        "the suppression names {} {} that air-scan does not know{hint}, so it silences nothing",
        if unknown.len() == 1 { "rule" } else { "rules" },
        unknown.join(", ")
    ))
}

/// The finding for a bad comment at `path:line`. Its fingerprint hashes the
/// comment's text, not its line, so that a baseline still knows it after
/// the code around it moves.
fn bad_suppression(
    near: &Finding,
    path: &str,
    line: u32,
    why: String,
    fingerprint: String,
) -> Finding {
    let rule = &BAD_SUPPRESSION_RULE;
    let mut f = near.clone();
    f.rule = rule.name.into();
    f.rule_id = rule.id.into();
    f.severity = rule.severity;
    f.category = rule.category.into();
    f.message = why;
    f.help = rule.fix.into();
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
        on_disk: near.ir.on_disk,
    };
    f.evidence = crate::rules::Evidence::none();
    f.cycles = None;
    f.fingerprint = fingerprint;
    // The fingerprint stands for the comment's line, as a line's text would.
    let family = crate::rules::cause::family(&f.function);
    f.cause = crate::rules::cause::cause_id(&f, "", Some((&f.fingerprint, 0)), &family);
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
