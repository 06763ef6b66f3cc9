//! The diff as a text table (shader-db style: metric, a, b, change,
//! percent) or as JSON (docs/diff.schema.json).

use super::DiffReport;
use super::compare::{FindingChange, KernelDiff, OneSided, Row, Total};
use super::explain::{Moved, Site};
use super::metrics::{INSTRUCTIONS, METRICS};
use serde_json::{Map, Value, json};
use std::fmt::Write;

/// At most this many steps are listed per "moved" or "only in" group in
/// text; JSON has them all.
const MAX_LISTED: usize = 8;

fn percent(p: Option<f64>) -> String {
    match p {
        Some(0.0) => "0.00%".to_string(),
        Some(p) => format!("{p:+.2}%"),
        None => "n/a".to_string(),
    }
}

/// Percent rounded to two decimals, as the text shows it.
fn percent_json(p: Option<f64>) -> Value {
    match p {
        Some(p) => json!((p * 100.0).round() / 100.0),
        None => Value::Null,
    }
}

fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn kernel_name(file: &str, name: &str) -> String {
    if file.is_empty() {
        name.to_string()
    } else {
        format!("{file}: {name}")
    }
}

/// Rows to show: all that are non-zero on some side, or only the changed.
fn shown(rows: &[Row], changes_only: bool) -> impl Iterator<Item = &Row> {
    rows.iter().filter(move |r| {
        if changes_only {
            r.a != r.b
        } else {
            r.a != 0 || r.b != 0
        }
    })
}

fn table(out: &mut String, rows: &[(String, &Row)]) {
    let w = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(6).max(6);
    let _ = writeln!(
        out,
        "  {:<w$}  {:>9}  {:>9}  {:>9}  {:>9}",
        "metric", "a", "b", "change", "percent"
    );
    for (label, r) in rows {
        let _ = writeln!(
            out,
            "  {:<w$}  {:>9}  {:>9}  {:>9}  {:>9}",
            label,
            r.a,
            r.b,
            signed(r.change()),
            percent(r.percent())
        );
    }
}

fn place(s: &Site) -> String {
    if s.block.is_empty() {
        return format!("@{} line {}", s.function, s.line);
    }
    let mut p = format!(
        "@{} line {}, block {} ({}",
        s.function,
        s.line,
        s.block,
        if s.conditional {
            "conditional"
        } else {
            "unconditional"
        }
    );
    if s.loop_depth > 0 {
        let _ = write!(p, ", loop depth {}", s.loop_depth);
    }
    p.push(')');
    p
}

fn sites(out: &mut String, indent: &str, side: &str, list: &[Site]) {
    for s in list.iter().take(MAX_LISTED) {
        let _ = writeln!(out, "{indent}{side}{}: {}", place(s), s.instruction);
    }
    if list.len() > MAX_LISTED {
        let _ = writeln!(out, "{indent}... and {} more", list.len() - MAX_LISTED);
    }
}

fn finding_change(out: &mut String, c: &FindingChange, introduced: bool) {
    let (verb, side) = if introduced {
        ("introduced", "b")
    } else {
        ("removed", "a")
    };
    let _ = writeln!(
        out,
        "  {verb}: {} (only in {side}) at {}",
        c.rule,
        place(&c.site)
    );
    if !c.site.instruction.is_empty() {
        let _ = writeln!(out, "      {}", c.site.instruction);
    }
    let Some(an) = &c.anchor else {
        let _ = writeln!(out, "    {}", c.message);
        return;
    };
    if an.role == "address" {
        let _ = writeln!(out, "    its value feeds the address of: {}", an.what);
    } else {
        let _ = writeln!(out, "    the same instruction on each side: {}", an.what);
    }
    for (name, list) in [("a", &an.a), ("b", &an.b)] {
        if list.is_empty() {
            let _ = writeln!(out, "      {name}: none");
        } else {
            sites(out, "      ", &format!("{name}: "), list);
        }
    }
    let cmp = &an.comparison;
    let mut hows: Vec<&str> = cmp.moved.iter().map(|m| m.how.as_str()).collect();
    hows.dedup();
    for how in hows {
        let moved: Vec<_> = cmp.moved.iter().filter(|m| m.how == how).collect();
        let blocks = |side: fn(&Moved) -> &Site| {
            let mut v: Vec<&str> = Vec::new();
            for m in &moved {
                let b = side(m).block.as_str();
                if !v.contains(&b) {
                    v.push(b);
                }
            }
            v.join(", ")
        };
        let _ = writeln!(
            out,
            "    moved {how}: {} step{} from block {} (a) to block {} (b):",
            moved.len(),
            plural(moved.len()),
            blocks(|m| &m.a),
            blocks(|m| &m.b)
        );
        for m in moved.iter().take(MAX_LISTED) {
            let _ = writeln!(out, "      a: {}: {}", place(&m.a), m.a.instruction);
            let _ = writeln!(out, "      b: {}: {}", place(&m.b), m.b.instruction);
        }
        if moved.len() > MAX_LISTED {
            let _ = writeln!(out, "      ... and {} more", moved.len() - MAX_LISTED);
        }
    }
    for (name, list) in [("a", &cmp.only_a), ("b", &cmp.only_b)] {
        if !list.is_empty() {
            let _ = writeln!(out, "    only in {name}:");
            sites(out, "      ", "", list);
        }
    }
}

