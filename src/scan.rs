//! The pipeline for one file and for a whole scan: load, read the module,
//! read every body (so every diagnostic surfaces), interpret the AIR
//! metadata, and keep an owned summary for the report.

use crate::analysis::ControlFlow;
use crate::analysis::callgraph::CallGraph;
use crate::analysis::defuse::DefUse;
use crate::analysis::provenance::{
    FunctionProvenance, ModuleContext, Provenance, Sources, entry_params,
};
use crate::compile::xcrun::{self, MetalOptions, ProjectConfig, Unavailable, Xcrun};
use crate::input::{self, Found};
use crate::ir::air::{OwnedEntryPoint, OwnedFunctionConstant};
use crate::ir::{self, Diagnostic, Module, Opcode, Severity};
use crate::rules::options::RuleOptions;
use crate::rules::{self, Finding, FunctionContext, RuleSet};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Error,
    /// Not read, and why is in `reason`: a `.metal` source with no compiler
    /// driver here.
    Skipped,
}

/// What one file gave.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why the file was skipped (`status` `skipped`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Compute entry points (`!air.kernel`).
    pub kernels: Vec<OwnedEntryPoint>,
    /// Render entry points (`!air.vertex`, `!air.fragment`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shaders: Vec<OwnedEntryPoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<ModuleSummary>,
    /// Listed once, at the top level of the report.
    #[serde(skip)]
    pub findings: Vec<Finding>,
    /// Findings silenced by `// air-scan: ignore[...]` comments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<Suppressed>,
    /// Findings hidden because `--baseline` knew them.
    #[serde(skip_serializing_if = "is_zero")]
    pub baseline_matched: usize,
    /// For a `.metal` source: each level it was compiled at, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compiled: Vec<CompiledLevel>,
}

/// A finding silenced by a comment in the MSL source (`suppress`).
#[derive(Debug, Clone, Serialize)]
pub struct Suppressed {
    pub rule: String,
    pub path: String,
    pub line: u32,
    pub reason: String,
    pub fingerprint: String,
    /// The finding itself, for reports that list suppressed findings whole
    /// (SARIF under `--show-suppressed`).
    #[serde(skip)]
    pub finding: Box<Finding>,
}

/// One optimization level of a `.metal` source.
#[derive(Debug, Clone, Serialize)]
pub struct CompiledLevel {
    /// `O0`, `O2`, ...
    pub level: String,
    /// The IR that was scanned, kept in the cache (absent with `--no-cache`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ir: Option<String>,
    /// Why there is no IR at this level (what the compiler said).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Taken from the cache. Not in the JSON, which must not change between
    /// a first and a second run.
    #[serde(skip)]
    pub cached: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Facts about a module that were read, for people and dashboards.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ModuleSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_filename: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_triple: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air_version: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language_version: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub compile_options: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiler: Option<String>,
    /// `typed` (`float addrspace(1)*`) or `opaque` (`ptr addrspace(1)`).
    pub pointers: &'static str,
    pub functions: usize,
    pub definitions: usize,
    pub globals: usize,
    pub blocks: usize,
    pub instructions: usize,
    pub metadata_nodes: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub function_constants: Vec<OwnedFunctionConstant>,
}

impl FileReport {
    fn failed(path: String, error: String) -> Self {
        FileReport {
            path,
            status: Status::Error,
            error: Some(error),
            reason: None,
            diagnostics: Vec::new(),
            kernels: Vec::new(),
            shaders: Vec::new(),
            module: None,
            findings: Vec::new(),
            suppressed: Vec::new(),
            baseline_matched: 0,
            compiled: Vec::new(),
        }
    }

    /// A file not read, and why.
    pub fn skipped(path: String, reason: String) -> Self {
        FileReport {
            status: Status::Skipped,
            error: None,
            reason: Some(reason),
            ..FileReport::failed(path, String::new())
        }
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

/// What a scan runs and where it looks for sources and tools.
pub struct ScanConfig<'r> {
    pub rules: &'r RuleSet,
    /// Where to look for MSL files named by debug info (`--source-root`).
    pub source_root: Option<PathBuf>,
    /// `--llvm-dis`: the disassembler for `.air` and `.metallib` inputs.
    pub llvm_dis: Option<PathBuf>,
    /// Resolved on first need, once per scan, so a missing tool is one
    /// clear message per binary file and costs nothing when there are none.
    llvm_dis_found: std::sync::OnceLock<Result<crate::compile::LlvmDis, String>>,
    /// `--xcrun`, `--metal-flag`, `--levels`, the cache: for `.metal` inputs.
    pub metal: MetalOptions,
    /// `--exclude`.
    pub walk: input::WalkOptions,
    /// Draw a progress bar on stderr (only ever when it is a terminal).
    pub progress: bool,
    /// `--emit-ir`: where the text of each module read from a binary is
    /// written ([`emitted_ir_name`]), so the IR lines findings name can be
    /// opened. The folder must exist.
    pub emit_ir: Option<PathBuf>,
    /// What the reports' paths are relative to (`--sarif-root`): the
    /// `--emit-ir` files are named after the paths the reports write.
    pub root: input::root::PathRoot,
    /// How many modules were written there.
    emitted: std::sync::atomic::AtomicUsize,
    /// Resolved once per scan, like `llvm_dis_found`.
    xcrun_found: std::sync::OnceLock<Result<Xcrun, Unavailable>>,
    /// `air-scan.toml` per directory of a `.metal` file, read once.
    projects: std::sync::Mutex<FxHashMap<PathBuf, Result<Option<ProjectConfig>, String>>>,
    /// Whether each file runs the rules with the `[rules]` options of the
    /// `air-scan.toml` nearest above it (the command line's scan), rather
    /// than `rules` as given (a caller that set its options itself).
    pub project_rules: bool,
    /// Those options' rule sets, found once per directory.
    rule_sets: std::sync::Mutex<ProjectRules>,
}

/// The rule sets of the projects a scan meets: per directory, the index
/// of its options' set in `sets`, or `None` for `ScanConfig::rules` (no
/// `air-scan.toml`, or one that sets the defaults).
#[derive(Default)]
struct ProjectRules {
    by_dir: FxHashMap<PathBuf, Result<Option<usize>, String>>,
    sets: Vec<(RuleOptions, std::sync::Arc<RuleSet>)>,
}

/// The rules one file runs: the scan's own, or its project's.
enum FileRules<'r> {
    Scan(&'r RuleSet),
    Project(std::sync::Arc<RuleSet>),
}

impl std::ops::Deref for FileRules<'_> {
    type Target = RuleSet;
    fn deref(&self) -> &RuleSet {
        match self {
            FileRules::Scan(r) => r,
            FileRules::Project(r) => r,
        }
    }
}

impl<'r> ScanConfig<'r> {
    pub fn new(rules: &'r RuleSet) -> Self {
        ScanConfig {
            rules,
            source_root: None,
            llvm_dis: None,
            llvm_dis_found: Default::default(),
            metal: MetalOptions::default(),
            walk: input::WalkOptions::default(),
            progress: false,
            emit_ir: None,
            root: input::root::PathRoot::new(None),
            emitted: Default::default(),
            xcrun_found: Default::default(),
            projects: Default::default(),
            project_rules: false,
            rule_sets: Default::default(),
        }
    }

