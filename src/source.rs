//! Source mapping: from an instruction to the MSL line it came from, through
//! its `!dbg` DILocation, the chain of locations it was inlined at, and the
//! DIFile on disk.
//!
//! An instruction without `!dbg` of its own takes the location of its
//! nearest user that has one, or failing that its function's DISubprogram
//! line; both are marked approximate.

use crate::analysis::defuse::{Def, DefUse};
use crate::ir::metadata::{DILocation, MetaNode};
use crate::ir::{Body, Function, Module};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Users looked at when an instruction has no location of its own.
const MAX_USER_SEARCH: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceLocation {
    /// The file as resolved on disk when found, else as recorded in DIFile.
    pub path: String,
    pub line: u32,
    pub column: u32,
    /// The function (DISubprogram name) the location belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// True when borrowed from a user instruction or the function's start.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub approximate: bool,
    /// Whether the line on disk is the one the IR was compiled from
    /// (`Resolver::status`); `Exact` until checked.
    pub status: SourceStatus,
}

/// How far a source location can be trusted, once its file is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceStatus {
    /// The line holds the operation the finding is about.
    Exact,
    /// Borrowed from a neighbouring instruction or the function's start.
    Approximate,
    /// The line does not hold the operation, or is past the end of the
    /// file: the source changed since the IR was compiled.
    Stale,
    /// The file is not on disk (see `--source-root`).
    NotFound,
}

/// Where an instruction comes from: its own location and, innermost first,
/// the call sites it was inlined at, up to the kernel.
#[derive(Debug, Clone, Default)]
pub struct Mapped {
    pub source: Option<SourceLocation>,
    pub inlined_at: Vec<SourceLocation>,
}

/// Source files read to check locations against, by resolved path; `None`
/// when unreadable.
type Texts = rustc_hash::FxHashMap<String, Option<std::sync::Arc<str>>>;

/// MSL files larger than this are not read to check a location.
const MAX_CHECKED_SOURCE: u64 = 16 << 20;

/// Resolved paths by filename, then directory (looked up without copying
/// either).
type Memo = rustc_hash::FxHashMap<String, rustc_hash::FxHashMap<String, String>>;

/// Finds source files named by debug info.
pub struct Resolver {
    /// Folders to try, in order, after the recorded path itself.
    roots: Vec<PathBuf>,
    /// What `resolve` gave for each (filename, directory): a module's
    /// findings name the same few files again and again, and each look
    /// costs up to seven `stat`s (thousands on a large module whose
    /// sources are not on this machine).
    resolved: std::cell::RefCell<Memo>,
    /// The files `status` has read.
    texts: std::cell::RefCell<Texts>,
}

