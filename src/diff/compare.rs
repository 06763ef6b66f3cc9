//! Pairing two measured modules kernel by kernel, as shader-db's report.py
//! pairs shaders: per metric, each side's value and the change; a kernel is
//! helped on a metric when the value fell and hurt when it rose (fewer is
//! better for every metric here); totals are over the kernels on both sides.

use super::explain::{self, Anchored, Comparison, Site};
use super::metrics::{Analysis, KernelStats, METRICS, Metrics};
use crate::rules::{Finding, RuleSet};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

/// One metric of one kernel on both sides.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// The JSON key (`instructions`, ...) or the rule name for findings.
    #[serde(skip)]
    pub key: String,
    #[serde(skip)]
    pub label: String,
    pub a: u64,
    pub b: u64,
}

impl Row {
    pub fn change(&self) -> i64 {
        (self.b as i64).saturating_sub(self.a as i64)
    }

    /// Relative change in percent; `None` when `a` is 0 (report.py prints
    /// "inf" there).
    pub fn percent(&self) -> Option<f64> {
        (self.a != 0).then(|| self.change() as f64 * 100.0 / self.a as f64)
    }
}

/// A finding present on one side only, and where its computation sits.
#[derive(Clone, Debug, Serialize)]
pub struct FindingChange {
    pub rule: String,
    pub message: String,
    pub site: Site,
    /// The memory access (or instruction) the finding's value reaches, on
    /// both sides; absent when the finding's instruction was not found
    /// again in its body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anchor: Option<AnchorSides>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AnchorSides {
    /// e.g. "load i8 from `data` (address space 1)".
    pub what: String,
    /// `address`: the finding's value feeds the address of `what`;
    /// `instruction`: `what` is the finding's instruction itself.
    pub role: &'static str,
    /// Where that anchor sits in a, and in b (the other side may have
    /// none, or several).
    pub a: Vec<Site>,
    pub b: Vec<Site>,
    #[serde(flatten)]
    pub comparison: Comparison,
}

/// A kernel found on both sides.
#[derive(Clone, Debug)]
pub struct KernelDiff {
    /// The file's path relative to the compared directories ("" for two files).
    pub file: String,
    pub name: String,
    pub rows: Vec<Row>,
    /// One row per rule.
    pub findings: Vec<Row>,
    pub introduced: Vec<FindingChange>,
    pub removed: Vec<FindingChange>,
}

impl KernelDiff {
    pub fn changed(&self) -> bool {
        self.rows.iter().chain(&self.findings).any(|r| r.a != r.b)
            || !self.introduced.is_empty()
            || !self.removed.is_empty()
    }
}

/// A kernel found on one side only.
#[derive(Clone, Debug)]
pub struct OneSided {
    pub file: String,
    pub name: String,
    pub metrics: Metrics,
    pub findings: usize,
}

/// Sums over the kernels on both sides, per metric.
#[derive(Clone, Debug, Serialize)]
pub struct Total {
    #[serde(skip)]
    pub key: String,
    #[serde(skip)]
    pub label: String,
    pub a: u64,
    pub b: u64,
    /// Kernels where the value fell, and where it rose.
    pub helped: usize,
    pub hurt: usize,
    /// The sums over the kernels whose value changed (report.py's
    /// "in affected programs").
    pub affected_a: u64,
    pub affected_b: u64,
}

impl Total {
    pub fn row(&self) -> Row {
        Row {
            key: self.key.clone(),
            label: self.label.clone(),
            a: self.a,
            b: self.b,
        }
    }
}

