//! `air-scan diff A B`: what the optimizer (or a new compiler) did to each
//! kernel, the way shader-db's report.py compares two compiler builds.
//!
//! A and B are two IR files, or two directories whose files are paired by
//! relative path. A file may be IR text, an `.air` or a `.metallib` (read
//! natively, `ir::bitcode`), and `lib.metallib:function` names one
//! function of a library. Kernels (`!air.kernel`) are paired by name,
//! whichever module of a side holds them (a metallib has one a function;
//! each pair of modules that share kernels is analysed together). For each
//! kernel, `metrics` counts instructions by class, blocks, loops, allocas
//! and findings over the kernel and the functions it calls; `compare`
//! pairs the two sides, and `explain` says where the computation behind a
//! finding present on one side only sits on each side.
//!
//! `air-scan diff kernel.metal` compiles the source at `--levels` (default
//! O0,O2) with `xcrun` (`compile::xcrun`) and compares each level with the
//! next. Where there is no xcrun (Linux) it says so and exits 2.

pub mod compare;
pub mod explain;
pub mod metrics;
mod render;

use crate::input::{self, Found};
use crate::rules::RuleSet;
use compare::{KernelDiff, OneSided, Total};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    /// One self-contained page (report::html).
    Html,
}

/// Compare the kernels of two IR files, or of two directories of them.
#[derive(clap::Args, Debug, Clone)]
pub struct DiffArgs {
    /// The "before" side: an IR, `.air` or `.metallib` file
    /// (`lib.metallib:function` for one function of it), or a directory of
    /// them.
    pub a: PathBuf,
    /// The "after" side, as A. Leave it out when A is a `.metal` source:
    /// its levels are compared instead.
    pub b: Option<PathBuf>,
    /// For a `.metal` source: the optimization levels to compile and
    /// compare, each with the next.
    #[arg(long, value_delimiter = ',', default_value = "O0,O2")]
    pub levels: Vec<String>,
    /// For a `.metal` source: the compiler driver (default: `xcrun` on PATH).
    #[arg(long, value_name = "PATH")]
    pub xcrun: Option<PathBuf>,
    /// For a `.metal` source: a flag for `xcrun metal` (repeatable).
    #[arg(long = "metal-flag", value_name = "FLAG", allow_hyphen_values = true)]
    pub metal_flags: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Show only the kernels, metrics and totals that changed.
    #[arg(long)]
    pub changes_only: bool,
}

/// A file that could not be compared.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileError {
    pub path: String,
    pub message: String,
}

/// Everything a diff found, ready for either format.
pub struct DiffReport {
    pub a: String,
    pub b: String,
    /// Kernels on both sides, in file then module order.
    pub kernels: Vec<KernelDiff>,
    pub only_a: Vec<OneSided>,
    pub only_b: Vec<OneSided>,
    /// Files (relative paths) present in one directory only.
    pub files_only_a: Vec<String>,
    pub files_only_b: Vec<String>,
    pub errors: Vec<FileError>,
    /// Files read as something other than their names say (a `.ll` that
    /// holds bitcode): read as what they hold, with this said.
    pub notes: Vec<FileError>,
    pub totals: Vec<Total>,
    pub finding_totals: Vec<Total>,
}

impl DiffReport {
    /// Some kernel changed, or exists on one side only.
    pub fn changed(&self) -> bool {
        self.kernels.iter().any(KernelDiff::changed)
            || !self.only_a.is_empty()
            || !self.only_b.is_empty()
    }

    /// 2 on any error, else 1 when some kernel changed, else 0.
    pub fn exit_code(&self) -> u8 {
        if !self.errors.is_empty() {
            2
        } else if self.changed() {
            1
        } else {
            0
        }
    }
}

