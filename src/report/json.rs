//! The JSON report. Its shape is versioned by `SCHEMA_VERSION`; bump it on
//! any change a dashboard could notice.

use super::Totals;
use crate::scan::FileReport;
use serde::Serialize;

pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Report<'r> {
    schema_version: u32,
    tool: Tool,
    files: &'r [FileReport],
    findings: Vec<&'r crate::rules::Finding>,
    totals: Totals,
}

pub fn render(files: &[FileReport]) -> String {
    let report = Report {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: env!("CARGO_PKG_NAME"),
            version: env!("CARGO_PKG_VERSION"),
        },
        files,
        findings: files.iter().flat_map(|f| &f.findings).collect(),
        totals: Totals::of(files),
    };
    let mut out =
        serde_json::to_string_pretty(&report).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    out.push('\n');
    out
}