/// Totals over `kernels`, metric rows then one row per rule.
pub fn totals(kernels: &[KernelDiff], rules: &RuleSet) -> (Vec<Total>, Vec<Total>) {
    let empty = |key: &str, label: &str| Total {
        key: key.to_string(),
        label: label.to_string(),
        a: 0,
        b: 0,
        helped: 0,
        hurt: 0,
        affected_a: 0,
        affected_b: 0,
    };
    let mut metrics: Vec<Total> = METRICS.iter().map(|m| empty(m.key, m.label)).collect();
    let mut findings: Vec<Total> = rules
        .rules
        .iter()
        .map(|r| empty(&r.pattern.name, &r.pattern.name))
        .collect();
    let add = |t: &mut Total, r: &Row| {
        t.a += r.a;
        t.b += r.b;
        if r.b < r.a {
            t.helped += 1;
        } else if r.b > r.a {
            t.hurt += 1;
        }
        if r.a != r.b {
            t.affected_a += r.a;
            t.affected_b += r.b;
        }
    };
    for k in kernels {
        for (t, r) in metrics.iter_mut().zip(&k.rows) {
            add(t, r);
        }
        for (t, r) in findings.iter_mut().zip(&k.findings) {
            add(t, r);
        }
    }
    (metrics, findings)
}

fn rule_counts(rules: &RuleSet, findings: &[(usize, Finding)]) -> Vec<u64> {
    rules
        .rules
        .iter()
        .map(|r| {
            findings
                .iter()
                .filter(|(_, f)| *f.rule == *r.pattern.name)
                .count() as u64
        })
        .collect()
}

/// The rows of one kernel on both sides (either may be missing: zeros).
pub fn rows(rules: &RuleSet, a: &KernelStats, b: &KernelStats) -> (Vec<Row>, Vec<Row>) {
    let rows = METRICS
        .iter()
        .enumerate()
        .map(|(i, m)| Row {
            key: m.key.to_string(),
            label: m.label.to_string(),
            a: a.metrics.0[i],
            b: b.metrics.0[i],
        })
        .collect();
    let (ca, cb) = (
        rule_counts(rules, &a.findings),
        rule_counts(rules, &b.findings),
    );
    let findings = rules
        .rules
        .iter()
        .enumerate()
        .map(|(i, r)| Row {
            key: r.pattern.name.clone(),
            label: r.pattern.name.clone(),
            a: ca.get(i).copied().unwrap_or(0),
            b: cb.get(i).copied().unwrap_or(0),
        })
        .collect();
    (rows, findings)
}

/// Pairs the findings of the two sides: first by rule, function and
/// message, then by rule and message, then by rule alone in line order.
/// Returns the indices left unpaired on each side.
fn unpaired(a: &[(usize, Finding)], b: &[(usize, Finding)]) -> (Vec<usize>, Vec<usize>) {
    let mut used_a = vec![false; a.len()];
    let mut used_b = vec![false; b.len()];
    type Key<'k> = fn(&'k Finding) -> (&'k str, &'k str, &'k str);
    let keys: [Key<'_>; 3] = [
        |f| (&f.rule, &f.function, &f.message),
        |f| (&f.rule, "", &f.message),
        |f| (&f.rule, "", ""),
    ];
    for key in keys {
        let mut waiting: FxHashMap<(&str, &str, &str), Vec<usize>> = FxHashMap::default();
        for (j, (_, f)) in b.iter().enumerate().rev() {
            if !used_b[j] {
                waiting.entry(key(f)).or_default().push(j);
            }
        }
        for (i, (_, f)) in a.iter().enumerate() {
            if used_a[i] {
                continue;
            }
            if let Some(j) = waiting.get_mut(&key(f)).and_then(Vec::pop) {
                used_a[i] = true;
                used_b[j] = true;
            }
        }
    }
    let left = |used: &[bool]| {
        used.iter()
            .enumerate()
            .filter(|(_, u)| !**u)
            .map(|(i, _)| i)
            .collect()
    };
    (left(&used_a), left(&used_b))
}

