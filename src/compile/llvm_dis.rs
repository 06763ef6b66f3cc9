//! Turning AIR bitcode into text with an external `llvm-dis`, and Apple's
//! bitcode wrapper.
//!
//! Bitcode is not read natively: its format follows LLVM's releases, and
//! llvm-dis already reads every version up to its own. One module runs with
//! the bitcode on stdin and the text on stdout; a batch of modules goes
//! through a private temporary directory, one process for all
//! ([`LlvmDis::disassemble_many`]). Every run has a timeout and an output
//! cap, so a hung or runaway child cannot hang or exhaust the scan.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

/// Versioned names tried, newest first (`llvm-dis-22` ... `llvm-dis-14`).
pub const VERSIONS: std::ops::RangeInclusive<u32> = 14..=22;

/// Default limit on one run; the largest module of the corpus takes ~0.1 s.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// Default cap on one module's text. The largest of the corpus is ~0.5 MB;
/// the reader keeps offsets in 32 bits, so nothing near 4 GiB is wanted.
pub const DEFAULT_MAX_OUTPUT: usize = 1 << 30;

/// Kept of a failing tool's stderr, for the message.
const MAX_STDERR: usize = 16 << 10;

/// Modules given to one llvm-dis process by [`LlvmDis::disassemble_many`].
/// Starting llvm-dis costs ~40 ms (most of it loading LLVM's shared
/// library), more than disassembling a typical AIR module: one process per
/// module made llvm-dis most of a scan of the corpus's 541 `.air` files.
pub const BATCH: usize = 32;

/// The magic of Apple's (and LLVM's) bitcode wrapper, 0x0B17C0DE.
pub const WRAPPER_MAGIC: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];

/// The magic of raw LLVM bitcode.
pub const BITCODE_MAGIC: [u8; 4] = [b'B', b'C', 0xC0, 0xDE];

/// Size of the wrapper header: magic, version, offset, size, CPU type.
pub const WRAPPER_SIZE: usize = 20;

/// The header `.air` files (and metallib functions) put before the bitcode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BitcodeWrapper {
    /// 0 in every file seen.
    pub version: u32,
    /// Where the raw bitcode starts (20 in every file seen).
    pub offset: u32,
    /// How many bytes of raw bitcode follow.
    pub size: u32,
    /// 0xFFFFFFFF in every file seen.
    pub cpu_type: u32,
}

impl BitcodeWrapper {
    /// One past the last byte of bitcode. Files often have padding after it.
    pub fn end(&self) -> u64 {
        u64::from(self.offset) + u64::from(self.size)
    }
}

/// Reads the wrapper header: `Ok(None)` when `bytes` do not start with the
/// wrapper magic, an error when the header is cut short or names bytes the
/// data does not have.
pub fn read_wrapper(bytes: &[u8]) -> Result<Option<BitcodeWrapper>, String> {
    if !bytes.starts_with(&WRAPPER_MAGIC) {
        return Ok(None);
    }
    let word = |i: usize| {
        bytes
            .get(i * 4..i * 4 + 4)
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
            .map(u32::from_le_bytes)
    };
    let (Some(version), Some(offset), Some(size), Some(cpu_type)) =
        (word(1), word(2), word(3), word(4))
    else {
        return Err(format!(
            "truncated bitcode wrapper: {} bytes, its header needs {WRAPPER_SIZE}",
            bytes.len()
        ));
    };
    let w = BitcodeWrapper {
        version,
        offset,
        size,
        cpu_type,
    };
    if (offset as usize) < WRAPPER_SIZE || w.end() > bytes.len() as u64 {
        return Err(format!(
            "bad bitcode wrapper: it puts the bitcode at bytes {}..{}, the data has {} bytes",
            offset,
            w.end(),
            bytes.len()
        ));
    }
    Ok(Some(w))
}

/// The raw bitcode (`BC\xC0\xDE` ...) inside `bytes`, with the wrapper and
/// any trailing padding cut away; raw bitcode is returned as it is.
pub fn strip_wrapper(bytes: &[u8]) -> Result<&[u8], String> {
    let raw = match read_wrapper(bytes)? {
        Some(w) => bytes
            .get(w.offset as usize..w.end() as usize)
            .ok_or_else(|| "bad bitcode wrapper: range out of bounds".to_string())?,
        None => bytes,
    };
    if raw.starts_with(&BITCODE_MAGIC) {
        Ok(raw)
    } else {
        Err(format!(
            "not LLVM bitcode: expected \"BC\\xC0\\xDE\" or the wrapper 0x0B17C0DE, found {}",
            hex_prefix(raw)
        ))
    }
}