    /// The rules the file at `path` runs. With `project_rules`, the
    /// `[rules]` options of the `air-scan.toml` nearest above it (as its
    /// `[metal]` flags are), so one scan of several projects runs each
    /// with its own; an unreadable or invalid file is an error for the
    /// files it governs.
    fn rules_for(&self, path: &Path) -> Result<FileRules<'_>, String> {
        if !self.project_rules {
            return Ok(FileRules::Scan(self.rules));
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let Ok(mut known) = self.rule_sets.lock() else {
            return Ok(FileRules::Scan(self.rules));
        };
        if !known.by_dir.contains_key(dir) {
            let found = project_options(dir).map(|options| {
                let options = options.filter(|o| *o != RuleOptions::default())?;
                let at = known.sets.iter().position(|(o, _)| *o == options);
                Some(at.unwrap_or_else(|| {
                    let mut set = self.rules.clone();
                    set.apply(&options);
                    known.sets.push((options, std::sync::Arc::new(set)));
                    known.sets.len() - 1
                }))
            });
            known.by_dir.insert(dir.to_path_buf(), found);
        }
        match known.by_dir.get(dir) {
            Some(Ok(Some(i))) => Ok(FileRules::Project(known.sets[*i].1.clone())),
            Some(Err(e)) => Err(e.clone()),
            Some(Ok(None)) | None => Ok(FileRules::Scan(self.rules)),
        }
    }

    fn llvm_dis(&self) -> &Result<crate::compile::LlvmDis, String> {
        self.llvm_dis_found
            .get_or_init(|| crate::compile::LlvmDis::find(self.llvm_dis.as_deref()))
    }

    /// Resolves the tools the command line named (`--llvm-dis`, `--xcrun`)
    /// now, so that a bad one is one error before anything is scanned, not
    /// one per file. Tools left to the search are still found on first need.
    pub fn check_named_tools(&self) -> Result<(), String> {
        // Their messages start with the flag and the path.
        if self.llvm_dis.is_some() {
            if let Err(e) = self.llvm_dis() {
                return Err(e.clone());
            }
        }
        if self.metal.xcrun.is_some() {
            if let Err(Unavailable::Broken(e) | Unavailable::Missing(e)) = self.xcrun() {
                return Err(e.clone());
            }
        }
        Ok(())
    }

