//! Compiling `.metal` sources into IR text with Apple's compiler driver
//! (`xcrun metal -S -emit-llvm`), once per optimization level, with a disk
//! cache so that a second scan of an unchanged tree compiles nothing.
//!
//! - [`Xcrun::find`]: the driver and its version, resolved once per scan.
//!   No driver (any machine but a Mac) is [`Unavailable::Missing`]: the
//!   caller skips `.metal` files; a `--xcrun` that does not work is
//!   [`Unavailable::Broken`]: an error, since the user asked for it.
//! - [`ProjectConfig::find_for`]: the nearest `air-scan.toml` above a file,
//!   with its `[metal]` flags and levels.
//! - [`compile`]: one level of one file, from the cache or the compiler.
//! - [`prune`]: the cache's upkeep. An entry unused for `CACHE_MAX_AGE`
//!   (each use renews it) is removed by the first compile of a scan, so the
//!   cache follows the sources a user still scans instead of every version
//!   of them ever compiled.
//!
//! Only the orchestration is tested here (with a stand-in driver); the real
//! compiler's answers are tested only on a Mac.

use super::llvm_dis;
use serde::Deserialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// The extension of Metal Shading Language sources.
pub const METAL_EXTENSION: &str = "metal";

/// The project file looked for above each scanned `.metal` file.
pub const CONFIG_FILE: &str = "air-scan.toml";

/// Levels compiled when neither `--levels` nor `air-scan.toml` say.
pub const DEFAULT_LEVELS: &[Level] = &[Level::O0, Level::O2];

/// Flags every compile gets: text IR, and line tables with the sources
/// recorded so that findings map back to MSL lines.
pub const FIXED_FLAGS: &[&str] = &["-S", "-emit-llvm", "-gline-tables-only", "-frecord-sources"];

/// A real compile takes seconds; this only stops a hung driver.
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(300);

/// Includes followed for the cache key, in all, per source file.
const MAX_INCLUDES: usize = 512;
/// Depth of `#include` nesting followed for the cache key.
const MAX_INCLUDE_DEPTH: usize = 32;
/// Bumped when what a cache entry holds changes meaning.
const CACHE_FORMAT: &str = "air-scan metal cache 1";

/// Whether `path` is a Metal source, by its extension (any case).
pub fn is_metal(path: &Path) -> bool {
    path.extension()
        .and_then(|x| x.to_str())
        .is_some_and(|x| x.eq_ignore_ascii_case(METAL_EXTENSION))
}

/// What the command line says about `.metal` files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetalOptions {
    /// `--xcrun`: the driver to use instead of `xcrun` on PATH.
    pub xcrun: Option<PathBuf>,
    /// `--metal-flag`s, added after the project's; include paths are taken
    /// relative to the directory air-scan runs in.
    pub flags: Vec<String>,
    /// `--levels`; overrides the project's.
    pub levels: Option<Vec<Level>>,
    pub cache: Cache,
}

impl Default for MetalOptions {
    fn default() -> Self {
        MetalOptions {
            xcrun: None,
            flags: Vec::new(),
            levels: None,
            cache: Cache::default_dir().map_or(Cache::Off, Cache::Dir),
        }
    }
}

/// One optimization level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    O0,
    O1,
    O2,
    O3,
    Os,
}

impl Level {
    /// `O2`, `-O2` or `o2`.
    pub fn parse(s: &str) -> Result<Level, String> {
        let t = s.trim().trim_start_matches('-');
        match t.to_ascii_uppercase().as_str() {
            "O0" => Ok(Level::O0),
            "O1" => Ok(Level::O1),
            "O2" => Ok(Level::O2),
            "O3" => Ok(Level::O3),
            "OS" => Ok(Level::Os),
            _ => Err(format!(
                "unknown optimization level '{s}': use O0, O1, O2, O3 or Os"
            )),
        }
    }

    /// `O2`: how reports name the level.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::O0 => "O0",
            Level::O1 => "O1",
            Level::O2 => "O2",
            Level::O3 => "O3",
            Level::Os => "Os",
        }
    }

    /// `-O2`: the compiler flag.
    pub fn flag(self) -> &'static str {
        match self {
            Level::O0 => "-O0",
            Level::O1 => "-O1",
            Level::O2 => "-O2",
            Level::O3 => "-O3",
            Level::Os => "-Os",
        }
    }
}

