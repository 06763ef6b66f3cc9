//! `air-scan diff A B`: what the optimizer (or a new compiler) did to each
//! kernel, the way shader-db's report.py compares two compiler builds.
//!
//! A and B are two IR files, or two directories whose files are paired by
//! relative path. Kernels (`!air.kernel`) are paired by name. For each
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
    /// The "before" side: an IR file or a directory of them.
    pub a: PathBuf,
    /// The "after" side: an IR file or a directory of them. Leave it out
    /// when A is a `.metal` source: its levels are compared instead.
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
    let pairs: Vec<(String, PathBuf, PathBuf)> = match (da, db) {
        (false, false) => vec![(String::new(), a.to_path_buf(), b.to_path_buf())],
        (true, true) => {
            let (fa, ea) = files_under(a);
            let (fb, eb) = files_under(b);
            report.errors.extend(ea);
            report.errors.extend(eb);
            let mut pairs = Vec::new();
            for (rel, pa) in &fa {
                match fb.binary_search_by(|(r, _)| r.cmp(rel)) {
                    Ok(j) => pairs.push((rel.clone(), pa.clone(), fb[j].1.clone())),
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
    }
    // Kernels of files present on one side only are one-sided too.
    let one_side = |dir: &Path, rels: &[String]| -> (Vec<OneSided>, Vec<FileError>) {
        let mut kernels = Vec::new();
        let mut errors = Vec::new();
        for rel in rels {
            match measure(&dir.join(rel), rules, |an| {
                an.kernels
                    .iter()
                    .map(|k| one_sided(rel, k))
                    .collect::<Vec<_>>()
            }) {
                Ok((ks, warning)) => {
                    kernels.extend(ks);
                    errors.extend(warning);
                }
                Err(e) => errors.push(e),
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
}

fn one_sided(file: &str, k: &metrics::KernelStats) -> OneSided {
    OneSided {
        file: file.to_string(),
        name: k.name.clone(),
        metrics: k.metrics.clone(),
        findings: k.findings.len(),
    }
}

/// Loads and measures one file, handing the analysis to `then` while the
/// text it borrows is alive. Reader errors do not stop the comparison (one
/// costs one instruction) but are reported, so the exit code says 2.
fn measure<T>(
    path: &Path,
    rules: &RuleSet,
    then: impl FnOnce(&mut metrics::Analysis<'_>) -> T,
) -> Result<(T, Option<FileError>), FileError> {
    let shown = path.display().to_string();
    let fail = |m: String| FileError {
        path: shown.clone(),
        message: m,
    };
    let source = input::load(path).map_err(|e| fail(e.0))?;
    let text = input::as_ir_text(source.bytes()).map_err(|e| fail(e.0))?;
    let mut an = metrics::analyze(&shown, text, rules);
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
    Ok((then(&mut an), warning))
}

fn name_index(an: &metrics::Analysis<'_>) -> FxHashMap<String, usize> {
    an.kernels
        .iter()
        .enumerate()
        .map(|(i, k)| (k.name.clone(), i))
        .collect()
}

fn pair(rel: &str, pa: &Path, pb: &Path, rules: &RuleSet) -> Paired {
    let mut out = Paired {
        kernels: Vec::new(),
        only_a: Vec::new(),
        only_b: Vec::new(),
        errors: Vec::new(),
    };
    // Both analyses must be alive together (a finding is explained on both
    // sides), so `b` is measured inside `a`'s callback.
    let result = measure(pa, rules, |an_a| {
        measure(pb, rules, |an_b| {
            let in_a: FxHashMap<String, usize> = name_index(an_a);
            let in_b: FxHashMap<String, usize> = name_index(an_b);
            let mut kernels = Vec::new();
            let mut only_a = Vec::new();
            for ka in 0..an_a.kernels.len() {
                let name = &an_a.kernels[ka].name;
                match in_b.get(name) {
                    Some(&kb) => {
                        if let Some(d) = compare::kernel(rules, rel, an_a, ka, an_b, kb) {
                            kernels.push(d);
                        }
                    }
                    None => only_a.push(one_sided(rel, &an_a.kernels[ka])),
                }
            }
            let only_b: Vec<OneSided> = an_b
                .kernels
                .iter()
                .filter(|k| !in_a.contains_key(&k.name))
                .map(|k| one_sided(rel, k))
                .collect();
            (kernels, only_a, only_b)
        })
    });
    match result {
        Ok((inner, warning_a)) => {
            out.errors.extend(warning_a);
            match inner {
                Ok(((k, a, b), warning_b)) => {
                    out.kernels = k;
                    out.only_a = a;
                    out.only_b = b;
                    out.errors.extend(warning_b);
                }
                Err(e) => out.errors.push(e),
            }
        }
        Err(e) => out.errors.push(e),
    }
    out
}