fn kernel(out: &mut String, k: &KernelDiff, changes_only: bool) {
    let changed = k.changed();
    if changes_only && !changed {
        return;
    }
    let _ = writeln!(
        out,
        "\n{}: {}",
        kernel_name(&k.file, &k.name),
        if changed { "changed" } else { "unchanged" }
    );
    let mut rows: Vec<(String, &Row)> = shown(&k.rows, changes_only)
        .map(|r| (r.label.clone(), r))
        .collect();
    rows.extend(shown(&k.findings, changes_only).map(|r| (format!("findings: {}", r.label), r)));
    if !rows.is_empty() {
        table(out, &rows);
    }
    for c in &k.introduced {
        finding_change(out, c, true);
    }
    for c in &k.removed {
        finding_change(out, c, false);
    }
}

fn one_sided(out: &mut String, title: &str, list: &[OneSided]) {
    if list.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}:");
    for k in list {
        let _ = writeln!(
            out,
            "  {} ({} instructions, {} finding{})",
            kernel_name(&k.file, &k.name),
            k.metrics.0[INSTRUCTIONS],
            k.findings,
            plural(k.findings)
        );
    }
}

fn totals(out: &mut String, r: &DiffReport, changes_only: bool) {
    let n = r.kernels.len();
    let changed = r.kernels.iter().filter(|k| k.changed()).count();
    let _ = writeln!(
        out,
        "\ntotals over {n} kernel{} on both sides ({changed} changed):",
        plural(n)
    );
    let rows: Vec<(String, &Total)> = r
        .totals
        .iter()
        .map(|t| (t.label.clone(), t))
        .chain(
            r.finding_totals
                .iter()
                .map(|t| (format!("findings: {}", t.label), t)),
        )
        .filter(|(_, t)| {
            if changes_only {
                t.helped + t.hurt > 0
            } else {
                t.a != 0 || t.b != 0
            }
        })
        .collect();
    let w = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(6).max(6);
    let _ = writeln!(
        out,
        "  {:<w$}  {:>9}  {:>9}  {:>9}  {:>9}  {:>21}  {:>6}  {:>6}",
        "metric", "a", "b", "change", "percent", "in affected kernels", "helped", "hurt"
    );
    for (label, t) in rows {
        let row = t.row();
        let affected = Row {
            a: t.affected_a,
            b: t.affected_b,
            ..row.clone()
        };
        let _ = writeln!(
            out,
            "  {:<w$}  {:>9}  {:>9}  {:>9}  {:>9}  {:>21}  {:>6}  {:>6}",
            label,
            t.a,
            t.b,
            signed(row.change()),
            percent(row.percent()),
            format!(
                "{} -> {} ({})",
                t.affected_a,
                t.affected_b,
                percent(affected.percent())
            ),
            t.helped,
            t.hurt
        );
    }
}

/// The text report.
pub fn text(r: &DiffReport, changes_only: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "a: {}\nb: {}", r.a, r.b);
    for k in &r.kernels {
        kernel(&mut out, k, changes_only);
    }
    one_sided(&mut out, "kernels only in a", &r.only_a);
    one_sided(&mut out, "kernels only in b", &r.only_b);
    for (title, files) in [
        ("files only in a", &r.files_only_a),
        ("files only in b", &r.files_only_b),
    ] {
        if !files.is_empty() {
            let _ = writeln!(out, "\n{title}:");
            for f in files {
                let _ = writeln!(out, "  {f}");
            }
        }
    }
    if !r.kernels.is_empty() {
        totals(&mut out, r, changes_only);
    }
    for (title, list) in [("notes", &r.notes), ("errors", &r.errors)] {
        if !list.is_empty() {
            let _ = writeln!(out, "\n{title}:");
            for e in list {
                let _ = writeln!(out, "  {}: {}", e.path, e.message);
            }
        }
    }
    let changed = r.kernels.iter().filter(|k| k.changed()).count();
    let _ = writeln!(
        out,
        "\n{} kernel{} on both sides, {} changed; {} only in a, {} only in b; {} error{}",
        r.kernels.len(),
        plural(r.kernels.len()),
        changed,
        r.only_a.len(),
        r.only_b.len(),
        r.errors.len(),
        plural(r.errors.len())
    );
    out
}