impl Resolver {
    /// `ir_path` is the IR file's path; `source_root` the user's `--source-root`.
    pub fn new(ir_path: &Path, source_root: Option<&Path>) -> Self {
        let mut roots = Vec::new();
        if let Some(r) = source_root {
            roots.push(r.to_path_buf());
        }
        // The IR file's folder and two above it: extracted modules sit in
        // `<lib>.metallib.extracted/` beside the sources.
        let mut dir = ir_path.parent().map(Path::to_path_buf);
        for _ in 0..3 {
            let Some(d) = dir else { break };
            roots.push(if d.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                d.clone()
            });
            dir = d.parent().map(Path::to_path_buf);
        }
        Resolver {
            roots,
            resolved: Default::default(),
            texts: Default::default(),
        }
    }

    /// What stands for `loc`'s line in a cause's id, when the file is on
    /// disk: the line's text and how many lines before it in the file have
    /// the same text.
    pub fn line_key(&self, loc: &SourceLocation) -> Option<(String, usize)> {
        let text = self
            .texts
            .borrow_mut()
            .entry(loc.path.clone())
            .or_insert_with(|| read_source(&loc.path))
            .clone()?;
        let at = loc.line.checked_sub(1)? as usize;
        let line = text.lines().nth(at)?.trim();
        let before = text.lines().take(at).filter(|l| l.trim() == line).count();
        Some((line.to_string(), before))
    }

    /// Checks `loc` against its file on disk: `tokens` are what a line
    /// holding the finding's operation contains, one of them at least
    /// (`/` or `%` for a divide); with none given, any line in the file is
    /// taken as exact.
    pub fn status(&self, loc: &SourceLocation, tokens: &[String]) -> SourceStatus {
        let text = self
            .texts
            .borrow_mut()
            .entry(loc.path.clone())
            .or_insert_with(|| read_source(&loc.path))
            .clone();
        let Some(text) = text else {
            return SourceStatus::NotFound;
        };
        let Some(line) = loc
            .line
            .checked_sub(1)
            .and_then(|i| text.lines().nth(i as usize))
        else {
            return SourceStatus::Stale;
        };
        if loc.approximate {
            return SourceStatus::Approximate;
        }
        let code = line.split("//").next().unwrap_or(line);
        if tokens.is_empty() || tokens.iter().any(|t| code.contains(t.as_str())) {
            SourceStatus::Exact
        } else {
            SourceStatus::Stale
        }
    }

    /// The recorded path (`directory` joined with `filename` when relative),
    /// or the first existing candidate under the roots, as first found for
    /// this pair (files are taken not to come and go during a scan).
    pub fn resolve(&self, filename: &str, directory: &str) -> String {
        if let Some(path) = self
            .resolved
            .borrow()
            .get(filename)
            .and_then(|by_directory| by_directory.get(directory))
        {
            return path.clone();
        }
        let path = self.look_up(filename, directory);
        self.resolved
            .borrow_mut()
            .entry(filename.to_string())
            .or_default()
            .insert(directory.to_string(), path.clone());
        path
    }

    /// `resolve`, looking on disk.
    fn look_up(&self, filename: &str, directory: &str) -> String {
        let recorded = if Path::new(filename).is_absolute() || directory.is_empty() {
            PathBuf::from(filename)
        } else {
            Path::new(directory).join(filename)
        };
        if recorded.is_file() {
            return recorded.display().to_string();
        }
        let base = Path::new(filename).file_name().map(PathBuf::from);
        for root in &self.roots {
            let relative = Path::new(filename)
                .strip_prefix("/")
                .unwrap_or(Path::new(filename));
            for candidate in [
                Some(root.join(relative)),
                base.as_ref().map(|b| root.join(b)),
            ]
            .into_iter()
            .flatten()
            {
                if candidate.is_file() {
                    return candidate.display().to_string();
                }
            }
        }
        recorded.display().to_string()
    }
}

fn location(
    module: &Module<'_>,
    loc: &DILocation,
    resolver: &Resolver,
    approximate: bool,
) -> SourceLocation {
    let md = &module.metadata;
    let sp = loc
        .scope
        .and_then(|s| md.subprogram_of_scope(s))
        .map(|(_, sp)| sp);
    let file = loc
        .scope
        .and_then(|s| match md.get(s) {
            Some(MetaNode::Subprogram(sp)) => sp.file,
            Some(MetaNode::Specialized { fields, .. }) => {
                fields.iter().find(|(n, _)| *n == "file")?.1.as_ref_id()
            }
            _ => None,
        })
        .or(sp.and_then(|sp| sp.file))
        .and_then(|f| md.file(f));
    let path = file.map_or_else(
        || "<unknown>".to_string(),
        |f| resolver.resolve(f.filename, f.directory),
    );
    SourceLocation {
        path,
        line: loc.line,
        column: loc.column,
        function: sp.and_then(|sp| sp.name).map(str::to_string),
        approximate,
        status: SourceStatus::Exact,
    }
}

fn read_source(path: &str) -> Option<std::sync::Arc<str>> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_CHECKED_SOURCE {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into())
}

/// A header of the Metal standard library, as the toolchain records it:
/// `…/lib/clang/<version>/include/metal/metal_math`.
fn is_metal_header(path: &str) -> bool {
    path.rsplit_once("/include/metal/")
        .is_some_and(|(_, name)| name.starts_with("metal_") && !name.contains('/'))
}

