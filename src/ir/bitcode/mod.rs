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

pub use module::Reuse;
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
/// `reuse` carries what one module leaves the next (see [`Reuse`]): pass
/// the same one for the modules of a library or a batch of files.
pub fn to_text(
    bytes: &[u8],
    module_id: &str,
    base: u64,
    reuse: &mut Reuse,
) -> Result<String, Error> {
    let (raw, raw_base) = unwrap(bytes, base)?;
    let data = &raw[MAGIC.len()..];
    let mut m = module::Module::decode(data, raw_base + MAGIC.len() as u64, reuse)?;
    let text = print::module(&mut m, module_id).map_err(|message| Error {
        offset: raw_base,
        message,
    });
    m.recycle(reuse);
    text
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

#[cfg(test)]
mod hostile {
    //! Hand-made hostile bitstreams: each ends in an error naming a byte,
    //! at once, without allocating what the file claims.
    use super::bitstream::tests::Writer;
    use super::to_text;

    /// `BC\xC0\xDE` and a module block (abbreviation width 3) holding what
    /// `body` writes; the block's length is patched in, `claimed` words
    /// more than written.
    fn module(body: impl FnOnce(&mut Writer), claimed: u32) -> Vec<u8> {
        let mut w = Writer::default();
        for b in *b"BC\xC0\xDE" {
            w.bits(u64::from(b), 8);
        }
        let at = w.enter(2, 8, 3);
        body(&mut w);
        w.end(3, at, claimed);
        w.bytes
    }

    fn refused(bytes: &[u8]) -> super::Error {
        match to_text(bytes, "hostile", 0, &mut super::Reuse::default()) {
            Ok(_) => panic!("hostile input was read"),
            Err(e) => {
                assert!(e.offset <= bytes.len() as u64, "{e}");
                e
            }
        }
    }

    #[test]
    fn a_record_of_two_to_the_32_operands() {
        let bytes = module(
            |w| {
                w.bits(3, 3);
                w.vbr(1, 6);
                w.vbr(1 << 32, 6);
            },
            0,
        );
        let e = refused(&bytes);
        assert!(e.message.contains("4294967296 operands"), "{e}");
        assert_eq!(e.offset, 12, "{e}");
    }

    #[test]
    fn a_blob_past_the_end() {
        let bytes = module(
            |w| {
                // DEFINE_ABBREV [literal 1, blob]; then a record using it.
                w.bits(2, 3);
                w.vbr(2, 5);
                w.bits(1, 1);
                w.vbr(1, 8);
                w.bits(0, 1);
                w.bits(5, 3);
                w.bits(4, 3);
                w.vbr(1_000_000, 6);
            },
            0,
        );
        let e = refused(&bytes);
        assert!(e.message.contains("blob of 1000000 bytes"), "{e}");
    }

    #[test]
    fn abbreviations_that_loop_or_nest() {
        // An array of arrays, and a record naming an abbreviation never
        // defined: both refused where they stand.
        let nested = module(
            |w| {
                w.bits(2, 3);
                w.vbr(3, 5);
                w.bits(1, 1);
                w.vbr(1, 8);
                w.bits(0, 1);
                w.bits(3, 3);
                w.bits(0, 1);
                w.bits(3, 3);
            },
            0,
        );
        assert!(refused(&nested).message.contains("malformed abbreviation"));
        let undefined = module(|w| w.bits(7, 3), 0);
        assert!(
            refused(&undefined)
                .message
                .contains("undefined abbreviation")
        );
        // A flood of definitions is read in a loop (no recursion): the
        // module, empty, reads.
        let flood = module(
            |w| {
                for _ in 0..200_000 {
                    w.bits(2, 3);
                    w.vbr(1, 5);
                    w.bits(1, 1);
                    w.vbr(1, 8);
                }
            },
            0,
        );
        assert!(to_text(&flood, "flood", 0, &mut super::Reuse::default()).is_ok());
    }

    #[test]
    fn nesting_past_any_sane_depth() {
        let mut w = Writer::default();
        for b in *b"BC\xC0\xDE" {
            w.bits(u64::from(b), 8);
        }
        let mut lengths = Vec::new();
        let mut width = 2;
        for _ in 0..10_000 {
            w.bits(1, width);
            w.vbr(8, 8);
            w.vbr(3, 4);
            width = 3;
            w.align32();
            lengths.push(w.bytes.len());
            w.bits(0, 32);
        }
        let end = w.bytes.len();
        for at in lengths {
            let words = ((end - at - 4) / 4) as u32;
            w.bytes[at..at + 4].copy_from_slice(&words.to_le_bytes());
        }
        // Unknown blocks are skipped by their lengths, never entered: the
        // innermost, never ended, is where the reader stops.
        let e = refused(&w.bytes);
        assert!(e.message.contains("unexpected end"), "{e}");
        // Entering them, as the reader does with the blocks it knows, stops
        // at the cap.
        let data = &w.bytes[4..];
        let mut r = super::bitstream::Reader::new(data, 4);
        let mut depth = 0;
        let e = loop {
            match r.next_entry() {
                Ok(super::bitstream::Entry::SubBlock(id)) => match r.enter(id) {
                    Ok(()) => depth += 1,
                    Err(e) => break e,
                },
                other => panic!("{other:?} at depth {depth}"),
            }
        };
        assert_eq!(depth, super::bitstream::MAX_DEPTH);
        assert!(e.message.contains("nested more than"), "{e}");
    }

    #[test]
    fn a_block_longer_than_its_file() {
        let bytes = module(|_| {}, 1 << 30);
        let e = refused(&bytes);
        assert!(e.message.contains("runs past the end"), "{e}");
    }
}
