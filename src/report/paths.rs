//! Every path of a file's report written relative to the report's root
//! (`input::PathRoot`), the way SARIF writes its artifact URIs, so that the
//! JSON and SARIF reports of a scan name each file the same way and a
//! dashboard can join them.

pub use crate::input::root::{KnownFiles, Located, PathRoot, file_part};
use crate::scan::FileReport;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Writes every path in `file` as `root.path` does, in place: before the
/// JSON and HTML reports are given it (SARIF makes its URIs from the paths
/// as found). Each distinct path is worked out once: a file's findings
/// share a few, and cloning the report to rewrite them cost ~4% of a scan.
/// The places of the files named, found once (`known`, kept from one
/// report to the next).
pub fn rebase(root: &PathRoot, known: &mut KnownFiles, file: &mut FileReport) {
    let mut done: FxHashMap<String, Arc<str>> = FxHashMap::default();
    let mut path = |p: &str| -> Arc<str> {
        if let Some(d) = done.get(p) {
            return d.clone();
        }
        let d: Arc<str> = Arc::from(root.path_knowing(p, known));
        done.insert(p.to_string(), d.clone());
        d
    };
    file.path = path(&file.path).to_string();
    for s in &mut file.suppressed {
        s.path = path(&s.path).to_string();
    }
    let suppressed = file.suppressed.iter_mut().map(|s| &mut *s.finding);
    for f in file.findings.iter_mut().chain(suppressed) {
        f.path = path(&f.path);
        f.ir.path = path(&f.ir.path);
        for s in f.source.iter_mut().chain(&mut f.inlined_at) {
            s.path = path(&s.path).to_string();
        }
    }
}
