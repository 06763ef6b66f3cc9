//! Reading LLVM bitcode (Apple's AIR) natively, without `llvm-dis`.
//!
//! The bitcode is decoded into plain structures ([`module::Module`]) and
//! printed as the LLVM IR text `llvm-dis` prints for typed-pointer modules
//! ([`print`]); the scan then reads that text with the text reader, so rules,
//! source mapping and reports see the same model whichever way a module
//! came in, and IR line numbers of a binary input refer to the printed text
//! (`air-scan dis`, `--emit-ir`).
//!
//! Layers: [`bitstream`] (bits, blocks, abbreviations; every count checked
//! against the bytes left, nesting capped, errors with byte offsets), then
//! the IR layer: [`module`] (identification and module blocks, globals and
//! functions, attribute groups, the string table), [`types`], [`constants`],
//! [`metadata`] and [`debug_info`], [`function`] (bodies with relative value
//! ids and forward references, symbol tables, attachments), [`attributes`].
//! Record layouts follow LLVM's `BitcodeReader.cpp` and `MetadataLoader.cpp`
//! for what Apple's compilers in the corpus write (metalfe 31001 to 32023:
//! bitcode version 2, typed pointers). Anything else (aliases, ifuncs,
//! operand bundles, an instruction or metadata record outside that set) is
//! refused with the byte it was met at, so a caller can fall back to
//! `llvm-dis`.

pub mod attributes;
pub mod bitstream;
pub mod constants;
pub mod debug_info;
pub mod function;
pub mod metadata;
pub mod module;
pub mod print;
pub mod types;

use std::fmt;

/// Why a module was refused, and at which byte of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub offset: u64,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for Error {}

/// Magic of raw bitcode.
const MAGIC: [u8; 4] = *b"BC\xC0\xDE";
/// Magic of the wrapper Apple puts around it.
const WRAPPER: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];

/// Turns one module of bitcode (wrapped or raw) into LLVM IR text.
/// `module_id` is printed on the `; ModuleID` line; `base` is where
/// `bytes` sit in the file (for a metallib's modules), so offsets in errors
/// are the file's.
pub fn to_text(bytes: &[u8], module_id: &str, base: u64) -> Result<String, Error> {
    let (raw, raw_base) = unwrap(bytes, base)?;
    let data = &raw[MAGIC.len()..];
    let mut m = module::Module::decode(data, raw_base + MAGIC.len() as u64)?;
    print::module(&mut m, module_id).map_err(|message| Error {
        offset: raw_base,
        message,
    })
}

/// The raw bitcode inside `bytes` and where it starts.
fn unwrap(bytes: &[u8], base: u64) -> Result<(&[u8], u64), Error> {
    let err = |offset: u64, message: String| Error { offset, message };
    if bytes.starts_with(&WRAPPER) {
        let word = |i: usize| {
            bytes
                .get(i * 4..i * 4 + 4)
                .and_then(|s| <[u8; 4]>::try_from(s).ok())
                .map(u32::from_le_bytes)
        };
        let (Some(offset), Some(size)) = (word(2), word(3)) else {
            return Err(err(base, "truncated bitcode wrapper header".into()));
        };
        let (start, end) = (offset as usize, offset as usize + size as usize);
        let raw = bytes.get(start..end).ok_or_else(|| {
            err(
                base + 8,
                format!(
                    "the bitcode wrapper puts the bitcode at bytes {start}..{end}, the data has {}",
                    bytes.len()
                ),
            )
        })?;
        if !raw.starts_with(&MAGIC) {
            return Err(err(
                base + start as u64,
                "no BC\\xC0\\xDE inside the wrapper".into(),
            ));
        }
        return Ok((raw, base + start as u64));
    }
    if bytes.starts_with(&MAGIC) {
        return Ok((bytes, base));
    }
    Err(err(base, "not LLVM bitcode (no BC\\xC0\\xDE magic)".into()))
}
