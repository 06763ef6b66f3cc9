//! Mutation test: small corpus modules (and the in-repo fixtures) with lines
//! deleted, duplicated or swapped, cut short, or bytes flipped (to other
//! characters, to invalid UTF-8, to NUL), run through the whole pipeline:
//! the input check, then `scan_text` with every built-in rule.
//!
//! Each variant runs on its own thread under a time limit. None may panic
//! or hang, and each must either read or get an error or diagnostic with a
//! line inside the file. Variants come from a fixed-seed PRNG, so a failure
//! names a seed that reproduces it (and the variant is written to a temp
//! file, ready to become a fixture in testdata/regressions/).

mod common;

use air_scan::input::as_ir_text;
use air_scan::rules::RuleSet;
use air_scan::scan::{FileReport, Status, scan_text};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Corpus files no larger than this are used: small files keep thousands
/// of variants within the debug-mode time budget.
const MAX_FILE_BYTES: u64 = 24 * 1024;
/// At most this many corpus files, spread evenly over the sorted list.
const MAX_FILES: usize = 1000;
/// Per file: two variants of each mutation kind.
const VARIANTS_PER_FILE: usize = 2 * KINDS.len();
/// A variant still running after this is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(10);
const SEED: u64 = 0xA125_CA11_0008;

static RULES: LazyLock<RuleSet> = LazyLock::new(RuleSet::builtin);

/// SplitMix64: tiny, fast, and the same sequence everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    DeleteLines,
    DuplicateLines,
    SwapLines,
    Truncate,
    FlipToText,
    FlipToInvalidUtf8,
    FlipToNul,
    Several,
}

const KINDS: [Kind; 8] = [
    Kind::DeleteLines,
    Kind::DuplicateLines,
    Kind::SwapLines,
    Kind::Truncate,
    Kind::FlipToText,
    Kind::FlipToInvalidUtf8,
    Kind::FlipToNul,
    Kind::Several,
];

/// Characters that steer the reader into its syntax paths more often than
/// random letters would.
const SYNTAX: &[u8] = b"{}[]()<>,=%@!#\"*:;\n 0123456789-xi.c";

/// One variant: its bytes, what was done, and for a single flip to a
/// non-text byte the line the input check must name.
struct Variant {
    bytes: Vec<u8>,
    what: String,
    binary_line: Option<usize>,
}

/// Byte ranges of the lines of `b`, each with its newline.
fn lines(b: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < b.len() {
        out.push(start..b.len());
    }
    out
}

fn line_of(b: &[u8], at: usize) -> usize {
    1 + b[..at].iter().filter(|&&c| c == b'\n').count()
}

/// A run of 1 to 3 lines, or now and then up to 40 (a whole function).
fn some_lines(rng: &mut Rng, n: usize) -> (usize, usize) {
    let len = if rng.below(8) == 0 {
        1 + rng.below(40)
    } else {
        1 + rng.below(3)
    };
    let first = rng.below(n);
    (first, (first + len).min(n))
}

fn ascii_position(rng: &mut Rng, b: &[u8]) -> Option<usize> {
    (0..64)
        .map(|_| rng.below(b.len()))
        .find(|&i| b[i].is_ascii())
}

