//! The pipeline for one file and for a whole scan: load, read the module,
//! read every body (so every diagnostic surfaces), interpret the AIR
//! metadata, and keep an owned summary for the report.

use crate::analysis::ControlFlow;
use crate::analysis::callgraph::CallGraph;
use crate::analysis::defuse::DefUse;
use crate::analysis::provenance::{
    FunctionProvenance, ModuleContext, Provenance, Sources, entry_params,
};
use crate::input::{self, Found};
use crate::ir::{self, Diagnostic, Module, Opcode, Severity};
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
}

/// What one file gave.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// Compute entry points (`!air.kernel`).
    pub kernels: Vec<serde_json::Value>,
    /// Render entry points (`!air.vertex`, `!air.fragment`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shaders: Vec<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<ModuleSummary>,
    /// Listed once, at the top level of the report.
    #[serde(skip)]
    pub findings: Vec<Finding>,
    /// Findings silenced by `// air-scan: ignore[...]` comments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suppressed: Vec<crate::suppress::Suppressed>,
    /// Findings hidden because `--baseline` knew them.
    #[serde(skip_serializing_if = "is_zero")]
    pub baseline_matched: usize,
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
    pub function_constants: Vec<serde_json::Value>,
}

impl FileReport {
    fn failed(path: String, error: String) -> Self {
        FileReport {
            path,
            status: Status::Error,
            error: Some(error),
            diagnostics: Vec::new(),
            kernels: Vec::new(),
            shaders: Vec::new(),
            module: None,
            findings: Vec::new(),
            suppressed: Vec::new(),
            baseline_matched: 0,
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
}

impl<'r> ScanConfig<'r> {
    pub fn new(rules: &'r RuleSet) -> Self {
        ScanConfig {
            rules,
            source_root: None,
            llvm_dis: None,
            llvm_dis_found: Default::default(),
        }
    }

    fn llvm_dis(&self) -> &Result<crate::compile::LlvmDis, String> {
        self.llvm_dis_found
            .get_or_init(|| crate::compile::LlvmDis::find(self.llvm_dis.as_deref()))
    }
}

/// Scans an `.air` or `.metallib` file: one report per module, named
/// `path` for an `.air` and `path:function` for a metallib's functions.
pub fn scan_binary(path: &Path, config: &ScanConfig<'_>) -> Vec<FileReport> {
    let shown = path.display().to_string();
    let tool = match config.llvm_dis() {
        Ok(t) => t,
        Err(e) => return vec![FileReport::failed(shown, e.clone())],
    };
    let modules = match crate::compile::disassemble_each(path, tool) {
        Ok(m) => m,
        Err(e) => return vec![FileReport::failed(shown, e)],
    };
    let is_library = matches!(
        crate::compile::BinaryInput::from_path(path),
        Some(crate::compile::BinaryInput::Metallib(_))
    );
    modules
        .into_iter()
        .map(|m| {
            let name = match (is_library, m.name.split_once(':')) {
                (true, Some((_, function))) => format!("{shown}:{function}"),
                _ => shown.clone(),
            };
            match m.text {
                Ok(text) => scan_text_with(name, &text, config),
                Err(e) => FileReport::failed(name, e),
            }
        })
        .collect()
}

/// Scans one file.
pub fn scan_file(path: &Path, rules: &RuleSet) -> FileReport {
    scan_file_with(path, &ScanConfig::new(rules))
}

/// Scans one file with a full configuration.
pub fn scan_file_with(path: &Path, config: &ScanConfig<'_>) -> FileReport {
    let shown = path.display().to_string();
    let source = match input::load(path) {
        Ok(s) => s,
        Err(e) => return FileReport::failed(shown, e.0),
    };
    let text = match input::as_ir_text(source.bytes()) {
        Ok(t) => t,
        Err(e) => return FileReport::failed(shown, e.0),
    };
    scan_text_with(shown, text, config)
}

/// Scans IR text already in memory (`path` is only used for the report).
pub fn scan_text(path: String, text: &str, rules: &RuleSet) -> FileReport {
    scan_text_with(path, text, &ScanConfig::new(rules))
}

/// Scans IR text with a full configuration.
pub fn scan_text_with(path: String, text: &str, config: &ScanConfig<'_>) -> FileReport {
    let rules = config.rules;
    let mut module = ir::read_module(text);
    let mut diagnostics = std::mem::take(&mut module.diagnostics);
    let air = ir::air::air_info(&module);
    diagnostics.extend(air.diagnostics.iter().cloned());

    let nothing_read = module.functions.is_empty()
        && module.globals.is_empty()
        && module.metadata.is_empty()
        && module.target_triple.is_none()
        && module.datalayout.is_none()
        && module.source_filename.is_none();
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

    let kernels = air
        .entry_points
        .iter()
        .filter(|e| e.stage == "kernel")
        .map(to_json)
        .collect();
    let shaders = air
        .entry_points
        .iter()
        .filter(|e| e.stage != "kernel")
        .map(to_json)
        .collect();
    let owned = |s: Option<&str>| s.map(str::to_string);
    let typed = (0..module.types.len()).any(|i| {
        matches!(
            module.types.get(ir::TypeId(i as u32)),
            ir::Type::Ptr {
                pointee: Some(_),
                ..
            }
        )
    });
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
        function_constants: air.function_constants.iter().map(to_json).collect(),
    };
    let resolver = crate::source::Resolver::new(Path::new(&path), config.source_root.as_deref());
    let findings = analyze(
        &mut module,
        air,
        rules,
        &path,
        &resolver,
        &mut diagnostics,
        &mut summary,
    );
    diagnostics.sort_by_key(|d| d.line);
    FileReport {
        path,
        status: Status::Ok,
        error: None,
        diagnostics,
        kernels,
        shaders,
        module: Some(summary),
        findings,
        suppressed: Vec::new(),
        baseline_matched: 0,
    }
}

/// The AIR layer's borrowed structs, as owned JSON for the report.
fn to_json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// Reads every body (callers before callees), computes provenance and runs
/// the rules, one function at a time so only one body is in memory.
fn analyze<'a>(
    module: &mut Module<'a>,
    air: ir::air::AirInfo<'a>,
    rules: &RuleSet,
    path: &str,
    resolver: &crate::source::Resolver,
    diagnostics: &mut Vec<Diagnostic>,
    summary: &mut ModuleSummary,
) -> Vec<Finding> {
    let index_of: FxHashMap<&'a str, usize> = module
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name, i))
        .collect();
    let entries: FxHashMap<usize, usize> = air
        .entry_points
        .iter()
        .enumerate()
        .filter_map(|(e, ep)| index_of.get(ep.name).map(|&f| (f, e)))
        .collect();
    let graph = CallGraph::build(module, &entries);
    let entry_names: Vec<&'a str> = air.entry_points.iter().map(|e| e.name).collect();
    let mut ctx = ModuleContext::new(air);
    for i in 0..module.functions.len() {
        if module.functions[i].section == Some("air.static_init") {
            let (body, _) = module.body(i);
            ctx.note_static_init(&module.functions[i], &body);
        }
    }
    // What call sites pass to each function's parameters, joined.
    let mut passed: Vec<Option<Vec<Provenance>>> = vec![None; module.functions.len()];
    let mut findings = Vec::new();
    for &fi in &graph.order {
        let (body, diags) = module.body(fi);
        diagnostics.extend(diags);
        summary.blocks += body.blocks.len();
        summary.instructions += body.instructions.len();
        let function = &module.functions[fi];
        if !function.is_definition || rules.rules.is_empty() {
            continue;
        }
        let du = DefUse::build(function, &body);
        let cf = ControlFlow::of(&body);
        // LLVM rejects a branch to a label no block has; without this the
        // edge would vanish silently and change what counts as conditional.
        for missing in &cf.cfg.missing {
            diagnostics.push(Diagnostic::error(
                missing.line,
                format!(
                    "branch to undefined label %{} in @{}",
                    missing.label, function.name
                ),
            ));
        }
        let params = match entries.get(&fi) {
            Some(&e) => entry_params(&ctx, module, e, function),
            None => passed[fi]
                .take()
                .unwrap_or_else(|| vec![Provenance::of(Sources::UNKNOWN); function.params.len()]),
        };
        let prov = FunctionProvenance::compute(&ctx, module, function, &body, &du, params);
        for inst in body
            .instructions
            .iter()
            .filter(|i| i.opcode == Opcode::Call)
        {
            let Some(&callee) = inst.callee_name().and_then(|c| index_of.get(c)) else {
                continue;
            };
            let Some(slot) = passed.get_mut(callee) else {
                continue;
            };
            let acc = slot.get_or_insert_with(Vec::new);
            for (j, arg) in inst.call_args().iter().enumerate() {
                let p = prov.value(&du, &arg.value);
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
        let fctx = FunctionContext {
            module,
            air: &ctx.air,
            function,
            body: &body,
            du: &du,
            cf: &cf,
            prov: &prov,
            kernels,
        };
        let first_new = findings.len();
        rules::run(rules, &fctx, path, &mut findings);
        for f in &mut findings[first_new..] {
            let mapped = crate::source::map(module, function, &body, &du, f.inst, resolver);
            f.source = mapped.source;
            f.inlined_at = mapped.inlined_at;
        }
    }
    findings.sort_by(|a, b| a.ir.line.cmp(&b.ir.line).then_with(|| a.rule.cmp(&b.rule)));
    findings
}

/// Scans every file the paths name, `jobs` files at a time. Reports come
/// back in the order the files were found, whatever the thread timing.
pub fn scan_paths(paths: &[PathBuf], jobs: usize, config: &ScanConfig<'_>) -> Vec<FileReport> {
    let found = input::collect(paths);
    let work = |f: &Found| match f {
        Found::File(p) if crate::compile::BinaryInput::from_path(p).is_some() => {
            scan_binary(p, config)
        }
        Found::File(p) => vec![scan_file_with(p, config)],
        Found::Error(p, e) => vec![FileReport::failed(p.display().to_string(), e.clone())],
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| found.par_iter().flat_map_iter(work).collect()),
        Err(_) => found.iter().flat_map(work).collect(),
    }
}