    /// How many modules `--emit-ir` wrote so far.
    pub fn emitted_ir(&self) -> usize {
        self.emitted.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Writes a binary module's text under `--emit-ir`; a failure is a
    /// warning on the module's report, and the scan goes on.
    fn emit_ir(&self, name: &str, text: &str) -> Option<Diagnostic> {
        let dir = self.emit_ir.as_ref()?;
        let path = dir.join(emitted_ir_name(&self.root.path(name)));
        match std::fs::write(&path, text) {
            Ok(()) => {
                self.emitted
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                None
            }
            Err(e) => Some(Diagnostic::warning(
                0,
                format!("--emit-ir: cannot write {}: {e}", path.display()),
            )),
        }
    }

    /// The compiler driver for `.metal` files, found on first need.
    pub fn xcrun(&self) -> &Result<Xcrun, Unavailable> {
        self.xcrun_found
            .get_or_init(|| Xcrun::find(self.metal.xcrun.as_deref()))
    }

    /// The `air-scan.toml` governing a file in `dir` (absolute), if any.
    fn project_for(&self, dir: &Path) -> Result<Option<ProjectConfig>, String> {
        if let Ok(cache) = self.projects.lock() {
            if let Some(p) = cache.get(dir) {
                return p.clone();
            }
        }
        let found = ProjectConfig::find_for(dir);
        if let Ok(mut cache) = self.projects.lock() {
            cache.insert(dir.to_path_buf(), found.clone());
        }
        found
    }
}

/// The `[rules]` options of the `air-scan.toml` nearest above `dir`:
/// `None` without one.
pub fn project_options(dir: &Path) -> Result<Option<RuleOptions>, String> {
    let Some((path, rules)) = ProjectConfig::rules_for(dir)? else {
        return Ok(None);
    };
    match rules {
        Some(table) => RuleOptions::from_table(table, &path.display().to_string()).map(Some),
        None => Ok(Some(RuleOptions::default())),
    }
}

/// Scans an `.air` or `.metallib` file: one report per module, named
/// `path` for an `.air` and `path:function` for a metallib's functions.
pub fn scan_binary(path: &Path, config: &ScanConfig<'_>) -> Vec<FileReport> {
    scan_binaries(&[path], config).concat()
}

/// [`scan_binary`] for several files, each file's reports apart, their
/// modules disassembled together (`compile::disassemble_files`).
pub fn scan_binaries(paths: &[&Path], config: &ScanConfig<'_>) -> Vec<Vec<FileReport>> {
    let mut reports: Vec<Vec<FileReport>> = paths.iter().map(|_| Vec::new()).collect();
    scan_binaries_each(paths, config, &mut |i, report| {
        if let Some(file) = reports.get_mut(i) {
            file.push(report);
        }
    });
    reports
}

/// [`scan_binaries`], giving each report to `each` with its file's index in
/// `paths`, in order. Natively, each module is scanned as soon as it is read
/// and its report given before the next is read, so that a library's reports
/// need not all be held (`scan_each` writes them as they come); through
/// llvm-dis, the files' modules go in batches first.
pub fn scan_binaries_each(
    paths: &[&Path],
    config: &ScanConfig<'_>,
    each: &mut dyn FnMut(usize, FileReport),
) {
    scan_binaries_reusing(paths, config, &mut ModuleReuse::default(), each);
}

/// What one module's scan leaves the next scanned on the same thread. A
/// scan keeps one per thread and hands it on explicitly.
#[derive(Default)]
pub struct ModuleReuse {
    /// What decoding one binary module leaves the next (tables, room).
    decoding: ir::bitcode::Reuse,
    /// The argument descriptions earlier modules read.
    descriptions: ir::air::KnownDescriptions,
    /// The rules' buffers (`rules::run`).
    rules: rules::engine::Scratch,
}

/// [`scan_binaries_each`], with what earlier modules left in `reuse`.
fn scan_binaries_reusing(
    paths: &[&Path],
    config: &ScanConfig<'_>,
    reuse: &mut ModuleReuse,
    each: &mut dyn FnMut(usize, FileReport),
) {
    // Read natively unless `--llvm-dis` names a tool.
    let tool = match config.llvm_dis.as_ref().map(|_| config.llvm_dis()) {
        None => None,
        Some(Ok(t)) => Some(t),
        Some(Err(e)) => {
            for (i, p) in paths.iter().enumerate() {
                each(i, FileReport::failed(p.display().to_string(), e.clone()));
            }
            return;
        }
    };
    let Some(tool) = tool else {
        for (i, path) in paths.iter().enumerate() {
            scan_native_file(path, None, true, config, reuse, &mut |r| each(i, r));
        }
        return;
    };
    let disassembled = crate::compile::disassemble_files_with(paths, Some(tool));
    for (i, (path, modules)) in paths.iter().zip(disassembled).enumerate() {
        let reports = modules.map(|modules| {
            modules
                .into_iter()
                .map(|m| scan_binary_module(path, m, config, reuse))
                .collect()
        });
        for report in binary_file_reports(path, reports) {
            each(i, report);
        }
    }
}

/// The reports of binary file `path` read natively (of a metallib, only
/// the functions `part`), each given to `each` as soon as it is made. The
/// file's note and its failure as a whole are given only when `whole`
/// (the first part of a library cut into parts, `Unit::Part`).
fn scan_native_file(
    path: &Path,
    part: Option<std::ops::Range<usize>>,
    whole: bool,
    config: &ScanConfig<'_>,
    reuse: &mut ModuleReuse,
    each: &mut dyn FnMut(FileReport),
) {
    // What each module leaves the next on this thread, across files.
    let mut decoding = std::mem::take(&mut reuse.decoding);
    // Read from the file's head: only for the part that speaks for it.
    let mut note = if whole { mismatch_note(path) } else { None };
    let read = crate::compile::each_native_module_of(path, part, &mut decoding, |m| {
        let mut report = scan_binary_module(path, m, config, reuse);
        if let Some(note) = note.take() {
            report.diagnostics.insert(0, note);
        }
        each(report);
    });
    reuse.decoding = decoding;
    // For the file as a whole, found before any module is given
    // (`each_native_module`): the file's one report.
    if let (Err(e), true) = (read, whole) {
        each(FileReport::failed(path.display().to_string(), e));
    }
}

/// The report of one module of the binary file `path`.
fn scan_binary_module(
    path: &Path,
    m: crate::compile::ModuleResult,
    config: &ScanConfig<'_>,
    reuse: &mut ModuleReuse,
) -> FileReport {
    let shown = path.display().to_string();
    let name = match (m.library, m.name.split_once(':')) {
        (true, Some((_, function))) => format!("{shown}:{function}"),
        _ => shown,
    };
    match m.text {
        Ok(text) => {
            let emit_failed = config.emit_ir(&name, &text);
            let base = PathBuf::from(&name);
            let mut r = scan_text_at(name, &base, &text, config, &|_| {}, reuse);
            r.diagnostics.extend(emit_failed);
            // Disassembled in memory: no IR line is on disk.
            for f in &mut r.findings {
                f.ir.on_disk = false;
            }
            r
        }
        Err(e) => FileReport::failed(name, e),
    }
}

/// A binary file's reports, or its failure, with a note on its first report
/// when its extension does not match its contents.
fn binary_file_reports(path: &Path, reports: Result<Vec<FileReport>, String>) -> Vec<FileReport> {
    let mut reports = match reports {
        Ok(r) => r,
        Err(e) => return vec![FileReport::failed(path.display().to_string(), e)],
    };
    if let (Some(note), Some(first)) = (mismatch_note(path), reports.first_mut()) {
        first.diagnostics.insert(0, note);
    }
    reports
}

/// The note a binary file's first report carries when its extension does
/// not match its contents.
fn mismatch_note(path: &Path) -> Option<Diagnostic> {
    let note = input::Kind::of_file(path).and_then(|k| k.mismatch(path))?;
    Some(Diagnostic::warning(0, note))
}

/// The file name `--emit-ir` gives the text of the module the JSON and
/// SARIF reports name `name` (`lib.metallib:function`, `kernels/a.air`:
/// relative to `ScanConfig::root`, `input::root`): `name` and `.ll`,
/// every byte but ASCII letters, digits, `_`, `-`, `+`, `,`, `=`, `@` and
/// a `.` not in the first place written `%XX`, so that two names never
/// share a file and none climbs out of the folder or hides. A name longer
/// than 200 bytes so written keeps its first 180 and a hash of the whole.
pub fn emitted_ir_name(name: &str) -> String {
    const MAX: usize = 200;
    let mut out = String::with_capacity(name.len() + 3);
    for (i, b) in name.bytes().enumerate() {
        let plain = b.is_ascii_alphanumeric()
            || matches!(b, b'_' | b'-' | b'+' | b',' | b'=' | b'@')
            || (b == b'.' && i > 0);
        if plain {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.len() > MAX {
        let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        out.truncate(180);
        out.push_str(&format!("~{hash:016x}"));
    }
    out.push_str(".ll");
    out
}

/// Scans a `.metal` source: compiles it at each level (in parallel, on the
/// scan's pool), scans each level's IR and merges them into one report,
/// whose findings name the levels they appear at.
pub fn scan_metal(path: &Path, config: &ScanConfig<'_>) -> FileReport {
    let shown = path.display().to_string();
    let xcrun = match config.xcrun() {
        Ok(x) => x,
        Err(Unavailable::Broken(e) | Unavailable::Missing(e)) => {
            return FileReport::failed(shown, e.clone());
        }
    };
    let cwd = std::env::current_dir().unwrap_or_default();
    // Canonical, so that `./a.metal` and `a.metal` share cache entries.
    let source = std::fs::canonicalize(path).unwrap_or_else(|_| cwd.join(path));
    let dir = source.parent().unwrap_or(&cwd);
    let project = match config.project_for(dir) {
        Ok(p) => p.unwrap_or_default(),
        Err(e) => return FileReport::failed(shown, e),
    };
    let levels = config
        .metal
        .levels
        .clone()
        .or(project.levels)
        .unwrap_or_else(|| xcrun::DEFAULT_LEVELS.to_vec());
    let mut flags = project.flags;
    flags.extend(xcrun::absolutize_flags(&config.metal.flags, &cwd));
    let compiled: Vec<xcrun::Compiled> = levels
        .par_iter()
        .map(|&level| {
            xcrun::compile(&xcrun::Request {
                xcrun,
                source: &source,
                level,
                flags: &flags,
                cache: &config.metal.cache,
            })
        })
        .collect();
    merge_levels(shown, &source, compiled, config)
}

/// One report from the levels of one source: the first level that compiled
/// gives the kernels and module facts; findings are merged (see
/// [`same_finding`]); a level that failed while another compiled is an
/// error diagnostic; when none compiled, the file failed with what the
/// compiler said, once for all the levels that said the same.
fn merge_levels(
    shown: String,
    source: &Path,
    compiled: Vec<xcrun::Compiled>,
    config: &ScanConfig<'_>,
) -> FileReport {
    let mut merged: Option<FileReport> = None;
    let mut reuse = ModuleReuse::default();
    // (message, levels that gave it), in level order.
    let mut failures: Vec<(String, Vec<&'static str>)> = Vec::new();
    let mut infos = Vec::new();
    for c in compiled {
        let flag = c.level.flag();
        let ir_name = c
            .ir_path
            .as_ref()
            .map_or_else(|| format!("{shown} ({flag})"), |p| p.display().to_string());
        let mut info = CompiledLevel {
            level: c.level.as_str().to_string(),
            ir: c.ir_path.as_ref().map(|p| p.display().to_string()),
            error: None,
            cached: c.cached,
        };
        let failure = match c.text {
            Err(e) => Some(e),
            Ok(text) => {
                let r = scan_text_at(ir_name.clone(), source, &text, config, &|_| {}, &mut reuse);
                match r.status {
                    Status::Error | Status::Skipped => Some(format!(
                        "the compiler's IR ({ir_name}) could not be read: {}",
                        r.error.as_deref().unwrap_or("unreadable")
                    )),
                    Status::Ok => {
                        merge_into(&mut merged, r, &shown, flag, c.level.as_str());
                        None
                    }
                }
            }
        };
        if let Some(e) = failure {
            info.error = Some(e.clone());
            match failures.iter_mut().find(|(m, _)| *m == e) {
                Some((_, levels)) => levels.push(flag),
                None => failures.push((e, vec![flag])),
            }
        }
        infos.push(info);
    }
    let said = |(msg, levels): &(String, Vec<&str>)| {
        format!("compile failed at {}:\n{msg}", levels.join(" and "))
    };
    let mut report = match merged {
        Some(mut m) => {
            for f in &failures {
                m.diagnostics.push(Diagnostic::error(0, said(f)));
            }
            m
        }
        None => {
            let msg: Vec<String> = failures.iter().map(said).collect();
            FileReport::failed(shown, msg.join("\n"))
        }
    };
    report.compiled = infos;
    report
}

/// Adds one level's report to the merged one.
fn merge_into(
    merged: &mut Option<FileReport>,
    mut r: FileReport,
    shown: &str,
    flag: &str,
    level: &str,
) {
    let shown: std::sync::Arc<str> = shown.into();
    for f in &mut r.findings {
        f.path = shown.clone();
        f.levels = vec![level.to_string()];
    }
    // Diagnostics count lines of the IR, not of the source the report names.
    for d in &mut r.diagnostics {
        d.message = format!("in the {flag} IR ({}): {}", r.path, d.message);
    }
    let Some(m) = merged else {
        r.path = shown.to_string();
        *merged = Some(r);
        return;
    };
    m.diagnostics.append(&mut r.diagnostics);
    for f in r.findings {
        match m.findings.iter_mut().find(|g| same_finding(g, &f)) {
            Some(g) => {
                if !g.levels.iter().any(|l| l == level) {
                    g.levels.push(level.to_string());
                }
            }
            None => m.findings.push(f),
        }
    }
}

/// Whether two findings from different levels are one: the same rule, and
/// either the same exact (not approximate) source location, which holds
/// across inlining (a helper's divide at -O0 is the kernel's at -O2), or
/// the same function and the same source location or fingerprint.
pub fn same_finding(a: &Finding, b: &Finding) -> bool {
    if a.rule != b.rule {
        return false;
    }
    let exact = |f: &Finding| f.source.clone().filter(|s| !s.approximate);
    if let (Some(x), Some(y)) = (exact(a), exact(b)) {
        if x == y {
            return true;
        }
    }
    a.function == b.function
        && ((a.source.is_some() && a.source == b.source) || a.fingerprint == b.fingerprint)
}

/// Scans one file.
pub fn scan_file(path: &Path, rules: &RuleSet) -> FileReport {
    scan_file_with(path, &ScanConfig::new(rules))
}

/// Scans one file of IR text with a full configuration (a file of another
/// kind fails, saying what it is; [`scan_path`] reads every kind).
pub fn scan_file_with(path: &Path, config: &ScanConfig<'_>) -> FileReport {
    match input::load(path) {
        Ok(source) => {
            let text = input::as_ir_text(source.bytes());
            let shown = path.display().to_string();
            match text {
                Ok(text) => scan_text_at(
                    shown.clone(),
                    Path::new(&shown),
                    text,
                    config,
                    &|part| source.release(part),
                    &mut ModuleReuse::default(),
                ),
                Err(e) => FileReport::failed(shown, e.0),
            }
        }
        Err(e) => FileReport::failed(path.display().to_string(), e.0),
    }
}

/// Scans one file as what its bytes say it is, whatever its extension:
/// IR text here, bitcode and metallibs through llvm-dis (one report per
/// module). A file named for another kind gets a note saying so.
pub fn scan_path(path: &Path, config: &ScanConfig<'_>) -> Vec<FileReport> {
    let mut reports = Vec::new();
    scan_path_each(path, config, &mut |r| reports.push(r));
    reports
}

/// [`scan_path`], giving each report to `each` as soon as it is made (a
/// binary's module by module).
pub fn scan_path_each(path: &Path, config: &ScanConfig<'_>, each: &mut dyn FnMut(FileReport)) {
    scan_path_reusing(path, config, &mut ModuleReuse::default(), each);
}

/// [`scan_path_each`], with what earlier modules left in `reuse`.
fn scan_path_reusing(
    path: &Path,
    config: &ScanConfig<'_>,
    reuse: &mut ModuleReuse,
    each: &mut dyn FnMut(FileReport),
) {
    let source = match input::load(path) {
        Ok(s) => s,
        Err(e) => return each(FileReport::failed(path.display().to_string(), e.0)),
    };
    if input::Kind::of(source.bytes()).is_binary() {
        drop(source);
        return scan_binaries_reusing(&[path], config, reuse, &mut |_, r| each(r));
    }
    scan_source(path, &source, config, reuse)
        .into_iter()
        .for_each(each);
}

/// Scans one IR text file: one report, or, for a whole library's
/// `metal-objdump` dump, one per module, named `path:module` as a
/// metallib's functions are, with lines as in the dump. The dump's parts
/// that are not IR are skipped with a warning, in the last module's report;
/// a note that the file's name says another kind, in the first.
fn scan_source(
    path: &Path,
    source: &input::Source,
    config: &ScanConfig<'_>,
    reuse: &mut ModuleReuse,
) -> Vec<FileReport> {
    let shown = path.display().to_string();
    let note = input::Kind::of(source.bytes()).mismatch(path);
    let text = match input::as_ir_text(source.bytes()) {
        Ok(t) => t,
        Err(e) => return vec![FileReport::failed(shown, e.0)],
    };
    let base = PathBuf::from(&shown);
    let release = |part: &str| source.release(part);
    let mut reports = match ir::dump::split(text) {
        None => vec![scan_text_at(shown, &base, text, config, &release, reuse)],
        Some(dump) => scan_dump(&shown, &base, dump, config, &release, reuse),
    };
    if let (Some(note), Some(first)) = (note, reports.first_mut()) {
        first.diagnostics.insert(0, Diagnostic::warning(0, note));
    }
    reports
}

/// A library dump's modules, each its own report.
fn scan_dump(
    shown: &str,
    base: &Path,
    dump: ir::dump::Dump<'_>,
    config: &ScanConfig<'_>,
    release: &dyn Fn(&str),
    reuse: &mut ModuleReuse,
) -> Vec<FileReport> {
    let mut reports: Vec<FileReport> = dump
        .modules
        .iter()
        .map(|m| {
            let module = ir::read_module_at(m.text, m.first_line);
            let name = format!("{shown}:{}", m.name);
            scan_module_at(name, base, module, config, release, reuse)
        })
        .collect();
    if reports.is_empty() {
        let module = ir::read_module_at("", 1);
        reports.push(scan_module_at(
            shown.to_string(),
            base,
            module,
            config,
            release,
            reuse,
        ));
    }
    if let Some(last) = reports.last_mut() {
        last.diagnostics.extend(dump.skipped);
    }
    reports
}

/// Scans IR text already in memory (`path` is only used for the report).
pub fn scan_text(path: String, text: &str, rules: &RuleSet) -> FileReport {
    scan_text_with(path, text, &ScanConfig::new(rules))
}

/// Scans IR text with a full configuration.
pub fn scan_text_with(path: String, text: &str, config: &ScanConfig<'_>) -> FileReport {
    let base = PathBuf::from(&path);
    scan_text_at(
        path,
        &base,
        text,
        config,
        &|_| {},
        &mut ModuleReuse::default(),
    )
}

/// As [`scan_text_with`], looking for the MSL files debug info names around
/// `base` (the IR's own path, or the `.metal` source it was compiled from).
/// `release` is given each function body's text once the scan is done with
/// it (`input::Source::release`).
fn scan_text_at(
    path: String,
    base: &Path,
    text: &str,
    config: &ScanConfig<'_>,
    release: &dyn Fn(&str),
    reuse: &mut ModuleReuse,
) -> FileReport {
    scan_module_at(path, base, ir::read_module(text), config, release, reuse)
}

/// [`scan_text_at`] for a module already read.
fn scan_module_at(
    path: String,
    base: &Path,
    mut module: Module<'_>,
    config: &ScanConfig<'_>,
    release: &dyn Fn(&str),
    reuse: &mut ModuleReuse,
) -> FileReport {
    let rules = match config.rules_for(base) {
        Ok(r) => r,
        Err(e) => return FileReport::failed(path, e),
    };
    let rules = &*rules;
    let mut diagnostics = std::mem::take(&mut module.diagnostics);
    let air = ir::air::air_info_knowing(&module, &mut reuse.descriptions);
    diagnostics.extend(air.diagnostics.iter().cloned());
    module.metadata.forget_parsed();

    let nothing_read =
        module.has_no_entity() && diagnostics.iter().any(|d| d.severity == Severity::Error);
    if nothing_read {
        diagnostics.sort_by_key(|d| d.line);
        let why = diagnostics.first().map_or(String::new(), |d| {
            format!(" (line {}: {})", d.line, d.message)
        });
        let mut r = FileReport::failed(
            path,
            format!("not LLVM IR text: no module entity found{why}"),
        );
        r.diagnostics = diagnostics;
        return r;
    }

    let owned = |s: Option<&str>| s.map(str::to_string);
    let typed = module.types.has_typed_pointer() || module.metadata.mentions_typed_pointers;
    let mut summary = ModuleSummary {
        source_filename: owned(module.source_filename),
        target_triple: owned(module.target_triple),
        air_version: air.air_version.clone(),
        language_version: air.language_version.clone(),
        compile_options: air.compile_options.iter().map(|s| s.to_string()).collect(),
        compiler: owned(air.llvm_ident.first().copied()),
        pointers: if typed { "typed" } else { "opaque" },
        functions: module.functions.len(),
        definitions: module.functions.iter().filter(|f| f.is_definition).count(),
        globals: module.globals.len(),
        blocks: 0,
        instructions: 0,
        metadata_nodes: module.metadata.len(),
        function_constants: air
            .function_constants
            .iter()
            .map(ir::air::FunctionConstant::owned)
            .collect(),
    };
    let resolver = crate::source::Resolver::new(base, config.source_root.as_deref());
    let (findings, air, blocks, instructions) = analyze(
        &mut module,
        air,
        rules,
        &path,
        &resolver,
        &mut diagnostics,
        release,
        &mut reuse.rules,
    );
    summary.blocks += blocks;
    summary.instructions += instructions;
    // Metadata the scan used and found broken (the reader checks only
    // brackets; see `MetadataTable::get`).
    diagnostics.extend(module.metadata.take_errors());
    // The owned entry points are made only now, once the module (and the
    // metadata it parsed) is gone: made before the walk, they would sit
    // beside all of that at the scan's peak (~0.1x the input).
    drop(module);
    let mut owner = ir::air::Owner::for_entry_points(&air.entry_points, &mut reuse.descriptions);
    let mut entries = |kernel: bool| -> Vec<OwnedEntryPoint> {
        let of_kind = |e: &&ir::air::EntryPoint<'_>| (e.stage == "kernel") == kernel;
        air.entry_points
            .iter()
            .filter(of_kind)
            .map(|e| owner.entry_point(e))
            .collect()
    };
    let (kernels, shaders) = (entries(true), entries(false));
    drop(air);
    diagnostics.sort_by_key(|d| d.line);
    FileReport {
        path,
        status: Status::Ok,
        error: None,
        reason: None,
        diagnostics,
        kernels,
        shaders,
        module: Some(summary),
        findings,
        suppressed: Vec::new(),
        baseline_matched: 0,
        compiled: Vec::new(),
    }
}

/// The analyses of one defined function, as `walk_functions` hands them out.
pub struct Visit<'v, 'a> {
    pub index: usize,
    pub function: &'v ir::Function<'a>,
    pub body: &'v ir::Body<'a>,
    pub du: &'v DefUse<'a>,
    pub cf: &'v ControlFlow,
    pub prov: &'v FunctionProvenance,
    /// What the parameters were taken to be (AIR metadata for an entry
    /// point, the join of the call sites for a helper).
    pub params: &'v [Provenance],
    /// Names of the entry points that reach the function.
    pub kernels: Vec<&'a str>,
    /// The module's call graph.
    pub graph: &'v CallGraph<'a>,
}

impl<'v, 'a> Visit<'v, 'a> {
    /// What the rules see of this function.
    pub fn context(
        &self,
        module: &'v Module<'a>,
        ctx: &'v ModuleContext<'a>,
    ) -> FunctionContext<'v, 'a> {
        FunctionContext {
            module,
            air: &ctx.air,
            function: self.function,
            body: self.body,
            du: self.du,
            cf: self.cf,
            prov: self.prov,
            graph: self.graph,
            kernels: self.kernels.clone(),
        }
    }
}

/// What `walk_functions` leaves behind.
pub struct Walked<'a> {
    pub ctx: ModuleContext<'a>,
    pub graph: CallGraph<'a>,
    pub blocks: usize,
    pub instructions: usize,
}

/// Reads every body, callers before callees, builds def-use, control flow
/// and provenance, and hands each defined function to `visit` before
/// dropping its body, so only one body is in memory at a time. A helper's
/// parameters take the join of what its call sites pass.
pub fn walk_functions<'a>(
    module: &mut Module<'a>,
    air: ir::air::AirInfo<'a>,
    diagnostics: &mut Vec<Diagnostic>,
    mut visit: impl FnMut(&Module<'a>, &ModuleContext<'a>, &Visit<'_, 'a>),
) -> Walked<'a> {
    let entry_names: Vec<&'a str> = air.entry_points.iter().map(|e| e.name).collect();
    let graph = CallGraph::build(module, &entry_names);
    let mut ctx = ModuleContext::new(air, module);
    for i in 0..module.functions.len() {
        if module.functions[i].section == Some("air.static_init") {
            let (body, _) = module.body(i);
            ctx.note_static_init(&module.functions[i], &body);
        }
    }
    let (mut blocks, mut instructions) = (0, 0);
    // What call sites pass to each function's parameters, joined.
    let mut passed: Vec<Option<Vec<Provenance>>> = vec![None; module.functions.len()];
    let mut body = ir::Body::default();
    for &fi in &graph.order {
        diagnostics.extend(module.body_into(fi, &mut body));
        blocks += body.blocks.len();
        instructions += body.instructions.len();
        let function = &module.functions[fi];
        if !function.is_definition {
            continue;
        }
        let du = DefUse::build(function, &body);
        let cf = ControlFlow::of(&body);
        // LLVM rejects a branch to a label no block has; without this the
        // edge would vanish silently and change what counts as conditional.
        for missing in &cf.cfg.missing {
            let msg = format!(
                "branch to undefined label %{} in @{}",
                missing.label, function.name
            );
            diagnostics.push(Diagnostic::error(missing.line, msg));
        }
        let params = match graph.entries.get(&fi) {
            Some(&e) => entry_params(&ctx, module, e, function),
            None => passed[fi]
                .take()
                .unwrap_or_else(|| vec![Provenance::of(Sources::UNKNOWN); function.params.len()]),
        };
        let prov = FunctionProvenance::compute(&ctx, module, function, &body, &du, params.clone());
        for (i, inst) in body.instructions.iter().enumerate() {
            if inst.opcode != Opcode::Call {
                continue;
            }
            // Only a defined callee's parameters are ever read back.
            let Some(slot) = inst
                .callee_name()
                .and_then(|c| graph.index_of.get(c))
                .filter(|&&c| module.functions.get(c).is_some_and(|f| f.is_definition))
                .and_then(|&c| passed.get_mut(c))
            else {
                continue;
            };
            let acc = slot.get_or_insert_with(Vec::new);
            for j in 0..inst.call_args().len() {
                let p = prov.operand(&body, &du, i, j);
                match acc.get_mut(j) {
                    Some(a) => a.join(&p),
                    None => acc.push(p),
                }
            }
        }
        let kernels = graph.reached_by[fi]
            .iter()
            .filter_map(|&e| entry_names.get(e).copied())
            .collect();
        let v = Visit {
            index: fi,
            function,
            body: &body,
            du: &du,
            cf: &cf,
            prov: &prov,
            params: &params,
            kernels,
            graph: &graph,
        };
        visit(module, &ctx, &v);
    }
    Walked {
        ctx,
        graph,
        blocks,
        instructions,
    }
}

/// Runs the rules on every function and maps each finding to its source;
/// gives each body's text to `release` once done with it. Returns the
/// findings, the AIR layer, and the blocks and instructions read.
// One argument past clippy's limit: the rules' buffers, handed on from
// the scan's `ModuleReuse` like its other per-thread state.
#[allow(clippy::too_many_arguments)]
fn analyze<'a>(
    module: &mut Module<'a>,
    air: ir::air::AirInfo<'a>,
    rules: &RuleSet,
    path: &str,
    resolver: &crate::source::Resolver,
    diagnostics: &mut Vec<Diagnostic>,
    release: &dyn Fn(&str),
    scratch: &mut rules::engine::Scratch,
) -> (Vec<Finding>, ir::air::AirInfo<'a>, usize, usize) {
    let mut findings = Vec::new();
    let path: std::sync::Arc<str> = path.into();
    let mut done = DoneText::default();
    let walked = walk_functions(module, air, diagnostics, |module, ctx, v| {
        let first_new = findings.len();
        rules::run(
            rules,
            &v.context(module, ctx),
            &path,
            &mut findings,
            scratch,
        );
        let new = &mut findings[first_new..];
        let located = !new.is_empty() && v.body.instructions.iter().any(|i| i.dbg.is_some());
        // Of the function's name: the same for all its findings.
        let family = std::cell::OnceCell::new();
        for f in new {
            let body = (v.body, located);
            let mapped = crate::source::map(module, v.function, body, v.du, f.inst, resolver);
            f.source = mapped.source;
            f.inlined_at = mapped.inlined_at;
            if let Some(src) = &mut f.source {
                let tokens = rules
                    .find(&f.rule)
                    .map_or(&[][..], |r| &r.pattern.source_tokens);
                src.status = resolver.status(src, tokens);
            }
            // A call site holds no particular token: checked for its file and line.
            for site in &mut f.inlined_at {
                site.status = resolver.status(site, &[]);
            }
            f.ir.instruction = instruction_text(module.text, v.function, f.ir.line);
            let opcode = v
                .body
                .instructions
                .get(f.inst)
                .map_or("", |i| i.opcode_text);
            let line = f.source.as_ref().and_then(|s| resolver.line_key(s));
            let line = line.as_ref().map(|(text, nth)| (text.as_str(), *nth));
            let family = family.get_or_init(|| rules::cause::family(v.function.name));
            f.cause = rules::cause::cause_id(f, opcode, line, family);
        }
        if let Some(body) = v.function.body_range.clone() {
            done.add(body, module.text, release);
        }
    });
    done.release(module.text, release);
    mark_changed_sources(&mut findings);
    findings.sort_by(|a, b| a.ir.line.cmp(&b.ir.line).then_with(|| a.rule.cmp(&b.rule)));
    (findings, walked.ctx.air, walked.blocks, walked.instructions)
}