/// Whether `bytes` start like bitcode, wrapped or raw.
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(&WRAPPER_MAGIC) || bytes.starts_with(&BITCODE_MAGIC)
}

fn hex_prefix(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "no bytes".into();
    }
    let hex: Vec<String> = bytes.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("[{}]", hex.join(" "))
}

/// Where to look for llvm-dis. [`SearchPlaces::from_env`] is what a scan
/// uses; tests build others to see what happens when nothing is installed.
#[derive(Debug, Clone, Default)]
pub struct SearchPlaces {
    /// Directories of `PATH`, in order.
    pub path_dirs: Vec<PathBuf>,
    /// Roots holding `llvm-NN/bin/llvm-dis` (Debian and Ubuntu: `/usr/lib`).
    pub versioned_roots: Vec<PathBuf>,
    /// Directories tried last (Homebrew's keg-only LLVM is not on PATH).
    pub fallback_dirs: Vec<PathBuf>,
}

impl SearchPlaces {
    pub fn from_env() -> Self {
        let path_dirs = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        SearchPlaces {
            path_dirs,
            versioned_roots: vec![PathBuf::from("/usr/lib")],
            fallback_dirs: vec![
                PathBuf::from("/opt/homebrew/opt/llvm/bin"),
                PathBuf::from("/usr/local/opt/llvm/bin"),
            ],
        }
    }

    /// Every llvm-dis found, in the order they are preferred: `llvm-dis` on
    /// PATH, then for NN from 22 down to 14 `llvm-dis-NN` on PATH and
    /// `llvm-NN/bin/llvm-dis` under each root, then the fallback
    /// directories. The same file reached twice is listed once.
    pub fn candidates(&self) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = Vec::new();
        let mut seen: Vec<PathBuf> = Vec::new();
        let mut add = |p: PathBuf| {
            if is_executable(&p) {
                let key = std::fs::canonicalize(&p).unwrap_or_else(|_| p.clone());
                if !seen.contains(&key) {
                    seen.push(key);
                    found.push(p);
                }
            }
        };
        // Newest versioned first: a plain `llvm-dis` is often an old LLVM
        // (Debian's default is 14, which fails on newer AIR).
        for nn in VERSIONS.rev() {
            for dir in &self.path_dirs {
                add(dir.join(exe(&format!("llvm-dis-{nn}"))));
            }
            for root in &self.versioned_roots {
                add(root
                    .join(format!("llvm-{nn}"))
                    .join("bin")
                    .join(exe("llvm-dis")));
            }
        }
        for dir in &self.path_dirs {
            add(dir.join(exe("llvm-dis")));
        }
        for dir in &self.fallback_dirs {
            add(dir.join(exe("llvm-dis")));
        }
        found
    }
}

fn exe(name: &str) -> String {
    format!("{name}{}", std::env::consts::EXE_SUFFIX)
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// How to run llvm-dis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlvmDis {
    pub path: PathBuf,
    pub timeout: Duration,
    /// Longest text accepted for one module, in bytes.
    pub max_output: usize,
}

impl LlvmDis {
    pub fn new(path: PathBuf) -> Self {
        LlvmDis {
            path,
            timeout: DEFAULT_TIMEOUT,
            max_output: DEFAULT_MAX_OUTPUT,
        }
    }

    /// `explicit` (from `--llvm-dis`) when given, else the first of
    /// [`SearchPlaces::candidates`].
    pub fn find(explicit: Option<&Path>) -> Result<Self, String> {
        find_in(explicit, &SearchPlaces::from_env()).map(Self::new)
    }

    /// Disassembles one module (wrapped or raw bitcode) into LLVM IR text.
    ///
    /// `what` names the module in messages (e.g. `mlx.metallib:gemm`); when
    /// it is a plain name it also replaces llvm-dis's `<stdin>` ModuleID.
    pub fn disassemble(&self, bitcode: &[u8], what: &str) -> Result<String, String> {
        let out = run(
            &self.path,
            &[OsStr::new("-"), OsStr::new("-o"), OsStr::new("-")],
            bitcode,
            self.timeout,
            self.max_output,
        )
        .map_err(|e| format!("{what}: {e}"))?;
        if !out.status.success() {
            return Err(self.failure_message(what, &out));
        }
        let mut text = String::from_utf8(out.stdout)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        set_module_id(&mut text, what);
        Ok(text)
    }