/// Runs `air-scan diff`: the output and the exit code (0 no kernel
/// changed, 1 some did, 2 error).
pub fn run(args: &DiffArgs) -> (String, u8) {
    let rules = RuleSet::builtin();
    // Text and JSON give each comparison in turn; a page holds them all.
    let render = |reports: &[DiffReport]| match args.format {
        DiffFormat::Text => reports
            .iter()
            .map(|r| render::text(r, args.changes_only))
            .collect(),
        DiffFormat::Json => reports
            .iter()
            .map(|r| render::json(r, args.changes_only))
            .collect(),
        DiffFormat::Html => render::html(reports, args.changes_only),
    };
    match &args.b {
        Some(b) => {
            let report = diff(&args.a, b, &rules);
            let code = report.exit_code();
            (render(&[report]), code)
        }
        None if crate::compile::xcrun::is_metal(&args.a) => match compile_levels(args) {
            Ok(sides) => {
                let mut reports = Vec::new();
                for pair in sides.windows(2) {
                    let mut report = diff(&pair[0].1, &pair[1].1, &rules);
                    report.a = format!("{} at -{}", args.a.display(), pair[0].0);
                    report.b = format!("{} at -{}", args.a.display(), pair[1].0);
                    reports.push(report);
                }
                let code = reports.iter().map(DiffReport::exit_code).max().unwrap_or(0);
                (render(&reports), code)
            }
            Err(e) => (format!("diff: error: {e}\n"), 2),
        },
        None => (
            format!(
                "diff: error: give two IR files or directories, or one .metal source (got {})\n",
                args.a.display()
            ),
            2,
        ),
    }
}

/// Compiles a `.metal` source at each level; returns (level, IR file).
/// The IR comes from the scan's cache, so a repeated diff compiles nothing.
fn compile_levels(args: &DiffArgs) -> Result<Vec<(String, PathBuf)>, String> {
    use crate::compile::xcrun;
    let driver = xcrun::Xcrun::find(args.xcrun.as_deref()).map_err(|u| match u {
        xcrun::Unavailable::Missing(why) => format!(
            "{why}: compiling .metal needs xcrun on a Mac; there, run this again, or compile each level with \
             `xcrun metal -S -emit-llvm -O0` / `-O2` and give air-scan diff the two .ll files"
        ),
        xcrun::Unavailable::Broken(why) => why,
    })?;
    let levels = xcrun::parse_levels(&args.levels)?;
    if levels.len() < 2 {
        return Err("--levels needs at least two levels to compare".into());
    }
    let source =
        std::fs::canonicalize(&args.a).map_err(|e| format!("{}: {e}", args.a.display()))?;
    let mut flags = match source
        .parent()
        .map(xcrun::ProjectConfig::find_for)
        .transpose()?
    {
        Some(Some(config)) => config.flags,
        _ => Vec::new(),
    };
    xcrun::check_flags(&args.metal_flags)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    flags.extend(xcrun::absolutize_flags(&args.metal_flags, &cwd));
    let cache_dir =
        xcrun::Cache::default_dir().unwrap_or_else(|| std::env::temp_dir().join("air-scan-cache"));
    let cache = xcrun::Cache::Dir(cache_dir);
    let mut sides = Vec::new();
    for level in levels {
        let req = xcrun::Request {
            xcrun: &driver,
            source: &source,
            level,
            flags: &flags,
            cache: &cache,
        };
        let compiled = xcrun::compile(&req);
        compiled
            .text
            .map_err(|e| format!("-{}: {e}", level.as_str()))?;
        let ir = compiled
            .ir_path
            .ok_or_else(|| format!("-{}: the compiled IR was not kept", level.as_str()))?;
        sides.push((level.as_str().to_string(), ir));
    }
    Ok(sides)
}

