//! Turning scan results into output: `text` for people, `json` and `sarif`
//! for tools (`json_writer` writes the JSON report's bytes fast), `html`
//! for people opening a CI artifact (also the page of `air-scan diff`);
//! `paths` writes file paths the same way in JSON and SARIF.

pub mod causes;
pub mod html;
pub mod json;
pub mod json_writer;
pub mod paths;
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

/// Totals over a scan, shared by every output format. Each name says what
/// it counts: the reader's diagnostics apart from the rules' findings.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
pub struct Totals {
    /// Files read (ok or failed); skipped ones are not.
    pub files: usize,
    pub ok: usize,
    pub failed: usize,
    /// `.metal` files not compiled for want of a compiler.
    pub skipped: usize,
    pub kernels: usize,
    /// Error diagnostics of the IR reader (a file it could not fully read).
    pub reader_errors: usize,
    pub reader_warnings: usize,
    /// The rules' findings, after suppressions and the baseline.
    pub findings: usize,
    pub findings_by_severity: json::SeverityCounts,
    /// Distinct causes of those findings (`causes` in the JSON report).
    pub causes: usize,
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

    /// Counts one more file; a skipped one was not read and is not counted.
    pub fn add(&mut self, f: &FileReport) {
        match f.status {
            Status::Ok => self.ok += 1,
            Status::Error => self.failed += 1,
            Status::Skipped => {
                self.skipped += 1;
                return;
            }
        }
        self.files += 1;
        self.kernels += f.kernels.len();
        self.reader_errors += f.error_count();
        self.reader_warnings += f.diagnostics.len() - f.error_count();
        self.findings += f.findings.len();
        for finding in &f.findings {
            self.findings_by_severity.add(finding.severity);
        }
        self.suppressed += f.suppressed.len();
        self.baseline_matched += f.baseline_matched;
    }
}
