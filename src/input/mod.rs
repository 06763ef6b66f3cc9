//! Finding input files and mapping them into memory as text.
//!
//! Files of 1 MiB and more are memory-mapped, not read into a buffer: the
//! reader borrows every name from the mapping, so the text is never copied.
//!
//! A path that is not a regular file (`-` for standard input, a pipe such
//! as bash's `<(xcrun metal ...)`, a FIFO, a device) can be read only once,
//! but a scan looks at a file more than once (its kind, its bytes, a
//! snippet of a finding's line): [`load`] reads such a stream whole the
//! first time and keeps its bytes for the rest of the process ([`streams`]).

pub mod root;

use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Larger files are refused (the value and why: `ir::limits`, whose
/// limits all live in one place).
pub use crate::ir::limits::MAX_FILE_SIZE;

/// Extensions scanned when walking a directory (`.air`, `.metallib` and
/// `.metal` go through `compile`).
pub const IR_EXTENSIONS: &[&str] = &["ll", "air", "bc", "metallib", "metal"];

/// Files smaller than this are read into memory rather than mapped.
const READ_BELOW: u64 = 1 << 20;

/// The path that names standard input.
pub const STDIN: &str = "-";

/// The bytes of one input file.
pub enum Source {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
    /// A stream's bytes, read once ([`streams`]).
    Stream(std::sync::Arc<[u8]>),
}

impl Source {
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Mapped(m) => m,
            Source::Owned(v) => v,
            Source::Stream(b) => b,
        }
    }

    /// Gives back to the system the pages holding `part` (a slice of
    /// `bytes()`) that the scan is done with: a scan reads each function
    /// body once more after locating it, and keeping every page of a large
    /// mapped file resident to the end was most of its peak memory. A page
    /// read again is read again from the page cache. Nothing for a file
    /// read into memory, or a `part` not within the mapping.
    pub fn release(&self, part: &str) {
        self.release_bytes(part.as_bytes())
    }

    /// `release` for any slice of `bytes()`.
    pub fn release_bytes(&self, part: &[u8]) {
        let Source::Mapped(m) = self else { return };
        let Some(offset) = (part.as_ptr() as usize).checked_sub(m.as_ptr() as usize) else {
            return;
        };
        if offset + part.len() > m.len() {
            return;
        }
        // SAFETY: the mapping is read-only and private: MADV_DONTNEED only
        // unmaps our copies of its pages, and the next access maps the
        // file's pages again, with the same bytes (the file changing under
        // us is the hazard of mapping it at all; see `load`). Failure
        // changes nothing but memory, so it is ignored.
        let _ = unsafe {
            m.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, offset, part.len())
        };
    }
}

