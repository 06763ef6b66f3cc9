//! Turning scan results into output: `text` for people, `json` and `sarif`
//! for tools (`json_writer` writes the JSON report's bytes fast).

pub mod json;
pub mod json_writer;
pub mod sarif;
pub mod snippets;
pub mod text;

use crate::scan::{FileReport, Status};

/// A report written as the scan goes, a file at a time.
pub trait ReportStream {
    /// Writes what `file` adds to the report.
    fn add(&mut self, file: &FileReport) -> std::io::Result<()>;
    /// Writes the rest and returns the totals.
    fn finish(self: Box<Self>) -> std::io::Result<Totals>;
}

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
        let mut t = Totals::default();
        for f in files {
            t.add(f);
        }
        t
    }

    /// Counts one more file.
    pub fn add(&mut self, f: &FileReport) {
        self.files += 1;
        match f.status {
            Status::Ok => self.ok += 1,
            Status::Error => self.failed += 1,
        }
        self.kernels += f.kernels.len();
        self.errors += f.error_count();
        self.warnings += f.diagnostics.len() - f.error_count();
        self.findings += f.findings.len();
        self.suppressed += f.suppressed.len();
        self.baseline_matched += f.baseline_matched;
    }
}