/// Parses `O0,O2`-style lists, keeping the first of duplicates.
pub fn parse_levels<S: AsRef<str>>(items: &[S]) -> Result<Vec<Level>, String> {
    let mut out = Vec::new();
    for s in items {
        let l = Level::parse(s.as_ref())?;
        if !out.contains(&l) {
            out.push(l);
        }
    }
    if out.is_empty() {
        return Err("no optimization level given".into());
    }
    Ok(out)
}

/// Flags that take their value as the next argument.
const FLAGS_WITH_VALUE: &[&str] = &["-I", "-D", "-U", "-isystem", "-iquote", "-include"];

/// Flags air-scan sets itself, or that would change what the driver
/// writes (an object, dependency files, another output).
fn reserved(flag: &str) -> bool {
    flag == "-o"
        || flag == "-c"
        || flag == "-S"
        || flag == "-E"
        || flag.starts_with("-emit-")
        || flag.starts_with("-O")
        || flag.starts_with("-g")
        || flag.starts_with("-M")
        || flag.starts_with("-frecord-")
}

/// Checks user flags: each is a flag (`-std=`, `-I`, `-D`, `-ffast-math`,
/// ...) or the value of the flag before it; none is one air-scan sets.
pub fn check_flags<S: AsRef<str>>(flags: &[S]) -> Result<(), String> {
    let mut expect_value = false;
    for f in flags {
        let f = f.as_ref();
        if expect_value {
            expect_value = false;
            continue;
        }
        if !f.starts_with('-') || f == "-" {
            return Err(format!(
                "metal flag '{f}' is not a flag (sources are found by the scan, not given as flags)"
            ));
        }
        if reserved(f) {
            return Err(format!(
                "metal flag '{f}' is set by air-scan itself (-S -emit-llvm, -O from --levels, \
                 -gline-tables-only -frecord-sources) and cannot be given"
            ));
        }
        expect_value = FLAGS_WITH_VALUE.contains(&f);
    }
    if expect_value {
        return Err(format!(
            "metal flag '{}' needs a value after it",
            flags.last().map_or("", |f| f.as_ref())
        ));
    }
    Ok(())
}

/// Makes the paths of `-I`, `-isystem`, `-iquote` and `-include` absolute
/// against `base`, so that compiles and cache keys do not depend on the
/// directory air-scan runs from (or, for `air-scan.toml`, on where it sits).
pub fn absolutize_flags(flags: &[String], base: &Path) -> Vec<String> {
    let abs = |p: &str| {
        let path = Path::new(p);
        if path.is_absolute() {
            p.to_string()
        } else {
            base.join(path).display().to_string()
        }
    };
    let mut out = Vec::with_capacity(flags.len());
    let mut i = 0;
    while i < flags.len() {
        let f = &flags[i];
        if ["-I", "-isystem", "-iquote", "-include"].contains(&f.as_str()) {
            out.push(f.clone());
            if let Some(v) = flags.get(i + 1) {
                out.push(abs(v));
            }
            i += 2;
            continue;
        }
        match f.strip_prefix("-I") {
            Some(p) if !p.is_empty() => out.push(format!("-I{}", abs(p))),
            _ => out.push(f.clone()),
        }
        i += 1;
    }
    out
}

/// The include directories named by `-I`, `-isystem` and `-iquote`.
pub fn include_dirs(flags: &[String]) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    let mut it = flags.iter().peekable();
    while let Some(f) = it.next() {
        if ["-I", "-isystem", "-iquote"].contains(&f.as_str()) {
            if let Some(v) = it.next() {
                dirs.push(PathBuf::from(v));
            }
        } else if let Some(p) = f.strip_prefix("-I").filter(|p| !p.is_empty()) {
            dirs.push(PathBuf::from(p));
        }
    }
    dirs
}

/// The `[metal]` table of an `air-scan.toml` (its `[rules]`:
/// `ProjectConfig::rules_for`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProjectConfig {
    /// The file it was read from.
    pub path: PathBuf,
    /// Flags, include paths made absolute against the file's folder.
    pub flags: Vec<String>,
    pub levels: Option<Vec<Level>>,
}