/// A source file with a stale location has changed since the module was
/// compiled, so a line borrowed from a neighbour in it cannot be trusted
/// either: such approximate locations are stale too.
fn mark_changed_sources(findings: &mut [Finding]) {
    use crate::source::SourceStatus;
    let changed: rustc_hash::FxHashSet<String> = findings
        .iter()
        .filter_map(|f| f.source.as_ref())
        .filter(|s| s.status == SourceStatus::Stale)
        .map(|s| s.path.clone())
        .collect();
    if changed.is_empty() {
        return;
    }
    for s in findings.iter_mut().filter_map(|f| f.source.as_mut()) {
        if s.status == SourceStatus::Approximate && changed.contains(&s.path) {
            s.status = SourceStatus::Stale;
        }
    }
}

/// The text of IR line `line`, which stands in `function`'s body, trimmed.
fn instruction_text(text: &str, function: &ir::Function<'_>, line: u32) -> String {
    let Some(body) = function.body_range.clone().and_then(|r| text.get(r)) else {
        return String::new();
    };
    let skip = line.saturating_sub(function.body_line) as usize;
    // memchr's iterator, not `split`: a call per line skipped cost 1.4% of
    // a scan, with every finding counting down its body from the top.
    let start = match skip {
        0 => 0,
        _ => match memchr::memchr_iter(b'\n', body.as_bytes()).nth(skip - 1) {
            Some(newline) => newline + 1,
            None => return String::new(),
        },
    };
    let rest = &body[start..];
    let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
    rest[..end].trim().to_string()
}