fn row_json(r: &Row) -> Value {
    json!({
        "a": r.a,
        "b": r.b,
        "change": r.change(),
        "percent": percent_json(r.percent()),
    })
}

fn rows_json(rows: &[Row], changes_only: bool) -> Value {
    let mut m = Map::new();
    for r in rows.iter().filter(|r| !changes_only || r.a != r.b) {
        m.insert(r.key.clone(), row_json(r));
    }
    Value::Object(m)
}

fn totals_json(totals: &[Total], changes_only: bool) -> Value {
    let mut m = Map::new();
    for t in totals
        .iter()
        .filter(|t| !changes_only || t.helped + t.hurt > 0)
    {
        let row = t.row();
        m.insert(
            t.key.clone(),
            json!({
                "a": t.a,
                "b": t.b,
                "change": row.change(),
                "percent": percent_json(row.percent()),
                "helped": t.helped,
                "hurt": t.hurt,
                "affected_a": t.affected_a,
                "affected_b": t.affected_b,
            }),
        );
    }
    Value::Object(m)
}

fn one_sided_json(list: &[OneSided]) -> Value {
    Value::Array(
        list.iter()
            .map(|k| {
                let mut m = Map::new();
                for (i, info) in METRICS.iter().enumerate() {
                    m.insert(info.key.to_string(), json!(k.metrics.0[i]));
                }
                json!({
                    "file": k.file,
                    "name": k.name,
                    "metrics": m,
                    "findings": k.findings,
                })
            })
            .collect(),
    )
}

/// The JSON report (docs/diff.schema.json).
pub fn json(r: &DiffReport, changes_only: bool) -> String {
    let mut s =
        serde_json::to_string_pretty(&json_value(r, changes_only)).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// The HTML page of one or more diffs (a `.metal` source's pairs of
/// levels): their JSON, drawn by the page's script, with each metric's
/// key and label in the order the text shows them.
pub fn html(reports: &[DiffReport], changes_only: bool) -> String {
    let labels: Vec<[&str; 2]> = METRICS.iter().map(|m| [m.key, m.label]).collect();
    let diffs: Vec<Value> = reports
        .iter()
        .map(|r| json_value(r, changes_only))
        .collect();
    let data = json!({ "labels": labels, "diffs": diffs });
    crate::report::html::page("air-scan diff", crate::report::html::View::Diff, &data)
        .unwrap_or_else(|e| format!("diff: error: {e}\n"))
}

/// The JSON report as a value.
fn json_value(r: &DiffReport, changes_only: bool) -> Value {
    let kernels: Vec<Value> = r
        .kernels
        .iter()
        .filter(|k| !changes_only || k.changed())
        .map(|k| {
            json!({
                "file": k.file,
                "name": k.name,
                "changed": k.changed(),
                "metrics": rows_json(&k.rows, changes_only),
                "findings": rows_json(&k.findings, changes_only),
                "introduced": k.introduced,
                "removed": k.removed,
            })
        })
        .collect();
    let changed = r.kernels.iter().filter(|k| k.changed()).count();
    json!({
        "a": r.a,
        "b": r.b,
        "changed": r.changed(),
        "exit_code": r.exit_code(),
        "summary": {
            "kernels": r.kernels.len(),
            "changed": changed,
            "only_a": r.only_a.len(),
            "only_b": r.only_b.len(),
            "errors": r.errors.len(),
        },
        "kernels": kernels,
        "only_a": one_sided_json(&r.only_a),
        "only_b": one_sided_json(&r.only_b),
        "files_only_a": r.files_only_a,
        "files_only_b": r.files_only_b,
        "totals": {
            "metrics": totals_json(&r.totals, changes_only),
            "findings": totals_json(&r.finding_totals, changes_only),
        },
        "errors": r.errors,
        "notes": r.notes,
    })
}