/// Applies `kind` to `b` in place; returns what it did and, for a flip to
/// a non-text byte, where.
fn apply(kind: Kind, rng: &mut Rng, b: &mut Vec<u8>) -> (String, Option<usize>) {
    let ls = lines(b);
    if b.is_empty() || ls.is_empty() {
        return ("nothing (empty)".into(), None);
    }
    match kind {
        Kind::DeleteLines => {
            let (f, l) = some_lines(rng, ls.len());
            b.drain(ls[f].start..ls[l - 1].end);
            (format!("deleted lines {}..={}", f + 1, l), None)
        }
        Kind::DuplicateLines => {
            let (f, l) = some_lines(rng, ls.len());
            let copy = b[ls[f].start..ls[l - 1].end].to_vec();
            let at = ls[l - 1].end;
            b.splice(at..at, copy);
            (format!("duplicated lines {}..={}", f + 1, l), None)
        }
        Kind::SwapLines => {
            let (x, y) = (rng.below(ls.len()), rng.below(ls.len()));
            let (x, y) = (x.min(y), x.max(y));
            if x == y {
                return ("swapped a line with itself".into(), None);
            }
            let mut out = Vec::with_capacity(b.len());
            for (i, r) in ls.iter().enumerate() {
                let take = match i {
                    i if i == x => &ls[y],
                    i if i == y => &ls[x],
                    _ => r,
                };
                out.extend_from_slice(&b[take.clone()]);
                if !out.ends_with(b"\n") {
                    out.push(b'\n');
                }
            }
            *b = out;
            (format!("swapped lines {} and {}", x + 1, y + 1), None)
        }
        Kind::Truncate => {
            let at = rng.below(b.len());
            b.truncate(at);
            (format!("truncated to {at} bytes"), None)
        }
        Kind::FlipToText => {
            let mut done = Vec::new();
            for _ in 0..1 + rng.below(4) {
                if let Some(i) = ascii_position(rng, b) {
                    b[i] = if rng.below(3) == 0 {
                        0x20 + rng.below(0x5F) as u8
                    } else {
                        SYNTAX[rng.below(SYNTAX.len())]
                    };
                    done.push(format!("{i}→{:?}", b[i] as char));
                }
            }
            (format!("flipped bytes {}", done.join(", ")), None)
        }
        Kind::FlipToInvalidUtf8 | Kind::FlipToNul => {
            let Some(i) = ascii_position(rng, b) else {
                return ("no ASCII byte to flip".into(), None);
            };
            // An ASCII byte is never followed by a continuation byte, so a
            // byte from 0x80 up is invalid UTF-8 right there.
            b[i] = match kind {
                Kind::FlipToNul => 0,
                _ => 0x80 + rng.below(0x80) as u8,
            };
            (format!("flipped byte {i} to 0x{:02x}", b[i]), Some(i))
        }
        Kind::Several => {
            let mut done = Vec::new();
            for _ in 0..2 + rng.below(3) {
                let k = KINDS[rng.below(5)];
                if !matches!(k, Kind::Truncate) {
                    done.push(apply(k, rng, b).0);
                }
            }
            (done.join("; "), None)
        }
    }
}

fn make_variant(original: &[u8], kind: Kind, seed: u64) -> Variant {
    let mut rng = Rng(seed);
    let mut bytes = original.to_vec();
    let (what, flipped) = apply(kind, &mut rng, &mut bytes);
    let binary_line = flipped.map(|i| line_of(&bytes, i));
    Variant {
        bytes,
        what,
        binary_line,
    }
}

/// What the pipeline made of a variant, as far as the test checks it.
enum Outcome {
    /// The input check refused it (binary or empty).
    Refused(String),
    Scanned(Box<FileReport>),
}

fn run_pipeline(name: String, bytes: &[u8]) -> Outcome {
    match as_ir_text(bytes) {
        Err(e) => Outcome::Refused(e.0),
        Ok(text) => Outcome::Scanned(Box::new(scan_text(name, text, &RULES))),
    }
}

