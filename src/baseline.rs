//! `--baseline report.json`: report only findings that a previous JSON
//! report did not have. Findings match on rule, function and fingerprint (a
//! hash of the instruction's shape), never on line numbers, so edits that
//! move code do not resurface known findings; and on their file, relative
//! to the folder scanned, so that a baseline made by `air-scan .` applies
//! when the same tree is scanned by its absolute path or from its parent.

use crate::rules::Finding;
use crate::scan::FileReport;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Rule, function and fingerprint.
type Key = (String, String, String);

pub struct Baseline {
    /// The files each key was found in, as path components.
    known: HashMap<Key, Vec<Vec<String>>>,
    /// Findings the report had.
    pub size: usize,
}

/// The file a finding is filed under: its MSL source when known, else its IR file.
fn file_of<'f>(source_path: Option<&'f str>, ir_path: &'f str) -> &'f str {
    source_path.unwrap_or(ir_path)
}

/// `p`'s components with `.` and `..` folded away, without the disk.
fn components(p: &Path) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.pop().is_none() {
                    out.push("..".into());
                }
            }
            other => out.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    out
}

/// Where the scan's paths are taken relative to: for each path given on
/// the command line, the folder itself, or a file's folder.
pub struct Roots {
    bases: Vec<Vec<String>>,
    cwd: PathBuf,
}

impl Roots {
    pub fn new(paths: &[PathBuf]) -> Self {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mut bases: Vec<Vec<String>> = paths
            .iter()
            .map(|p| {
                let dir = if p.is_dir() {
                    p.as_path()
                } else {
                    p.parent().unwrap_or(Path::new(""))
                };
                components(&cwd.join(dir))
            })
            .collect();
        // The deepest first: a file is relative to the nearest root.
        bases.sort_by_key(|b| std::cmp::Reverse(b.len()));
        Roots { bases, cwd }
    }

    /// `path` relative to the deepest root it lies under, else whole.
    fn relative(&self, path: &str) -> Vec<String> {
        let abs = components(&self.cwd.join(path));
        self.bases
            .iter()
            .find(|b| abs.starts_with(b))
            .map_or_else(|| abs.clone(), |b| abs[b.len()..].to_vec())
    }
}

impl Baseline {
    /// Reads the `findings` of a report written by `--format json`.
    pub fn load(path: &Path) -> Result<Baseline, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a JSON report: {e}", path.display()))?;
        let findings = v["findings"].as_array().ok_or_else(|| {
            format!(
                "{}: no `findings` array: is it a `--format json` report?",
                path.display()
            )
        })?;
        let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
        let mut known: HashMap<Key, Vec<Vec<String>>> = HashMap::new();
        for f in findings {
            let file = file_of(
                f["source"]["path"].as_str(),
                f["ir"]["path"].as_str().unwrap_or(""),
            );
            let key = (s(&f["rule"]), s(&f["function"]), s(&f["fingerprint"]));
            known
                .entry(key)
                .or_default()
                .push(components(Path::new(file)));
        }
        Ok(Baseline {
            known,
            size: findings.len(),
        })
    }

    /// Whether the baseline had `f`: the same rule, function and
    /// fingerprint, in a file whose path ends with `f`'s path relative to
    /// its root (the baseline's paths are relative to a root it does not
    /// record).
    fn knows(&self, f: &Finding, roots: &Roots) -> bool {
        let key = (
            f.rule.to_string(),
            f.function.to_string(),
            f.fingerprint.clone(),
        );
        let Some(files) = self.known.get(&key) else {
            return false;
        };
        let here = roots.relative(file_of(
            f.source.as_ref().map(|s| s.path.as_str()),
            &f.ir.path,
        ));
        files.iter().any(|p| p.ends_with(&here))
    }

    /// Removes the findings the baseline knows; returns how many.
    pub fn apply(&self, files: &mut [FileReport], roots: &Roots) -> usize {
        let mut removed = 0;
        for file in files {
            let before = file.findings.len();
            file.findings.retain(|f| !self.knows(f, roots));
            file.baseline_matched = before - file.findings.len();
            removed += file.baseline_matched;
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_deepest_root() {
        let roots = Roots {
            bases: vec![components(Path::new("/t/a/b")), components(Path::new("/t"))],
            cwd: PathBuf::from("/t"),
        };
        assert_eq!(roots.relative("a/b/x.ll"), ["x.ll"]);
        assert_eq!(roots.relative("./a/c/../y.ll"), ["a", "y.ll"]);
        assert_eq!(roots.relative("/t/z.metal"), ["z.metal"]);
        assert_eq!(roots.relative("/u/w.ll"), ["/", "u", "w.ll"]);
    }
}