#[derive(Deserialize)]
struct ConfigFile {
    // Other tables are other features' business.
    metal: Option<MetalTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MetalTable {
    #[serde(default)]
    flags: Vec<String>,
    levels: Option<Vec<String>>,
}

impl ProjectConfig {
    /// Parses the text of `path` (an `air-scan.toml`).
    pub fn parse(text: &str, path: &Path) -> Result<ProjectConfig, String> {
        let shown = path.display();
        let file: ConfigFile = toml::from_str(text).map_err(|e| format!("{shown}: {e}"))?;
        let Some(metal) = file.metal else {
            return Ok(ProjectConfig {
                path: path.to_path_buf(),
                ..Default::default()
            });
        };
        check_flags(&metal.flags).map_err(|e| format!("{shown}: [metal] flags: {e}"))?;
        let levels = match metal.levels {
            Some(l) => Some(parse_levels(&l).map_err(|e| format!("{shown}: [metal] levels: {e}"))?),
            None => None,
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        Ok(ProjectConfig {
            path: path.to_path_buf(),
            flags: absolutize_flags(&metal.flags, dir),
            levels,
        })
    }

    /// The nearest `air-scan.toml` in `dir` or a folder above it.
    pub fn find_for(dir: &Path) -> Result<Option<ProjectConfig>, String> {
        match nearest_config(dir)? {
            Some((path, text)) => Self::parse(&text, &path).map(Some),
            None => Ok(None),
        }
    }

    /// Only the `[rules]` table of the nearest `air-scan.toml` (and the
    /// file's path), as written: `rules::options::RuleOptions` types and
    /// checks it. A bad `[metal]` table fails its `.metal` files, not the
    /// rules' options.
    pub fn rules_for(dir: &Path) -> Result<Option<(PathBuf, Option<toml::Value>)>, String> {
        #[derive(Deserialize)]
        struct RulesOnly {
            rules: Option<toml::Value>,
        }
        let Some((path, text)) = nearest_config(dir)? else {
            return Ok(None);
        };
        let file: RulesOnly =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Some((path, file.rules)))
    }
}

/// The path and text of the nearest `air-scan.toml` in `dir` or above it.
fn nearest_config(dir: &Path) -> Result<Option<(PathBuf, String)>, String> {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    for d in start.ancestors() {
        let candidate = d.join(CONFIG_FILE);
        if candidate.is_file() {
            let text = std::fs::read_to_string(&candidate)
                .map_err(|e| format!("{}: cannot read: {e}", candidate.display()))?;
            return Ok(Some((candidate, text)));
        }
    }
    Ok(None)
}

/// Why `.metal` files cannot be compiled on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unavailable {
    /// No driver here (Linux, or a Mac without the Metal toolchain): the
    /// files are skipped, with this reason.
    Missing(String),
    /// The driver `--xcrun` named does not work: the files are errors.
    Broken(String),
}

/// The compiler driver, as `xcrun` is called: `DRIVER metal ARGS`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xcrun {
    pub path: PathBuf,
    /// `xcrun metal --version`, trimmed: part of every cache key, so that a
    /// new compiler never reuses an old compiler's output.
    pub version: String,
    pub timeout: Duration,
}

impl Xcrun {
    /// `explicit` (`--xcrun`: a path, or a bare name looked up on PATH), or
    /// `xcrun` on PATH; then asks it for `metal --version`.
    pub fn find(explicit: Option<&Path>) -> Result<Xcrun, Unavailable> {
        let path_dirs: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        let path = match explicit {
            Some(p) => resolve_explicit(p, &path_dirs).map_err(Unavailable::Broken)?,
            None => path_dirs
                .iter()
                .map(|d| d.join(format!("xcrun{}", std::env::consts::EXE_SUFFIX)))
                .find(|c| is_executable(c))
                .ok_or_else(|| Unavailable::Missing("no `xcrun` on PATH".into()))?,
        };
        match ask_version(&path) {
            Ok(version) => Ok(Xcrun {
                path,
                version,
                timeout: COMPILE_TIMEOUT,
            }),
            Err(e) if explicit.is_some() => Err(Unavailable::Broken(e)),
            // An xcrun without the Metal toolchain (a Mac with only the
            // command-line tools) cannot compile either: skip, saying why.
            Err(e) => Err(Unavailable::Missing(e)),
        }
    }
}