/// Compares `a` with `b` (two files, or two directories).
pub fn diff(a: &Path, b: &Path, rules: &RuleSet) -> DiffReport {
    let mut report = DiffReport {
        a: a.display().to_string(),
        b: b.display().to_string(),
        kernels: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
        files_only_a: Vec::new(),
        files_only_b: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
        totals: Vec::new(),
        finding_totals: Vec::new(),
    };
    let error = |p: &Path, m: String| FileError {
        path: p.display().to_string(),
        message: m,
    };
    for p in [a, b] {
        if p.extension().is_some_and(|x| x == "metal") {
            report.errors.push(error(
                p,
                "a .metal source is compiled with xcrun and compared with itself: give it alone \
                 (`air-scan diff kernel.metal --levels O0,O2`), or compare two .ll files"
                    .into(),
            ));
        }
    }
    if !report.errors.is_empty() {
        return report;
    }
    let (a, fa) = split_function(a);
    let (b, fb) = split_function(b);
    let (a, b) = (a.as_path(), b.as_path());
    let (da, db) = match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(ma), Ok(mb)) => (ma.is_dir(), mb.is_dir()),
        (ra, rb) => {
            for (p, r) in [(a, ra), (b, rb)] {
                if let Err(e) = r {
                    report.errors.push(error(p, format!("cannot open: {e}")));
                }
            }
            return report;
        }
    };
    let whole = |p: &PathBuf| Input {
        path: p.clone(),
        function: None,
    };
    if (fa.is_some() && da) || (fb.is_some() && db) {
        report.errors.push(error(
            a,
            "`:function` names a function of a file, not of a directory".into(),
        ));
        return report;
    }
    let pairs: Vec<(String, Input, Input)> = match (da, db) {
        (false, false) => vec![(
            String::new(),
            Input {
                path: a.to_path_buf(),
                function: fa,
            },
            Input {
                path: b.to_path_buf(),
                function: fb,
            },
        )],
        (true, true) => {
            let (fa, ea) = files_under(a);
            let (fb, eb) = files_under(b);
            report.errors.extend(ea);
            report.errors.extend(eb);
            let mut pairs = Vec::new();
            for (rel, pa) in &fa {
                match fb.binary_search_by(|(r, _)| r.cmp(rel)) {
                    Ok(j) => pairs.push((rel.clone(), whole(pa), whole(&fb[j].1))),
                    Err(_) => report.files_only_a.push(rel.clone()),
                }
            }
            for (rel, _) in &fb {
                if fa.binary_search_by(|(r, _)| r.cmp(rel)).is_err() {
                    report.files_only_b.push(rel.clone());
                }
            }
            pairs
        }
        _ => {
            report.errors.push(error(
                a,
                format!(
                    "cannot compare a {} with a {}: give two files or two directories",
                    if da { "directory" } else { "file" },
                    if db { "directory" } else { "file" }
                ),
            ));
            return report;
        }
    };
    let done: Vec<Paired> = pairs
        .par_iter()
        .map(|(rel, pa, pb)| pair(rel, pa, pb, rules))
        .collect();
    for p in done {
        report.kernels.extend(p.kernels);
        report.only_a.extend(p.only_a);
        report.only_b.extend(p.only_b);
        report.errors.extend(p.errors);
        report.notes.extend(p.notes);
    }
    // Kernels of files present on one side only are one-sided too.
    let mut notes = Vec::new();
    let mut one_side = |dir: &Path, rels: &[String]| -> (Vec<OneSided>, Vec<FileError>) {
        let mut kernels = Vec::new();
        let mut errors = Vec::new();
        for rel in rels {
            let modules = match Modules::load(&whole(&dir.join(rel))) {
                Ok(m) => m,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            errors.extend(modules.errors.iter().cloned());
            notes.extend(modules.note.clone());
            for (name, text) in modules.texts() {
                match measure(&name, text, rules) {
                    Ok((an, warning)) => {
                        kernels.extend(an.kernels.iter().map(|k| one_sided(rel, k)));
                        errors.extend(warning);
                    }
                    Err(e) => errors.push(e),
                }
            }
        }
        (kernels, errors)
    };
    let (ka, ea) = one_side(a, &report.files_only_a);
    let (kb, eb) = one_side(b, &report.files_only_b);
    report.only_a.extend(ka);
    report.only_b.extend(kb);
    report.errors.extend(ea);
    report.errors.extend(eb);
    report.notes.extend(notes);
    let (t, ft) = compare::totals(&report.kernels, rules);
    report.totals = t;
    report.finding_totals = ft;
    report
}

