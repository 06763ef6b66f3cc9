//! The folder the reports' paths are relative to (`--sarif-root`, else the
//! current directory), and a path written relative to it: `/` between
//! components, `.`/`..` folded away, whether it was given relative,
//! absolute or through a symlink; absolute when outside the folder. The
//! JSON and SARIF reports write every path so (`report::paths`), and
//! `--emit-ir` names a module's text after it (`scan::emitted_ir_name`),
//! so the three agree.

use std::path::{Component, Path, PathBuf};

/// The folder report paths are relative to.
#[derive(Debug, Clone)]
pub struct PathRoot {
    cwd: Option<PathBuf>,
    base: Option<PathBuf>,
    /// The base with symlinks resolved, for paths that reach it another way.
    real_base: Option<PathBuf>,
}

/// Where a path lies, as `ReportRoot::locate` finds it.
pub enum Located {
    /// Under the root: the path relative to it.
    Inside(PathBuf),
    /// Elsewhere: the absolute path (relative only without a current
    /// directory).
    Outside(PathBuf),
}

/// The file on disk a report's path names: a module read from a library
/// is named `lib.metallib:function`, and only the library is a file.
pub fn file_part(path: &str) -> &str {
    match path.rsplit_once(':') {
        Some((file, _)) if !Path::new(path).exists() && Path::new(file).is_file() => file,
        _ => path,
    }
}

/// `.` and `..` folded away without touching the disk.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// The path's components joined by `/` (led by `/` when absolute).
fn slashed(p: &Path) -> String {
    let mut out = String::new();
    for c in p.components() {
        match c {
            Component::RootDir => out.push('/'),
            Component::Prefix(pre) => out.push_str(&pre.as_os_str().to_string_lossy()),
            other => {
                if !out.is_empty() && !out.ends_with('/') {
                    out.push('/');
                }
                out.push_str(&other.as_os_str().to_string_lossy());
            }
        }
    }
    out
}

impl PathRoot {
    /// `base` as given (relative to the current directory), else the
    /// current directory.
    pub fn new(base: Option<&Path>) -> Self {
        let cwd = std::env::current_dir().ok();
        let base = match (base, &cwd) {
            (Some(b), Some(cwd)) => Some(normalize(&cwd.join(b))),
            (Some(b), None) => Some(normalize(b)),
            (None, cwd) => cwd.as_deref().map(normalize),
        };
        let real_base = base.as_ref().and_then(|b| b.canonicalize().ok());
        PathRoot {
            cwd,
            base,
            real_base,
        }
    }

    /// Run in `cwd` with the root `base`, neither looked at on disk.
    #[cfg(test)]
    pub fn fixed(cwd: &str, base: &str) -> Self {
        PathRoot {
            cwd: Some(PathBuf::from(cwd)),
            base: Some(PathBuf::from(base)),
            real_base: None,
        }
    }

    /// The root, absolute.
    pub fn base(&self) -> Option<&Path> {
        self.base.as_deref()
    }

    /// The root as the JSON's `scan.root` writes it.
    pub fn display(&self) -> String {
        self.base.as_deref().map(slashed).unwrap_or_default()
    }

    fn absolute(&self, p: &Path) -> PathBuf {
        match &self.cwd {
            Some(cwd) if p.is_relative() => normalize(&cwd.join(p)),
            _ => normalize(p),
        }
    }

    /// Where the file `path` names (its `file_part`) lies.
    pub fn locate(&self, path: &str) -> Located {
        self.locate_file(file_part(path))
    }

    /// Where `file` lies.
    fn locate_file(&self, file: &str) -> Located {
        let abs = self.absolute(Path::new(file));
        if let Some(rel) = self.base.as_ref().and_then(|b| abs.strip_prefix(b).ok()) {
            return Located::Inside(rel.to_path_buf());
        }
        let real = abs.canonicalize().ok();
        if let Some(rel) = real
            .as_ref()
            .zip(self.real_base.as_ref())
            .and_then(|(r, b)| r.strip_prefix(b).ok())
        {
            return Located::Inside(rel.to_path_buf());
        }
        Located::Outside(abs)
    }

    /// `path` as the JSON report writes it: its file relative to the root
    /// (else absolute), and a library member's `:function` kept.
    pub fn path(&self, path: &str) -> String {
        self.path_knowing(path, &mut KnownFiles::default())
    }

    /// `path`, its file's place taken from `known` where found before.
    pub fn path_knowing(&self, path: &str, known: &mut KnownFiles) -> String {
        // Nearly every path of a scan run where it was given: relative,
        // plain, no symlink to resolve. Written as it is.
        if is_plain_relative(path) && self.base == self.cwd {
            return path.to_string();
        }
        let file = file_part(path);
        let mut out = match known.0.get(file) {
            Some(written) => written.clone(),
            None => {
                let (Located::Inside(p) | Located::Outside(p)) = self.locate_file(file);
                let written = slashed(&p);
                if known.0.len() >= MAX_KNOWN_FILES {
                    known.0.clear();
                }
                known.0.insert(file.to_string(), written.clone());
                written
            }
        };
        out.push_str(&path[file.len()..]);
        out
    }
}

/// Files' places as `PathRoot::path` writes them, by the file as named: a
/// library's modules name it report after report, and finding where it
/// lies (its parts folded, `realpath` when outside the root) cost ~12,000
/// instructions a report (mlx.metallib: 382 reports of one file).
#[derive(Default)]
pub struct KnownFiles(rustc_hash::FxHashMap<String, String>);

/// Files kept at most in `KnownFiles`: past it, it starts afresh.
const MAX_KNOWN_FILES: usize = 4096;

/// Relative, `/`-separated, without `.` or `..` components.
fn is_plain_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path.split('/').all(|c| !matches!(c, "" | "." | ".."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_root_with_forward_slashes() {
        let r = PathRoot::fixed("/repo/build", "/repo");
        // As SARIF's URIs (report::sarif tests the same paths), unencoded.
        assert_eq!(r.path("./x/../b c.ll"), "build/b c.ll");
        assert_eq!(r.path("/repo/lib.metallib:f"), "lib.metallib:f");
        assert_eq!(r.path("/elsewhere/k.metal"), "/elsewhere/k.metal");
        assert_eq!(r.display(), "/repo");
    }

    #[test]
    fn known_files_give_the_paths_finding_them_gives() {
        let r = PathRoot::fixed("/repo/build", "/repo");
        let mut known = KnownFiles::default();
        let lib = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
        for p in [
            "./x/../b c.ll",
            "/repo/lib.metallib:f",
            "/elsewhere/k.metal",
            &format!("{lib}:f"),
            &format!("{lib}:g"),
            "./x/../b c.ll",
        ] {
            assert_eq!(r.path_knowing(p, &mut known), r.path(p), "{p}");
        }
        assert!(r.path(&format!("{lib}:g")).ends_with("Cargo.toml:g"));
    }

    #[test]
    fn plain_relative_paths_are_told_apart() {
        assert!(is_plain_relative("a/b.ll"));
        for p in ["", "/a.ll", "./a.ll", "a/../b.ll", "a//b.ll", "a\\b.ll"] {
            assert!(!is_plain_relative(p), "{p}");
        }
    }
}
