//! `.metal` inputs and tree walking (issue 6), through the binary as a user
//! runs it, with a stand-in compiler driver written at test time.
//!
//! The stand-in answers like `xcrun`: `metal --version` prints a version
//! (from the file `version` beside it when present), a compile copies
//! `testdata/metal/<stem>.<level>.ll` to the `-o` path, and a source with an
//! `#error` line fails as the compiler would. It logs every call, so the
//! tests can count compiles and read their flags. The real compiler is only
//! exercised on a Mac.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/metal")
}

/// A temporary project: `src/` (what is scanned), the stand-in `xcrun`, its
/// `log`, and `cache/`.
struct Project {
    dir: tempfile::TempDir,
}

impl Project {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("src")).unwrap();
        let script = format!(
            r#"#!/bin/sh
# Stand-in for xcrun, written by tests/metal_inputs.rs.
here='{here}'
fixtures='{fixtures}'
[ "$1" = metal ] || {{ echo "stand-in: unknown tool $1" >&2; exit 72; }}
shift
if [ "$1" = --version ]; then
    echo version >> "$here/log"
    if [ -f "$here/version" ]; then cat "$here/version"; else echo "Apple metal version 32023.620 (stand-in)"; fi
    exit 0
fi
echo "compile $*" >> "$here/log"
level=; out=; src=
while [ $# -gt 0 ]; do
    case "$1" in
        -O*) level=${{1#-}} ;;
        -o) shift; out=$1 ;;
        *.metal) src=$1 ;;
    esac
    shift
done
[ -f "$here/delay" ] && sleep "$(cat "$here/delay")"
echo "done" >> "$here/log"
if grep -q '^#error' "$src"; then
    echo "$src:1:2: error: $(sed -n 's/^#error //p' "$src" | head -n 1)" >&2
    echo "1 error generated." >&2
    exit 1
fi
stem=$(basename "$src" .metal)
cp "$fixtures/$stem.$level.ll" "$out"
"#,
            here = root.display(),
            fixtures = fixtures().display()
        );
        let xcrun = root.join("xcrun");
        std::fs::write(&xcrun, script).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&xcrun, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Project { dir }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn src(&self) -> PathBuf {
        self.root().join("src")
    }

    /// Writes `text` to `src/<rel>`, making folders.
    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.src().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Copies a fixture's source into `src/<rel>`.
    fn add(&self, fixture: &str, rel: &str) -> PathBuf {
        let text = std::fs::read_to_string(fixtures().join(fixture)).unwrap();
        self.write(rel, &text)
    }

    /// air-scan, run from `src/`, with the stand-in and the project's cache.
    fn air_scan(&self) -> Command {
        let mut c = Command::cargo_bin("air-scan").unwrap();
        c.current_dir(self.src())
            .arg("--xcrun")
            .arg(self.root().join("xcrun"))
            .arg("--cache-dir")
            .arg(self.root().join("cache"));
        c
    }

    /// The compile lines of the stand-in's log, in order.
    fn compiles(&self) -> Vec<String> {
        std::fs::read_to_string(self.root().join("log"))
            .unwrap_or_default()
            .lines()
            .filter(|l| l.starts_with("compile "))
            .map(str::to_string)
            .collect()
    }

    /// A JSON scan of `args`; returns the report and the exit code.
    fn json(&self, args: &[&str]) -> (Value, i32) {
        let out = self
            .air_scan()
            .args(["--format", "json"])
            .args(args)
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (v, out.status.code().unwrap_or(-1))
    }
}

fn file<'v>(report: &'v Value, suffix: &str) -> &'v Value {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(suffix))
        .unwrap_or_else(|| panic!("no file ending {suffix} in {report:#}"))
}

/// (rule, source line:column, levels) of each finding, in order.
fn findings(report: &Value) -> Vec<(String, String, Vec<String>)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let at = match &f["source"] {
                Value::Null => format!("ir:{}", f["ir"]["line"]),
                s => format!("{}:{}", s["line"], s["column"]),
            };
            let levels = f["levels"]
                .as_array()
                .map(|l| l.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            (f["rule"].as_str().unwrap().to_string(), at, levels)
        })
        .collect()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ------------------------------------------------------------- compiling