/// The IR files under `dir` by relative path (`/`-separated), sorted.
fn files_under(dir: &Path) -> (Vec<(String, PathBuf)>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for f in input::collect(&[dir.to_path_buf()]) {
        match f {
            Found::File(p) => {
                let rel = p.strip_prefix(dir).unwrap_or(&p);
                let rel: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push((rel.join("/"), p));
            }
            Found::Error(p, e) => errors.push(FileError {
                path: p.display().to_string(),
                message: e,
            }),
        }
    }
    files.sort_by(|x, y| x.0.cmp(&y.0));
    files.dedup_by(|x, y| x.0 == y.0);
    (files, errors)
}

/// What one pair of files gave.
struct Paired {
    kernels: Vec<KernelDiff>,
    only_a: Vec<OneSided>,
    only_b: Vec<OneSided>,
    errors: Vec<FileError>,
    notes: Vec<FileError>,
}

fn one_sided(file: &str, k: &metrics::KernelStats) -> OneSided {
    OneSided {
        file: file.to_string(),
        name: k.name.clone(),
        metrics: k.metrics.clone(),
        findings: k.findings.len(),
    }
}

/// A file to compare, and the one function of a library to keep
/// (`lib.metallib:function`).
struct Input {
    path: PathBuf,
    function: Option<String>,
}

/// `lib.metallib:function` as the file and the function, when the whole
/// does not name a file and a part before a `:` does; otherwise `path`.
fn split_function(path: &Path) -> (PathBuf, Option<String>) {
    let text = path.to_string_lossy();
    if !path.exists() {
        for (i, _) in text.match_indices(':') {
            let file = Path::new(&text[..i]);
            if i + 1 < text.len() && file.is_file() {
                return (file.to_path_buf(), Some(text[i + 1..].to_string()));
            }
        }
    }
    (path.to_path_buf(), None)
}

/// One side's modules: an IR file's text (mapped), or each module of an
/// `.air` or `.metallib`, read natively and held as text while compared.
struct Modules {
    shown: String,
    source: Option<input::Source>,
    /// (name as findings give it, text) of each module read from bitcode.
    binary: Vec<(String, String)>,
    /// Modules of a library that could not be read (the others are
    /// compared).
    errors: Vec<FileError>,
    /// What the file holds, where its name says otherwise.
    note: Option<FileError>,
}

impl Modules {
    fn load(input: &Input) -> Result<Modules, FileError> {
        let shown = input.path.display().to_string();
        let fail = |m: String| FileError {
            path: shown.clone(),
            message: m,
        };
        let source = input::load(&input.path).map_err(|e| fail(e.0))?;
        let kind = input::Kind::of(source.bytes());
        let note = kind.mismatch(&input.path).map(&fail);
        if !kind.is_binary() {
            if input.function.is_some() {
                return Err(fail(
                    "`:function` names a function of an .air or .metallib file".into(),
                ));
            }
            input::as_ir_text(source.bytes()).map_err(|e| fail(e.0))?;
            return Ok(Modules {
                shown,
                source: Some(source),
                binary: Vec::new(),
                errors: Vec::new(),
                note,
            });
        }
        drop(source);
        let read = crate::compile::disassemble_files_with(&[input.path.as_path()], None)
            .pop()
            .unwrap_or_else(|| Err("nothing read".into()))
            .map_err(fail)?;
        let library = kind == input::Kind::Metallib;
        let mut modules = Modules {
            shown: shown.clone(),
            source: None,
            binary: Vec::new(),
            errors: Vec::new(),
            note,
        };
        let mut functions = Vec::new();
        for m in read {
            let function = m.name.split_once(':').map(|(_, f)| f.to_string());
            let name = match (&function, library) {
                (Some(f), true) => format!("{shown}:{f}"),
                _ => shown.clone(),
            };
            if let Some(want) = &input.function {
                if function.as_deref() != Some(want.as_str()) {
                    functions.push(function.unwrap_or_default());
                    continue;
                }
            }
            match m.text {
                Ok(text) => modules.binary.push((name, text)),
                Err(e) => modules.errors.push(FileError {
                    path: name,
                    message: e,
                }),
            }
        }
        if let Some(want) = &input.function {
            if modules.binary.is_empty() && modules.errors.is_empty() {
                functions.truncate(5);
                return Err(fail(format!(
                    "no function `{want}` in it (its first functions: {})",
                    functions.join(", ")
                )));
            }
        }
        Ok(modules)
    }