/// Function bodies the walk is done with, given to `release` in runs of a
/// few MB: one `madvise` per function made the other worker threads flush
/// their TLBs thousands of times (--jobs 2 was 20% slower).
#[derive(Default)]
struct DoneText {
    ranges: Vec<std::ops::Range<usize>>,
    bytes: usize,
}

impl DoneText {
    /// Bytes gathered before they are given back.
    const STEP: usize = 8 << 20;
    /// Bodies closer than this are given back as one run, the text between
    /// them (a function's header, attributes) with them.
    const GAP: usize = 64 << 10;

    fn add(&mut self, body: std::ops::Range<usize>, text: &str, release: &dyn Fn(&str)) {
        self.bytes += body.len();
        self.ranges.push(body);
        if self.bytes >= Self::STEP {
            self.release(text, release);
        }
    }

    fn release(&mut self, text: &str, release: &dyn Fn(&str)) {
        self.ranges.sort_unstable_by_key(|r| r.start);
        let mut runs = self.ranges.drain(..);
        if let Some(mut run) = runs.next() {
            for r in runs {
                if r.start <= run.end + Self::GAP {
                    run.end = run.end.max(r.end);
                } else {
                    release(text.get(run.clone()).unwrap_or(""));
                    run = r;
                }
            }
            release(text.get(run).unwrap_or(""));
        }
        self.bytes = 0;
    }
}