/// Compares kernel `ka` of `a` with kernel `kb` of `b`, explaining any
/// finding present on one side only.
pub fn kernel(
    rules: &RuleSet,
    file: &str,
    a: &mut Analysis<'_>,
    ka: usize,
    b: &mut Analysis<'_>,
    kb: usize,
) -> Option<KernelDiff> {
    let (sa, sb) = (a.kernels.get(ka)?, b.kernels.get(kb)?);
    let (rows, findings) = rows(rules, sa, sb);
    let (gone, new) = unpaired(&sa.findings, &sb.findings);
    let mut out = KernelDiff {
        file: file.to_string(),
        name: sa.name.clone(),
        rows,
        findings,
        introduced: Vec::new(),
        removed: Vec::new(),
    };
    if gone.is_empty() && new.is_empty() {
        return Some(out);
    }
    let at = |s: &KernelStats, idx: &[usize]| -> Vec<(usize, u32)> {
        idx.iter()
            .filter_map(|&i| s.findings.get(i).map(|(fi, f)| (*fi, f.ir.line)))
            .collect()
    };
    let (at_a, at_b) = (at(sa, &gone), at(sb, &new));
    let (functions_a, functions_b) = (sa.functions.clone(), sb.functions.clone());
    let finds = |s: &KernelStats, idx: &[usize]| -> Vec<Finding> {
        idx.iter()
            .filter_map(|&i| s.findings.get(i).map(|(_, f)| f.clone()))
            .collect()
    };
    let (found_a, found_b) = (finds(sa, &gone), finds(sb, &new));

    let anchors_a = explain::anchors_of(a, &at_a);
    let anchors_b = explain::anchors_of(b, &at_b);
    let ids = |xs: &[Option<(Site, Anchored)>]| -> FxHashSet<String> {
        xs.iter()
            .flatten()
            .map(|(_, x)| x.identity.clone())
            .collect()
    };
    let in_b = explain::find_anchors(b, &functions_b, &ids(&anchors_a));
    let in_a = explain::find_anchors(a, &functions_a, &ids(&anchors_b));

    for ((f, at), anchor) in found_a.iter().zip(&at_a).zip(anchors_a) {
        out.removed.push(change(a, f, at, anchor, &in_b, Side::A));
    }
    for ((f, at), anchor) in found_b.iter().zip(&at_b).zip(anchors_b) {
        out.introduced
            .push(change(b, f, at, anchor, &in_a, Side::B));
    }
    Some(out)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    A,
    B,
}

fn change(
    here: &Analysis<'_>,
    f: &Finding,
    at: &(usize, u32),
    found: Option<(Site, Anchored)>,
    there: &FxHashMap<String, Vec<Anchored>>,
    side: Side,
) -> FindingChange {
    let Some((site, anchor)) = found else {
        // The instruction was not found again: say what the finding says.
        let function = here
            .module
            .functions
            .get(at.0)
            .map_or(f.function.to_string(), |x| x.name.to_string());
        return FindingChange {
            rule: f.rule.to_string(),
            message: f.message.clone(),
            site: Site {
                function,
                line: f.ir.line,
                block: String::new(),
                conditional: false,
                loop_depth: f.loop_depth,
                instruction: String::new(),
            },
            anchor: None,
        };
    };
    let others: &[Anchored] = there.get(&anchor.identity).map_or(&[], |v| v);
    // The equivalent on the other side: the candidate sharing the most
    // slice shapes with this one (the first on ties).
    let best = others.iter().max_by_key(|o| {
        let c = explain::compare(&anchor.slice, &o.slice);
        let shared = anchor
            .slice
            .len()
            .saturating_sub(c.only_a.len() + c.moved.len());
        (shared, std::cmp::Reverse(o.site.line))
    });
    let comparison = match (best, side) {
        (Some(o), Side::A) => explain::compare(&anchor.slice, &o.slice),
        (Some(o), Side::B) => explain::compare(&o.slice, &anchor.slice),
        (None, Side::A) => Comparison {
            only_a: anchor.slice.iter().map(|s| s.site.clone()).collect(),
            ..Comparison::default()
        },
        (None, Side::B) => Comparison {
            only_b: anchor.slice.iter().map(|s| s.site.clone()).collect(),
            ..Comparison::default()
        },
    };
    let others: Vec<Site> = others.iter().map(|o| o.site.clone()).collect();
    let (sa, sb) = match side {
        Side::A => (vec![anchor.site.clone()], others),
        Side::B => (others, vec![anchor.site.clone()]),
    };
    FindingChange {
        rule: f.rule.to_string(),
        message: f.message.clone(),
        site,
        anchor: Some(AnchorSides {
            role: if anchor.access {
                "address"
            } else {
                "instruction"
            },
            what: anchor.identity,
            a: sa,
            b: sb,
            comparison,
        }),
    }
}