/// The line number in "... at line N ...".
fn line_in(message: &str) -> Option<usize> {
    let rest = &message[message.find("line ")? + 5..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// True when the text holds nothing but comments and blank lines, so no
/// line can be blamed.
fn nothing_to_read(text: &str) -> bool {
    text.lines().all(|l| {
        let l = l.trim();
        l.is_empty() || l.starts_with(';')
    })
}

/// Returns why a variant's outcome breaks the rules, if it does.
fn check(v: &Variant, outcome: &Outcome) -> Option<String> {
    let last_line = v.bytes.iter().filter(|&&c| c == b'\n').count() + 1;
    match outcome {
        Outcome::Refused(e) => {
            if v.bytes.is_empty() {
                return (!e.contains("empty")).then(|| format!("empty input: {e}"));
            }
            let Some(line) = line_in(e) else {
                return Some(format!("refused without a line: {e}"));
            };
            if !(1..=last_line).contains(&line) {
                return Some(format!("refused at line {line} of {last_line}: {e}"));
            }
            if let Some(want) = v.binary_line
                && line != want
            {
                return Some(format!("binary byte is on line {want}, reported: {e}"));
            }
            None
        }
        Outcome::Scanned(r) => {
            if v.binary_line.is_some() {
                return Some("a non-text byte was not reported as binary".into());
            }
            if let Some(d) = r
                .diagnostics
                .iter()
                .find(|d| d.line < 1 || d.line as usize > last_line)
            {
                return Some(format!("diagnostic outside lines 1..={last_line}: {d:?}"));
            }
            if r.status == Status::Error {
                let text = std::str::from_utf8(&v.bytes).unwrap_or("");
                let error = r.error.as_deref().unwrap_or("");
                if error.is_empty() {
                    return Some("status error without a message".into());
                }
                if r.diagnostics.is_empty() && line_in(error).is_none() && !nothing_to_read(text) {
                    return Some(format!("error without a line: {error}"));
                }
            }
            None
        }
    }
}

fn corpus_files() -> Vec<PathBuf> {
    let Some(dir) = common::shared("corpus", "the corpus part of the mutation test") else {
        return Vec::new();
    };
    let mut all = Vec::new();
    ll_files(&dir, &mut all);
    all.retain(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= MAX_FILE_BYTES));
    all.sort();
    let step = all.len().div_ceil(MAX_FILES).max(1);
    all.into_iter().step_by(step).collect()
}

fn ll_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            ll_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "ll") {
            out.push(p);
        }
    }
}

/// One job: a file and a variant number; the seed is derived from both.
struct Job {
    file: usize,
    variant: usize,
}

fn seed_of(job: &Job) -> u64 {
    SEED ^ ((job.file as u64) << 20) ^ job.variant as u64
}

/// What became of a variant that passed, for the summary.
fn class(outcome: &Outcome) -> usize {
    match outcome {
        Outcome::Refused(_) => 0,
        Outcome::Scanned(r) if r.status == Status::Error => 1,
        Outcome::Scanned(r) if r.diagnostics.is_empty() => 3,
        Outcome::Scanned(_) => 2,
    }
}

const CLASSES: [&str; 4] = [
    "refused as binary or empty",
    "not IR",
    "read with diagnostics",
    "read cleanly",
];

/// Runs one variant on its own thread: its class in `CLASSES`, or how it
/// failed.
fn run_one(path: &Path, original: &[u8], job: &Job) -> Result<usize, String> {
    let seed = seed_of(job);
    let kind = KINDS[job.variant % KINDS.len()];
    let v = make_variant(original, kind, seed);
    let name = path.display().to_string();
    let (tx, rx) = mpsc::channel();
    let bytes = v.bytes.clone();
    std::thread::Builder::new()
        .name(format!("variant {seed:#x}"))
        .spawn(move || {
            let r = std::panic::catch_unwind(|| run_pipeline(name, &bytes));
            let _ = tx.send(r);
        })
        .map_err(|e| format!("cannot spawn: {e}"))?;
    let why = match rx.recv_timeout(TIME_LIMIT) {
        Ok(Ok(outcome)) => match check(&v, &outcome) {
            None => return Ok(class(&outcome)),
            Some(why) => why,
        },
        Ok(Err(panic)) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            format!("panicked: {msg}")
        }
        Err(_) => format!("still running after {TIME_LIMIT:?}: a hang"),
    };
    let saved = std::env::temp_dir().join(format!("air-scan-mutation-{seed:x}.ll"));
    let _ = std::fs::write(&saved, &v.bytes);
    Err(format!(
        "{}: seed {seed:#x}, {kind:?} ({}): {why}\n    variant saved as {}",
        path.display(),
        v.what,
        saved.display()
    ))
}