/// Scans every file the paths name, `jobs` files at a time, and keeps every
/// report: for tests and tools that want them all at once (the reports are
/// written by `scan_each`'s sink, a few held at a time). Reports come back
/// in the order the files were found, whatever the thread timing.
pub fn scan_paths(paths: &[PathBuf], jobs: usize, config: &ScanConfig<'_>) -> Vec<FileReport> {
    let mut files = Vec::new();
    scan_each(paths, jobs, config, |report| files.push(report));
    files
}

/// What a whole scan gave besides its reports, which went to a sink.
pub struct ScanOutput {
    /// `.metal` files not compiled because no compiler is here.
    pub skipped: Vec<PathBuf>,
    /// Why they were skipped.
    pub skip_reason: Option<String>,
}

impl ScanOutput {
    /// The one line to print about skipped files, if any were.
    pub fn skipped_line(&self) -> Option<String> {
        let reason = self.skip_reason.as_deref()?;
        (!self.skipped.is_empty()).then(|| xcrun::skipped_line(self.skipped.len(), reason))
    }
}

/// Scans below this many files draw no progress bar, unless they compile.
const PROGRESS_MIN_FILES: usize = 16;

/// Scans `paths` with `jobs` threads and gives each file's report to `sink`,
/// on the calling thread, in the order the files were found, as soon as it
/// and every report before it are done: a caller that writes each report and
/// lets it go holds a few at a time, not the whole scan's. A library's
/// modules come one by one, as they are read. The folders are walked on a
/// thread of their own while the first files are scanned.
pub fn scan_each(
    paths: &[PathBuf],
    jobs: usize,
    config: &ScanConfig<'_>,
    mut sink: impl FnMut(FileReport) + Send,
) -> ScanOutput {
    let bar = Progress::new(config.progress);
    // Each unit gives each of its files' reports, with the file's place in
    // the walk, then says the file is done: reports come out in that order
    // whatever the grouping.
    let work = |unit: &Unit, reuse: &mut ModuleReuse, give: &mut dyn FnMut(Arrived)| {
        match unit {
            Unit::Binaries(files) => {
                let paths: Vec<&Path> = files.iter().map(|(_, p)| p.as_path()).collect();
                // Files come in order: those before the one giving a report
                // are done.
                let mut finished = 0;
                scan_binaries_reusing(&paths, config, reuse, &mut |i, report| {
                    for (place, _) in files.get(finished..i).unwrap_or_default() {
                        give(Arrived::Done(*place));
                    }
                    finished = finished.max(i);
                    if let Some((place, _)) = files.get(i) {
                        give(Arrived::Report(*place, Box::new(report)));
                    }
                });
                for (place, _) in files.get(finished..).unwrap_or_default() {
                    give(Arrived::Done(*place));
                }
            }
            Unit::Part {
                place,
                path,
                functions,
                first,
                ..
            } => {
                let mut give_report = |r| give(Arrived::Report(*place, Box::new(r)));
                let part = Some(functions.clone());
                scan_native_file(path, part, *first, config, reuse, &mut give_report);
                give(Arrived::Done(*place));
            }
            Unit::One(i, Found::File(p)) if xcrun::is_metal(p) => {
                give(Arrived::Report(*i, Box::new(scan_metal(p, config))));
                give(Arrived::Done(*i));
            }
            Unit::One(i, Found::File(p)) => {
                scan_path_reusing(p, config, reuse, &mut |r| {
                    give(Arrived::Report(*i, Box::new(r)))
                });
                give(Arrived::Done(*i));
            }
            Unit::Skipped(i, p, why) => {
                let report = FileReport::skipped(p.display().to_string(), why.clone());
                give(Arrived::Report(*i, Box::new(report)));
                give(Arrived::Done(*i));
            }
            Unit::One(i, Found::Error(p, e)) => {
                let report = FileReport::failed(p.display().to_string(), e.clone());
                give(Arrived::Report(*i, Box::new(report)));
                give(Arrived::Done(*i));
            }
        }
        bar.done(unit.files());
    };
    let mut in_order = InOrder::default();
    let (units, walked_units) = std::sync::mpsc::channel();
    let walked = std::thread::scope(|threads| {
        let walker = threads.spawn(|| {
            let mut units = Units::new(units, config, &bar, jobs);
            input::walk_each(paths, &config.walk, |found| units.add(found));
            units.finish()
        });
        // In the pool, so that a unit's own parallel work (the levels of a
        // .metal file) keeps to --jobs threads too.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build();
        let mut arrived = |arrived| in_order.take(arrived, &mut sink);
        // Made on the thread that uses it (the decoder's part is not Send).
        match pool {
            // One thread: each report is given as soon as it is made.
            Ok(pool) if jobs <= 1 => pool.install(|| {
                let mut reuse = ModuleReuse::default();
                for unit in walked_units {
                    work(&unit, &mut reuse, &mut arrived);
                }
            }),
            Ok(pool) => in_threads(&pool, walked_units, &work, arrived),
            Err(_) => {
                let mut reuse = ModuleReuse::default();
                for unit in walked_units {
                    work(&unit, &mut reuse, &mut arrived);
                }
            }
        }
        walker.join()
    });
    in_order.flush(&mut sink);
    bar.finish();
    let (skipped, skip_reason) = match walked {
        Ok(skipped) => skipped,
        Err(panic) => std::panic::resume_unwind(panic),
    };
    ScanOutput {
        skipped,
        skip_reason,
    }
}

