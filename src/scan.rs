//! The pipeline for one file and for a whole scan: load, read the module,
//! read every body (so every diagnostic surfaces), interpret the AIR
//! metadata, and keep an owned summary for the report.

use crate::input::{self, Found};
use crate::ir::{self, Diagnostic, Severity};
use rayon::prelude::*;
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
        }
    }

    pub fn error_count(&self) -> usize {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }
}

/// Scans one file.
pub fn scan_file(path: &Path) -> FileReport {
    let shown = path.display().to_string();
    let source = match input::load(path) {
        Ok(s) => s,
        Err(e) => return FileReport::failed(shown, e.0),
    };
    let text = match input::as_ir_text(source.bytes()) {
        Ok(t) => t,
        Err(e) => return FileReport::failed(shown, e.0),
    };
    scan_text(shown, text)
}

/// Scans IR text already in memory (`path` is only used for the report).
pub fn scan_text(path: String, text: &str) -> FileReport {
    let mut module = ir::read_module(text);
    let mut diagnostics = std::mem::take(&mut module.diagnostics);
    let mut blocks = 0;
    let mut instructions = 0;
    let mut typed = false;
    for i in 0..module.functions.len() {
        let (body, diags) = module.body(i);
        blocks += body.blocks.len();
        instructions += body.instructions.len();
        diagnostics.extend(diags);
    }
    for i in 0..module.types.len() {
        if let ir::Type::Ptr {
            pointee: Some(_), ..
        } = module.types.get(ir::TypeId(i as u32))
        {
            typed = true;
            break;
        }
    }
    let air = ir::air::air_info(&module);
    diagnostics.extend(air.diagnostics.iter().cloned());
    diagnostics.sort_by_key(|d| d.line);

    let nothing_read = module.functions.is_empty()
        && module.globals.is_empty()
        && module.metadata.is_empty()
        && module.target_triple.is_none()
        && module.datalayout.is_none()
        && module.source_filename.is_none();
    if nothing_read {
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

    let to_json =
        |ep: &ir::air::EntryPoint<'_>| serde_json::to_value(ep).unwrap_or(serde_json::Value::Null);
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
    let summary = ModuleSummary {
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
        blocks,
        instructions,
        metadata_nodes: module.metadata.len(),
        function_constants: air
            .function_constants
            .iter()
            .map(|fc| serde_json::to_value(fc).unwrap_or(serde_json::Value::Null))
            .collect(),
    };
    FileReport {
        path,
        status: Status::Ok,
        error: None,
        diagnostics,
        kernels,
        shaders,
        module: Some(summary),
    }
}

/// Scans every file the paths name, `jobs` files at a time. Reports come
/// back in the order the files were found, whatever the thread timing.
pub fn scan_paths(paths: &[PathBuf], jobs: usize) -> Vec<FileReport> {
    let found = input::collect(paths);
    let work = |f: &Found| match f {
        Found::File(p) => scan_file(p),
        Found::Error(p, e) => FileReport::failed(p.display().to_string(), e.clone()),
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
    {
        Ok(pool) => pool.install(|| found.par_iter().map(work).collect()),
        Err(_) => found.iter().map(work).collect(),
    }
}
