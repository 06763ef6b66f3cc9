//! Turning inputs that are not IR text into IR text: `.air` bitcode and
//! `.metallib` libraries through an external `llvm-dis`, and `.metal`
//! sources through `xcrun metal` ([`xcrun`], with its own disk cache).
//!
//! The API a scan calls:
//!
//! - [`BinaryInput::from_path`]: is this path one of ours (by extension)?
//! - [`find_llvm_dis`]: resolves `--llvm-dis` or searches the machine; call
//!   it once up front, so that a missing tool is reported once.
//! - [`disassemble`]: one [`Disassembled`] per module (an `.air` gives one,
//!   a metallib one per function), named `mlx.metallib:gemm_...` so that
//!   findings can name the library and the function. All or nothing.
//! - [`disassemble_each`]: the same with one result per module, so that a
//!   function llvm-dis cannot read costs that function only; it takes an
//!   [`LlvmDis`] (path, timeout, output cap) resolved once.
//! - [`disassemble_files`]: [`disassemble_each`] for many files at once,
//!   which is how a scan of a folder calls it; [`disassemble_files_with`]
//!   with no tool reads the bitcode natively ([`crate::ir::bitcode`]),
//!   which is what a scan does unless `--llvm-dis` is given.
//!
//! A file's kind is decided by its first bytes, not its extension: `MTLB` is
//! a metallib, `0x0B17C0DE` or `BC\xC0\xDE` is bitcode. The container is read
//! natively ([`metallib`]). Bitcode is read natively by default
//! ([`crate::ir::bitcode`], checked against llvm-dis-22 on the whole corpus
//! by tests/bitcode_native.rs); with `--llvm-dis` it goes to llvm-dis ([`llvm_dis`]), which
//! must be new enough for the file: LLVM 14 fails on 2 of the corpus's 540
//! modules, LLVM 19 reads them all. The error says when the LLVM is probably
//! too old, and names a newer llvm-dis when one is installed. Modules go to
//! llvm-dis [`llvm_dis::BATCH`] at a time, one process per batch, batches in
//! parallel on rayon's pool: starting llvm-dis costs more than disassembling
//! a typical module, and one process per module made Iito's 382-function
//! metallib take 9.8 s with one worker (0.9 s in batches).

pub mod llvm_dis;
pub mod metallib;
pub mod xcrun;

pub use llvm_dis::LlvmDis;

use crate::ir::bitcode::Reuse;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// Extensions of the inputs this module handles.
pub const BINARY_EXTENSIONS: &[&str] = &["air", "bc", "metallib"];

/// A bitcode input, by what its extension says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BinaryInput {
    Air(PathBuf),
    Metallib(PathBuf),
}

impl BinaryInput {
    /// `Some` for `.air`, `.bc` and `.metallib` (any case), `None` otherwise.
    pub fn from_path(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "air" | "bc" => Some(Self::Air(path.to_path_buf())),
            "metallib" => Some(Self::Metallib(path.to_path_buf())),
            _ => None,
        }
    }

    pub fn path(&self) -> &Path {
        match self {
            Self::Air(p) | Self::Metallib(p) => p,
        }
    }
}

/// One module as IR text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disassembled {
    /// The file name, and for a metallib `:` and the function's name:
    /// `BlackHole.air`, `mlx.metallib:steel_attention_...`. It is also the
    /// text's `; ModuleID`.
    pub name: String,
    pub text: String,
}

/// One module's outcome in [`disassemble_each`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleResult {
    /// As [`Disassembled::name`].
    pub name: String,
    /// The function's kind ("kernel", "vertex", ...) for a metallib
    /// function; `None` for an `.air` file.
    pub kind: Option<&'static str>,
    /// One function of a metallib (`name` is `file:function`), not a
    /// whole `.air` file.
    pub library: bool,
    /// The text, or why there is none (the message starts with `name`).
    pub text: Result<String, String>,
}

/// Resolves the llvm-dis to use: `explicit` (from `--llvm-dis`; a path, or a
/// bare name looked up on PATH) when given, else `llvm-dis` on PATH, then
/// `llvm-dis-22` down to `llvm-dis-14` on PATH or in `/usr/lib/llvm-NN/bin`,
/// then Homebrew's LLVM. The error says what was tried and how to proceed.
pub fn find_llvm_dis(explicit: Option<&Path>) -> Result<PathBuf, String> {
    llvm_dis::find_in(explicit, &llvm_dis::SearchPlaces::from_env())
}

/// Disassembles every module of an `.air` or `.metallib` file, failing on
/// the first module that fails. `llvm_dis` is as in [`find_llvm_dis`].
pub fn disassemble(path: &Path, llvm_dis: Option<&Path>) -> Result<Vec<Disassembled>, String> {
    let tool = LlvmDis::new(find_llvm_dis(llvm_dis)?);
    disassemble_each(path, &tool)?
        .into_iter()
        .map(|m| m.text.map(|text| Disassembled { name: m.name, text }))
        .collect()
}

