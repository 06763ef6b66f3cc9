//! Turning scan results into output: `text` for people, `json` for tools.

pub mod json;
pub mod sarif;
pub mod snippets;
pub mod text;

use crate::scan::{FileReport, Status};

/// Totals over a scan, shared by every output format.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct Totals {
    pub files: usize,
    pub ok: usize,
    pub failed: usize,
    pub kernels: usize,
    pub errors: usize,
    pub warnings: usize,
    pub findings: usize,
    pub suppressed: usize,
    pub baseline_matched: usize,
}

impl Totals {
    pub fn of(files: &[FileReport]) -> Self {
        let mut t = Totals {
            files: files.len(),
            ..Totals::default()
        };
        for f in files {
            match f.status {
                Status::Ok => t.ok += 1,
                Status::Error => t.failed += 1,
            }
            t.kernels += f.kernels.len();
            t.errors += f.error_count();
            t.warnings += f.diagnostics.len() - f.error_count();
            t.findings += f.findings.len();
            t.suppressed += f.suppressed.len();
            t.baseline_matched += f.baseline_matched;
        }
        t
    }
}