fn resolve_explicit(p: &Path, path_dirs: &[PathBuf]) -> Result<PathBuf, String> {
    let bare = p.components().count() == 1 && !p.has_root();
    if bare {
        if let Some(c) = path_dirs
            .iter()
            .map(|d| d.join(p))
            .find(|c| is_executable(c))
        {
            return Ok(c);
        }
    }
    if is_executable(p) {
        return Ok(p.to_path_buf());
    }
    let why = match (p.exists(), bare) {
        (false, true) => "not found on PATH",
        (false, false) => "no such file",
        (true, _) => "not an executable file",
    };
    Err(format!("--xcrun {}: {why}", p.display()))
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

fn ask_version(driver: &Path) -> Result<String, String> {
    let args = [OsString::from("metal"), OsString::from("--version")];
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
    let out = llvm_dis::run(driver, &refs, &[], Duration::from_secs(30), 64 << 10)?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let why = if stderr.trim().is_empty() {
            stdout.trim()
        } else {
            stderr.trim()
        };
        return Err(format!(
            "`{} metal --version` failed ({}): {why}",
            driver.display(),
            out.status
        ));
    }
    let v = format!("{}{}", stdout.trim(), stderr.trim());
    if v.is_empty() {
        return Err(format!(
            "`{} metal --version` printed nothing",
            driver.display()
        ));
    }
    Ok(v)
}

/// Where compiled IR is kept between scans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cache {
    /// `--no-cache`: compile every time; the IR is not kept.
    Off,
    Dir(PathBuf),
}

impl Cache {
    /// `$XDG_CACHE_HOME/air-scan`, else `~/.cache/air-scan`; off when
    /// neither is known.
    pub fn default_dir() -> Option<PathBuf> {
        let nonempty = |v: OsString| (!v.is_empty()).then(|| PathBuf::from(v));
        std::env::var_os("XDG_CACHE_HOME")
            .and_then(nonempty)
            .map(|d| d.join("air-scan"))
            .or_else(|| {
                std::env::var_os("HOME")
                    .and_then(nonempty)
                    .map(|h| h.join(".cache").join("air-scan"))
            })
    }
}

/// 128-bit FNV-1a: stable across Rust versions and platforms (a cache key
/// must be), and with no dependency; collisions between a few thousand
/// entries are out of reach, and nothing here is adversarial.
#[derive(Clone)]
pub struct KeyHasher(u128);

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }
}