/// Disassembles every module of an `.air` or `.metallib` file. The outer
/// error is for the file as a whole (unreadable, not bitcode, a damaged
/// container); each module then succeeds or fails on its own.
pub fn disassemble_each(path: &Path, tool: &LlvmDis) -> Result<Vec<ModuleResult>, String> {
    disassemble_files(&[path], tool)
        .pop()
        .unwrap_or_else(|| Err(format!("{}: nothing read", path.display())))
}

/// [`disassemble_each`] for several files, in order. Their bitcode modules
/// go to llvm-dis [`llvm_dis::BATCH`] at a time, the batches in parallel.
pub fn disassemble_files(
    paths: &[&Path],
    tool: &LlvmDis,
) -> Vec<Result<Vec<ModuleResult>, String>> {
    disassemble_files_with(paths, Some(tool))
}

/// [`disassemble_files`], or with `tool` `None` read natively
/// (`ir::bitcode`): no process is started.
pub fn disassemble_files_with(
    paths: &[&Path],
    tool: Option<&LlvmDis>,
) -> Vec<Result<Vec<ModuleResult>, String>> {
    let mut reuse = Reuse::default();
    let prepared: Vec<(Prepared, Vec<ModuleResult>)> = paths
        .iter()
        .map(|p| {
            let mut modules = Vec::new();
            (
                prepare(p, tool, None, &mut reuse, &mut |m| modules.push(m)),
                modules,
            )
        })
        .collect();
    let bitcode: Vec<(&[u8], &str)> = prepared
        .iter()
        .filter_map(|(p, _)| match p {
            Prepared::Bitcode(source, name) => Some((source.bytes(), name.as_str())),
            _ => None,
        })
        .collect();
    let mut texts = in_batches(tool, &bitcode, &mut reuse).into_iter();
    prepared
        .into_iter()
        .map(|(p, modules)| match p {
            Prepared::Failed(e) => Err(e),
            Prepared::Library => Ok(modules),
            Prepared::Bitcode(_, name) => Ok(vec![ModuleResult {
                name,
                kind: None,
                library: false,
                text: texts
                    .next()
                    .unwrap_or_else(|| Err("llvm-dis gave no result".into())),
            }]),
        })
        .collect()
}

/// Reads every module of an `.air` or `.metallib` file natively, handing
/// each to `each` before the next is read, so that one module's text is
/// held at a time (a metallib's whole set, 382 texts for mlx.metallib, is
/// what [`disassemble_files_with`] holds), and each module's pages of a
/// mapped file given back once it is read. The error is for the file as a
/// whole, as in [`disassemble_each`], and comes before any module is given.
/// `reuse` carries what one module leaves the next: pass the same one for
/// a batch of files.
pub fn each_native_module(
    path: &Path,
    reuse: &mut Reuse,
    each: impl FnMut(ModuleResult),
) -> Result<(), String> {
    each_native_module_of(path, None, reuse, each)
}

/// [`each_native_module`], for a metallib only the functions `part` of its
/// function list (all of them when `None`); an `.air` file has one module,
/// given whatever `part` says.
pub fn each_native_module_of(
    path: &Path,
    part: Option<std::ops::Range<usize>>,
    reuse: &mut Reuse,
    mut each: impl FnMut(ModuleResult),
) -> Result<(), String> {
    match prepare(path, None, part, reuse, &mut each) {
        Prepared::Failed(e) => Err(e),
        Prepared::Library => Ok(()),
        Prepared::Bitcode(source, name) => {
            let text = native(source.bytes(), &name, 0, reuse);
            each(ModuleResult {
                name,
                kind: None,
                library: false,
                text,
            });
            Ok(())
        }
    }
}

/// Each module's text, [`llvm_dis::BATCH`] modules a process, the batches
/// in parallel on rayon's pool; without a tool, read natively, in order
/// (the scan's pool already runs files in parallel).
fn in_batches(
    tool: Option<&LlvmDis>,
    modules: &[(&[u8], &str)],
    reuse: &mut Reuse,
) -> Vec<Result<String, String>> {
    match tool {
        Some(tool) => modules
            .par_chunks(llvm_dis::BATCH)
            .flat_map_iter(|chunk| tool.disassemble_many(chunk))
            .collect(),
        None => modules
            .iter()
            .map(|(b, name)| native(b, name, 0, reuse))
            .collect(),
    }
}