#[test]
fn compiles_at_o0_and_o2_with_debug_flags_and_merges_findings() {
    let p = Project::new();
    p.add("tile.metal", "tile.metal");
    let (v, code) = p.json(&["tile.metal"]);
    assert_eq!(code, 0, "{v:#}");
    let f = file(&v, "tile.metal");
    assert_eq!(f["status"], "ok");
    assert_eq!(f["kernels"][0]["name"], "tile");
    let levels: Vec<&str> = f["compiled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["O0", "O2"]);
    // The udiv is at both levels and reported once; the urem, only at -O0,
    // is on the same operands: one finding with it, which names it.
    assert_eq!(
        findings(&v),
        [(
            "divide-by-uniform".into(),
            "10:20".into(),
            strings(&["O0", "O2"])
        )]
    );
    let first = &v["findings"][0];
    assert_eq!(
        first["evidence"]["paired_with"]["opcode"], "urem",
        "{first:#}"
    );
    assert_eq!(first["path"], "tile.metal");
    // The finding maps to the source beside which it was compiled, and its
    // IR is the cached file, which exists.
    // (Paths relative to the report's root.)
    let src = first["source"]["path"].as_str().unwrap();
    let root = Path::new(v["scan"]["root"].as_str().unwrap());
    assert_eq!(
        root.join(src).canonicalize().unwrap(),
        p.src().join("tile.metal").canonicalize().unwrap(),
        "{src}"
    );
    let ir = first["ir"]["path"].as_str().unwrap();
    assert!(
        ir.ends_with("-tile.O0.ll") && Path::new(ir).is_file(),
        "{ir}"
    );

    let compiles = p.compiles();
    assert_eq!(compiles.len(), 2, "{compiles:?}");
    for (line, level) in compiles.iter().zip(["-O0", "-O2"]) {
        let _ = level;
        assert!(
            line.starts_with("compile -S -emit-llvm -gline-tables-only -frecord-sources -O"),
            "{line}"
        );
        assert!(line.contains("/src/tile.metal -o "), "{line}");
    }
    assert!(compiles.iter().any(|l| l.contains(" -O0 ")));
    assert!(compiles.iter().any(|l| l.contains(" -O2 ")));
}

#[test]
fn text_report_names_the_metal_file() {
    let p = Project::new();
    p.add("tile.metal", "tile.metal");
    let out = p.air_scan().args([".", "--inventory"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("tile.metal: 1 kernel"), "{text}");
    assert!(text.contains("warning[AIR001]"), "{text}");
    assert!(text.contains("src/tile.metal:10:20\n"), "{text}");
    assert!(text.ends_with("1 file read: 1 ok, 0 failed; 1 kernel; 1 finding from 1 cause; 0 reader errors, 0 reader warnings\n"), "{text}");
}

#[test]
fn a_helper_inlined_at_o2_is_the_same_finding() {
    let p = Project::new();
    p.add("inlined.metal", "inlined.metal");
    let (v, _) = p.json(&["inlined.metal"]);
    assert_eq!(
        findings(&v),
        [(
            "divide-by-uniform".into(),
            "7:14".into(),
            strings(&["O0", "O2"])
        )]
    );
    // The -O0 finding is kept: the helper, reached from the kernel.
    assert_eq!(v["findings"][0]["function"], "tile_of");
}

#[test]
fn without_debug_info_findings_merge_by_fingerprint() {
    let p = Project::new();
    p.write("plain.metal", "kernel void minimal() {}\n");
    let (v, _) = p.json(&["plain.metal"]);
    assert_eq!(
        findings(&v),
        [(
            "divide-by-uniform".into(),
            "ir:13".into(),
            strings(&["O0", "O2"])
        )]
    );
}

#[test]
fn levels_choose_what_is_compiled() {
    let p = Project::new();
    p.add("tile.metal", "tile.metal");
    let (v, _) = p.json(&["--levels", "O2", "tile.metal"]);
    assert_eq!(
        findings(&v),
        [("divide-by-uniform".into(), "10:20".into(), strings(&["O2"]))]
    );
    let compiles = p.compiles();
    assert_eq!(compiles.len(), 1);
    assert!(compiles[0].contains(" -O2 "), "{compiles:?}");

    let bad = p
        .air_scan()
        .args(["--levels", "O9", "tile.metal"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--levels: unknown optimization level 'O9'")
    );
}

#[test]
fn flags_come_from_air_scan_toml_above_and_the_command_line() {
    let p = Project::new();
    std::fs::write(
        p.src().join("air-scan.toml"),
        "[metal]\nflags = [\"-std=metal3.1\", \"-I\", \"include\", \"-ffast-math\"]\nlevels = [\"O2\"]\n",
    )
    .unwrap();
    p.add("tile.metal", "kernels/deep/tile.metal");
    // Scanned from below the file: the config is found by walking up.
    let out = p
        .air_scan()
        .current_dir(p.src().join("kernels"))
        .args(["--metal-flag=-DTILE=4", "--metal-flag", "-Iextra", "."])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let compiles = p.compiles();
    assert_eq!(compiles.len(), 1, "levels from the config: {compiles:?}");
    let src = std::fs::canonicalize(p.src()).unwrap();
    let expected = format!(
        "-O2 -std=metal3.1 -I {}/include -ffast-math -DTILE=4 -I{}/kernels/extra ",
        src.display(),
        src.display()
    );
    assert!(
        compiles[0].contains(&expected),
        "{}\n{expected}",
        compiles[0]
    );

    // --levels wins over the config.
    let (v, _) = p.json(&["--levels", "O0,O2", "kernels"]);
    assert_eq!(
        file(&v, "tile.metal")["compiled"].as_array().unwrap().len(),
        2
    );

    // Flags air-scan sets itself are refused, from either place.
    let bad = p
        .air_scan()
        .args(["--metal-flag=-O3", "kernels"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("set by air-scan itself"));
    std::fs::write(
        p.src().join("air-scan.toml"),
        "[metal]\nflags = [\"-o\", \"x\"]\n",
    )
    .unwrap();
    let (v, code) = p.json(&["kernels"]);
    assert_eq!(code, 2);
    let f = file(&v, "tile.metal");
    assert_eq!(f["status"], "error");
    assert!(
        f["error"]
            .as_str()
            .unwrap()
            .contains("air-scan.toml: [metal] flags"),
        "{f:#}"
    );
}

// ------------------------------------------------------------------ cache

#[test]
fn a_second_scan_of_an_unchanged_tree_compiles_nothing() {
    let p = Project::new();
    p.add("tile.metal", "a/tile.metal");
    p.add("inlined.metal", "b/inlined.metal");
    p.write("c/broken.metal", "#error not today\n");
    let (first, code) = p.json(&["."]);
    assert_eq!(code, 2, "the broken file fails");
    assert_eq!(p.compiles().len(), 6);
    let (second, code) = p.json(&["."]);
    assert_eq!(code, 2);
    assert_eq!(
        p.compiles().len(),
        6,
        "nothing compiled: {:?}",
        p.compiles()
    );
    assert_eq!(first, second, "the same report from the cache");
    // --no-cache compiles everything again.
    p.json(&["--no-cache", "."]);
    assert_eq!(p.compiles().len(), 12);
}

/// Sets `path`'s modification time `age` before `now`.
fn age_file(path: &Path, now: std::time::SystemTime, age: std::time::Duration) {
    std::fs::File::options()
        .append(true)
        .open(path)
        .unwrap()
        .set_modified(now - age)
        .unwrap();
}

#[test]
fn the_cache_forgets_entries_unused_for_a_month_and_renews_those_it_uses() {
    let p = Project::new();
    p.add("tile.metal", "a/tile.metal");
    let cache = p.root().join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    let now = std::time::SystemTime::now();
    let day = std::time::Duration::from_secs(24 * 60 * 60);
    let put = |name: String, age| {
        let f = cache.join(name);
        std::fs::write(&f, "x").unwrap();
        age_file(&f, now, age);
        f
    };
    let stale = put(format!("{}-old.O2.ll", "0".repeat(32)), day * 31);
    let stale_error = put(format!("{}-old.O0.err", "a".repeat(32)), day * 40);
    let recent = put(format!("{}-recent.O2.ll", "1".repeat(32)), day * 29);
    let not_ours = put("notes.txt".into(), day * 400);
    let left_over = put(".tile.O2.123.4.tmp".into(), day * 2);
    let in_use = put(
        ".tile.O2.123.5.tmp".into(),
        std::time::Duration::from_secs(60),
    );
    let (_, code) = p.json(&["."]);
    assert_eq!(code, 0);
    assert_eq!(p.compiles().len(), 2);
    for gone in [&stale, &stale_error, &left_over] {
        assert!(!gone.exists(), "{} should be pruned", gone.display());
    }
    for kept in [&recent, &not_ours, &in_use] {
        assert!(kept.exists(), "{} should stay", kept.display());
    }
    // The scan's own two entries; used again after 20 days, they are renewed.
    let own: Vec<PathBuf> = std::fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.to_string_lossy().contains("-tile.") && p.extension().is_some_and(|x| x == "ll")
        })
        .collect();
    assert_eq!(own.len(), 2, "{own:?}");
    for f in &own {
        age_file(f, now, day * 20);
    }
    p.json(&["."]);
    assert_eq!(p.compiles().len(), 2, "both taken from the cache");
    for f in &own {
        let age = now
            .duration_since(std::fs::metadata(f).unwrap().modified().unwrap())
            .unwrap_or_default();
        assert!(age < day, "{} not renewed: {age:?}", f.display());
    }
}

#[test]
fn the_cache_key_covers_source_includes_flags_and_compiler_version() {
    let p = Project::new();
    let text = std::fs::read_to_string(fixtures().join("tile.metal")).unwrap();
    p.write(
        "tile.metal",
        &format!("#include \"common.h\"\n#include <shared.h>\n{text}"),
    );
    p.write("common.h", "#include \"nested/deeper.h\"\n");
    p.write("nested/deeper.h", "#define A 1\n");
    p.write("inc/shared.h", "#define B 1\n");
    let scan = |extra: &[&str]| {
        let mut args = vec!["--levels", "O2", "--metal-flag=-Iinc"];
        args.extend_from_slice(extra);
        args.push("tile.metal");
        let (_, code) = p.json(&args);
        assert_eq!(code, 0);
        p.compiles().len()
    };
    assert_eq!(scan(&[]), 1);
    assert_eq!(scan(&[]), 1, "unchanged");
    p.write("nested/deeper.h", "#define A 2\n");
    assert_eq!(scan(&[]), 2, "a nested quoted include changed");
    p.write("inc/shared.h", "#define B 2\n");
    assert_eq!(scan(&[]), 3, "an include found through -I changed");
    assert_eq!(scan(&["--metal-flag=-DX"]), 4, "a flag changed");
    std::fs::write(p.root().join("version"), "Apple metal version 99999.1\n").unwrap();
    assert_eq!(scan(&[]), 5, "the compiler changed");
    p.write(
        "tile.metal",
        &format!("#include \"common.h\"\n#include <shared.h>\n{text}\n"),
    );
    assert_eq!(scan(&[]), 6, "the source changed");
    assert_eq!(scan(&[]), 6);
}

/// The one test of the real compiler: runs where `xcrun metal` works (a
/// Mac with the Metal toolchain), and says it skipped elsewhere.
#[test]
fn the_real_xcrun_compiles_a_fixture_on_a_mac() {
    let works = std::process::Command::new("xcrun")
        .args(["metal", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        eprintln!("SKIPPED: no working `xcrun metal` here (only a Mac has one)");
        return;
    }
    let p = Project::new();
    p.add("tile.metal", "tile.metal");
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(p.src())
        .arg("--cache-dir")
        .arg(p.root().join("cache"))
        .args(["--format", "json", "tile.metal"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = file(&v, "tile.metal");
    assert_eq!(f["status"], "ok", "{f:#}");
    assert_eq!(f["kernels"][0]["name"], "tile");
    assert!(
        findings(&v)
            .iter()
            .any(|(rule, at, levels)| rule == "divide-by-uniform"
                && at == "10:20"
                && levels.iter().any(|l| l == "O2")),
        "{v:#}"
    );
}

// --------------------------------------------------------------- failures

#[test]
fn a_compile_error_shows_the_compiler_message_and_the_scan_goes_on() {
    let p = Project::new();
    p.write("bad.metal", "#error tile size must be a power of two\n");
    p.add("tile.metal", "tile.metal");
    let (v, code) = p.json(&["."]);
    assert_eq!(code, 2);
    let bad = file(&v, "bad.metal");
    assert_eq!(bad["status"], "error");
    let msg = bad["error"].as_str().unwrap();
    assert!(msg.starts_with("compile failed at -O0 and -O2:\n"), "{msg}");
    assert!(
        msg.contains("bad.metal:1:2: error: tile size must be a power of two"),
        "{msg}"
    );
    assert_eq!(
        msg.matches("error: tile size").count(),
        1,
        "said once: {msg}"
    );
    assert_eq!(file(&v, "tile.metal")["status"], "ok");
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);

    let text = p.air_scan().arg(".").output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("bad.metal: error: compile failed at -O0 and -O2:"),
        "{text}"
    );
}

#[test]
fn without_xcrun_metal_files_are_skipped_with_one_line() {
    let p = Project::new();
    p.add("tile.metal", "a.metal");
    p.add("tile.metal", "b.metal");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/minimal_kernel.ll"),
        p.src().join("minimal.ll"),
    )
    .unwrap();
    let empty = p.root().join("empty-path");
    std::fs::create_dir(&empty).unwrap();
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(p.src())
        .env("PATH", &empty)
        .arg(".")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "skipping is not an error");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("air-scan: skipped 2 .metal files (no `xcrun` on PATH)"),
        "{stderr}"
    );
    assert!(stderr.contains("xcrun metal -S -emit-llvm"), "{stderr}");
    assert!(stderr.contains("scan the .ll or .air"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(".metal"), "{stdout}");
    assert!(stdout.contains("1 file read: 1 ok"), "{stdout}");
}

/// A broken `--xcrun` is one usage error before the scan, not one per file.
#[test]
fn a_broken_xcrun_flag_is_one_error_before_the_scan() {
    let p = Project::new();
    p.add("tile.metal", "tile.metal");
    p.add("tile.metal", "other.metal");
    let out = Command::cargo_bin("air-scan")
        .unwrap()
        .current_dir(p.src())
        .args(["--xcrun", "/nonexistent/xcrun", "--format", "json", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "air-scan: --xcrun /nonexistent/xcrun: no such file\n"
    );
}

// ------------------------------------------------------------ parallelism

/// The most compiles the log shows running at once.
fn most_at_once(p: &Project) -> usize {
    let log = std::fs::read_to_string(p.root().join("log")).unwrap();
    let (mut now, mut most) = (0usize, 0usize);
    for line in log.lines() {
        if line.starts_with("compile ") {
            now += 1;
            most = most.max(now);
        } else if line == "done" {
            now = now.saturating_sub(1);
        }
    }
    most
}

#[test]
fn compiles_run_in_parallel_bounded_by_jobs() {
    let p = Project::new();
    for i in 0..4 {
        p.add("tile.metal", &format!("k{i}/tile.metal"));
    }
    std::fs::write(p.root().join("delay"), "0.2").unwrap();
    p.json(&["--jobs", "1", "--no-cache", "."]);
    assert_eq!(p.compiles().len(), 8);
    assert_eq!(most_at_once(&p), 1);
    std::fs::remove_file(p.root().join("log")).unwrap();
    p.json(&["--jobs", "4", "--no-cache", "."]);
    let most = most_at_once(&p);
    assert!((2..=4).contains(&most), "{most} at once");
}

// ------------------------------------------------------------------ trees

fn copy_minimal(to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/minimal_kernel.ll"),
        to,
    )
    .unwrap();
}

fn paths(v: &Value) -> Vec<String> {
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn exclude_leaves_out_what_its_globs_match() {
    let p = Project::new();
    for f in [
        "a/x.ll",
        "a/x.O0.ll",
        "vendor/y.ll",
        "b/vendor/z.ll",
        "b/w.ll",
    ] {
        copy_minimal(&p.src().join(f));
    }
    let (v, _) = p.json(&["--exclude", "vendor/", "--exclude", "*.O0.ll", "."]);
    assert_eq!(paths(&v), ["a/x.ll", "b/w.ll"]);
    let (v, _) = p.json(&["--exclude", "/vendor", "."]);
    assert_eq!(paths(&v).len(), 4, "anchored: only the top vendor/");
    // A file named directly is read whatever the globs say.
    let (v, _) = p.json(&["--exclude", "*.ll", "a/x.ll"]);
    assert_eq!(paths(&v), ["a/x.ll"]);

    let bad = p
        .air_scan()
        .args(["--exclude", "a/[", "."])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--exclude 'a/['"));
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_reported_and_the_scan_goes_on() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    copy_minimal(&p.src().join("tree/ok.ll"));
    symlink(p.src().join("tree"), p.src().join("tree/sub_loop")).unwrap();
    symlink("self.ll", p.src().join("tree/self.ll")).unwrap();
    // A dangling link to something no scan reads is not worth a word.
    symlink("gone", p.src().join("tree/notes.txt")).unwrap();
    let (v, code) = p.json(&["tree"]);
    assert_eq!(code, 2);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "{v:#}");
    assert_eq!(file(&v, "ok.ll")["status"], "ok");
    let looped = file(&v, "sub_loop");
    assert_eq!(looped["status"], "error");
    assert!(
        looped["error"]
            .as_str()
            .unwrap()
            .starts_with("symbolic link loop: "),
        "{looped:#}"
    );
    let selfish = file(&v, "self.ll");
    assert_eq!(selfish["status"], "error");
    assert!(
        selfish["error"]
            .as_str()
            .unwrap()
            .contains("symbolic links"),
        "{selfish:#}"
    );
}

#[cfg(unix)]
#[test]
fn unreadable_files_are_reported_and_the_scan_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    copy_minimal(&p.src().join("ok.ll"));
    let locked = p.src().join("locked.ll");
    copy_minimal(&locked);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&locked).is_ok() {
        eprintln!("SKIPPED: running as root, where mode 000 does not stop reads");
        return;
    }
    let (v, code) = p.json(&["."]);
    assert_eq!(code, 2);
    assert_eq!(file(&v, "ok.ll")["status"], "ok");
    let f = file(&v, "locked.ll");
    assert_eq!(f["status"], "error");
    assert!(
        f["error"].as_str().unwrap().contains("ermission denied"),
        "{f:#}"
    );
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let p = Project::new();
    for i in 0..20 {
        copy_minimal(&p.src().join(format!("k{i:02}.ll")));
    }
    p.add("tile.metal", "tile.metal");
    let out = p.air_scan().arg(".").output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `program args` with stderr on a terminal, through util-linux's