impl KeyHasher {
    /// Adds `bytes` with their length, so that ("ab", "c") and ("a", "bc")
    /// differ.
    pub fn add(&mut self, bytes: &[u8]) -> &mut Self {
        for b in (bytes.len() as u64).to_le_bytes().iter().chain(bytes) {
            self.0 ^= u128::from(*b);
            self.0 = self
                .0
                .wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
        self
    }

    pub fn hex(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// The files a source includes, found as the compiler would look for them:
/// `#include "x"` beside the including file, then in the include dirs;
/// `#include <x>` in the include dirs only (the Metal standard library is
/// the compiler's, and its version is in the key). Each entry is the name
/// as written and the file found, or `None` (a header not there yet: its
/// later arrival must change the key). Bounded in count and depth.
pub fn includes(source: &Path, text: &str, dirs: &[PathBuf]) -> Vec<(String, Option<PathBuf>)> {
    let mut out: Vec<(String, Option<PathBuf>)> = Vec::new();
    let mut seen: Vec<PathBuf> = vec![canonical(source)];
    // (including file, its text, depth); texts are read as they are reached.
    let mut stack: Vec<(PathBuf, String, usize)> =
        vec![(source.to_path_buf(), text.to_string(), 0)];
    while let Some((file, text, depth)) = stack.pop() {
        if depth >= MAX_INCLUDE_DEPTH {
            continue;
        }
        let here = file.parent().unwrap_or(Path::new("."));
        for (name, quoted) in include_directives(&text) {
            if out.len() >= MAX_INCLUDES {
                return out;
            }
            let mut places: Vec<PathBuf> = Vec::new();
            if quoted {
                places.push(here.join(&name));
            }
            places.extend(dirs.iter().map(|d| d.join(&name)));
            let found = places.into_iter().find(|p| p.is_file());
            match found {
                None if quoted => out.push((name, None)),
                // An angle include found nowhere is the compiler's own.
                None => {}
                Some(p) => {
                    let c = canonical(&p);
                    if seen.contains(&c) {
                        continue;
                    }
                    seen.push(c);
                    let inner = std::fs::read(&p)
                        .map(|b| String::from_utf8_lossy(&b).into_owned())
                        .unwrap_or_default();
                    out.push((name, Some(p.clone())));
                    stack.push((p, inner, depth + 1));
                }
            }
        }
    }
    out
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// `(name, quoted)` for each `#include` / `#import` line, conditional or
/// not: following too many files only costs a little hashing.
fn include_directives(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let rest = rest.trim_start();
        let Some(rest) = rest
            .strip_prefix("include")
            .or_else(|| rest.strip_prefix("import"))
        else {
            continue;
        };
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next() {
            Some('"') => ('"', true),
            Some('<') => ('>', false),
            _ => continue,
        };
        if let Some(end) = rest[1..].find(close) {
            let name = &rest[1..1 + end];
            if !name.is_empty() {
                out.push((name.to_string(), quoted));
            }
        }
    }
    out
}

/// What goes into the cache key of one compile, in order: the cache
/// format, the compiler's `--version`, the level, every flag, the source's
/// absolute path (debug info records it), the source's bytes, and for each
/// include its name as written, where it was found and its bytes (or that
/// it was not found).
pub fn cache_key(
    version: &str,
    level: Level,
    flags: &[String],
    source: &Path,
    text: &str,
) -> String {
    let mut h = KeyHasher::default();
    h.add(CACHE_FORMAT.as_bytes())
        .add(version.as_bytes())
        .add(level.flag().as_bytes());
    h.add(&(flags.len() as u64).to_le_bytes());
    for f in flags {
        h.add(f.as_bytes());
    }
    h.add(source.as_os_str().as_encoded_bytes())
        .add(text.as_bytes());
    for (name, found) in includes(source, text, &include_dirs(flags)) {
        h.add(name.as_bytes());
        match found {
            Some(p) => {
                let bytes = std::fs::read(&p).unwrap_or_default();
                h.add(p.as_os_str().as_encoded_bytes()).add(&bytes);
            }
            None => {
                h.add(b"\0missing");
            }
        }
    }
    h.hex()
}

/// One level of one source, compiled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    pub level: Level,
    /// The IR on disk (in the cache); `None` with the cache off.
    pub ir_path: Option<PathBuf>,
    /// Taken from the cache rather than compiled now.
    pub cached: bool,
    /// The IR text; or what the compiler said when it rejected the source,
    /// or why it could not be run.
    pub text: Result<String, String>,
}

/// Everything one compile needs.
pub struct Request<'a> {
    pub xcrun: &'a Xcrun,
    /// The source, absolute.
    pub source: &'a Path,
    pub level: Level,
    /// The user's flags (config file first, then the command line).
    pub flags: &'a [String],
    pub cache: &'a Cache,
}

/// Tells temporary files of one process apart.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// A cache entry not used for this long is removed (each use renews it).
pub const CACHE_MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// A temporary file this old was left by a scan that was stopped mid-compile.
const TEMP_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);

/// Removes from `dir` the cache entries (`{key}-{stem}.{level}.ll` or
/// `.err`) last used more than `CACHE_MAX_AGE` before `now`, and temporary
/// files older than a day; nothing else in the folder is touched. Returns
/// how many files went. Errors (a file another scan removed first, a
/// folder that cannot be read) only leave files in place.
pub fn prune(dir: &Path, now: SystemTime) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let max_age = if is_cache_entry(&name) {
            CACHE_MAX_AGE
        } else if name.starts_with('.') && name.ends_with(".tmp") {
            TEMP_MAX_AGE
        } else {
            continue;
        };
        let Ok(meta) = entry.metadata() else { continue };
        let old = meta.is_file()
            && meta
                .modified()
                .ok()
                .and_then(|m| now.duration_since(m).ok())
                .is_some_and(|age| age > max_age);
        if old && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// `{32 hex digits}-{stem}.{level}.ll` or `.err`, as `compile` names them.
fn is_cache_entry(name: &str) -> bool {
    let b = name.as_bytes();
    b.len() > 33
        && b[..32].iter().all(u8::is_ascii_hexdigit)
        && b[32] == b'-'
        && (name.ends_with(".ll") || name.ends_with(".err"))
}

/// `prune` once per process and folder: the first compile of a scan pays a
/// directory listing, the others nothing.
fn prune_once(dir: &Path) {
    static PRUNED: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    {
        let Ok(mut pruned) = PRUNED.lock() else {
            return;
        };
        if pruned.iter().any(|d| d == dir) {
            return;
        }
        pruned.push(dir.to_path_buf());
    }
    prune(dir, SystemTime::now());
}