/// Runs `work` on every unit with the pool's threads, which take units in
/// the order the walk sends them (rayon's splitting would start the second
/// half early and leave its reports waiting), and gives what each unit
/// gives to `arrived` on the calling thread as it comes.
fn in_threads(
    pool: &rayon::ThreadPool,
    units: std::sync::mpsc::Receiver<Unit>,
    work: &UnitWork<'_>,
    mut arrived: impl FnMut(Arrived),
) {
    let units = std::sync::Mutex::new(units);
    let take_units = |to_caller: std::sync::mpsc::Sender<Arrived>| {
        // Each thread's modules hand on to the next on the thread.
        let mut reuse = ModuleReuse::default();
        // The lock is let go before the work: only the taking is shared.
        while let Some(unit) = units.lock().ok().and_then(|walked| walked.recv().ok()) {
            let mut caller_gone = false;
            work(&unit, &mut reuse, &mut |a| {
                caller_gone |= to_caller.send(a).is_err()
            });
            if caller_gone {
                return;
            }
        }
    };
    let (to_caller, from_workers) = std::sync::mpsc::channel();
    std::thread::scope(|threads| {
        threads.spawn(|| {
            pool.scope(|scope| {
                for _ in 0..pool.current_num_threads() {
                    let to_caller = to_caller.clone();
                    scope.spawn(|_| take_units(to_caller));
                }
                drop(to_caller);
            })
        });
        from_workers.into_iter().for_each(&mut arrived);
    });
}

/// What a unit gives as it goes, each with its file's place in the walk:
/// one of the file's reports, or the end of them.
enum Arrived {
    Report(usize, Box<FileReport>),
    Done(usize),
}

/// Scans a unit, giving what it finds as it goes.
type UnitWork<'w> = dyn Fn(&Unit, &mut ModuleReuse, &mut dyn FnMut(Arrived)) + Sync + 'w;

/// Reports that arrive out of order, given on in order: those of the file
/// next in line at once, the others once every file before theirs is done.
#[derive(Default)]
struct InOrder {
    /// By place: the reports of a file after the next in line, and whether
    /// it is done.
    waiting: std::collections::BTreeMap<usize, (Vec<FileReport>, bool)>,
    wanted: usize,
}

impl InOrder {
    /// Takes what a unit gave and gives `sink` every report now in line.
    fn take(&mut self, arrived: Arrived, sink: &mut impl FnMut(FileReport)) {
        match arrived {
            Arrived::Report(place, report) if place == self.wanted => sink(*report),
            Arrived::Report(place, report) => {
                self.waiting.entry(place).or_default().0.push(*report)
            }
            Arrived::Done(place) if place == self.wanted => self.next(sink),
            Arrived::Done(place) => self.waiting.entry(place).or_default().1 = true,
        }
    }

    /// The file in line is done: gives the reports of those after it, up to
    /// the first not done, which is then in line.
    fn next(&mut self, sink: &mut impl FnMut(FileReport)) {
        loop {
            self.wanted += 1;
            let Some((reports, done)) = self.waiting.remove(&self.wanted) else {
                return;
            };
            reports.into_iter().for_each(&mut *sink);
            if !done {
                return;
            }
        }
    }

    /// Gives whatever still waits: a file that never said it was done (none
    /// should) holds back no other.
    fn flush(&mut self, sink: &mut impl FnMut(FileReport)) {
        std::mem::take(&mut self.waiting)
            .into_values()
            .flat_map(|(reports, _)| reports)
            .for_each(sink);
    }
}

/// What one task of a scan reads: a file, or with `--llvm-dis` up to
/// `llvm_dis::BATCH` `.air` and `.metallib` files, whose modules go to
/// llvm-dis together. Each file comes with its place in the walk.
enum Unit {
    One(usize, Found),
    /// A file not to read, and why: its report says so, in its place.
    Skipped(usize, PathBuf, String),
    Binaries(Vec<(usize, PathBuf)>),
    /// Some of a metallib's functions, read natively: a large library is
    /// cut into parts (`LIBRARY_PART` functions each) that run in
    /// parallel, each with a place of its own so that their reports keep
    /// the library's order. `first` speaks for the file (its note, its
    /// failure); `last` counts it as read.
    Part {
        place: usize,
        path: PathBuf,
        functions: std::ops::Range<usize>,
        first: bool,
        last: bool,
    },
}

/// Functions of a metallib per `Unit::Part`, when `--jobs` is above 1: mlx's
/// 382 modules in 12 parts, while a part's reports held back behind an
/// earlier part's stay few (a module's report is a few KB).
const LIBRARY_PART: usize = 32;

impl Unit {
    /// How many files it reads.
    fn files(&self) -> usize {
        match self {
            Unit::Binaries(files) => files.len(),
            Unit::Part { last, .. } => usize::from(*last),
            _ => 1,
        }
    }
}