    /// Disassembles several modules (`(bitcode, what)` as in
    /// [`LlvmDis::disassemble`]) with one llvm-dis process: each is written
    /// to a private temporary directory and llvm-dis writes each text beside
    /// it. When that run fails in any way, each module is disassembled on
    /// its own instead, so a bad module gets its own error and costs the
    /// others nothing.
    pub fn disassemble_many(&self, modules: &[(&[u8], &str)]) -> Vec<Result<String, String>> {
        let together = if modules.len() > 1 {
            self.disassemble_together(modules)
        } else {
            None
        };
        match together {
            Some(texts) => texts.into_iter().map(Ok).collect(),
            None => modules
                .iter()
                .map(|(bitcode, what)| self.disassemble(bitcode, what))
                .collect(),
        }
    }

    /// Every module's text from one run, or `None` if anything went wrong.
    fn disassemble_together(&self, modules: &[(&[u8], &str)]) -> Option<Vec<String>> {
        let dir = tempfile::Builder::new()
            .prefix("air-scan-")
            .tempdir()
            .ok()?;
        let mut inputs = Vec::with_capacity(modules.len());
        for (i, (bitcode, _)) in modules.iter().enumerate() {
            let input = dir.path().join(format!("{i}.bc"));
            std::fs::write(&input, bitcode).ok()?;
            inputs.push(input);
        }
        let args: Vec<&OsStr> = inputs.iter().map(|p| p.as_os_str()).collect();
        let out = run(&self.path, &args, &[], self.timeout, self.max_output).ok()?;
        if !out.status.success() {
            return None;
        }
        let mut texts = Vec::with_capacity(modules.len());
        for (input, (_, what)) in inputs.iter().zip(modules) {
            // llvm-dis names the text after its input, `.bc` replaced by `.ll`.
            let output = input.with_extension("ll");
            if std::fs::metadata(&output).ok()?.len() > self.max_output as u64 {
                return None; // alone, the module gets the cap's own message
            }
            let bytes = std::fs::read(&output).ok()?;
            let mut text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            // The same ModuleID a run on stdin would give.
            let printed = format!("; ModuleID = '{}'", input.display());
            if text.starts_with(printed.as_str()) {
                text.replace_range(..printed.len(), STDIN_ID);
            }
            set_module_id(&mut text, what);
            texts.push(text);
        }
        Some(texts)
    }

    /// The tool's version as printed by `--version`, e.g. "14.0.6". Asked
    /// once per path: failures of many functions ask again and again.
    pub fn version(&self) -> Option<String> {
        static CACHE: Mutex<Vec<(PathBuf, Option<String>)>> = Mutex::new(Vec::new());
        if let Ok(cache) = CACHE.lock() {
            if let Some((_, v)) = cache.iter().find(|(p, _)| *p == self.path) {
                return v.clone();
            }
        }
        let v = self.ask_version();
        if let Ok(mut cache) = CACHE.lock() {
            cache.push((self.path.clone(), v.clone()));
        }
        v
    }

    fn ask_version(&self) -> Option<String> {
        let out = run(
            &self.path,
            &[OsStr::new("--version")],
            &[],
            Duration::from_secs(10),
            64 << 10,
        )
        .ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        parse_llvm_version(&text)
    }