/// Marks a cache entry as used now, so that `prune` keeps it.
fn renew(path: &Path) {
    let _ = std::fs::File::options()
        .append(true)
        .open(path)
        .and_then(|f| f.set_modified(SystemTime::now()));
}

fn temp_name(stem: &str) -> String {
    format!(
        ".{stem}.{}.{}.tmp",
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Compiles one level of one source, or takes it from the cache. A compile
/// the driver rejected is cached too (its message, keyed like a success),
/// so an unchanged broken file is not recompiled; a driver that could not
/// be run or timed out is not.
pub fn compile(req: &Request<'_>) -> Compiled {
    let level = req.level;
    let done = |ir_path, cached, text| Compiled {
        level,
        ir_path,
        cached,
        text,
    };
    let shown = req.source.display();
    let text = match std::fs::read(req.source) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => return done(None, false, Err(format!("{shown}: cannot read: {e}"))),
    };
    let stem = req
        .source
        .file_stem()
        .map_or_else(|| "source".into(), |s| s.to_string_lossy().into_owned());
    let cache_dir = match req.cache {
        Cache::Dir(d) => std::fs::create_dir_all(d).ok().map(|_| d.as_path()),
        Cache::Off => None,
    };
    let Some(dir) = cache_dir else {
        let tmp = std::env::temp_dir().join(temp_name(&format!("air-scan-{stem}")));
        let result = run_compiler(req, &tmp);
        let _ = std::fs::remove_file(&tmp);
        return done(None, false, result.map_err(Failure::message));
    };
    prune_once(dir);
    let key = cache_key(&req.xcrun.version, level, req.flags, req.source, &text);
    let base = format!("{key}-{stem}.{}", level.as_str());
    let ir_path = dir.join(format!("{base}.ll"));
    let err_path = dir.join(format!("{base}.err"));
    if let Ok(ir) = std::fs::read_to_string(&ir_path) {
        renew(&ir_path);
        return done(Some(ir_path), true, Ok(ir));
    }
    if let Ok(msg) = std::fs::read_to_string(&err_path) {
        renew(&err_path);
        return done(None, true, Err(msg));
    }
    let tmp = dir.join(temp_name(&base));
    let result = run_compiler(req, &tmp);
    match result {
        Ok(ir) => {
            // Renamed into place so that a concurrent scan never reads half
            // a file; a failure to keep it only costs the next scan a compile.
            let kept = std::fs::rename(&tmp, &ir_path).is_ok();
            let _ = std::fs::remove_file(&tmp);
            done(kept.then_some(ir_path), false, Ok(ir))
        }
        Err(f) => {
            let _ = std::fs::remove_file(&tmp);
            if let Failure::Rejected(msg) = &f {
                let t = dir.join(temp_name(&base));
                if std::fs::write(&t, msg).is_ok() && std::fs::rename(&t, &err_path).is_err() {
                    let _ = std::fs::remove_file(&t);
                }
            }
            done(None, false, Err(f.message()))
        }
    }
}

enum Failure {
    /// The compiler ran and said no (a syntax error, `#error`, ...).
    Rejected(String),
    /// It could not be run, hung, or wrote nothing readable.
    Trouble(String),
}

impl Failure {
    fn message(self) -> String {
        match self {
            Failure::Rejected(m) | Failure::Trouble(m) => m,
        }
    }
}

/// The command line of one compile, after the driver: `metal`, the fixed
/// flags, the level, the user's flags, the source and `-o out`.
pub fn command_line(req: &Request<'_>, out: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["metal".into()];
    args.extend(FIXED_FLAGS.iter().map(OsString::from));
    args.push(req.level.flag().into());
    args.extend(req.flags.iter().map(OsString::from));
    args.push(req.source.as_os_str().to_os_string());
    args.push("-o".into());
    args.push(out.as_os_str().to_os_string());
    args
}

fn run_compiler(req: &Request<'_>, out: &Path) -> Result<String, Failure> {
    let args = command_line(req, out);
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(OsString::as_os_str).collect();
    let result = llvm_dis::run(&req.xcrun.path, &refs, &[], req.xcrun.timeout, 1 << 20)
        .map_err(Failure::Trouble)?;
    if !result.status.success() {
        let stderr = String::from_utf8_lossy(&result.stderr);
        let stdout = String::from_utf8_lossy(&result.stdout);
        let said = [stderr.trim(), stdout.trim()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
        return Err(Failure::Rejected(if said.is_empty() {
            let status = match result.status.code() {
                Some(c) => format!("exit status {c}"),
                None => result.status.to_string(),
            };
            format!("the compiler failed ({status}) and said nothing")
        } else {
            said
        }));
    }
    let bytes = std::fs::read(out)
        .map_err(|e| Failure::Trouble(format!("the compiler succeeded but wrote no IR ({e})")))?;
    String::from_utf8(bytes)
        .map_err(|_| Failure::Trouble("the compiler wrote IR that is not UTF-8 text".into()))
}

/// The one line a scan prints when it skipped `.metal` files (a reason of
/// several lines, as xcrun's own errors can be, is folded onto it).
pub fn skipped_line(count: usize, reason: &str) -> String {
    let reason = reason
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ");
    format!(
        "air-scan: skipped {count} .metal file{} ({reason}): compile them on a Mac with \
         `xcrun metal -S -emit-llvm -gline-tables-only -frecord-sources -O2 FILE.metal -o FILE.ll` \
         (or build .air files) and scan the .ll or .air here, or pass --xcrun PATH",
        if count == 1 { "" } else { "s" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse() {
        assert_eq!(
            parse_levels(&["O0", "-O2", "o2"]).unwrap(),
            [Level::O0, Level::O2]
        );
        assert!(parse_levels(&["O9"]).is_err());
        assert!(parse_levels::<&str>(&[]).is_err());
    }

    #[test]
    fn flags_are_checked() {
        assert!(check_flags(&["-std=metal3.1", "-I", "inc", "-DX=1", "-ffast-math"]).is_ok());
        assert!(check_flags(&["-O3"]).is_err());
        assert!(check_flags(&["-o", "x"]).is_err());
        assert!(check_flags(&["foo.metal"]).is_err());
        assert!(check_flags(&["-I"]).is_err());
    }

    #[test]
    fn include_paths_become_absolute() {
        let flags: Vec<String> = ["-I", "a", "-Ib", "-I/c", "-DX", "-std=metal3.0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let abs = absolutize_flags(&flags, Path::new("/p"));
        assert_eq!(
            abs,
            ["-I", "/p/a", "-I/p/b", "-I/c", "-DX", "-std=metal3.0"]
        );
        assert_eq!(
            include_dirs(&abs),
            [
                PathBuf::from("/p/a"),
                PathBuf::from("/p/b"),
                PathBuf::from("/c")
            ]
        );
    }

    #[test]
    fn include_directives_are_found() {
        let text =
            "#include <metal_stdlib>\n  #  include \"a.h\" // x\n#import \"b.h\"\n#define X\n";
        assert_eq!(
            include_directives(text),
            [
                ("metal_stdlib".to_string(), false),
                ("a.h".to_string(), true),
                ("b.h".to_string(), true)
            ]
        );
    }

    #[test]
    fn config_reads_metal_table() {
        let c = ProjectConfig::parse(
            "[metal]\nflags = [\"-std=metal3.1\", \"-I\", \"inc\"]\nlevels = [\"O2\"]\n[other]\nx = 1\n",
            Path::new("/proj/air-scan.toml"),
        )
        .unwrap();
        assert_eq!(c.flags, ["-std=metal3.1", "-I", "/proj/inc"]);
        assert_eq!(c.levels, Some(vec![Level::O2]));
        assert!(ProjectConfig::parse("[metal]\nflag = []\n", Path::new("x")).is_err());
        assert!(ProjectConfig::parse("[metal]\nflags = [\"-O2\"]\n", Path::new("x")).is_err());
    }

    #[test]
    fn the_skip_message_is_one_line() {
        let line = skipped_line(
            3,
            "xcrun: error: unable to find utility \"metal\"\n\nnot a developer tool",
        );
        assert_eq!(line.lines().count(), 1);
        assert!(line.starts_with("air-scan: skipped 3 .metal files (xcrun: error: unable"));
    }

    #[test]
    fn key_hasher_separates_fields() {
        let mut a = KeyHasher::default();
        a.add(b"ab").add(b"c");
        let mut b = KeyHasher::default();
        b.add(b"a").add(b"bc");
        assert_ne!(a.hex(), b.hex());
        assert_eq!(a.hex().len(), 32);
    }
}