    /// Each module's name (as findings give it) and text.
    fn texts(&self) -> Vec<(String, &str)> {
        match &self.source {
            Some(source) => input::as_ir_text(source.bytes())
                .map(|t| vec![(self.shown.clone(), t)])
                .unwrap_or_default(),
            None => self
                .binary
                .iter()
                .map(|(n, t)| (n.clone(), t.as_str()))
                .collect(),
        }
    }
}

/// Measures one module. Reader errors do not stop the comparison (one
/// costs one instruction) but are reported, so the exit code says 2.
fn measure<'t>(
    shown: &str,
    text: &'t str,
    rules: &RuleSet,
) -> Result<(metrics::Analysis<'t>, Option<FileError>), FileError> {
    let fail = |m: String| FileError {
        path: shown.to_string(),
        message: m,
    };
    let an = metrics::analyze(shown, text, rules);
    let m = &an.module;
    if m.has_no_entity() && !an.errors.is_empty() {
        return Err(fail("not LLVM IR text: no module entity found".into()));
    }
    let warning = an.errors.first().map(|d| {
        fail(format!(
            "{} reader error{} (first at line {}: {}): the counts may miss what was skipped",
            an.errors.len(),
            if an.errors.len() == 1 { "" } else { "s" },
            d.line,
            d.message
        ))
    });
    Ok((an, warning))
}

/// The kernels a module's metadata declares, as `metrics::analyze` names
/// them, read without parsing a body.
fn kernel_names(text: &str) -> Vec<String> {
    let module = crate::ir::read_module(text);
    let air = crate::ir::air::air_info(&module);
    let mut names: Vec<String> = Vec::new();
    for ep in air.entry_points.iter().filter(|e| e.stage == "kernel") {
        if !names.iter().any(|n| n == ep.name) {
            names.push(ep.name.to_string());
        }
    }
    names
}

fn name_index(an: &metrics::Analysis<'_>) -> FxHashMap<String, usize> {
    an.kernels
        .iter()
        .enumerate()
        .map(|(i, k)| (k.name.clone(), i))
        .collect()
}