    fn failure_message(&self, what: &str, out: &Output) -> String {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stderr = stderr.trim();
        let version = self.version();
        let tool = match &version {
            Some(v) => format!("{} (LLVM {v})", self.path.display()),
            None => self.path.display().to_string(),
        };
        let mut msg = format!(
            "{what}: llvm-dis failed ({tool}, {}): {}",
            describe_status(out.status),
            if stderr.is_empty() {
                "no message"
            } else {
                stderr
            }
        );
        let reader_major = version.as_deref().and_then(major);
        let producer_major = producer_version(stderr).as_deref().and_then(major);
        let newer: Vec<(PathBuf, u32)> = SearchPlaces::from_env()
            .candidates()
            .into_iter()
            .filter_map(|p| {
                let m = major(&LlvmDis::new(p.clone()).version()?)?;
                Some((p, m))
            })
            .filter(|(_, m)| reader_major.is_some_and(|r| *m > r))
            .collect();
        let too_old = match (producer_major, reader_major) {
            (Some(p), Some(r)) => p > r,
            // Apple's bitcode names no LLVM producer; an error from an older
            // llvm-dis while a newer one exists, or from one older than any
            // that reads the whole corpus, is most likely its age.
            (None, Some(r)) => !newer.is_empty() || r < MIN_GOOD_MAJOR,
            _ => false,
        };
        if too_old {
            let want = reader_major.map_or(MIN_GOOD_MAJOR, |r| MIN_GOOD_MAJOR.max(r + 1));
            msg.push_str(&format!(
                ". This LLVM is probably too old for this bitcode: use a newer llvm-dis \
                 (LLVM {want} or later)"
            ));
            match newer.iter().max_by_key(|(_, m)| *m) {
                Some((p, m)) => msg.push_str(&format!(
                    "; LLVM {m} is installed here: pass --llvm-dis {}",
                    p.display()
                )),
                None => msg.push_str(" with --llvm-dis PATH"),
            }
        } else {
            msg.push_str(". The bitcode may be damaged, or need a newer LLVM than this one");
        }
        msg
    }
}

/// The oldest LLVM known to read every `.air` and `.metallib` of the test
/// corpus (540 modules); llvm-dis-14 fails on 2 of them (Metal 32023.404,
/// with full debug info) with "Invalid record".
pub const MIN_GOOD_MAJOR: u32 = 19;

/// Finds llvm-dis: `explicit` when given (a path, or a bare name looked up
/// on PATH), else the first of `places.candidates()`.
pub fn find_in(explicit: Option<&Path>, places: &SearchPlaces) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        let bare = p.components().count() == 1 && !p.has_root();
        if bare {
            for dir in &places.path_dirs {
                let c = dir.join(p);
                if is_executable(&c) {
                    return Ok(c);
                }
            }
        }
        if is_executable(p) {
            return Ok(p.to_path_buf());
        }
        let why = if !p.exists() {
            if bare {
                "not found on PATH"
            } else {
                "no such file"
            }
        } else {
            "not an executable file"
        };
        return Err(format!("--llvm-dis {}: {why}", p.display()));
    }
    places.candidates().into_iter().next().ok_or_else(|| {
        let newest = VERSIONS.end();
        let oldest = VERSIONS.start();
        format!(
            "no llvm-dis found: looked for llvm-dis and llvm-dis-{newest} ... llvm-dis-{oldest} \
             on PATH and in /usr/lib/llvm-NN/bin. .air and .metallib files need one to be \
             turned into text: install LLVM {MIN_GOOD_MAJOR} or later (apt-get install \
             llvm-{MIN_GOOD_MAJOR}, brew install llvm) or pass --llvm-dis PATH"
        )
    })
}

/// "14.0.6" from "... LLVM version 14.0.6 ...".
fn parse_llvm_version(text: &str) -> Option<String> {
    let rest = text.split_once("LLVM version ")?.1;
    let v: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.' || *c == '-')
        .collect();
    (!v.is_empty()).then_some(v)
}

/// The writer's version from llvm-dis's "(Producer: 'LLVM22.1.8' Reader:
/// 'LLVM 14.0.6')".
fn producer_version(stderr: &str) -> Option<String> {
    let rest = stderr.split_once("Producer: '")?.1;
    let rest = rest.trim_start_matches("LLVM").trim_start();
    let v: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    (!v.is_empty()).then_some(v)
}

fn major(version: &str) -> Option<u32> {
    version.split('.').next()?.parse().ok()
}

fn describe_status(s: ExitStatus) -> String {
    match s.code() {
        Some(c) => format!("exit status {c}"),
        None => format!("{s}"),
    }
}

/// Replaces llvm-dis's `; ModuleID = '<stdin>'` so that the module says
/// where it came from. Names the reader could misread (a quote, a control
/// character) are left out.
/// The first line llvm-dis prints for a module read from stdin.
const STDIN_ID: &str = "; ModuleID = '<stdin>'";

fn set_module_id(text: &mut String, name: &str) {
    if !text.starts_with(STDIN_ID) || name.chars().any(|c| c == '\'' || c.is_control()) {
        return;
    }
    text.replace_range(..STDIN_ID.len(), &format!("; ModuleID = '{name}'"));
}

