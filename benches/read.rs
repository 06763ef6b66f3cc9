//! Reader-only throughput: `cargo bench --bench read [-- PATHS...]`.
//! Reads every `.ll` under the paths (default ../shared/corpus) into memory
//! first, then times `read_module` plus every body, single-threaded, best of
//! five runs. The end-to-end comparison with llvm-as is benches/read_bench.sh.

use std::path::{Path, PathBuf};
use std::time::Instant;

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(p)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if p.extension().is_some_and(|x| x == "ll") {
        out.push(p.to_path_buf());
    }
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let roots: Vec<PathBuf> = if args.is_empty() {
        vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus")]
    } else {
        args.iter().map(PathBuf::from).collect()
    };
    let mut files = Vec::new();
    for r in &roots {
        collect(r, &mut files);
    }
    let texts: Vec<String> = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    if bytes == 0 {
        eprintln!("no .ll input under {roots:?}");
        return;
    }
    let mut best = f64::MAX;
    let mut instructions = 0;
    for _ in 0..runs() {
        let t = Instant::now();
        instructions = 0;
        for text in &texts {
            let mut m = air_scan::ir::read_module(text);
            let mut body = air_scan::ir::Body::default();
            for i in 0..m.functions.len() {
                m.body_into(i, &mut body);
                instructions += body.instructions.len();
            }
            std::hint::black_box(&m);
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    let mb = bytes as f64 / 1e6;
    // Peak memory so far: the texts themselves plus one module's model.
    if let Some(hwm) = peak_rss_kb() {
        println!(
            "peak RSS after reading: {:.0} MB = {:.2}x the input",
            hwm as f64 / 1e3,
            hwm as f64 * 1e3 / bytes as f64
        );
    }
    println!(
        "read {} files, {mb:.1} MB, {instructions} instructions: best {best:.3} s = {:.0} MB/s (reader only, 1 thread)",
        texts.len(),
        mb / best
    );
    // `READER_ONLY=1` stops here, for profiling the reader alone.
    if std::env::var_os("READER_ONLY").is_some() {
        return;
    }
    // The same texts through the whole per-file pipeline: reader, AIR
    // metadata, control flow, provenance and every rule.
    let rules = air_scan::rules::RuleSet::builtin();
    let mut best_scan = f64::MAX;
    let mut findings = 0;
    for _ in 0..runs() {
        let t = Instant::now();
        findings = 0;
        for text in &texts {
            findings += air_scan::scan::scan_text(String::new(), text, &rules)
                .findings
                .len();
        }
        best_scan = best_scan.min(t.elapsed().as_secs_f64());
    }
    println!(
        "scan with all {} rules: {findings} findings: best {best_scan:.3} s = {:.0} MB/s, {:.2}x the reader-only time",
        rules.rules.len(),
        mb / best_scan,
        best_scan / best
    );
}

/// VmHWM from /proc/self/status (Linux), in kB.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Timed runs per measurement: 5, or `RUNS` (1 under callgrind, which counts
/// instructions and needs no repeats).
fn runs() -> usize {
    std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
}