/// Why a file could not be read as IR text at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn load(path: &Path) -> Result<Source, InputError> {
    if path.as_os_str() == STDIN {
        return read_stream_once(path, || Ok(Box::new(std::io::stdin().lock())));
    }
    let file = File::open(path).map_err(|e| InputError(format!("cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| InputError(format!("cannot stat: {e}")))?;
    if meta.is_dir() {
        return Err(InputError("is a directory".into()));
    }
    if !meta.is_file() {
        return read_stream_once(path, || Ok(Box::new(file)));
    }
    if meta.len() > MAX_FILE_SIZE {
        return Err(InputError(format!(
            "file is {} bytes; the limit is {} bytes",
            meta.len(),
            MAX_FILE_SIZE
        )));
    }
    if meta.len() == 0 {
        return Ok(Source::Owned(Vec::new()));
    }
    // Small files are read: mapping, faulting in and unmapping each one
    // costs more than the copy (the corpus: ~17% fewer page faults, ~5% less
    // CPU time), and with several jobs every unmap also makes the other
    // threads flush their TLBs.
    if meta.len() < READ_BELOW {
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        use std::io::Read;
        return (&file)
            .read_to_end(&mut bytes)
            .map(|_| Source::Owned(bytes))
            .map_err(|e| InputError(format!("cannot read: {e}")));
    }
    // SAFETY: the mapping is read-only; a file truncated by another process
    // while we read it is the only hazard, as with any mmap-based tool.
    match unsafe { memmap2::Mmap::map(&file) } {
        Ok(m) => Ok(Source::Mapped(m)),
        // Pipes and special files cannot be mapped: read them instead.
        Err(_) => std::fs::read(path)
            .map(Source::Owned)
            .map_err(|e| InputError(format!("cannot read: {e}"))),
    }
}

/// The streams read so far, by the path that named them: read again, a
/// pipe would give nothing.
fn streams() -> &'static std::sync::Mutex<Vec<Streamed>> {
    static STREAMS: std::sync::OnceLock<std::sync::Mutex<Vec<Streamed>>> =
        std::sync::OnceLock::new();
    STREAMS.get_or_init(Default::default)
}

/// A stream's path and the bytes read from it.
type Streamed = (PathBuf, std::sync::Arc<[u8]>);

/// Whether `path` named a stream read by [`load`].
fn was_streamed(path: &Path) -> bool {
    streams()
        .lock()
        .is_ok_and(|known| known.iter().any(|(p, _)| p == path))
}

/// The bytes of the stream `path` names: read from `open()` the first
/// time, kept for every later call. Reading stops early at a NUL byte in
/// what cannot be bitcode or a library (that is an error as text whatever
/// follows, and `/dev/zero` never ends), and past `MAX_FILE_SIZE`.
fn read_stream_once(
    path: &Path,
    open: impl FnOnce() -> Result<Box<dyn std::io::Read>, InputError>,
) -> Result<Source, InputError> {
    let Ok(mut known) = streams().lock() else {
        return Err(InputError(
            "cannot read: another thread failed reading".into(),
        ));
    };
    if let Some((_, bytes)) = known.iter().find(|(p, _)| p == path) {
        return Ok(Source::Stream(bytes.clone()));
    }
    use std::io::Read;
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut reader = open()?;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(InputError(format!("cannot read: {e}"))),
        };
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > MAX_FILE_SIZE {
            return Err(InputError(format!(
                "more than {MAX_FILE_SIZE} bytes (the limit) on this stream"
            )));
        }
        let text = matches!(Kind::of(&bytes), Kind::Text | Kind::Dump);
        if text && bytes.len() >= SNIFF_BYTES && memchr::memchr(0, &chunk[..n]).is_some() {
            break;
        }
    }
    let bytes: std::sync::Arc<[u8]> = bytes.into();
    known.push((path.to_path_buf(), bytes.clone()));
    Ok(Source::Stream(bytes))
}

/// What a file holds, by its first bytes: the extension only names what
/// it should hold. Both the scan and `diff` route a file by this, and note
/// when its extension says otherwise ([`Kind::mismatch`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// LLVM IR text (or anything else that is not one of the below: the
    /// reader says what is wrong with it).
    Text,
    /// IR text inside a `metal-objdump` dump (`0x... -- name:` first line),
    /// which the reader cuts away.
    Dump,
    /// LLVM bitcode, raw (`BC\xC0\xDE`) or in the wrapper `.air` files use
    /// (0x0B17C0DE).
    Bitcode,
    /// A `.metallib` library (`MTLB`).
    Metallib,
}

/// Bytes [`Kind::of_file`] reads: enough for the magics and a dump's first line.
const SNIFF_BYTES: usize = 256;

impl Kind {
    /// What `bytes` (a file's first bytes, or all of them) hold.
    pub fn of(bytes: &[u8]) -> Kind {
        if bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B") {
            Kind::Bitcode
        } else if bytes.starts_with(b"MTLB") {
            Kind::Metallib
        } else if bytes.starts_with(b"0x") && {
            let line = &bytes[..memchr::memchr(b'\n', bytes).unwrap_or(bytes.len())];
            memchr::memmem::find(line, b" -- ").is_some()
        } {
            Kind::Dump
        } else {
            Kind::Text
        }
    }

    /// What the file at `path` holds, from its first bytes; `None` when it
    /// cannot be read (the scan then reports why, in its place).
    pub fn of_file(path: &Path) -> Option<Kind> {
        use std::io::Read;
        let file = match path.as_os_str() == STDIN {
            true => None,
            false => Some(File::open(path).ok()?),
        };
        // Sniffing a stream would take its first bytes away.
        let Some(file) = file.filter(|f| f.metadata().is_ok_and(|m| m.is_file())) else {
            return load(path).ok().map(|s| Kind::of(s.bytes()));
        };
        let mut head = Vec::with_capacity(SNIFF_BYTES);
        file.take(SNIFF_BYTES as u64).read_to_end(&mut head).ok()?;
        Some(Kind::of(&head))
    }

    /// What the extension of `path` says a file holds, if it is one of ours.
    pub fn by_extension(path: &Path) -> Option<Kind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "ll" => Some(Kind::Text),
            "air" | "bc" => Some(Kind::Bitcode),
            "metallib" => Some(Kind::Metallib),
            _ => None,
        }
    }

    /// Whether the file goes to a disassembler rather than the text reader.
    pub fn is_binary(self) -> bool {
        matches!(self, Kind::Bitcode | Kind::Metallib)
    }

    fn describe(self) -> &'static str {
        match self {
            Kind::Text => "LLVM IR text",
            Kind::Dump => "IR text in a metal-objdump dump",
            Kind::Bitcode => "LLVM bitcode",
            Kind::Metallib => "a metallib",
        }
    }

    /// The note to give when `path`'s extension says other than what its
    /// bytes, `self`, are: `None` when they agree, or when the extension is
    /// not one of ours and the file is text.
    pub fn mismatch(self, path: &Path) -> Option<String> {
        // A stream's name (`-`, `/dev/fd/63`) says nothing of its contents.
        if was_streamed(path) {
            return None;
        }
        let named = Kind::by_extension(path);
        let agrees = match named {
            Some(Kind::Text) => matches!(self, Kind::Text | Kind::Dump),
            Some(k) => k == self,
            None => !self.is_binary(),
        };
        if agrees {
            return None;
        }
        let named = path.extension().map_or_else(
            || "has no extension".to_string(),
            |e| format!("is named .{}", e.to_string_lossy()),
        );
        Some(format!(
            "the file {named} but holds {}: read as what it holds",
            self.describe()
        ))
    }
}