/// What a finished child gave.
pub(crate) struct Output {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

enum Piece {
    Stdout(io::Result<(Vec<u8>, bool)>),
    Stderr(Vec<u8>),
}

/// Runs `tool args` with `input` on stdin, collecting stdout (at most
/// `max_output` bytes) and stderr, killing it when `timeout` passes or the
/// output overflows.
pub(crate) fn run(
    tool: &Path,
    args: &[&OsStr],
    input: &[u8],
    timeout: Duration,
    max_output: usize,
) -> Result<Output, String> {
    // `None`: a timeout too large to add to now, that is, none.
    let deadline = Instant::now().checked_add(timeout);
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let (Some(mut stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        stop(&mut child);
        return Err(format!("cannot talk to {}: no pipes", tool.display()));
    };
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let tx_err = tx.clone();
        // A child that exits early closes its stdin: the write error is
        // expected then, and its exit status tells the story.
        s.spawn(move || {
            let _ = stdin.write_all(input);
        });
        s.spawn(move || {
            let mut buf = Vec::new();
            let limit = u64::try_from(max_output)
                .unwrap_or(u64::MAX)
                .saturating_add(1);
            let r = stdout.take(limit).read_to_end(&mut buf).map(|_| {
                let over = buf.len() > max_output;
                (buf, over)
            });
            let _ = tx.send(Piece::Stdout(r));
        });
        s.spawn(move || {
            let mut stderr = stderr;
            let mut buf = Vec::new();
            let _ = (&mut stderr).take(MAX_STDERR as u64).read_to_end(&mut buf);
            // Drain the rest so the child never blocks on a full pipe.
            let _ = io::copy(&mut stderr, &mut io::sink());
            let _ = tx_err.send(Piece::Stderr(buf));
        });

        let mut out = None;
        let mut err = None;
        while out.is_none() || err.is_none() {
            let piece = match deadline {
                Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
                None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
            };
            match piece {
                Ok(Piece::Stdout(Ok((_, true)))) => {
                    stop(&mut child);
                    return Err(format!(
                        "{} printed more than {max_output} bytes; stopped it",
                        tool.display()
                    ));
                }
                Ok(Piece::Stdout(Ok((buf, false)))) => out = Some(buf),
                Ok(Piece::Stdout(Err(e))) => {
                    stop(&mut child);
                    return Err(format!("reading from {}: {e}", tool.display()));
                }
                Ok(Piece::Stderr(buf)) => err = Some(buf),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    stop(&mut child);
                    return Err(timeout_message(tool, timeout));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    stop(&mut child);
                    return Err(format!("lost the output of {}", tool.display()));
                }
            }
        }
        // Both pipes are closed: the child has exited or is about to.
        let mut pause = Duration::from_millis(1);
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                    stop(&mut child);
                    return Err(timeout_message(tool, timeout));
                }
                Ok(None) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(e) => {
                    stop(&mut child);
                    return Err(format!("waiting for {}: {e}", tool.display()));
                }
            }
        };
        Ok(Output {
            status,
            stdout: out.unwrap_or_default(),
            stderr: err.unwrap_or_default(),
        })
    })
}

fn timeout_message(tool: &Path, timeout: Duration) -> String {
    format!(
        "{} did not finish within {} s; stopped it",
        tool.display(),
        timeout.as_secs_f64()
    )
}

/// Kills and reaps the child; it may already be gone, which is fine.
fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse() {
        assert_eq!(
            parse_llvm_version("Debian LLVM version 14.0.6\n  Optimized build.").as_deref(),
            Some("14.0.6")
        );
        assert_eq!(
            producer_version(
                "error: Opaque pointers (Producer: 'LLVM22.1.8' Reader: 'LLVM 14.0.6')"
            )
            .as_deref(),
            Some("22.1.8")
        );
        assert_eq!(major("22.1.8"), Some(22));
    }

    #[test]
    fn module_id_is_replaced_only_when_safe() {
        let mut t = "; ModuleID = '<stdin>'\nsource_filename = \"x\"\n".to_string();
        set_module_id(&mut t, "a.metallib:k");
        assert!(t.starts_with("; ModuleID = 'a.metallib:k'\nsource"));
        let mut t = "; ModuleID = '<stdin>'\n".to_string();
        set_module_id(&mut t, "it's");
        assert!(t.starts_with("; ModuleID = '<stdin>'"));
    }
}