/// Which module of a side holds each kernel (the first, when two do).
/// Module `k` of a side, measured (`None`: no module of it in this group).
fn measure_at<'t>(
    modules: &[(String, &'t str)],
    k: Option<usize>,
    rules: &RuleSet,
) -> Result<Option<(metrics::Analysis<'t>, Option<FileError>)>, FileError> {
    k.map(|k| measure(&modules[k].0, modules[k].1, rules))
        .transpose()
}

fn kernel_homes(names: &[Vec<String>]) -> FxHashMap<&str, usize> {
    let mut homes = FxHashMap::default();
    for (i, list) in names.iter().enumerate() {
        for n in list {
            homes.entry(n.as_str()).or_insert(i);
        }
    }
    homes
}

fn pair(rel: &str, pa: &Input, pb: &Input, rules: &RuleSet) -> Paired {
    let mut out = Paired {
        kernels: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
        errors: Vec::new(),
        notes: Vec::new(),
    };
    let (ma, mb) = match (Modules::load(pa), Modules::load(pb)) {
        (Ok(a), Ok(b)) => (a, b),
        (a, b) => {
            out.errors.extend(a.err());
            out.errors.extend(b.err());
            return out;
        }
    };
    out.errors.extend(ma.errors.iter().cloned());
    out.errors.extend(mb.errors.iter().cloned());
    out.notes.extend(ma.note.clone());
    out.notes.extend(mb.note.clone());
    let (ta, tb) = (ma.texts(), mb.texts());
    // Kernels are paired by name across modules: find each kernel's module
    // on each side (two IR files: one module each, nothing to find).
    let one_each = ta.len() == 1 && tb.len() == 1;
    let names = |t: &[(String, &str)]| -> Vec<Vec<String>> {
        if one_each {
            vec![Vec::new()]
        } else {
            t.iter().map(|(_, text)| kernel_names(text)).collect()
        }
    };
    let (names_a, names_b) = (names(&ta), names(&tb));
    let (home_a, home_b) = (kernel_homes(&names_a), kernel_homes(&names_b));
    // Each pair of modules sharing a kernel is analysed together; a module
    // none shares with is analysed alone, for its one-sided kernels.
    let mut groups: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    if one_each {
        groups.push((Some(0), Some(0)));
    } else {
        let mut shared: Vec<(usize, usize)> = names_a
            .iter()
            .enumerate()
            .flat_map(|(i, list)| list.iter().map(move |n| (i, n)))
            .filter(|(i, n)| home_a.get(n.as_str()) == Some(i))
            .filter_map(|(i, n)| home_b.get(n.as_str()).map(|&j| (i, j)))
            .collect();
        shared.sort_unstable();
        shared.dedup();
        let (mut in_a, mut in_b) = (vec![false; ta.len()], vec![false; tb.len()]);
        for &(i, j) in &shared {
            groups.push((Some(i), Some(j)));
            in_a[i] = true;
            in_b[j] = true;
        }
        groups.extend((0..ta.len()).filter(|&i| !in_a[i]).map(|i| (Some(i), None)));
        groups.extend((0..tb.len()).filter(|&j| !in_b[j]).map(|j| (None, Some(j))));
    }
    // A kernel is compared in the group of its two homes; one the other
    // side lacks is listed once, on the first visit to its home. (In
    // another module of its side, a kernel of the same name is left out.)
    let (mut listed_a, mut listed_b) = (vec![false; ta.len()], vec![false; tb.len()]);
    for (i, j) in groups {
        let (mut an_a, mut an_b) = match (measure_at(&ta, i, rules), measure_at(&tb, j, rules)) {
            (Ok(a), Ok(b)) => (a, b),
            (a, b) => {
                out.errors.extend(a.err());
                out.errors.extend(b.err());
                continue;
            }
        };
        let index = |an: &Option<(metrics::Analysis<'_>, Option<FileError>)>| {
            an.as_ref()
                .map(|(an, _)| name_index(an))
                .unwrap_or_default()
        };
        let (in_a, in_b) = (index(&an_a), index(&an_b));
        let at_home = |home: &FxHashMap<&str, usize>, k: Option<usize>, name: &str| {
            one_each || home.get(name).copied() == k
        };
        let elsewhere =
            |home: &FxHashMap<&str, usize>, here: &FxHashMap<String, usize>, name: &str| {
                if one_each {
                    here.contains_key(name)
                } else {
                    home.contains_key(name)
                }
            };
        if let Some((an_a, warning)) = &mut an_a {
            out.errors.extend(warning.take());
            let first = i.is_some_and(|i| !std::mem::replace(&mut listed_a[i], true));
            for ka in 0..an_a.kernels.len() {
                let name = an_a.kernels[ka].name.clone();
                if !at_home(&home_a, i, &name) {
                    continue;
                }
                if !elsewhere(&home_b, &in_b, &name) {
                    if first {
                        out.only_a.push(one_sided(rel, &an_a.kernels[ka]));
                    }
                } else if let (Some(&kb), Some((an_b, _))) = (in_b.get(&name), &mut an_b) {
                    if at_home(&home_b, j, &name) {
                        out.kernels
                            .extend(compare::kernel(rules, rel, an_a, ka, an_b, kb));
                    }
                }
            }
        }
        if let Some((an_b, warning)) = &mut an_b {
            out.errors.extend(warning.take());
            let first = j.is_some_and(|j| !std::mem::replace(&mut listed_b[j], true));
            for k in &an_b.kernels {
                let lacking = at_home(&home_b, j, &k.name) && !elsewhere(&home_a, &in_a, &k.name);
                if first && lacking {
                    out.only_b.push(one_sided(rel, k));
                }
            }
        }
    }
    out
}