/// Checks that `bytes` can be IR text and returns it as `&str`.
pub fn as_ir_text(bytes: &[u8]) -> Result<&str, InputError> {
    if bytes.is_empty() {
        return Err(InputError("empty file".into()));
    }
    if bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B") {
        return Err(InputError(
            "LLVM bitcode, not IR text: disassemble it with llvm-dis first".into(),
        ));
    }
    if bytes.starts_with(b"MTLB") {
        return Err(InputError("a .metallib container, not IR text".into()));
    }
    // simdutf8 checks 12 MB in a tenth of the instructions `std` takes
    // (1% of a whole scan); `std` finds the offending byte when it fails.
    match simdutf8::basic::from_utf8(bytes).or_else(|_| std::str::from_utf8(bytes)) {
        Ok(s) => {
            if let Some(i) = memchr::memchr(0, &bytes[..bytes.len().min(1 << 16)]) {
                let line = 1 + memchr::memchr_iter(b'\n', &bytes[..i]).count();
                return Err(InputError(format!(
                    "binary data (a NUL byte) at line {line}: not IR text"
                )));
            }
            Ok(s)
        }
        Err(e) => {
            let at = e.valid_up_to();
            let line = 1 + memchr::memchr_iter(b'\n', &bytes[..at]).count();
            Err(InputError(format!(
                "binary data (invalid UTF-8) at line {line}: not IR text"
            )))
        }
    }
}

/// One path to scan, or a problem met while walking.
pub enum Found {
    File(PathBuf),
    Error(PathBuf, String),
}

/// How directories are walked.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// `--exclude` globs, gitignore syntax (`vendor/`, `*.O0.ll`, `gen/**`),
    /// matched against paths below each directory scanned. Files named
    /// directly are read whatever the globs say, as with .gitignore.
    excludes: Vec<String>,
}

impl WalkOptions {
    /// Checks every glob now, so that a typo is a usage error rather than a
    /// message per directory.
    pub fn new(excludes: Vec<String>) -> Result<Self, String> {
        let opts = WalkOptions { excludes };
        opts.overrides(Path::new("."))?;
        Ok(opts)
    }

    fn overrides(&self, root: &Path) -> Result<ignore::overrides::Override, String> {
        let mut b = ignore::overrides::OverrideBuilder::new(root);
        for g in &self.excludes {
            // A `!` glob ignores what it matches (a bare one would make the
            // walk take only what matches).
            b.add(&format!("!{g}"))
                .map_err(|e| format!("--exclude '{g}': {e}"))?;
        }
        b.build().map_err(|e| format!("--exclude: {e}"))
    }
}

/// Expands the given paths: files as given, directories walked recursively
/// for the [`IR_EXTENSIONS`] (respecting .gitignore), in a stable order.
pub fn collect(paths: &[PathBuf]) -> Vec<Found> {
    collect_with(paths, &WalkOptions::default())
}

/// As [`collect`], leaving out what `options` excludes. Problems met on the
/// way (a symlink loop, a directory that cannot be listed) come back as
/// [`Found::Error`] in their place, and the walk goes on.
pub fn collect_with(paths: &[PathBuf], options: &WalkOptions) -> Vec<Found> {
    let mut out = Vec::new();
    walk_each(paths, options, |found| out.push(found));
    out
}