/// Cuts what the walk finds into units and sends each on as soon as it is
/// whole: a file at once, binaries for llvm-dis once `llvm_dis::BATCH` are
/// found (a folder often holds `x.air` beside `x.ll`) or the walk ends. `.metal`
/// files are left out, and listed, where no compiler driver is found.
struct Units<'c, 'r> {
    to_workers: std::sync::mpsc::Sender<Unit>,
    config: &'c ScanConfig<'r>,
    bar: &'c Progress,
    /// Places handed out so far: every file sent on has one (a library cut
    /// into parts, one a part).
    next_place: usize,
    /// Whether a large library is cut into parts (`Unit::Part`): with more
    /// than one thread.
    cut_libraries: bool,
    batch: Vec<(usize, PathBuf)>,
    skipped: Vec<PathBuf>,
    skip_reason: Option<String>,
}

impl<'c, 'r> Units<'c, 'r> {
    fn new(
        to_workers: std::sync::mpsc::Sender<Unit>,
        config: &'c ScanConfig<'r>,
        bar: &'c Progress,
        jobs: usize,
    ) -> Self {
        Units {
            to_workers,
            config,
            bar,
            next_place: 0,
            cut_libraries: jobs > 1 && config.llvm_dis.is_none(),
            batch: Vec::new(),
            skipped: Vec::new(),
            skip_reason: None,
        }
    }

    fn add(&mut self, found: Found) {
        if let Found::File(p) = &found
            && xcrun::is_metal(p)
        {
            if let Err(Unavailable::Missing(why)) = self.config.xcrun() {
                self.skip_reason.get_or_insert_with(|| why.clone());
                self.skipped.push(p.clone());
                let place = self.next_place;
                self.next_place += 1;
                self.send(Unit::Skipped(place, p.clone(), why.clone()));
                return;
            }
            self.bar.compiles();
        }
        let place = self.next_place;
        self.next_place += 1;
        self.bar.found();
        match found {
            // Named and made as binaries: batched for llvm-dis. Anything
            // else is read alone, as what its bytes say (`scan_path`).
            Found::File(p)
                if crate::compile::BinaryInput::from_path(&p).is_some()
                    && input::Kind::of_file(&p).is_some_and(input::Kind::is_binary) =>
            {
                if let Some(parts) = self.library_parts(&p) {
                    self.send_parts(place, p, parts);
                    return;
                }
                self.batch.push((place, p));
                // Read natively, a file is a unit like any other, so files
                // run in parallel (a batch of 32 kept a project's `.air`
                // files on one thread); llvm-dis is started once a batch.
                let batch = match self.config.llvm_dis {
                    Some(_) => crate::compile::llvm_dis::BATCH,
                    None => 1,
                };
                if self.batch.len() >= batch {
                    self.send_batch();
                }
            }
            other => self.send(Unit::One(place, other)),
        }
    }

    /// How many parts the metallib `p` is cut into, if it is a library to
    /// cut (see `Unit::Part`).
    fn library_parts(&self, p: &Path) -> Option<usize> {
        if !self.cut_libraries
            || !matches!(
                crate::compile::BinaryInput::from_path(p),
                Some(crate::compile::BinaryInput::Metallib(_))
            )
        {
            return None;
        }
        let functions = crate::compile::metallib_functions(p)?;
        Some(functions.div_ceil(LIBRARY_PART)).filter(|&n| n > 1)
    }

    /// Sends library `p`'s parts, the first at `place`, the others at
    /// places after it.
    fn send_parts(&mut self, place: usize, p: PathBuf, parts: usize) {
        for k in 0..parts {
            let place = match k {
                0 => place,
                _ => {
                    self.next_place += 1;
                    self.next_place - 1
                }
            };
            self.send(Unit::Part {
                place,
                path: p.clone(),
                functions: k * LIBRARY_PART..(k + 1) * LIBRARY_PART,
                first: k == 0,
                last: k + 1 == parts,
            });
        }
    }

    fn send_batch(&mut self) {
        if !self.batch.is_empty() {
            let batch = std::mem::take(&mut self.batch);
            self.send(Unit::Binaries(batch));
        }
    }

    /// A unit for the workers. They take units until the scan ends; if they
    /// are gone, so is the scan.
    fn send(&self, unit: Unit) {
        let _ = self.to_workers.send(unit);
    }

    /// Sends the last binaries and says which `.metal` files were skipped,
    /// and why.
    fn finish(mut self) -> (Vec<PathBuf>, Option<String>) {
        self.send_batch();
        (self.skipped, self.skip_reason)
    }
}

/// The progress bar: on stderr when asked for and stderr is a terminal,
/// and only once the scan has `PROGRESS_MIN_FILES` files or compiles one;
/// else hidden, so logs and pipes never see it.
struct Progress {
    bar: indicatif::ProgressBar,
    /// Drawing allowed (asked for, stderr a terminal) and not yet started.
    may_show: std::sync::atomic::AtomicBool,
}

impl Progress {
    fn new(wanted: bool) -> Self {
        use std::io::IsTerminal;
        // A length to grow (`inc_length` leaves a bar without one as it is).
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(0),
            indicatif::ProgressDrawTarget::hidden(),
        );
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} files")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress {
            bar,
            may_show: (wanted && std::io::stderr().is_terminal()).into(),
        }
    }

    /// One more file to scan.
    fn found(&self) {
        self.bar.inc_length(1);
        if self.bar.length() >= Some(PROGRESS_MIN_FILES as u64) {
            self.show();
        }
    }

    /// A file to compile: slow enough to show progress for, however few.
    fn compiles(&self) {
        self.show();
    }

    fn show(&self) {
        use std::sync::atomic::Ordering::Relaxed;
        if self.may_show.swap(false, Relaxed) {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
    }

    fn done(&self, files: usize) {
        self.bar.inc(files as u64);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::{Arrived, FileReport, InOrder};

    fn report(name: &str) -> Box<FileReport> {
        Box::new(FileReport::skipped(name.to_string(), String::new()))
    }

    /// The file in line passes its reports on as they come; a later file's
    /// wait until every file before it is done, then go in walk order.
    #[test]
    fn reports_are_given_in_walk_order_as_soon_as_they_can_be() {
        let mut in_order = InOrder::default();
        let mut given: Vec<String> = Vec::new();
        let take = |in_order: &mut InOrder, arrived, given: &mut Vec<String>| {
            in_order.take(arrived, &mut |r: FileReport| given.push(r.path));
        };
        take(&mut in_order, Arrived::Report(1, report("1a")), &mut given);
        take(&mut in_order, Arrived::Report(0, report("0a")), &mut given);
        assert_eq!(given, ["0a"], "the file in line waits for nothing");
        take(&mut in_order, Arrived::Done(1), &mut given);
        take(&mut in_order, Arrived::Report(3, report("3a")), &mut given);
        take(&mut in_order, Arrived::Report(0, report("0b")), &mut given);
        assert_eq!(given, ["0a", "0b"]);
        take(&mut in_order, Arrived::Report(2, report("2a")), &mut given);
        take(&mut in_order, Arrived::Done(0), &mut given);
        // 1 was done: 2 is now in line, and its next report passes at once.
        assert_eq!(given, ["0a", "0b", "1a", "2a"]);
        take(&mut in_order, Arrived::Report(2, report("2b")), &mut given);
        assert_eq!(given, ["0a", "0b", "1a", "2a", "2b"]);
        take(&mut in_order, Arrived::Done(2), &mut given);
        take(&mut in_order, Arrived::Report(4, report("4a")), &mut given);
        assert_eq!(given, ["0a", "0b", "1a", "2a", "2b", "3a"]);
        // A file never said done holds back no other at the end.
        in_order.flush(&mut |r: FileReport| given.push(r.path));
        assert_eq!(given, ["0a", "0b", "1a", "2a", "2b", "3a", "4a"]);
    }
}