/// How many functions (modules) the metallib at `path` holds; `None` when
/// it is not one, or cannot be read (its scan then says why).
pub fn metallib_functions(path: &Path) -> Option<usize> {
    let source = crate::input::load(path).ok()?;
    let bytes = source.bytes();
    if !metallib::is_metallib(bytes) {
        return None;
    }
    Some(metallib::Metallib::parse(bytes).ok()?.functions.len())
}

/// One module read by `ir::bitcode`; `base`: where its bytes sit in the
/// file, so that a refusal names the file's byte.
pub fn native(bitcode: &[u8], name: &str, base: u64, reuse: &mut Reuse) -> Result<String, String> {
    crate::ir::bitcode::to_text(bitcode, name, base, reuse).map_err(|e| {
        format!(
            "{name}: the built-in bitcode reader refused it at byte {}: {}. Pass --llvm-dis PATH \
             to read it with LLVM's llvm-dis instead",
            e.offset, e.message
        )
    })
}

/// A file read and checked, before its bitcode (if any) is disassembled.
enum Prepared {
    /// A metallib, its functions disassembled here (in batches of their
    /// own) and handed over one by one.
    Library,
    /// The file cannot be read as a whole.
    Failed(String),
    /// An `.air` file's bitcode, and the module's name.
    Bitcode(crate::input::Source, String),
}

/// Reads `path` and checks its kind; a metallib's modules are disassembled
/// here and given to `each` in order, natively one at a time.
fn prepare(
    path: &Path,
    tool: Option<&LlvmDis>,
    // Of a metallib read natively, the functions to read (all: `None`).
    part: Option<std::ops::Range<usize>>,
    reuse: &mut Reuse,
    each: &mut dyn FnMut(ModuleResult),
) -> Prepared {
    let shown = path.display();
    let source = match crate::input::load(path) {
        Ok(s) => s,
        Err(e) => return Prepared::Failed(format!("{shown}: {e}")),
    };
    let bytes = source.bytes();
    let file_name = path
        .file_name()
        .map_or_else(|| shown.to_string(), |n| n.to_string_lossy().into_owned());

    if metallib::is_metallib(bytes) {
        let lib = match metallib::Metallib::parse(bytes) {
            Ok(lib) => lib,
            Err(e) => return Prepared::Failed(format!("{shown}: damaged metallib: {e}")),
        };
        let names = lib
            .functions
            .iter()
            .map(|f| format!("{file_name}:{}", f.name));
        let kinds = lib.functions.iter().map(|f| f.kind.map(|k| k.as_str()));
        if tool.is_some() {
            let names: Vec<String> = names.collect();
            let modules: Vec<(&[u8], &str)> = lib
                .functions
                .iter()
                .zip(&names)
                .map(|(f, name)| (f.module(), name.as_str()))
                .collect();
            let texts = in_batches(tool, &modules, reuse);
            for ((name, kind), text) in names.into_iter().zip(kinds).zip(texts) {
                each(ModuleResult {
                    name,
                    kind,
                    library: true,
                    text,
                });
            }
        } else {
            // Where the modules read so far begin.
            let mut done_from = usize::MAX;
            let chosen = |i: &usize| part.as_ref().is_none_or(|r| r.contains(i));
            let functions = lib.functions.iter().zip(names).zip(kinds).enumerate();
            for (_, ((f, name), kind)) in functions.filter(|(i, _)| chosen(i)) {
                let module = f.module();
                let base = (module.as_ptr() as usize).saturating_sub(bytes.as_ptr() as usize);
                let text = native(module, &name, base as u64, reuse);
                // Done with its bytes: a mapped library keeps a module's
                // pages at a time, not all of them by its last module. From
                // the first module read, as reading a page maps its
                // neighbours (the kernel's fault-around, 64 KB) again, those
                // of modules already read too.
                done_from = done_from.min(base);
                let end = base.saturating_add(f.bitcode.len());
                source.release_bytes(bytes.get(done_from..end).unwrap_or_default());
                each(ModuleResult {
                    name,
                    kind,
                    library: true,
                    text,
                });
            }
        }
        return Prepared::Library;
    }
    if bytes.is_empty() {
        return Prepared::Failed(format!("{shown}: empty file, no bitcode in it"));
    }
    if llvm_dis::is_bitcode(bytes) {
        // Checked here so that a damaged wrapper gets a precise message
        // rather than llvm-dis's.
        if let Err(e) = llvm_dis::strip_wrapper(bytes) {
            return Prepared::Failed(format!("{shown}: {e}"));
        }
        return Prepared::Bitcode(source, file_name);
    }
    let head: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
    Prepared::Failed(format!(
        "{shown}: neither AIR bitcode (0x0B17C0DE or BC\\xC0\\xDE) nor a metallib (MTLB): it \
         starts with [{}]",
        head.join(" ")
    ))
}