/// As [`collect_with`], handing each entry to `found` as soon as the walk
/// meets it, in the same order: a scan starts on the first files while the
/// walk goes on.
pub fn walk_each(paths: &[PathBuf], options: &WalkOptions, mut found: impl FnMut(Found)) {
    for root in paths {
        if root.as_os_str() == STDIN {
            found(Found::File(root.clone()));
            continue;
        }
        match std::fs::metadata(root) {
            Err(e) => found(Found::Error(root.clone(), format!("cannot open: {e}"))),
            Ok(m) if !m.is_dir() => found(Found::File(root.clone())),
            Ok(_) => walk(root, options, &mut found),
        }
    }
}

fn walk(root: &Path, options: &WalkOptions, out: &mut impl FnMut(Found)) {
    let overrides = match options.overrides(root) {
        Ok(o) => o,
        Err(e) => {
            out(Found::Error(root.to_path_buf(), e));
            return;
        }
    };
    let walker = ignore::WalkBuilder::new(root)
        .follow_links(true)
        .require_git(false)
        .overrides(overrides)
        // The walk sorts one folder's entries at a time: paths that are
        // the same parent joined with a name (which holds no separator),
        // so their bytes order them as their components would. Comparing
        // components (or taking each file name again) cost ~1,200
        // (~600) instructions a comparison: 3.5% of a scan of a folder of
        // 382 small modules.
        .sort_by_file_path(|a, b| a.as_os_str().cmp(b.as_os_str()))
        .build();
    for entry in walker {
        match entry {
            Ok(e) => {
                let p = e.path();
                let is_file = e.file_type().is_some_and(|t| t.is_file());
                if is_file && is_scanned(p) {
                    out(Found::File(p.to_path_buf()));
                }
            }
            Err(err) => {
                let path = error_path(&err).unwrap_or_else(|| root.to_path_buf());
                // A dangling link to something not scanned (`out.txt ->
                // gone`) is no business of a shader scan.
                if is_dangling(&err) && has_other_extension(&path) {
                    continue;
                }
                out(Found::Error(path, describe(&err)));
            }
        }
    }
}

/// Whether a walk picks up `path`, by its extension (any case).
pub fn is_scanned(path: &Path) -> bool {
    path.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| IR_EXTENSIONS.iter().any(|e| x.eq_ignore_ascii_case(e)))
}

fn has_other_extension(path: &Path) -> bool {
    path.extension().is_some() && !is_scanned(path)
}

fn is_dangling(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Io(e) => e.kind() == std::io::ErrorKind::NotFound,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_dangling(err),
        _ => false,
    }
}

/// The walk's error in words, without the path the report already shows.
fn describe(err: &ignore::Error) -> String {
    match err {
        ignore::Error::Loop { ancestor, child } => format!(
            "symbolic link loop: {} leads back to {}; not followed",
            child.display(),
            ancestor.display()
        ),
        ignore::Error::WithDepth { err, .. } => describe(err),
        ignore::Error::WithPath { err, .. } => match &**err {
            ignore::Error::Io(e) => format!("cannot read: {e}"),
            other => describe(other),
        },
        other => other.to_string(),
    }
}

fn error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pages given back are read again from the file: the bytes do not change.
    #[test]
    fn released_pages_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.ll");
        let text: String = (0..200_000).map(|i| format!("; line {i}\n")).collect();
        std::fs::write(&path, &text).unwrap();
        let source = load(&path).unwrap();
        assert!(
            matches!(source, Source::Mapped(_)),
            "a file over 1 MB is mapped"
        );
        let mapped = as_ir_text(source.bytes()).unwrap();
        source.release(&mapped[10_000..1_500_000]);
        source.release(mapped);
        source.release("not in the mapping");
        assert_eq!(mapped, text);
    }

    /// The walk compares paths' bytes: a folder's files and subfolders come
    /// in their names' order, a subfolder's files right after its name,
    /// before a sibling it is a prefix of.
    #[test]
    fn a_folder_is_walked_in_its_names_order() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("a")).unwrap();
        for name in ["b.ll", "a.ll", "a/z.ll", "a-b.ll", "A.ll", "a b.ll"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let found: Vec<String> = collect_with(&[dir.path().to_path_buf()], &WalkOptions::default())
            .into_iter()
            .map(|f| match f {
                Found::File(p) => p.strip_prefix(dir.path()).unwrap().display().to_string(),
                Found::Error(p, e) => panic!("{}: {e}", p.display()),
            })
            .collect();
        assert_eq!(
            found,
            ["A.ll", "a/z.ll", "a b.ll", "a-b.ll", "a.ll", "b.ll"]
        );
    }
}