#[test]
fn mutated_modules_never_panic_hang_or_lose_their_line() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("testdata/minimal_kernel.ll")];
    ll_files(&root.join("testdata/reader"), &mut files);
    ll_files(&root.join("tests/inputs/reader"), &mut files);
    ll_files(&root.join("testdata/rules"), &mut files);
    files.sort();
    files.extend(corpus_files());
    let contents: Vec<Vec<u8>> = files
        .iter()
        .map(|p| std::fs::read(p).unwrap_or_default())
        .collect();
    let jobs: Vec<Job> = (0..files.len())
        .flat_map(|file| (0..VARIANTS_PER_FILE).map(move |variant| Job { file, variant }))
        .collect();

    let started = Instant::now();
    let lanes = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    let (failures, counts) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..lanes)
            .map(|lane| {
                let (files, contents, jobs) = (&files, &contents, &jobs);
                s.spawn(move || {
                    let mut failures = Vec::new();
                    let mut counts = [0; CLASSES.len()];
                    for job in jobs.iter().skip(lane).step_by(lanes) {
                        match run_one(&files[job.file], &contents[job.file], job) {
                            Ok(c) => counts[c] += 1,
                            Err(e) => {
                                let hang = e.contains("a hang");
                                failures.push(e);
                                // A hung thread cannot be stopped: report now.
                                if hang {
                                    break;
                                }
                            }
                        }
                    }
                    (failures, counts)
                })
            })
            .collect();
        let mut failures = Vec::new();
        let mut counts = [0; CLASSES.len()];
        for h in handles {
            let (f, c) = h.join().unwrap_or_default();
            failures.extend(f);
            for (total, n) in counts.iter_mut().zip(c) {
                *total += n;
            }
        }
        (failures, counts)
    });
    let summary: Vec<String> = CLASSES
        .iter()
        .zip(counts)
        .map(|(c, n)| format!("{n} {c}"))
        .collect();
    eprintln!(
        "mutation test: {} variants of {} files in {:.1?} ({lanes} threads): {}",
        jobs.len(),
        files.len(),
        started.elapsed(),
        summary.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} of {} variants failed:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
}

/// Inputs that once crashed, hung or ate memory (testdata/regressions/,
/// from fuzzing and from the limits work) go through the same pipeline
/// and checks, under the same time limit.
#[test]
fn regression_fixtures_pass_the_same_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/regressions");
    let mut files = Vec::new();
    ll_files(&dir, &mut files);
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let v = Variant {
            bytes: bytes.clone(),
            what: "as committed".into(),
            binary_line: None,
        };
        let name = path.display().to_string();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(std::panic::catch_unwind(|| run_pipeline(name, &bytes)));
        });
        match rx.recv_timeout(TIME_LIMIT) {
            Ok(Ok(outcome)) => {
                if let Some(why) = check(&v, &outcome) {
                    panic!("{}: {why}", path.display());
                }
            }
            Ok(_) => panic!("{}: panicked", path.display()),
            Err(_) => panic!("{}: still running after {TIME_LIMIT:?}", path.display()),
        }
    }
}

/// The generator itself: deterministic, and each kind does what it says.
#[test]
fn variants_are_deterministic_and_do_what_they_say() {
    let text = b"a\nb\nc\nd\n";
    for (i, kind) in KINDS.iter().enumerate() {
        let a = make_variant(text, *kind, 7 + i as u64);
        let b = make_variant(text, *kind, 7 + i as u64);
        assert_eq!(a.bytes, b.bytes, "{kind:?}");
        assert_eq!(a.what, b.what);
    }
    let v = make_variant(text, Kind::FlipToInvalidUtf8, 3);
    assert!(std::str::from_utf8(&v.bytes).is_err());
    let line = v.binary_line.unwrap();
    let err = as_ir_text(&v.bytes).unwrap_err();
    assert_eq!(line_in(&err.0), Some(line), "{err}");
    let v = make_variant(text, Kind::FlipToNul, 3);
    assert!(as_ir_text(&v.bytes).unwrap_err().0.contains("NUL"));
    let v = make_variant(text, Kind::DeleteLines, 1);
    assert!(v.bytes.len() < text.len());
}
