//! Every path of a file's report written relative to the report's root
//! (`input::PathRoot`), the way SARIF writes its artifact URIs, so that the
//! JSON and SARIF reports of a scan name each file the same way and a
//! dashboard can join them.

pub use crate::input::root::{Located, PathRoot, file_part};
use crate::scan::FileReport;
use std::borrow::Cow;
use std::sync::Arc;

/// `file` with every path in it written as `root.path` does; borrowed
/// when none changes.
pub fn rebase<'f>(root: &PathRoot, file: &'f FileReport) -> Cow<'f, FileReport> {
    let mut any = false;
    visit_paths(file, &mut |p| any |= root.path(p) != p);
    if !any {
        return Cow::Borrowed(file);
    }
    let mut owned = file.clone();
    owned.path = root.path(&owned.path);
    for f in &mut owned.findings {
        rebase_finding(root, f);
    }
    for s in &mut owned.suppressed {
        s.path = root.path(&s.path);
        rebase_finding(root, &mut s.finding);
    }
    Cow::Owned(owned)
}

fn rebase_finding(root: &PathRoot, f: &mut crate::rules::Finding) {
    f.path = Arc::from(root.path(&f.path));
    f.ir.path = Arc::from(root.path(&f.ir.path));
    for s in f.source.iter_mut().chain(&mut f.inlined_at) {
        s.path = root.path(&s.path);
    }
}

/// Calls `each` with every path `rebase` writes.
fn visit_paths(file: &FileReport, each: &mut impl FnMut(&str)) {
    each(&file.path);
    let findings = file
        .findings
        .iter()
        .chain(file.suppressed.iter().map(|s| &*s.finding));
    for f in findings {
        each(&f.path);
        each(&f.ir.path);
        for s in f.source.iter().chain(&f.inlined_at) {
            each(&s.path);
        }
    }
    for s in &file.suppressed {
        each(&s.path);
    }
}