/// Maps instruction `inst` of `body` to its source.
///
/// `body_located`: whether any instruction of `body` has a `!dbg` (without
/// one, no user can lend its location, and the search is skipped).
pub fn map(
    module: &Module<'_>,
    function: &Function<'_>,
    body: (&Body<'_>, bool),
    du: &DefUse<'_>,
    inst: usize,
    resolver: &Resolver,
) -> Mapped {
    let (body, body_located) = body;
    let md = &module.metadata;
    let own = body.instructions.get(inst).and_then(|i| i.dbg);
    let (dbg, approximate) = match own {
        Some(d) => (Some(d), false),
        None if body_located => (nearest_user_location(body, du, inst), true),
        None => (None, true),
    };
    if let Some(id) = dbg {
        let chain = md.inlined_chain(id);
        let locs: Vec<SourceLocation> = chain
            .iter()
            .map(|l| location(module, l, resolver, approximate))
            .collect();
        // An atomic or a math call is inlined from the Metal standard
        // library's headers (`…/include/metal/metal_atomic`); the finding
        // belongs to the user's call of it, the first frame outside them.
        let user = locs
            .iter()
            .position(|l| !is_metal_header(&l.path))
            .unwrap_or(0);
        let mut locs = locs.into_iter().skip(user);
        if let Some(first) = locs.next() {
            return Mapped {
                source: Some(first),
                inlined_at: locs.collect(),
            };
        }
    }
    // The function's own DISubprogram line.
    let sp = function
        .metadata
        .iter()
        .find(|(k, _)| *k == "dbg")
        .and_then(|(_, id)| match md.get(*id) {
            Some(MetaNode::Subprogram(sp)) => Some(sp),
            _ => None,
        });
    let source = sp.map(|sp| {
        let file = sp.file.and_then(|f| md.file(f));
        SourceLocation {
            path: file.map_or_else(
                || "<unknown>".to_string(),
                |f| resolver.resolve(f.filename, f.directory),
            ),
            line: sp.line,
            column: 0,
            function: sp.name.map(str::to_string),
            approximate: true,
            status: SourceStatus::Exact,
        }
    });
    Mapped {
        source,
        inlined_at: Vec::new(),
    }
}

/// The `!dbg` of the nearest user (breadth first) that has one.
fn nearest_user_location(body: &Body<'_>, du: &DefUse<'_>, inst: usize) -> Option<u32> {
    let mut queue = std::collections::VecDeque::from([inst]);
    let mut seen = vec![inst];
    while let Some(i) = queue.pop_front() {
        for u in du.users(Def::Inst(i)) {
            if seen.len() > MAX_USER_SEARCH {
                return None;
            }
            if seen.contains(&u) {
                continue;
            }
            seen.push(u);
            if let Some(d) = body.instructions.get(u).and_then(|x| x.dbg) {
                return Some(d);
            }
            queue.push_back(u);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered path is the one looking again finds, for files found
    /// as recorded, under a root, by their base name, or not at all.
    #[test]
    fn remembered_paths_are_those_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/kernels")).unwrap();
        std::fs::write(root.join("src/kernels/a.metal"), "").unwrap();
        std::fs::write(root.join("b.metal"), "").unwrap();
        let ir = root.join("out/x.ll");
        let resolver = Resolver::new(&ir, Some(root));
        let root_text = root.display().to_string();
        let pairs = [
            ("a.metal", root_text.as_str()),
            ("src/kernels/a.metal", ""),
            ("src/kernels/a.metal", root_text.as_str()),
            ("/elsewhere/src/kernels/a.metal", "/elsewhere"),
            ("/elsewhere/b.metal", ""),
            ("b.metal", "/elsewhere"),
            ("missing.metal", "/elsewhere"),
            ("missing.metal", ""),
        ];
        for _ in 0..2 {
            for (filename, directory) in pairs {
                let path = resolver.resolve(filename, directory);
                assert_eq!(path, resolver.look_up(filename, directory));
            }
        }
        let a = root.join("src/kernels/a.metal").display().to_string();
        assert_eq!(resolver.resolve("src/kernels/a.metal", "/elsewhere"), a);
        let b = root.join("b.metal").display().to_string();
        assert_eq!(resolver.resolve("b.metal", "/elsewhere"), b);
        // The same file name under two directories: an entry each.
        assert_eq!(
            resolver.resolve("missing.metal", "/elsewhere"),
            "/elsewhere/missing.metal"
        );
        assert_eq!(resolver.resolve("missing.metal", ""), "missing.metal");
    }
}