/// `script` (Debian's bsdutils, always installed there); `None` where there
/// is no `script` or it cannot open a terminal. Returns what the terminal
/// showed.
fn on_a_terminal(program: &Path, args: &[&str], dir: &Path) -> Option<String> {
    let mut line = format!("'{}'", program.display());
    for a in args {
        line.push_str(&format!(" '{a}'"));
    }
    // Only stderr goes to the terminal: the report itself is not wanted.
    line.push_str(" >/dev/null");
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .current_dir(dir)
        .output()
        .ok()?;
    // `-e` passes air-scan's exit code on (0 here); anything else is
    // `script` failing, e.g. to open a pseudo-terminal.
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_progress_bar_on_a_terminal_once_the_walk_finds_enough_files() {
    let p = Project::new();
    for i in 0..20 {
        copy_minimal(&p.src().join(format!("k{i:02}.ll")));
    }
    let bin = assert_cmd::cargo::cargo_bin("air-scan");
    let Some(shown) = on_a_terminal(&bin, &["--jobs", "1", "."], &p.src()) else {
        eprintln!("skipped: no `script` command, or no terminal for it to open");
        return;
    };
    // `{pos}/{len} files`, in whatever state it was last drawn.
    let drawn = shown.match_indices(" files").any(|(at, _)| {
        let before = shown[..at].rsplit(' ').next().unwrap_or("");
        let (pos, len) = before.split_once('/').unwrap_or(("", ""));
        pos.parse::<u32>().is_ok() && len.parse::<u32>().is_ok_and(|n| n >= 16)
    });
    assert!(drawn, "{shown:?}");
    // Fewer than 16 files and nothing to compile: no bar.
    let few = Project::new();
    for i in 0..3 {
        copy_minimal(&few.src().join(format!("k{i}.ll")));
    }
    let shown = on_a_terminal(&bin, &["--jobs", "1", "."], &few.src()).unwrap_or_default();
    assert!(!shown.contains("files"), "{shown:?}");
}
